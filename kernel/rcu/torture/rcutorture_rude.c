/*
 * rcutorture: the "tasks-rude" flavor, Tasks Rude RCU (<rcu/tasks_rude.h>,
 * CONFIG_TASKS_RUDE_RCU), as Linux's: a reader is a region with preemption
 * disabled (the "trivial" flavor's reader, preempt_disable() itself, so
 * that it holds in a preemptible kernel); timer-handler readers
 * (interrupts off) are readers too. The grace-period counter is the
 * flavor's own (Linux reports none), so the "Reader Batch" line shows how
 * many grace periods a read spanned; only the pipeline is judged. Linux's
 * scenario: RUDE01.
 */
#include "rcutorture.h"
#include <rcu/tasks.h>	/* rcu_tasks_stall_timeout() and <rcu/tasks_rude.h> */

static void rcu_tasks_rude_torture_deferred_free(struct rcu_torture *p)
{
	call_rcu_tasks_rude(&p->rtort_rcu, rcu_torture_cb);
}

static int tasks_rude_torture_stall_dur(void)
{
	return rcu_tasks_stall_timeout();
}

struct rcu_torture_ops tasks_rude_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock_trivial,
	.read_delay	= rcu_read_delay,	/* its preemption case skips: preempt_count() */
	.readunlock	= rcu_torture_read_unlock_trivial,
	.get_gp_seq	= rcu_tasks_rude_gp_completed,
	.deferred_free	= rcu_tasks_rude_torture_deferred_free,
	.sync		= synchronize_rcu_tasks_rude,
	.exp_sync	= synchronize_rcu_tasks_rude,	/* no expedited Tasks Rude RCU, as in Linux */
	.call		= call_rcu_tasks_rude,
	.cb_barrier	= rcu_barrier_tasks_rude,
	.gp_kthread_dbg	= show_rcu_tasks_rude_gp_kthread,
	.stall_dur	= tasks_rude_torture_stall_dur,
	.irq_capable	= 1,
	.name		= "tasks-rude",
};
