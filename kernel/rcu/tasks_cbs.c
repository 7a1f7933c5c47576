/*
 * The Tasks RCU flavors' shared callback queue (tasks_cbs.h): queuing from
 * any context, and the kthread's wait, take and in-order invocation.
 */
#include "tasks_cbs.h"
#include <rcu/objdebug.h>
#include <rcu/rcupdate.h>
#include <sched/sched.h>

void rcu_tasks_cbs_queue(struct rcu_tasks_cbs *q, struct rcu_head *rhp, rcu_callback_t func)
{
	unsigned long flags;
	bool was_empty;

	if (debug_rcu_head_queue(rhp, func))
		return;		/* DEBUG_OBJECTS_RCU_HEAD: queued already; reported, left alone */
	rhp->next = NULL;
	rhp->func = func;
	spin_lock_irqsave(&q->lock, flags);
	was_empty = !q->head;
	*q->tail = rhp;
	q->tail = &rhp->next;
	spin_unlock_irqrestore(&q->lock, flags);
	/* The kthread sleeps only on an empty queue: the first callback wakes it. */
	if (was_empty)
		wake_up(&q->wq);
}

struct rcu_head *rcu_tasks_cbs_wait_take(struct rcu_tasks_cbs *q)
{
	struct rcu_head *list;
	unsigned long flags;

	do {
		wait_event_idle(q->wq, rcu_tasks_cbs_pending(q));
		spin_lock_irqsave(&q->lock, flags);
		list = q->head;
		q->head = NULL;
		q->tail = &q->head;
		spin_unlock_irqrestore(&q->lock, flags);
	} while (!list);
	return list;
}

void rcu_tasks_cbs_invoke(struct rcu_tasks_cbs *q, struct rcu_head *list)
{
	struct rcu_head *next;

	for (; list; list = next) {
		next = list->next;
		debug_rcu_head_unqueue(list);
		list->func(list);
		q->n_invoked++;
		cond_resched();
	}
}
