/*
 * KASAN's shadow and the compiler's entry points. Every load and store of
 * instrumented code is a call here (outline mode, see lib/Kconfig.kasan):
 * __asan_load<N>() / __asan_store<N>() (and their _noabort twins, which
 * GCC's kernel-address mode emits) check the shadow of the bytes touched
 * and report the first bad one. Addresses without shadow (MMIO above RAM,
 * user memory, everything before kasan_init()) are not checked, which is
 * also what makes the accesses of early boot safe. memcpy(), memset() and
 * memmove() are defined here: they check both ranges, then call lib/'s
 * __memcpy() and friends. This file is itself uninstrumented (Kbuild).
 */
#include <kernel/string.h>
#include <kernel/compiler.h>
#include <sched/task.h>
#include "kasan.h"

unsigned long kasan_dm_end;
unsigned long kasan_kstack_end;

void kasan_poison(const void *addr, size_t size, u8 value)
{
	unsigned long a = (unsigned long)addr;

	if (!size || !kasan_has_shadow(a))
		return;
	__memset(kasan_mem_to_shadow(a), value, ALIGN(size, KASAN_GRANULE_SIZE) >> KASAN_GRANULE_SHIFT);
}

void kasan_unpoison(const void *addr, size_t size)
{
	unsigned long a = (unsigned long)addr;

	if (!kasan_has_shadow(a))
		return;
	__memset(kasan_mem_to_shadow(a), 0, size >> KASAN_GRANULE_SHIFT);
	if (size & KASAN_GRANULE_MASK)
		*kasan_mem_to_shadow(a + size) = size & KASAN_GRANULE_MASK;
}

/* The first bad byte of [addr, addr + size), or 0 when all are accessible. */
static __always_inline unsigned long first_bad_byte(unsigned long addr, size_t size)
{
	unsigned long end = addr + size;

	while (addr < end) {
		s8 s = *kasan_mem_to_shadow(addr);
		unsigned long next = (addr | KASAN_GRANULE_MASK) + 1;

		if (unlikely(s)) {
			unsigned long last = (end < next ? end : next) - 1;

			if (s < 0)
				return addr;
			if ((last & KASAN_GRANULE_MASK) >= (unsigned long)s) {
				unsigned long bad = (addr & ~KASAN_GRANULE_MASK) + s;

				return bad > addr ? bad : addr;
			}
		}
		addr = next;
	}
	return 0;
}

static __always_inline void check_region(unsigned long addr, size_t size, bool write,
					 unsigned long ip)
{
	if (unlikely(!size))
		return;
	if (!kasan_has_shadow(addr))
		return;
	/* A range running past the shadowed area is checked as far as the shadow goes. */
	if (unlikely(!kasan_has_shadow(addr + size - 1)))
		return;
	if (unlikely(first_bad_byte(addr, size)))
		kasan_report(addr, size, write, ip);
}

#define _RET_IP_	((unsigned long)__builtin_return_address(0))

