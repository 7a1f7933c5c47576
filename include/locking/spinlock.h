/*
 * Spinlocks: fair ticket locks. spin_lock() disables preemption but not
 * interrupts; the _irq and _irqsave variants also disable interrupts
 * (_irqsave returns the previous state through `flags`). With
 * CONFIG_DEBUG_SPINLOCK each lock records its owner CPU and call site, and
 * recursion or unlock by another CPU is a BUG naming both sides. With
 * CONFIG_LOCKDEP each lock also carries a lockdep_map (<locking/lockdep.h>):
 * spin_lock() and friends tell lockdep before taking and releasing, so
 * lock-order inversions and bad unlocks are reported; the do_raw_spin_*()
 * operations stay untracked (the scheduler's runqueue locks use them).
 */
#ifndef _LOCKING_SPINLOCK_H
#define _LOCKING_SPINLOCK_H

#include <kernel/types.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <kernel/bug.h>
#include <locking/lockdep.h>

typedef struct {
	union {
		u32 val;
		struct { u16 owner, next; } tickets;
	};
#ifdef CONFIG_DEBUG_SPINLOCK
	int owner_cpu;		/* -1 when free */
	unsigned long owner_pc;	/* return address of the locker */
	const char *name;
#endif
#ifdef CONFIG_LOCKDEP
	struct lockdep_map dep_map;
#endif
} spinlock_t;
typedef spinlock_t raw_spinlock_t;

#ifdef CONFIG_DEBUG_SPINLOCK
#define __SPIN_DEBUG_INIT(n)	.owner_cpu = -1, .owner_pc = 0, .name = #n,
#else
#define __SPIN_DEBUG_INIT(n)
#endif
#ifdef CONFIG_LOCKDEP
/* A statically initialised lock is its own class (key NULL: lockdep keys it by address). */
#define __SPIN_DEP_MAP_INIT(n)	.dep_map = STATIC_LOCKDEP_MAP_INIT(#n, NULL),
#else
#define __SPIN_DEP_MAP_INIT(n)
#endif
#define __SPIN_LOCK_UNLOCKED(n)	{ { .val = 0 }, __SPIN_DEBUG_INIT(n) __SPIN_DEP_MAP_INIT(n) }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
/* One lock class per spin_lock_init() call site, as in Linux. */
#define spin_lock_init(l)							\
	do {									\
		*(l) = (spinlock_t)__SPIN_LOCK_UNLOCKED(l);			\
		__spin_lock_init_class(l);					\
	} while (0)
#ifdef CONFIG_LOCKDEP
#define __spin_lock_init_class(l)	lockdep_init_site(&(l)->dep_map, #l)
#define __spin_dep(l)			(&(l)->dep_map)
#else
#define __spin_lock_init_class(l)	do { } while (0)
#define __spin_dep(l)			((struct lockdep_map *)NULL)
#endif

/*
 * The raw lock operations, without preemption or interrupt handling.
 * Lock and successful trylock are ACQUIRE, unlock is RELEASE; unlock+lock
 * is not a full barrier (see kernel/locking/spinlock.c, smp_mb__after_unlock_lock()).
 */
void do_raw_spin_lock(spinlock_t *lock, unsigned long pc);
bool do_raw_spin_trylock(spinlock_t *lock, unsigned long pc);
void do_raw_spin_unlock(spinlock_t *lock);
bool spin_is_locked(spinlock_t *lock);
/* True when this CPU holds the lock (exact under DEBUG_SPINLOCK, else "someone holds it"). */
bool spin_is_held(spinlock_t *lock);

#define __THIS_PC	((unsigned long)__builtin_return_address(0))

/*
 * Lockdep hears of an acquire before the raw lock spins (a deadlock it can
 * predict is reported before it hangs) and of a release before the raw
 * unlock. A release lockdep rejects (the task does not hold the lock: the
 * report is printed) leaves the lock, interrupts and preemption alone, so
 * the kernel runs on; without lockdep the check is a constant true.
 */
static __always_inline void spin_lock(spinlock_t *l)
{ preempt_disable(); lock_acquire(__spin_dep(l), false, false, LOCKDEP_HERE); do_raw_spin_lock(l, __THIS_PC); }
static __always_inline bool spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (do_raw_spin_trylock(l, __THIS_PC)) {
		lock_acquire(__spin_dep(l), true, false, LOCKDEP_HERE);
		return true;
	}
	preempt_enable();
	return false;
}
static __always_inline void spin_unlock(spinlock_t *l)
{
	if (!lock_release(__spin_dep(l), LOCKDEP_HERE))
		return;
	do_raw_spin_unlock(l);
	preempt_enable();
}
static __always_inline void spin_lock_irq(spinlock_t *l)
{
	local_irq_disable();
	preempt_disable();
	lock_acquire(__spin_dep(l), false, false, LOCKDEP_HERE);
	do_raw_spin_lock(l, __THIS_PC);
}
static __always_inline void spin_unlock_irq(spinlock_t *l)
{
	if (!lock_release(__spin_dep(l), LOCKDEP_HERE))
		return;
	do_raw_spin_unlock(l);
	local_irq_enable();
	preempt_enable();
}
#define spin_lock_irqsave(l, flags)						\
	do { local_irq_save(flags); preempt_disable();				\
	     lock_acquire(__spin_dep(l), false, false, LOCKDEP_HERE);		\
	     do_raw_spin_lock((l), __THIS_PC); } while (0)
static __always_inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	if (!lock_release(__spin_dep(l), LOCKDEP_HERE))
		return;
	do_raw_spin_unlock(l);
	local_irq_restore(flags);
	preempt_enable();
}

/*
 * For code that takes or drops a lock with the do_raw_spin_*() operations
 * but pairs it with the tracked ones (the rcu_node lock helpers, the timer
 * wheel dropping its lock around a callback): tell lockdep by hand.
 */
#define spin_acquire(l, trylock, ip)	lock_acquire(__spin_dep(l), (trylock), false, (ip))
#define spin_release(l, ip)		((void)lock_release(__spin_dep(l), (ip)))

#define raw_spin_lock			spin_lock
#define raw_spin_unlock			spin_unlock
#define raw_spin_lock_irq		spin_lock_irq
#define raw_spin_unlock_irq		spin_unlock_irq
#define raw_spin_lock_irqsave		spin_lock_irqsave
#define raw_spin_unlock_irqrestore	spin_unlock_irqrestore
#define raw_spin_lock_init		spin_lock_init
#define DEFINE_RAW_SPINLOCK		DEFINE_SPINLOCK

#define lockdep_assert_held(l)	WARN_ON_ONCE(!spin_is_held(l))

#endif
