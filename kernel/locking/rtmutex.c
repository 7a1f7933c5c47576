/*
 * Priority-inheritance mutex (struct rt_mutex).
 *
 * A blocked task queues an rt_mutex_waiter on lock->waiters, most
 * important first (FIFO among equals). The top waiter of every lock a task
 * owns sits on the owner's pi_waiters, sorted the same way, and the
 * scheduler runs the owner at min(normal_prio, best pi_waiters entry)
 * (rt_mutex_top_waiter_prio()). When the owner is itself blocked on another
 * rt_mutex, its raised priority requeues its own waiter there and boosts
 * that lock's owner, and so on along the chain (rt_mutex_adjust_prio_chain()).
 * Unlock hands the lock to the top waiter, which owns it (and inherits the
 * remaining waiters) before it even runs.
 *
 * Locking: lock->wait_lock, then task->pi_lock, then the runqueue lock
 * (inside rt_mutex_setprio() and wakeups). The chain walk holds at most one
 * task's pi_lock plus one wait_lock at a time: it takes the pi_lock first
 * and only trylocks the wait_lock (backing off on failure), and it drops
 * everything between steps, keeping a reference on the next task and
 * revalidating what it saw, as Linux does. Every step recomputes from the
 * current state, so a walk that stops early never leaves a stale boost: a
 * walk stops only where the chain no longer goes on (whoever changed it
 * propagated its own state) or where there is nothing left to change.
 *
 * waiter->prio orders lock->waiters and changes under lock->wait_lock;
 * waiter->pi_prio orders owner->pi_waiters and changes under owner->pi_lock.
 */
#include <locking/mutex.h>
#include <sched/sched.h>
#include <kernel/bug.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/barrier.h>
#include "../sched/sched.h"	/* get_task_struct(), put_task_struct() */

int max_lock_depth = 1024;

/* --- waiter lists ------------------------------------------------------------ */

static struct rt_mutex_waiter *rt_mutex_top_waiter(struct rt_mutex *lock)
{
	return list_first_entry_or_null(&lock->waiters, struct rt_mutex_waiter, list_entry);
}

/* Insert before the first less important waiter: FIFO among equals. */
static void rt_mutex_enqueue(struct rt_mutex *lock, struct rt_mutex_waiter *w)
{
	struct rt_mutex_waiter *pos;

	list_for_each_entry(pos, &lock->waiters, list_entry)
		if (w->prio < pos->prio)
			break;
	list_add_tail(&w->list_entry, &pos->list_entry);
}

static void rt_mutex_enqueue_pi(struct task_struct *owner, struct rt_mutex_waiter *w)
{
	struct rt_mutex_waiter *pos;

	w->pi_prio = w->prio;
	list_for_each_entry(pos, &owner->pi_waiters, pi_entry)
		if (w->pi_prio < pos->pi_prio)
			break;
	list_add_tail(&w->pi_entry, &pos->pi_entry);
}

/* Caller holds p->pi_lock (the scheduler, when it recomputes p->prio). */
int rt_mutex_top_waiter_prio(struct task_struct *p)
{
	struct rt_mutex_waiter *w;

	w = list_first_entry_or_null(&p->pi_waiters, struct rt_mutex_waiter, pi_entry);
	return w ? w->pi_prio : MAX_PRIO;
}

/* Recompute p's effective priority from its pi_waiters. Caller holds p->pi_lock. */
static void rt_mutex_adjust_prio(struct task_struct *p)
{
	rt_mutex_setprio(p, rt_mutex_top_waiter_prio(p));
}

/* The lock p is blocked on, or NULL. Caller holds p->pi_lock. */
static struct rt_mutex *task_blocked_on_lock(struct task_struct *p)
{
	return p->pi_blocked_on ? p->pi_blocked_on->lock : NULL;
}

/* --- deadlock reports ---------------------------------------------------------- */

static void rt_mutex_print_task(const char *what, struct task_struct *p)
{
	printk(KERN_EMERG "  %s %s/%d prio %d\n", what, p->comm, p->pid, p->prio);
}

/*
 * Walk the chain again from `orig`, blocked on `orig_lock`: true if it comes
 * back to orig or to orig_lock. A real deadlock never goes away, so this
 * second, independent look confirms what the boosting walk suspected (its
 * links were seen at different times). With `print`, report each link.
 */