#define DEFINE_ASAN_LOAD_STORE(size)						\
	void __asan_load##size(unsigned long addr);				\
	void __asan_load##size(unsigned long addr)				\
	{									\
		check_region(addr, size, false, _RET_IP_);			\
	}									\
	void __asan_load##size##_noabort(unsigned long addr)			\
		__attribute__((alias("__asan_load" #size)));			\
	void __asan_store##size(unsigned long addr);				\
	void __asan_store##size(unsigned long addr)				\
	{									\
		check_region(addr, size, true, _RET_IP_);			\
	}									\
	void __asan_store##size##_noabort(unsigned long addr)			\
		__attribute__((alias("__asan_store" #size)))

DEFINE_ASAN_LOAD_STORE(1);
DEFINE_ASAN_LOAD_STORE(2);
DEFINE_ASAN_LOAD_STORE(4);
DEFINE_ASAN_LOAD_STORE(8);
DEFINE_ASAN_LOAD_STORE(16);

void __asan_loadN(unsigned long addr, size_t size);
void __asan_loadN(unsigned long addr, size_t size)
{
	check_region(addr, size, false, _RET_IP_);
}
void __asan_loadN_noabort(unsigned long, size_t) __attribute__((alias("__asan_loadN")));

void __asan_storeN(unsigned long addr, size_t size);
void __asan_storeN(unsigned long addr, size_t size)
{
	check_region(addr, size, true, _RET_IP_);
}
void __asan_storeN_noabort(unsigned long, size_t) __attribute__((alias("__asan_storeN")));

/*
 * Called before a noreturn call: the frames above will never run their
 * epilogues, so their redzones would stay in the shadow of a stack that
 * is used again from its top (the next system call after
 * arch_enter_user(), a CPU started again on its old stack). Unpoison the
 * task's whole stack; the live frames lose their redzones, which only
 * costs detection, never a false report. (Linux unpoisons below the
 * stack pointer; its callers of noreturn functions do not come back.)
 */
void __asan_handle_no_return(void);
void __asan_handle_no_return(void)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	struct task_struct *t = current;

	if (!t || !t->stack || sp < (unsigned long)t->stack || sp >= (unsigned long)t->stack_top)
		return;
	kasan_unpoison(t->stack, (unsigned long)t->stack_top - (unsigned long)t->stack);
}

void kasan_unpoison_stack(void *base, size_t size)
{
	kasan_unpoison(base, size);
}

/* Variable-length arrays and alloca() (GCC with asan-stack): 32-byte redzones on both sides. */
#define KASAN_ALLOCA_REDZONE_SIZE	32
#define KASAN_ALLOCA_LEFT		0xCA
#define KASAN_ALLOCA_RIGHT		0xCB
void __asan_alloca_poison(unsigned long addr, size_t size);
void __asan_alloca_poison(unsigned long addr, size_t size)
{
	size_t up = ALIGN(size, KASAN_GRANULE_SIZE);
	size_t down = size & ~KASAN_GRANULE_MASK;

	kasan_unpoison((void *)(addr + down), size - down);
	kasan_poison((void *)(addr - KASAN_ALLOCA_REDZONE_SIZE), KASAN_ALLOCA_REDZONE_SIZE,
		     KASAN_ALLOCA_LEFT);
	kasan_poison((void *)(addr + up), ALIGN(size, KASAN_ALLOCA_REDZONE_SIZE) - up,
		     KASAN_ALLOCA_RIGHT);
}
void __asan_allocas_unpoison(unsigned long top, unsigned long bottom);
void __asan_allocas_unpoison(unsigned long top, unsigned long bottom)
{
	if (top && top <= bottom)
		kasan_unpoison((void *)top, bottom - top);
}

/* GCC's description of an instrumented global (ABI version 5 and later). */
struct kasan_global {
	const void *beg;
	size_t size;
	size_t size_with_redzone;
	const void *name;
	const void *module_name;
	unsigned long has_dynamic_init;
	void *location;
	void *odr_indicator;
};

/* Each file's table of globals, so a report can name the variable (kallsyms has only code). */
#define KASAN_MAX_GLOBAL_TABLES	1024
static struct { struct kasan_global *g; size_t n; } global_tables[KASAN_MAX_GLOBAL_TABLES];
static unsigned int nr_global_tables;	/* written by kasan_init() alone, before SMP */

bool kasan_find_global(unsigned long addr, const char **name, unsigned long *off,
		       unsigned long *size)
{
	for (unsigned int t = 0; t < nr_global_tables; t++)
		for (size_t i = 0; i < global_tables[t].n; i++) {
			struct kasan_global *g = &global_tables[t].g[i];
			unsigned long beg = (unsigned long)g->beg;

			if (addr >= beg && addr < beg + g->size_with_redzone) {
				*name = g->name;
				*off = addr - beg;
				*size = g->size;
				return true;
			}
		}
	return false;
}

/* Called by the constructors GCC emits for each file; kasan_init() runs them. */
void __asan_register_globals(struct kasan_global *globals, size_t n);
void __asan_register_globals(struct kasan_global *globals, size_t n)
{
	if (nr_global_tables < KASAN_MAX_GLOBAL_TABLES) {
		global_tables[nr_global_tables].g = globals;
		global_tables[nr_global_tables++].n = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct kasan_global *g = &globals[i];
		unsigned long rz = ALIGN((unsigned long)g->beg + g->size, KASAN_GRANULE_SIZE);

		kasan_unpoison(g->beg, g->size);
		kasan_poison((void *)rz, (unsigned long)g->beg + g->size_with_redzone - rz,
			     KASAN_GLOBAL_REDZONE);
	}
}
void __asan_unregister_globals(struct kasan_global *globals, size_t n);
void __asan_unregister_globals(struct kasan_global *globals, size_t n)
{
}

/* The checked memory intrinsics; lib/string.c's are __memcpy() and friends. */
#undef memcpy
#undef memset
#undef memmove
void *memcpy(void *dst, const void *src, size_t n)
{
	check_region((unsigned long)src, n, false, _RET_IP_);
	check_region((unsigned long)dst, n, true, _RET_IP_);
	return __memcpy(dst, src, n);
}

void *memset(void *s, int c, size_t n)
{
	check_region((unsigned long)s, n, true, _RET_IP_);
	return __memset(s, c, n);
}

void *memmove(void *dst, const void *src, size_t n)
{
	check_region((unsigned long)src, n, false, _RET_IP_);
	check_region((unsigned long)dst, n, true, _RET_IP_);
	return __memmove(dst, src, n);
}
