/*
 * Queued spinlocks that a running CPU may take ahead of the queue.
 *
 * Linux's idea (qspinlock: a lock word, a "pending" bit and per-CPU MCS
 * queue nodes), our code and one change of policy. The word's layout is in
 * <locking/spinlock.h>. An uncontended lock is one cmpxchg of the word from
 * 0 (inline); a contended one comes here:
 *
 *  1. Steal: for a while, spin on the word and take it whenever the locked
 *     half is 0 and pending is clear, even with CPUs queued. Most
 *     contention ends here, with no queue node touched.
 *  2. Queue: append this CPU's MCS node at the tail (the word's tail field)
 *     and spin on the node's own flag until the previous node hands over
 *     the head of the queue.
 *  3. Head: spin on the word and take it when the locked half is 0, racing
 *     the stealers. After SPIN_HEAD_PATIENCE looks at a held lock the head
 *     sets pending, which stops the stealing, so it takes the lock at the
 *     next release: a waiter is overtaken for a bounded time only.
 *     Having taken the lock, the head hands the head of the queue to the
 *     next node.
 *
 * Why not a strict FIFO (the ticket lock this replaces, or Linux's native
 * qspinlock): under vCPU overcommit (QEMU TCG on fewer host cores than
 * vCPUs, our usual test bed) each hand-off to a waiter whose vCPU the host
 * has descheduled stalls every CPU behind it until the host runs that
 * vCPU again: refscale's `lock` at -smp 4 with three readers took 23 ms
 * per acquisition, and kmalloc, the tick and rculist stalled the same way
 * (Documentation/RCU/performance.md, 2026-12-07 11:00). Here a released
 * lock goes to whichever CPU is running and asks for it; a descheduled
 * queue head delays only the CPUs queued behind it, not the lock. Linux
 * solves the same problem in guests with paravirt spinlocks (waiters halt
 * and are kicked, and may steal) or, without them, a test-and-set lock.
 *
 * Ordering: taking a lock is an ACQUIRE, releasing it a RELEASE, and no
 * more. Everything a holder did inside its critical section is visible to
 * the next holder once that one's acquire returns; accesses after an
 * acquire stay after it, accesses before a release stay before it. An
 * unlock followed by a lock is NOT a full barrier in general (a store
 * before the unlock may pass a load after the next lock); code that needs
 * one adds smp_mb__after_unlock_lock() after the lock (RCU's rcu_node
 * locks do). On x86 every way of taking the lock ends in a LOCK-prefixed
 * cmpxchg, a full fence, which <asm/barrier.h> relies on.
 */
#include <locking/spinlock.h>
#include <kernel/smp.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/barrier.h>
#include <kernel/cpumask.h>

BUILD_BUG_ON(NR_CPUS + 1 > (1U << (32 - _Q_TAIL_CPU_OFFSET)) - 1);
BUILD_BUG_ON(NR_CPUS + 1 > _Q_LOCKED_MASK);

/* Looks at the word a newcomer may spend stealing before it queues. */
#define SPIN_STEAL_TRIES	128
/* Looks at a held lock the queue's head spends before it stops the stealing. */
#define SPIN_HEAD_PATIENCE	512

/* Four nodes per CPU: a lock may be wanted in task, softirq, hardirq and NMI context at once. */
#define SPIN_MCS_NODES		4
struct spin_mcs_node {
	struct spin_mcs_node *next;	/* the node queued behind this one */
	int head;			/* set by the node ahead: this node leads the queue */
	int count;			/* node [0] only: nodes of this CPU in use */
};
static DEFINE_PER_CPU(struct spin_mcs_node, spin_mcs_nodes[SPIN_MCS_NODES]);

#ifdef CONFIG_DEBUG_SPINLOCK
static void spin_bug(spinlock_t *lock, const char *msg)
{
	u16 owner = READ_ONCE(lock->locked);

	printk(KERN_EMERG "BUG: spinlock %s on CPU#%d, lock: %p, .name: %s, .owner_cpu: %d, owner at %pS\n",
	       msg, raw_smp_processor_id(), lock, lock->name, (int)owner - 1,
	       (void *)READ_ONCE(lock->owner_pc));
	BUG();
}
#else
static void spin_bug(spinlock_t *lock, const char *msg)
{
	(void)lock;
	(void)msg;
}
#endif

void spin_bug_unlock(spinlock_t *lock, u16 me)
{
	(void)me;
	spin_bug(lock, READ_ONCE(lock->locked) ? "wrong CPU" : "already unlocked");
}

/*
 * Take the lock if it is free and the queue's head has not closed it
 * (pending). ACQUIRE on success: the cmpxchg that finds the locked half 0
 * pairs with the RELEASE store in do_raw_spin_unlock() that made it 0. The
 * other fields are carried over unchanged.
 */