static bool rt_mutex_chain_is_cycle(struct task_struct *orig, struct rt_mutex *orig_lock, bool print)
{
	struct task_struct *task = orig, *owner;
	struct rt_mutex *lock = orig_lock, *next;
	unsigned long flags;
	bool cycle = false;
	int depth = 0;

	get_task_struct(task);
	while (depth < max_lock_depth) {
		preempt_disable();	/* enabled after the interrupts: a boost may want us off */
		local_irq_save(flags);
		spin_lock(&task->pi_lock);
		if (task_blocked_on_lock(task) != lock) {
			spin_unlock(&task->pi_lock);
			local_irq_restore(flags);
			preempt_enable();
			break;
		}
		if (!spin_trylock(&lock->wait_lock)) {
			spin_unlock(&task->pi_lock);
			local_irq_restore(flags);
			preempt_enable();
			cpu_relax();
			continue;
		}
		spin_unlock(&task->pi_lock);
		owner = lock->owner;
		if (print && owner)
			printk(KERN_EMERG "  %s/%d waits for rt_mutex %p held by %s/%d\n", task->comm,
			       task->pid, lock, owner->comm, owner->pid);
		if (!owner || owner == orig || (depth && lock == orig_lock)) {
			cycle = owner != NULL;
			spin_unlock(&lock->wait_lock);
			local_irq_restore(flags);
			preempt_enable();
			break;
		}
		spin_lock(&owner->pi_lock);
		next = task_blocked_on_lock(owner);
		get_task_struct(owner);
		spin_unlock(&owner->pi_lock);
		spin_unlock(&lock->wait_lock);
		local_irq_restore(flags);
		preempt_enable();
		put_task_struct(task);
		task = owner;
		lock = next;
		depth++;
		if (!lock)
			break;
	}
	put_task_struct(task);
	return cycle;
}

static __noreturn __cold void rt_mutex_deadlock_bug(struct rt_mutex *lock, bool chain)
{
	printk(KERN_EMERG "BUG: rt_mutex deadlock detected\n");
	rt_mutex_print_task("task", current);
	if (chain)
		printk(KERN_EMERG "  blocking on rt_mutex %p: its chain of owners leads back here\n", lock);
	else
		printk(KERN_EMERG "  blocking on rt_mutex %p, which it already holds\n", lock);
	if (chain)
		rt_mutex_chain_is_cycle(current, lock, true);
	BUG();
}

/* --- priority chain walk --------------------------------------------------------- */

/*
 * `task`'s priority may have changed while it is blocked on `next_lock`
 * (we hold a reference on task; no locks are held). Requeue its waiter at
 * its current priority, fix up that lock owner's pi_waiters and priority,
 * and continue with the owner if it is blocked too.
 *
 * orig_task/orig_lock: the task whose blocking on orig_lock started the
 * walk (NULL for a plain priority change). Then the walk also looks for a
 * chain leading back to orig_task or orig_lock, and returns true if it saw
 * one (a suspected deadlock; the caller confirms it). While it detects, it
 * keeps going past links that need no requeue.
 */
static bool rt_mutex_adjust_prio_chain(struct task_struct *task, struct rt_mutex *next_lock,
				       struct rt_mutex *orig_lock, struct task_struct *orig_task)
{
	struct rt_mutex_waiter *waiter, *prerequeue_top, *top;
	bool detect = orig_task != NULL, suspect = false;
	struct task_struct *owner;
	struct rt_mutex *lock;
	unsigned long flags;
	int depth = 0;

