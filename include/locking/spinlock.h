/*
 * Spinlocks: fair ticket locks. spin_lock() disables preemption but not
 * interrupts; the _irq and _irqsave variants also disable interrupts
 * (_irqsave returns the previous state through `flags`). With
 * CONFIG_DEBUG_SPINLOCK each lock records its owner CPU and call site, and
 * recursion or unlock by another CPU is a BUG naming both sides.
 */
#ifndef _LOCKING_SPINLOCK_H
#define _LOCKING_SPINLOCK_H

#include <kernel/types.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <kernel/bug.h>

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
} spinlock_t;
typedef spinlock_t raw_spinlock_t;

#ifdef CONFIG_DEBUG_SPINLOCK
#define __SPIN_LOCK_UNLOCKED(n)	{ { .val = 0 }, .owner_cpu = -1, .owner_pc = 0, .name = #n }
#else
#define __SPIN_LOCK_UNLOCKED(n)	{ { .val = 0 } }
#endif
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define spin_lock_init(l)	do { *(l) = (spinlock_t)__SPIN_LOCK_UNLOCKED(l); } while (0)

/*
 * The raw lock operations, without preemption or interrupt handling.
 * Lock and successful trylock are ACQUIRE, unlock is RELEASE; unlock+lock
 * is not a full barrier (see kernel/spinlock.c, smp_mb__after_unlock_lock()).
 */
void do_raw_spin_lock(spinlock_t *lock, unsigned long pc);
bool do_raw_spin_trylock(spinlock_t *lock, unsigned long pc);
void do_raw_spin_unlock(spinlock_t *lock);
bool spin_is_locked(spinlock_t *lock);
/* True when this CPU holds the lock (exact under DEBUG_SPINLOCK, else "someone holds it"). */
bool spin_is_held(spinlock_t *lock);

#define __THIS_PC	((unsigned long)__builtin_return_address(0))

static __always_inline void spin_lock(spinlock_t *l)
{ preempt_disable(); do_raw_spin_lock(l, __THIS_PC); }
static __always_inline bool spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (do_raw_spin_trylock(l, __THIS_PC))
		return true;
	preempt_enable();
	return false;
}
static __always_inline void spin_unlock(spinlock_t *l)
{ do_raw_spin_unlock(l); preempt_enable(); }
static __always_inline void spin_lock_irq(spinlock_t *l)
{ local_irq_disable(); preempt_disable(); do_raw_spin_lock(l, __THIS_PC); }
static __always_inline void spin_unlock_irq(spinlock_t *l)
{ do_raw_spin_unlock(l); local_irq_enable(); preempt_enable(); }
#define spin_lock_irqsave(l, flags)						\
	do { local_irq_save(flags); preempt_disable();				\
	     do_raw_spin_lock((l), __THIS_PC); } while (0)
static __always_inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{ do_raw_spin_unlock(l); local_irq_restore(flags); preempt_enable(); }

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