static bool spin_steal(spinlock_t *lock, u32 *val, u16 me)
{
	u32 v = *val;

	if (v & (_Q_LOCKED_MASK | _Q_PENDING_VAL))
		return false;
	if (__atomic_compare_exchange_n(&lock->val, val, v | me, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return true;
	return false;
}

bool spin_trylock_slowpath(spinlock_t *lock, u32 val, u16 me)
{
	return spin_steal(lock, &val, me);
}

static u32 spin_encode_tail(unsigned int cpu, unsigned int idx)
{
	return ((cpu + 1) << _Q_TAIL_CPU_OFFSET) | (idx << _Q_TAIL_IDX_OFFSET);
}

static struct spin_mcs_node *spin_decode_tail(u32 tail)
{
	unsigned int cpu = (tail >> _Q_TAIL_CPU_OFFSET) - 1;
	unsigned int idx = (tail & _Q_TAIL_IDX_MASK) >> _Q_TAIL_IDX_OFFSET;

	return per_cpu_ptr(&spin_mcs_nodes[idx], cpu);
}

/*
 * Publish this CPU's node as the queue's tail; returns the word before,
 * whose tail (if any) is the node to link behind. RELEASE: our node's
 * initialisation is visible to whoever reads this tail and then links
 * behind us or hands us the head. ACQUIRE: pairs with the RELEASE of the
 * previous tail's own exchange, so that its node's initialisation
 * (->next = NULL) happens before our store into its ->next.
 */
static u32 spin_xchg_tail(spinlock_t *lock, u32 tail)
{
	u32 old = READ_ONCE(lock->val);

	while (!__atomic_compare_exchange_n(&lock->val, &old, (old & ~_Q_TAIL_MASK) | tail, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		cpu_relax();
	return old;
}

/* The contended lock: steal, else queue, lead the queue, and take it. */
void spin_lock_slowpath(spinlock_t *lock, u32 val, u16 me)
{
	struct spin_mcs_node *node, *next;
	unsigned int idx, cpu;
	u32 tail, old;
	int looks;

	if (IS_ENABLED(CONFIG_DEBUG_SPINLOCK) && unlikely((val & _Q_LOCKED_MASK) == me))
		spin_bug(lock, "recursion");

	for (looks = 0; looks < SPIN_STEAL_TRIES && !(val & _Q_PENDING_VAL); looks++) {
		if (spin_steal(lock, &val, me))
			return;
		cpu_relax();
		val = READ_ONCE(lock->val);
	}

	cpu = raw_smp_processor_id();
	node = this_cpu_ptr(&spin_mcs_nodes[0]);
	idx = node->count++;
	/*
	 * Nested deeper than there are nodes (cannot happen with four
	 * contexts): wait without a node, stealing only.
	 */
	if (unlikely(idx >= SPIN_MCS_NODES)) {
		val = READ_ONCE(lock->val);
		while (!spin_steal(lock, &val, me)) {
			cpu_relax();
			val = READ_ONCE(lock->val);
		}
		goto release;
	}
	node = this_cpu_ptr(&spin_mcs_nodes[idx]);
	/*
	 * Compiler barrier: the count above is raised before the node is
	 * written, so an interrupt arriving here that queues on some lock
	 * uses the next node, not this one.
	 */
	barrier();
	node->head = 0;
	node->next = NULL;
	tail = spin_encode_tail(cpu, idx);

	old = spin_xchg_tail(lock, tail);
	if (old & _Q_TAIL_MASK) {
		struct spin_mcs_node *prev = spin_decode_tail(old);

		WRITE_ONCE(prev->next, node);
		/*
		 * ACQUIRE: pairs with the RELEASE store of ->head by the node
		 * ahead of us when it took the lock; nothing here needs more
		 * (the lock itself is taken with its own acquire below).
		 */
		while (!__atomic_load_n(&node->head, __ATOMIC_ACQUIRE))
			cpu_relax();
	}

	/* The head of the queue: take the lock when it is released, racing stealers. */
	for (looks = 0;; ) {
		u32 new;

		val = READ_ONCE(lock->val);
		if (val & _Q_LOCKED_MASK) {
			/* Patience spent: close the lock to stealers (only the head sets or clears pending). */
			if (++looks == SPIN_HEAD_PATIENCE)
				__atomic_fetch_or(&lock->val, _Q_PENDING_VAL, __ATOMIC_RELAXED);
			cpu_relax();
			continue;
		}
		/* Clear pending; clear the tail too when it is still ours (nobody behind us). */
		new = (val & ~_Q_PENDING_VAL) | me;
		if ((val & _Q_TAIL_MASK) == tail)
			new &= ~_Q_TAIL_MASK;
		/* ACQUIRE: pairs with the RELEASE store in do_raw_spin_unlock() that freed it. */
		if (__atomic_compare_exchange_n(&lock->val, &val, new, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
	}
	if ((val & _Q_TAIL_MASK) == tail)
		goto release;	/* the queue ended with us: nobody to lead next */

	/* A CPU queued behind us; it may still be linking itself in. */
	while (!(next = READ_ONCE(node->next)))
		cpu_relax();
	/*
	 * RELEASE: pairs with the ACQUIRE load of ->head above in the next
	 * CPU; our reads of its node are done before it reuses the node.
	 */
	__atomic_store_n(&next->head, 1, __ATOMIC_RELEASE);
release:
	this_cpu_ptr(&spin_mcs_nodes[0])->count--;
}

bool spin_is_locked(spinlock_t *lock)
{
	return READ_ONCE(lock->locked) != 0;
}

bool spin_is_held(spinlock_t *lock)
{
	if (IS_ENABLED(CONFIG_DEBUG_SPINLOCK))
		return READ_ONCE(lock->locked) == spin_owner_val();
	return spin_is_locked(lock);
}