	for (;;) {
		if (++depth > max_lock_depth) {
			printk(KERN_WARNING "rt_mutex: maximum lock depth %d reached, task %s/%d\n",
			       max_lock_depth, task->comm, task->pid);
			break;
		}
retry:
		preempt_disable();	/* enabled after the interrupts: a boost may want us off */
		local_irq_save(flags);
		spin_lock(&task->pi_lock);
		waiter = task->pi_blocked_on;
		/* task was handed its lock, or blocked afresh (and boosted from there itself). */
		if (!waiter || waiter->lock != next_lock)
			goto out_unlock_pi;
		/* The blocker we walk for got its lock: keep propagating, stop detecting. */
		if (detect && READ_ONCE(orig_lock->owner) == orig_task)
			detect = false;
		lock = next_lock;
		if (!spin_trylock(&lock->wait_lock)) {
			/* Wrong order (pi_lock, then wait_lock) only as a trylock: back off. */
			spin_unlock(&task->pi_lock);
			local_irq_restore(flags);
			preempt_enable();
			cpu_relax();
			goto retry;
		}
		owner = lock->owner;
		if (detect && (lock == orig_lock || owner == orig_task)) {
			suspect = true;
			detect = false;
		}
		if (WARN_ON_ONCE(!owner)) {	/* waiters imply an owner: unlock hands off */
			spin_unlock(&lock->wait_lock);
			goto out_unlock_pi;
		}

		if (waiter->prio != task->prio) {
			prerequeue_top = rt_mutex_top_waiter(lock);
			list_del(&waiter->list_entry);
			waiter->prio = task->prio;
			rt_mutex_enqueue(lock, waiter);
			spin_unlock(&task->pi_lock);

			top = rt_mutex_top_waiter(lock);
			spin_lock(&owner->pi_lock);
			/* Became, stayed or stopped being the top waiter: the owner's entry follows. */
			if (top == waiter || prerequeue_top == waiter) {
				list_del(&prerequeue_top->pi_entry);
				rt_mutex_enqueue_pi(owner, top);
				rt_mutex_adjust_prio(owner);
			}
		} else {
			/* Nothing to requeue: the rest of the chain has seen task's priority. */
			spin_unlock(&task->pi_lock);
			if (!detect) {
				spin_unlock(&lock->wait_lock);
				goto out_irq;
			}
			spin_lock(&owner->pi_lock);
		}
		next_lock = task_blocked_on_lock(owner);
		get_task_struct(owner);
		spin_unlock(&owner->pi_lock);
		spin_unlock(&lock->wait_lock);
		local_irq_restore(flags);
		preempt_enable();
		put_task_struct(task);
		task = owner;
		if (!next_lock)
			break;
	}
	put_task_struct(task);
	return suspect;

out_unlock_pi:
	spin_unlock(&task->pi_lock);
out_irq:
	local_irq_restore(flags);
	preempt_enable();
	put_task_struct(task);
	return suspect;
}

/* --- lock and unlock --------------------------------------------------------------- */

