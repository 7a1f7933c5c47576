/*
 * Scheduler self-tests: the KTAP suite "sched", run at boot when the
 * command line says sched.selftest=1. It exercises what RCU relies on:
 * per-CPU kthreads, FIFO priorities and preemption, sleeping and timers,
 * wait queues and completions, mutexes, rt_mutex priority inheritance,
 * migration, idle load balancing, and kthread park/stop. The cases live next to what they test
 * (see suite.h); this file is the suite's list, in its order.
 */
#define KPARAM_SUBSYS "sched"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "suite.h"
#include <kernel/param.h>

static bool sched_selftest;
KPARAM_BOOL("sched.selftest", sched_selftest,
	    "run the scheduler self-tests (KTAP suite \"sched\") at boot");

static const struct ktap_case sched_cases[] = {
	KTAP_CASE(sched_kthread_every_cpu),
	KTAP_CASE(sched_fifo_preempt),
	KTAP_CASE(sched_fifo_order),
	KTAP_CASE(sched_msleep_accuracy),
	KTAP_CASE(sched_timer_once),
	KTAP_CASE(sched_timer_del_sync),
	KTAP_CASE(sched_timer_rearm),
	KTAP_CASE(sched_timer_idle_cpu),
	KTAP_CASE(sched_tick_skew),
	KTAP_CASE(sched_wait_event_timeout),
	KTAP_CASE(sched_completion_pingpong),
	KTAP_CASE(sched_wakeup_idle_ring),
	KTAP_CASE(sched_mutex_counter),
	KTAP_CASE(sched_rt_mutex_pi),
	KTAP_CASE(sched_rt_mutex_pi_chain),
	KTAP_CASE(sched_migrate_sleeping),
	KTAP_CASE(sched_migrate_running),
	KTAP_CASE(sched_migrate_self),
	KTAP_CASE(sched_migrate_about_to_sleep),
	KTAP_CASE(sched_migrate_keeps_on_rq),
	KTAP_CASE(sched_idle_pull_newidle),
	KTAP_CASE(sched_idle_pull_kick),
	KTAP_CASE(sched_periodic_spread),
	KTAP_CASE(sched_isolcpus_no_balance),
	KTAP_CASE(sched_pull_not_onto_dying),
	KTAP_CASE(sched_kthread_park),
	KTAP_CASE(sched_kthread_park_again),
	KTAP_CASE(sched_kthread_stop_unwoken),
	KTAP_CASE(sched_task_freed_after_gp),
};
KTAP_SUITE(sched, sched_cases, &sched_selftest);
