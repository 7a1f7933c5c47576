/*
 * Compiler helpers shared by kernel and host builds: attributes, barriers
 * against compiler reordering, READ_ONCE/WRITE_ONCE, container_of.
 */
#ifndef _KERNEL_COMPILER_H
#define _KERNEL_COMPILER_H

#include <kernel/types.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __section(s)	__attribute__((section(s)))
#define __aligned(n)	__attribute__((aligned(n)))
#define __packed	__attribute__((packed))
#define __used		__attribute__((used))
#define __unused	__attribute__((unused))
#define __noreturn	__attribute__((noreturn))
#define __noinline	__attribute__((noinline))
#undef __always_inline	/* glibc defines it too (host builds) */
#define __always_inline	inline __attribute__((always_inline))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __maybe_unused	__attribute__((unused))
#define __cold		__attribute__((cold))

/*
 * Annotations for sparse (`make C=1` / `make C=2`, Documentation/RCU/sparse.md),
 * empty for the compiler. sparse defines __CHECKER__ itself.
 *  __rcu      an RCU-protected pointer: its own address space, and noderef, so a
 *             plain load, store or `p->field` on it is reported; the rcu_*()
 *             accessors of <rcu/rcupdate.h> are the way in and out. Only with
 *             CONFIG_SPARSE_RCU_POINTER (default y; see Documentation/kconfig.md).
 *  __user     a user-space pointer (none yet: the kernel has no user space).
 *  __iomem    a pointer to memory-mapped device registers (the local APIC).
 *  __kernel   the ordinary address space, to say so in a cast.
 *  __force    a cast that may change address space; only inside accessors.
 *  __acquires/__releases/__must_hold(lock)   a function's lock context: takes,
 *             drops or needs the lock; sparse checks the balance of each function.
 *             The spinlock API does not carry them yet: that draws 45 reports, from
 *             lock helpers needing annotations and from conditional locking sparse
 *             cannot follow (Documentation/RCU/sparse.md).
 *  __acquire/__release(lock)   tell sparse a lock was taken or dropped where it
 *             cannot see it (trylock, a lock released by another function).
 */
#ifdef __CHECKER__
#ifdef CONFIG_SPARSE_RCU_POINTER
#define __rcu		__attribute__((noderef, address_space(__rcu)))
#else
#define __rcu
#endif
#define __user		__attribute__((noderef, address_space(__user)))
#define __iomem		__attribute__((noderef, address_space(__iomem)))
#define __kernel	__attribute__((address_space(0)))
#define __force		__attribute__((force))
#define __acquires(x)	__attribute__((context(x, 0, 1)))
#define __releases(x)	__attribute__((context(x, 1, 0)))
#define __must_hold(x)	__attribute__((context(x, 1, 1)))
#define __acquire(x)	__context__(x, 1)
#define __release(x)	__context__(x, -1)
#else
#define __rcu
#define __user
#define __iomem
#define __kernel
#define __force
#define __acquires(x)
#define __releases(x)
#define __must_hold(x)
#define __acquire(x)	((void)0)
#define __release(x)	((void)0)
#endif

/* Compiler-only barrier: stops the compiler from caching or reordering memory accesses. */
#define barrier()	__asm__ __volatile__("" ::: "memory")

/*
 * READ_ONCE/WRITE_ONCE: one untorn access the compiler may neither fuse,
 * repeat nor elide. They order nothing against other CPUs by themselves.
 */
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

#ifndef LONG_MAX
#define LONG_MAX	((long)(~0UL >> 1))
#endif
#ifndef ULONG_MAX
#define ULONG_MAX	(~0UL)
#endif
#ifndef INT_MAX
#define INT_MAX		((int)(~0U >> 1))
#endif
#ifndef INT_MIN
#define INT_MIN		(-INT_MAX - 1)
#endif
#ifndef UINT_MAX
#define UINT_MAX	(~0U)
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON: " #cond)

#ifndef offsetof
#define offsetof(t, m)	__builtin_offsetof(t, m)
#endif
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

#define min(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)

/*
 * IS_ENABLED(CONFIG_FOO): 1 when autoconf.h defines CONFIG_FOO to 1, else 0,
 * usable in ordinary C so both branches are compiled in every config.
 */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)		__is_defined(option)

#endif
