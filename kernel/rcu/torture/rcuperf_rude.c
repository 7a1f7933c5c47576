/*
 * rcuperf: the "tasks-rude" flavor (CONFIG_TASKS_RUDE_RCU), as Linux's
 * rcuscale tasks_rude_ops: the readers' section is empty (the reader loop
 * runs it with interrupts off, itself a Tasks Rude reader), the waits are
 * synchronize_rcu_tasks_rude() (also for gp_exp: there is no expedited
 * form), call_rcu_tasks_rude() round trips and rcu_barrier_tasks_rude().
 */
#include <rcu/tasks_rude.h>
#include "rcu_perf_common.h"

static int tasks_rude_perf_read_lock(void)
{
	return 0;
}

static void tasks_rude_perf_read_unlock(int idx)
{
}

const struct rcu_perf_ops tasks_rude_perf_ops = {
	.name		= "tasks-rude",
	.readlock	= tasks_rude_perf_read_lock,
	.readunlock	= tasks_rude_perf_read_unlock,
	.get_gp_seq	= rcu_tasks_rude_gp_completed,
	.sync		= synchronize_rcu_tasks_rude,
	.exp_sync	= synchronize_rcu_tasks_rude,
	.async		= call_rcu_tasks_rude,
	.gp_barrier	= rcu_barrier_tasks_rude,
};
