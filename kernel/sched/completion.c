/*
 * Completions: a count of "done" events guarded by the wait queue's lock.
 * complete() adds one and wakes one exclusive waiter; complete_all() sets
 * the count to UINT_MAX ("done forever", until reinit_completion()) and
 * wakes everyone. Each successful wait consumes one event, except after
 * complete_all().
 *
 * Waiters queue an entry whose wake function does not unlink it: a waiter
 * woken but not yet back at the lock stays queued, and try_to_wake_up()
 * returning false for it (already running) lets the next complete() move
 * on to the next waiter.
 */
#include <sched/completion.h>
#include <kernel/might_sleep.h>
#include <kernel/bug.h>
#include <kernel/preempt.h>

#define COMPLETION_ALL	(~0U)	/* UINT_MAX */

/* complete() may be called from interrupts and with interrupts off. */
void complete(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETION_ALL)
		x->done++;
	__wake_up_locked(&x->wait, TASK_NORMAL, 1, NULL);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETION_ALL;
	__wake_up_locked(&x->wait, TASK_NORMAL, 0, NULL);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

/* Sleep without dropping below zero: MAX_SCHEDULE_TIMEOUT needs no timer. */
static long completion_sleep(long timeout)
{
	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	return schedule_timeout(timeout);
}

/*
 * Wait until done is non-zero or the timeout runs out. Returns 0 on
 * timeout, else the jiffies left (at least 1). Called and returns with
 * x->wait.lock held and interrupts off.
 */
static long do_wait_for_common(struct completion *x, long timeout, int state)
{
	if (!x->done) {
		DECLARE_WAITQUEUE(wait, current);

		if (!timeout)
			return 0;

		wait.flags |= WQ_FLAG_EXCLUSIVE;
		list_add_tail(&wait.entry, &x->wait.head);
		do {
			__set_current_state(state);
			spin_unlock_irq(&x->wait.lock);
			timeout = completion_sleep(timeout);
			spin_lock_irq(&x->wait.lock);
		} while (!x->done && timeout);
		__set_current_state(TASK_RUNNING);
		list_del(&wait.entry);
		if (!x->done)
			return timeout;		/* 0: timed out */
	}
	if (x->done != COMPLETION_ALL)
		x->done--;
	return timeout ? timeout : 1;
}

static long wait_for_common(struct completion *x, long timeout, int state)
{
	WARN_ON_ONCE(in_interrupt());
	might_sleep();
	spin_lock_irq(&x->wait.lock);
	timeout = do_wait_for_common(x, timeout, state);
	spin_unlock_irq(&x->wait.lock);
	return timeout;
}

void wait_for_completion(struct completion *x)
{
	wait_for_common(x, MAX_SCHEDULE_TIMEOUT, TASK_UNINTERRUPTIBLE);
}

unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout)
{
	if ((long)timeout < 0)		/* larger than any real timeout: wait forever */
		timeout = MAX_SCHEDULE_TIMEOUT;
	return wait_for_common(x, timeout, TASK_UNINTERRUPTIBLE);
}

/* Consume one event if there is one, without sleeping. */
bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ret = true;

	/* Lockless fast path, as in Linux: nothing to consume. */
	if (!READ_ONCE(x->done))
		return false;
	spin_lock_irqsave(&x->wait.lock, flags);
	if (!x->done)
		ret = false;
	else if (x->done != COMPLETION_ALL)
		x->done--;
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return ret;
}

/*
 * True if an event is pending. Taking and dropping the lock makes sure a
 * complete() that set done has also finished its wakeups, so the caller may
 * free the completion once this says true.
 */
bool completion_done(struct completion *x)
{
	unsigned long flags;

	if (!READ_ONCE(x->done))
		return false;
	spin_lock_irqsave(&x->wait.lock, flags);
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return true;
}
