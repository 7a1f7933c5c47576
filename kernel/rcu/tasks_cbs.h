/*
 * The callback queue every Tasks RCU flavor (tasks.c, tasks_rude.c,
 * tasks_trace.c) keeps:
 * one list, filled from any context by call_rcu_tasks*() and emptied by
 * the flavor's one kthread, which waits a grace period for each batch it
 * takes. One queue invoked in order is also what makes each flavor's
 * rcu_barrier_tasks*() a plain synchronize_rcu_tasks*().
 */
#ifndef _RCU_TASKS_CBS_H
#define _RCU_TASKS_CBS_H

#include <locking/spinlock.h>
#include <rcu/types.h>
#include <sched/wait.h>

struct rcu_tasks_cbs {
	spinlock_t lock;		/* guards head and tail */
	struct rcu_head *head;		/* queued, not yet taken by the kthread */
	struct rcu_head **tail;
	struct wait_queue_head wq;	/* the kthread waits here for the first callback */
	unsigned long n_invoked;	/* written by the kthread only */
};

#define RCU_TASKS_CBS_INIT(q) {							\
	.lock = __SPIN_LOCK_UNLOCKED((q).lock),					\
	.tail = &(q).head,							\
	.wq = __WAIT_QUEUE_HEAD_INITIALIZER((q).wq),				\
}

/* Any context, interrupts included: the queue lock disables them. */
void rcu_tasks_cbs_queue(struct rcu_tasks_cbs *q, struct rcu_head *rhp, rcu_callback_t func);
/* The kthread: sleep until a callback is queued, then take them all. */
struct rcu_head *rcu_tasks_cbs_wait_take(struct rcu_tasks_cbs *q);
/* The kthread, after the grace period: invoke the list taken, in queuing order. */
void rcu_tasks_cbs_invoke(struct rcu_tasks_cbs *q, struct rcu_head *list);

/* Some callback queued and not yet taken (statistics, stall reports). */
static inline bool rcu_tasks_cbs_pending(struct rcu_tasks_cbs *q)
{
	return READ_ONCE(q->head) != NULL;
}

#endif
