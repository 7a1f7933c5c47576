/*
 * Sleeping mutex: an owner pointer and a FIFO list of waiters, both under
 * wait_lock, with Linux's fairness rule. Unlock wakes the first waiter but
 * leaves the mutex free, so a running task may take it meanwhile (that
 * keeps a contended mutex moving without a wakeup per acquisition). A first
 * waiter that wakes and still finds the mutex taken sets `handoff`; the next
 * unlock then hands the mutex straight to it (it owns it before it even
 * runs). So lockers may overtake the first waiter only until it has run
 * once (no starvation), and waiters get the mutex in arrival order.
 *
 * No priority inheritance here: that is struct rt_mutex (rtmutex.c).
 * Task context only; recursion and unlock by a non-owner are BUGs.
 * With CONFIG_LOCKDEP a mutex is a tracked lock (taken before its
 * wait_lock, so "mutex -> wait_lock" is the only order inside), and
 * mutex_lock() is a might_sleep() point.
 */
#include <locking/mutex.h>
#include <sched/sched.h>
#include <kernel/bug.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/might_sleep.h>

#ifdef CONFIG_LOCKDEP
#define mutex_dep(lock)	(&(lock)->dep_map)
#else
#define mutex_dep(lock)	((struct lockdep_map *)NULL)
#endif

struct mutex_waiter {
	struct list_head list;		/* in lock->wait_list, FIFO */
	struct task_struct *task;
};

void __mutex_init(struct mutex *lock, const char *name)
{
	lock->owner = NULL;
	lock->handoff = false;
	spin_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
	lock->name = name;
}

static const char *mutex_name(struct mutex *lock)
{
	const char *n = lock->name ? lock->name : "(unnamed)";

	return n[0] == '&' ? n + 1 : n;		/* mutex_init(&foo) names it "&foo" */
}

static __noreturn __cold void mutex_bug(struct mutex *lock, const char *what)
{
	struct task_struct *owner = READ_ONCE(lock->owner);

	printk(KERN_EMERG "BUG: mutex %s: %s\n", what, mutex_name(lock));
	printk(KERN_EMERG "  lock %p, current %s/%d, owner %s/%d\n", lock, current->comm,
	       current->pid, owner ? owner->comm : "none", owner ? owner->pid : -1);
	BUG();
}

void mutex_lock(struct mutex *lock)
{
	struct mutex_waiter waiter;
	unsigned long flags;

	might_sleep();
	WARN_ON_ONCE(in_interrupt());
	lock_acquire(mutex_dep(lock), false, false, _RET_IP_);
	spin_lock_irqsave(&lock->wait_lock, flags);
	if (likely(!lock->owner)) {
		WRITE_ONCE(lock->owner, current);
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		return;
	}
	if (lock->owner == current) {
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		mutex_bug(lock, "recursive locking detected");
	}

	waiter.task = current;
	list_add_tail(&waiter.list, &lock->wait_list);
	/*
	 * Our state is set under wait_lock, and unlock wakes us under it, so
	 * that wakeup cannot be lost. We leave with the mutex either handed
	 * over (unlock made us the owner and unlinked us) or taken while free.
	 */
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		schedule();
		spin_lock_irqsave(&lock->wait_lock, flags);
		if (lock->owner == current)
			break;
		if (!lock->owner) {
			WRITE_ONCE(lock->owner, current);
			list_del(&waiter.list);
			break;
		}
		/* Passed over once: ask for the next unlock to come to us. */
		if (lock->wait_list.next == &waiter.list)
			lock->handoff = true;
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

bool mutex_trylock(struct mutex *lock)
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
	if (ok)
		lock_acquire(mutex_dep(lock), true, false, _RET_IP_);
	return ok;
}

void mutex_unlock(struct mutex *lock)
{
	struct mutex_waiter *w;
	unsigned long flags;

	WARN_ON_ONCE(in_interrupt());
	if (!lock_release(mutex_dep(lock), _RET_IP_))
		return;		/* reported by lockdep: not ours, leave it alone */
	spin_lock_irqsave(&lock->wait_lock, flags);
	if (unlikely(lock->owner != current)) {
		bool locked = lock->owner;

		spin_unlock_irqrestore(&lock->wait_lock, flags);
		mutex_bug(lock, locked ? "unlock by non-owner" : "unlock of unlocked mutex");
	}
	w = list_first_entry_or_null(&lock->wait_list, struct mutex_waiter, list);
	if (w && lock->handoff) {
		list_del(&w->list);
		lock->handoff = false;
		WRITE_ONCE(lock->owner, w->task);
	} else {
		WRITE_ONCE(lock->owner, NULL);
	}
	/* Under the lock, while w (on the waiter's stack) is still valid. */
	if (w)
		wake_up_process(w->task);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

bool mutex_is_locked(struct mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}
