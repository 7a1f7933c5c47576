/*
 * A spinlock in one bit of a word the caller owns (Linux's
 * <linux/bit_spinlock.h>): for structures too numerous for a spinlock_t
 * each, such as the heads of <kernel/list_bl.h>. Preemption is off while
 * it is held; no lockdep, no fairness. The bit is taken even on one CPU
 * (Linux skips it there without CONFIG_DEBUG_SPINLOCK): the word's other
 * users mask it anyway, and bit_spin_is_locked() stays meaningful.
 */
#ifndef _LOCKING_BIT_SPINLOCK_H
#define _LOCKING_BIT_SPINLOCK_H

#include <kernel/atomic.h>
#include <kernel/barrier.h>
#include <kernel/bitmap.h>
#include <kernel/preempt.h>

static inline void bit_spin_lock(int bitnum, unsigned long *addr)
{
	preempt_disable();
	/*
	 * The fully ordered test_and_set_bit() is the acquire: the critical
	 * section cannot start before it. Pairs with the smp_mb__before_atomic()
	 * in __bit_spin_unlock().
	 */
	while (test_and_set_bit(bitnum, addr)) {
		preempt_enable();
		while (test_bit(bitnum, (const unsigned long *)addr))
			cpu_relax();
		preempt_disable();
	}
}

static inline bool bit_spin_trylock(int bitnum, unsigned long *addr)
{
	preempt_disable();
	if (test_and_set_bit(bitnum, addr)) {	/* ordered as in bit_spin_lock() */
		preempt_enable();
		return false;
	}
	return true;
}

static inline void __bit_spin_unlock(int bitnum, unsigned long *addr)
{
	/* Release: the section's accesses before the clear; pairs with bit_spin_lock()'s RMW. */
	smp_mb__before_atomic();
	clear_bit(bitnum, addr);
	preempt_enable();
}
#define bit_spin_unlock(bitnum, addr)	__bit_spin_unlock(bitnum, addr)

static inline bool bit_spin_is_locked(int bitnum, unsigned long *addr)
{
	return test_bit(bitnum, (const unsigned long *)addr);
}

#endif
