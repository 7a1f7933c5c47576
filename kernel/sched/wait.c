/*
 * Wait queues: a spinlock-protected list of entries, each naming a task and
 * the function that wakes it. Non-exclusive waiters sit at the head, exclusive
 * ones at the tail, so __wake_up() wakes every non-exclusive waiter and then
 * up to `nr` exclusive ones, as in Linux.
 *
 * Lost-wakeup rule: a waiter is queued and sets its state under the queue
 * lock, then tests its condition; a waker sets the condition, then takes the
 * queue lock to wake. Whichever takes the lock second sees the other's work.
 * The lock is taken with interrupts off: wakers may be interrupt handlers.
 */
#include <sched/wait.h>

void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	e->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq->lock, flags);
	list_add(&e->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void add_wait_queue_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	e->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq->lock, flags);
	list_add_tail(&e->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&e->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/*
 * Queue e unless a wakeup already took it off (or it never left), then set
 * the task state under the lock: a wakeup that comes after this sees both.
 */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e, int state)
{
	unsigned long flags;

	e->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq->lock, flags);
	if (list_empty(&e->entry))
		list_add(&e->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *e, int state)
{
	unsigned long flags;

	e->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq->lock, flags);
	if (list_empty(&e->entry))
		list_add_tail(&e->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/*
 * Back to running and off the queue. The emptiness test is made under the
 * lock: autoremove_wake_function() unlinks the entry (which lives on the
 * waiter's stack) under that lock, so once we hold it no waker still
 * touches the entry and we may return.
 */
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	spin_lock_irqsave(&wq->lock, flags);
	if (!list_empty(&e->entry))
		list_del_init(&e->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned mode, int flags, void *key)
{
	return try_to_wake_up(wq_entry->private, mode, flags);
}

/* Wake, and on success unlink, so the woken task's next prepare_to_wait() requeues it. */
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned mode, int flags, void *key)
{
	int ret = default_wake_function(wq_entry, mode, flags, key);

	if (ret)
		list_del_init(&wq_entry->entry);
	return ret;
}

/* Caller holds wq->lock. A wake function returning < 0 stops the walk, as in Linux. */
static void __wake_up_common(struct wait_queue_head *wq, unsigned int mode, int nr,
			     int wake_flags, void *key)
{
	struct wait_queue_entry *curr, *next;

	list_for_each_entry_safe(curr, next, &wq->head, entry) {
		/* Read before the call: a woken waiter may leave once we unlock. */
		unsigned int eflags = curr->flags;
		int ret = curr->func(curr, mode, wake_flags, key);

		if (ret < 0)
			break;
		if (ret && (eflags & WQ_FLAG_EXCLUSIVE) && !--nr)
			break;
	}
}

void __wake_up_locked(struct wait_queue_head *wq, unsigned int mode, int nr, void *key)
{
	__wake_up_common(wq, mode, nr, 0, key);
}

void __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr, void *key)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_common(wq, mode, nr, 0, key);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void __wake_up_sync(struct wait_queue_head *wq, unsigned int mode)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_common(wq, mode, 1, WF_SYNC, NULL);
	spin_unlock_irqrestore(&wq->lock, flags);
}
