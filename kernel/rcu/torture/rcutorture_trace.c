/*
 * rcutorture: the "tasks-tracing" flavor, Tasks Trace RCU
 * (<rcu/rcupdate_trace.h>), Linux's name. Readers are
 * rcu_read_lock_trace() sections that, now and then, sleep inside
 * (about one read in rtp->nrealreaders * 20 ticks' worth of microseconds sleeps
 * 10 jiffies, as Linux reuses srcu_read_delay() for this flavor), so the
 * grace periods see blocked readers on the per-CPU lists as well as
 * running ones found by IPI; timer-handler readers never sleep. Built
 * with CONFIG_TASKS_TRACE_RCU (TRACE01, TRACE02).
 */
#include "rcutorture.h"
#include <rcu/rcupdate_trace.h>
#include <time/time.h>

static int tasks_tracing_torture_read_lock(void)
{
	rcu_read_lock_trace();
	return 0;
}

static void tasks_tracing_torture_read_unlock(int idx)
{
	rcu_read_unlock_trace();
}

static void tasks_tracing_torture_read_delay(struct torture_random_state *rrsp,
					     struct rt_read_seg *rtrsp)
{
	const long uspertick = 1000000 / HZ;
	const long longdelay = 10;
	/* Never with an enclosing non-sleepable section (one PREEMPT_COUNT can see). */
	bool can_sleep = in_task() && !irqs_disabled() &&
			 !(IS_ENABLED(CONFIG_PREEMPT_COUNT) && preempt_count());

	if (can_sleep && !(torture_random(rrsp) % (rtp->nrealreaders * 2 * longdelay * uspertick))) {
		schedule_timeout_interruptible(longdelay);
		rtrsp->rt_delay_jiffies = longdelay;
	} else {
		rcu_read_delay(rrsp, rtrsp);
	}
}

static void rcu_tasks_tracing_torture_deferred_free(struct rcu_torture *p)
{
	call_rcu_tasks_trace(&p->rtort_rcu, rcu_torture_cb);
}


struct rcu_torture_ops tasks_tracing_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= tasks_tracing_torture_read_lock,
	.read_delay	= tasks_tracing_torture_read_delay,
	.readunlock	= tasks_tracing_torture_read_unlock,
	.get_gp_seq	= rcu_tasks_trace_gp_completed,
	.deferred_free	= rcu_tasks_tracing_torture_deferred_free,
	.sync		= synchronize_rcu_tasks_trace,
	.exp_sync	= synchronize_rcu_tasks_trace,	/* no expedited flavor, as in Linux */
	.call		= call_rcu_tasks_trace,
	.cb_barrier	= rcu_barrier_tasks_trace,
	.stall_dur	= rcu_tasks_trace_stall_timeout,
	.stats		= rcu_tasks_trace_show_stats,
	.irq_capable	= 1,
	.slow_gps	= 1,
	.name		= "tasks-tracing",
};
