/*
 * rcutorture: the "tasks" flavor, Tasks RCU (<rcu/tasks.h>). A reader is
 * any code that does not switch voluntarily, so the read lock is empty
 * and readers may be preempted (rcu_read_delay() preempts them now and
 * then); the delay never sleeps. In a non-preemptible kernel the API is
 * plain RCU's, and so is what this tests there.
 */
#include "rcutorture.h"
#include <rcu/tasks.h>

static int tasks_torture_read_lock(void)
{
	return 0;
}

static void tasks_torture_read_unlock(int idx)
{
}

static void rcu_tasks_torture_deferred_free(struct rcu_torture *p)
{
	call_rcu_tasks(&p->rtort_rcu, rcu_torture_cb);
}

static int tasks_torture_stall_dur(void)
{
	return rcu_tasks_stall_timeout();
}

struct rcu_torture_ops tasks_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= tasks_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= tasks_torture_read_unlock,
	.get_gp_seq	= rcu_tasks_gp_completed,
	.deferred_free	= rcu_tasks_torture_deferred_free,
	.sync		= synchronize_rcu_tasks,
	.exp_sync	= synchronize_rcu_tasks,	/* no expedited Tasks RCU, as in Linux */
	.call		= call_rcu_tasks,
	.cb_barrier	= rcu_barrier_tasks,
	.stall_dur	= tasks_torture_stall_dur,
	.irq_capable	= 1,	/* an interrupt handler never switches voluntarily: a reader */
	.slow_gps	= 1,
	.name		= "tasks",
};
