/*
 * Memory barriers and cpu_relax(): the contract generic code includes.
 * The arch provides, in <asm/barrier.h>: mb/rmb/wmb (device ordering),
 * smp_mb/smp_rmb/smp_wmb, smp_mb__before_atomic/smp_mb__after_atomic,
 * smp_store_release/smp_load_acquire, and cpu_relax() for spin loops;
 * optionally smp_mb__after_unlock_lock(). Each barrier's use site says
 * what it orders; this header only names where the definitions come from.
 */
#ifndef _KERNEL_BARRIER_H
#define _KERNEL_BARRIER_H

#include <asm/barrier.h>

/*
 * After a lock acquisition: makes the acquisition, together with any
 * unlock before it on this CPU or by the lock's previous holder, a full
 * memory barrier, as RCU's rcu_node locks need (kernel/rcu/tree.h and
 * Documentation/RCU/ordering.md). A lock is only acquire/release
 * (kernel/locking/spinlock.c), so an arch whose lock RMW is not already a full
 * fence gets smp_mb() here; x86 defines it away in <asm/barrier.h>.
 */
#ifndef smp_mb__after_unlock_lock
#define smp_mb__after_unlock_lock()	smp_mb()
#endif

#endif
