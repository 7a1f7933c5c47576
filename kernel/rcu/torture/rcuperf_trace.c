/*
 * rcuperf's "tasks-tracing" flavor (Linux's rcuscale name): writers time
 * synchronize_rcu_tasks_trace() (also for gp_exp=1: there is no expedited
 * Tasks Trace grace period, as in Linux) or call_rcu_tasks_trace() round
 * trips; readers spin through empty rcu_read_lock_trace() sections.
 */
#include "rcu_perf_common.h"
#include <rcu/rcupdate_trace.h>

static int tasks_trace_perf_read_lock(void)
{
	rcu_read_lock_trace();
	return 0;
}

static void tasks_trace_perf_read_unlock(int idx)
{
	rcu_read_unlock_trace();
}

const struct rcu_perf_ops tasks_tracing_perf_ops = {
	.readlock	= tasks_trace_perf_read_lock,
	.readunlock	= tasks_trace_perf_read_unlock,
	.get_gp_seq	= rcu_tasks_trace_gp_completed,
	.async		= call_rcu_tasks_trace,
	.gp_barrier	= rcu_barrier_tasks_trace,
	.sync		= synchronize_rcu_tasks_trace,
	.exp_sync	= synchronize_rcu_tasks_trace,
	.name		= "tasks-tracing",
};
