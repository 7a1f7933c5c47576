/*
 * Spinlocks: queued spinlocks that let a running CPU take a free lock
 * ahead of queued waiters (kernel/locking/spinlock.c tells how, and why:
 * under vCPU overcommit a strict hand-off order waits for the host to run
 * the next waiter). spin_lock() disables preemption but not interrupts;
 * the _irq and _irqsave variants also disable interrupts (_irqsave returns
 * the previous state through `flags`). With CONFIG_DEBUG_SPINLOCK the lock
 * word holds the owner's CPU and the lock its call site, and recursion or
 * unlock by another CPU is a BUG naming both sides. With CONFIG_LOCKDEP
 * each lock also carries a lockdep_map (<locking/lockdep.h>): spin_lock()
 * and friends tell lockdep before taking and releasing, so lock-order
 * inversions and bad unlocks are reported; the do_raw_spin_*() operations
 * stay untracked (the scheduler's runqueue locks use them).
 */
#ifndef _LOCKING_SPINLOCK_H
#define _LOCKING_SPINLOCK_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <kernel/bug.h>
#include <locking/lockdep.h>

/*
 * The lock word, one u32:
 *   bits  0-15  locked: 0 when free; the holder's CPU + 1 under
 *               CONFIG_DEBUG_SPINLOCK (the owner checks read it from the
 *               word the lock operation has anyway), else 1
 *   bit     16  pending: the queue's head has waited long enough; no CPU
 *               may take the lock ahead of it any more
 *   bits 17-18  tail index: which of the tail CPU's MCS nodes (nesting:
 *               task, softirq, hardirq, NMI)
 *   bits 19-31  tail CPU + 1: the last CPU queued, 0 when none is
 * The locked half is written alone (the holder's unlock) while the other
 * half changes under RMWs of the whole word: the architecture must keep a
 * 16-bit store from disturbing the other half, as x86 (and every SMP
 * architecture Linux runs its qspinlock on) does.
 */
typedef struct {
	union {
		u32 val;
		struct {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			u16 locked, pending_tail;
#else
			u16 pending_tail, locked;
#endif
		};
	};
#ifdef CONFIG_DEBUG_SPINLOCK
	unsigned long owner_pc;	/* return address of the locker */
	const char *name;
#endif
#ifdef CONFIG_LOCKDEP
	struct lockdep_map dep_map;
#endif
} spinlock_t;
typedef spinlock_t raw_spinlock_t;

#define _Q_LOCKED_MASK		0x0000ffffU
#define _Q_PENDING_VAL		(1U << 16)
#define _Q_TAIL_IDX_OFFSET	17
#define _Q_TAIL_IDX_MASK	(3U << _Q_TAIL_IDX_OFFSET)
#define _Q_TAIL_CPU_OFFSET	19
#define _Q_TAIL_MASK		(~0U << _Q_TAIL_IDX_OFFSET)

#ifdef CONFIG_DEBUG_SPINLOCK
#define __SPIN_DEBUG_INIT(n)	.owner_pc = 0, .name = #n,
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
 * The uncontended lock is one cmpxchg and the unlock one store, inline;
 * everything else is out of line in kernel/locking/spinlock.c.
 */
void spin_lock_slowpath(spinlock_t *lock, u32 val, u16 me);
bool spin_trylock_slowpath(spinlock_t *lock, u32 val, u16 me);
void spin_bug_unlock(spinlock_t *lock, u16 me);
bool spin_is_locked(spinlock_t *lock);
/* True when this CPU holds the lock (exact under DEBUG_SPINLOCK, else "someone holds it"). */
bool spin_is_held(spinlock_t *lock);

/* What this CPU writes into the locked half: its number + 1 when debugging, else 1. */
static __always_inline u16 spin_owner_val(void)
{
#ifdef CONFIG_DEBUG_SPINLOCK
	return (u16)(this_cpu_read(cpu_number) + 1);
#else
	return 1;
#endif
}

static __always_inline void spin_debug_set_pc(spinlock_t *lock, unsigned long pc)
{
#ifdef CONFIG_DEBUG_SPINLOCK
	lock->owner_pc = pc;
#endif
}

/*
 * ACQUIRE: the cmpxchg that finds the word 0 pairs with the RELEASE store
 * in do_raw_spin_unlock() of the previous holder (or with the slow path's
 * own acquire, for holders that came through it). The barrier() keeps the
 * compiler from sinking earlier accesses past the lock, as the call did
 * when the lock was out of line; x86's smp_mb__after_unlock_lock()
 * (<asm/barrier.h>) relies on it.
 */
static __always_inline void do_raw_spin_lock(spinlock_t *lock, unsigned long pc)
{
	u16 me = spin_owner_val();
	u32 old = 0;

	barrier();
	if (unlikely(!__atomic_compare_exchange_n(&lock->val, &old, me, false,
						  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
		spin_lock_slowpath(lock, old, me);
	spin_debug_set_pc(lock, pc);
}

/* ACQUIRE on success, as do_raw_spin_lock(); a failed attempt orders nothing. */
static __always_inline bool do_raw_spin_trylock(spinlock_t *lock, unsigned long pc)
{
	u16 me = spin_owner_val();
	u32 old = 0;

	barrier();
	if (unlikely(!__atomic_compare_exchange_n(&lock->val, &old, me, false,
						  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) &&
	    !spin_trylock_slowpath(lock, old, me))
		return false;
	spin_debug_set_pc(lock, pc);
	return true;
}

/*
 * RELEASE: the store that clears the locked half is ordered after every
 * access of the critical section; it pairs with the acquire of the next
 * holder, in do_raw_spin_lock(), do_raw_spin_trylock() or the slow path.
 */
static __always_inline void do_raw_spin_unlock(spinlock_t *lock)
{
	u16 me = spin_owner_val();

	if (IS_ENABLED(CONFIG_DEBUG_SPINLOCK) && unlikely(READ_ONCE(lock->locked) != me))
		spin_bug_unlock(lock, me);
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

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
