/*
 * Ticket spinlocks: a CPU takes the next ticket and spins until the owner
 * field reaches it, so waiters are served in arrival order. The debug
 * checks (CONFIG_DEBUG_SPINLOCK) catch recursion and foreign unlocks.
 *
 * Ordering: taking a lock is an ACQUIRE, releasing it a RELEASE, and no
 * more. Everything a holder did inside its critical section is visible to
 * the next holder once that one's acquire returns; accesses after an
 * acquire stay after it, accesses before a release stay before it. An
 * unlock followed by a lock is NOT a full barrier in general (a store
 * before the unlock may pass a load after the next lock); code that needs
 * one adds smp_mb__after_unlock_lock() after the lock (RCU's rcu_node
 * locks do). On x86 the fetch-add/cmpxchg below are LOCK-prefixed and
 * thus full fences anyway, which <asm/barrier.h> relies on.
 */
#include <locking/spinlock.h>
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/barrier.h>

#ifdef CONFIG_DEBUG_SPINLOCK
static void spin_bug(spinlock_t *lock, const char *msg)
{
	printk(KERN_EMERG "BUG: spinlock %s on CPU#%d, lock: %p, .name: %s, .owner_cpu: %d, owner at %pS\n",
	       msg, raw_smp_processor_id(), lock, lock->name, lock->owner_cpu, (void *)lock->owner_pc);
	BUG();
}
#endif

/*
 * ACQUIRE. The ticket fetch-add needs no ordering of its own (it only
 * reserves a place in line); the acquire load that sees our ticket in
 * ->owner pairs with the release store in do_raw_spin_unlock() of the
 * previous holder: its critical section happens before ours.
 */
void do_raw_spin_lock(spinlock_t *lock, unsigned long pc)
{
	u16 ticket;

#ifdef CONFIG_DEBUG_SPINLOCK
	if (unlikely(READ_ONCE(lock->owner_cpu) == (int)raw_smp_processor_id()))
		spin_bug(lock, "recursion");
#endif
	ticket = __atomic_fetch_add(&lock->tickets.next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lock->tickets.owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
#ifdef CONFIG_DEBUG_SPINLOCK
	lock->owner_cpu = raw_smp_processor_id();
	lock->owner_pc = pc;
#endif
}

/*
 * ACQUIRE on success (the cmpxchg's acquire, pairing with the release
 * store in do_raw_spin_unlock() whose ->owner value it found); a failed
 * attempt orders nothing.
 */
bool do_raw_spin_trylock(spinlock_t *lock, unsigned long pc)
{
	u32 old = READ_ONCE(lock->val);
	u16 owner = old & 0xffff, next = old >> 16;
	u32 new = old + (1U << 16);

	if (owner != next)
		return false;
	if (!__atomic_compare_exchange_n(&lock->val, &old, new, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
#ifdef CONFIG_DEBUG_SPINLOCK
	lock->owner_cpu = raw_smp_processor_id();
	lock->owner_pc = pc;
#endif
	return true;
}

/*
 * RELEASE: the ->owner store is ordered after every access of the
 * critical section; it pairs with the acquire in do_raw_spin_lock() or
 * do_raw_spin_trylock() of the next holder.
 */
void do_raw_spin_unlock(spinlock_t *lock)
{
#ifdef CONFIG_DEBUG_SPINLOCK
	if (unlikely(lock->owner_cpu != (int)raw_smp_processor_id()))
		spin_bug(lock, lock->owner_cpu < 0 ? "already unlocked" : "wrong CPU");
	lock->owner_cpu = -1;
	lock->owner_pc = 0;
#endif
	__atomic_store_n(&lock->tickets.owner, lock->tickets.owner + 1, __ATOMIC_RELEASE);
}

bool spin_is_locked(spinlock_t *lock)
{
	u32 v = READ_ONCE(lock->val);
	return (v & 0xffff) != (v >> 16);
}

bool spin_is_held(spinlock_t *lock)
{
#ifdef CONFIG_DEBUG_SPINLOCK
	return READ_ONCE(lock->owner_cpu) == (int)raw_smp_processor_id();
#else
	return spin_is_locked(lock);
#endif
}
