/*
 * Memory barriers. x86-64 is TSO: loads are not reordered with loads nor
 * stores with stores, so smp_rmb/smp_wmb only stop the compiler; a store
 * followed by a load needs a real fence (a locked op is cheaper than mfence).
 */
#ifndef _ASM_BARRIER_H
#define _ASM_BARRIER_H

#include <kernel/compiler.h>

#define mb()	__asm__ volatile("mfence" ::: "memory")
#define rmb()	__asm__ volatile("lfence" ::: "memory")
#define wmb()	__asm__ volatile("sfence" ::: "memory")
#define smp_mb()	__asm__ volatile("lock; addl $0,-4(%%rsp)" ::: "memory", "cc")
#define smp_rmb()	barrier()
#define smp_wmb()	barrier()
#define smp_mb__before_atomic()	barrier()
#define smp_mb__after_atomic()	barrier()
/*
 * Turns "unlock A (or B) ... lock B" into a full barrier for RCU's rcu_node
 * locks (kernel/rcu/tree.h). On x86 nothing is left to do: every way of
 * taking a lock (the cmpxchg inline in do_raw_spin_lock() and
 * do_raw_spin_trylock(), those of the slow path) is a LOCK-prefixed RMW,
 * which is a full fence, and the inline fast path begins with barrier(),
 * so the compiler cannot move earlier accesses past it either. A weakly
 * ordered arch, whose acquire is only an acquire, takes <kernel/barrier.h>'s
 * smp_mb() fallback instead.
 */
#define smp_mb__after_unlock_lock()	barrier()

#define smp_store_release(p, v) do { barrier(); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p) ({ __typeof__(*(p)) ___v = READ_ONCE(*(p)); barrier(); ___v; })

static inline void cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }

#endif