/* Block on a lock someone else holds until it is handed to us. Called with wait_lock held. */
static void rt_mutex_slowlock(struct rt_mutex *lock, unsigned long flags)
{
	struct task_struct *task = current, *owner = lock->owner;
	struct rt_mutex_waiter waiter, *top_before;
	struct rt_mutex *next_lock;

	INIT_LIST_HEAD(&waiter.pi_entry);
	waiter.task = task;
	waiter.lock = lock;
	spin_lock(&task->pi_lock);
	waiter.prio = task->prio;
	top_before = rt_mutex_top_waiter(lock);
	rt_mutex_enqueue(lock, &waiter);
	task->pi_blocked_on = &waiter;
	spin_unlock(&task->pi_lock);

	spin_lock(&owner->pi_lock);
	if (rt_mutex_top_waiter(lock) == &waiter) {
		if (top_before)
			list_del(&top_before->pi_entry);
		rt_mutex_enqueue_pi(owner, &waiter);
		rt_mutex_adjust_prio(owner);
	}
	next_lock = task_blocked_on_lock(owner);
	if (next_lock)
		get_task_struct(owner);
	spin_unlock(&owner->pi_lock);

	if (next_lock) {
		/* The owner is blocked too: boost along the chain, looking for a cycle. */
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		if (rt_mutex_adjust_prio_chain(owner, next_lock, lock, task) &&
		    rt_mutex_chain_is_cycle(task, lock, false))
			rt_mutex_deadlock_bug(lock, true);
		spin_lock_irqsave(&lock->wait_lock, flags);
	}

	/*
	 * Unlock makes us the owner and clears pi_blocked_on under wait_lock,
	 * then wakes us; our state is set under that lock, so the wakeup
	 * cannot be lost. Other wakeups just loop.
	 */
	while (lock->owner != task) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		schedule();
		spin_lock_irqsave(&lock->wait_lock, flags);
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

void rt_mutex_lock(struct rt_mutex *lock)
{
	unsigned long flags;

	WARN_ON_ONCE(in_interrupt());
	spin_lock_irqsave(&lock->wait_lock, flags);
	if (likely(!lock->owner)) {
		WRITE_ONCE(lock->owner, current);
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		return;
	}
	if (lock->owner == current) {
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		rt_mutex_deadlock_bug(lock, false);
	}
	rt_mutex_slowlock(lock, flags);
}

bool rt_mutex_trylock(struct rt_mutex *lock)
{
	unsigned long flags;
	bool ok = false;

	WARN_ON_ONCE(in_interrupt());
	spin_lock_irqsave(&lock->wait_lock, flags);
	if (!lock->owner) {
		WRITE_ONCE(lock->owner, current);
		ok = true;
	}
	spin_unlock_irqrestore(&lock->wait_lock, flags);
	return ok;
}

/*
 * Release `lock` held by `owner`: hand it to the top waiter, which becomes
 * the owner and inherits the remaining waiters, then drop owner's boost
 * from this lock. Caller holds wait_lock.
 */
static void rt_mutex_release(struct rt_mutex *lock, struct task_struct *owner)
{
	struct rt_mutex_waiter *w = rt_mutex_top_waiter(lock);
	struct task_struct *next;

	if (!w) {
		WRITE_ONCE(lock->owner, NULL);
		return;
	}
	next = w->task;
	list_del(&w->list_entry);

	spin_lock(&owner->pi_lock);
	list_del(&w->pi_entry);
	rt_mutex_adjust_prio(owner);
	spin_unlock(&owner->pi_lock);

	spin_lock(&next->pi_lock);
	WRITE_ONCE(lock->owner, next);
	next->pi_blocked_on = NULL;
	w = rt_mutex_top_waiter(lock);
	if (w)
		rt_mutex_enqueue_pi(next, w);
	rt_mutex_adjust_prio(next);
	spin_unlock(&next->pi_lock);
	/* Under wait_lock: next cannot run off (and unlock, and exit) before we wake it. */
	wake_up_process(next);
}

void rt_mutex_unlock(struct rt_mutex *lock)
{
	struct task_struct *owner;
	unsigned long flags;

	spin_lock_irqsave(&lock->wait_lock, flags);
	owner = lock->owner;
	if (unlikely(owner != current)) {
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		printk(KERN_EMERG "BUG: rt_mutex %p unlock by non-owner %s/%d, owner %s/%d\n", lock,
		       current->comm, current->pid, owner ? owner->comm : "none",
		       owner ? owner->pid : -1);
		BUG();
	}
	rt_mutex_release(lock, owner);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

bool rt_mutex_is_locked(struct rt_mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}

struct task_struct *rt_mutex_owner(struct rt_mutex *lock)
{
	return READ_ONCE(lock->owner);
}

void rt_mutex_init(struct rt_mutex *lock)
{
	spin_lock_init(&lock->wait_lock);
	lock->owner = NULL;
	INIT_LIST_HEAD(&lock->waiters);
}

/* --- proxy locking (RCU priority boosting) ----------------------------------------- */

/*
 * Make proxy_owner own the (unlocked, waiterless) lock without it running.
 * A task that then blocks in rt_mutex_lock() boosts proxy_owner, which
 * later calls rt_mutex_proxy_unlock() and so hands the lock on.
 */
void rt_mutex_init_proxy_locked(struct rt_mutex *lock, struct task_struct *proxy_owner)
{
	unsigned long flags;

	if (!lock->waiters.next)	/* never initialised (zeroed memory) */
		rt_mutex_init(lock);
	spin_lock_irqsave(&lock->wait_lock, flags);
	WARN_ON_ONCE(lock->owner || !list_empty(&lock->waiters));
	WRITE_ONCE(lock->owner, proxy_owner);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

void rt_mutex_proxy_unlock(struct rt_mutex *lock)
{
	unsigned long flags;

	spin_lock_irqsave(&lock->wait_lock, flags);
	if (!WARN_ON_ONCE(!lock->owner))
		rt_mutex_release(lock, lock->owner);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

/* --- priority changes from the scheduler --------------------------------------------- */

void rt_mutex_adjust_pi(struct task_struct *p)
{
	struct rt_mutex_waiter *w;
	struct rt_mutex *next_lock;
	unsigned long flags;

	spin_lock_irqsave(&p->pi_lock, flags);
	w = p->pi_blocked_on;
	if (!w || w->prio == p->prio) {
		spin_unlock_irqrestore(&p->pi_lock, flags);
		return;
	}
	next_lock = w->lock;
	get_task_struct(p);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	rt_mutex_adjust_prio_chain(p, next_lock, NULL, NULL);
}
