/*
 * The KTAP suite "cpuhp_last_cpu", run at boot with cpuhp.last_cpu_selftest=1
 * (Documentation/RCU/hotplug.md): every CPU but CPU 0 is taken offline and
 * RCU must leave that last CPU to the tasks that are not RCU's own.
 *
 * A callback that requeues itself from its own invocation (rcutorture's
 * forward-progress test queues one for seconds) makes a grace period wanted
 * as soon as the last one ended. With one CPU, that CPU's context switches
 * are the only quiescent states the grace period waits for, and with
 * rcutree.kthread_prio and CONFIG_RCU_BOOST both rcuc/0 and the grace-period
 * kthread run SCHED_FIFO. A grace period that asked for its successor at once
 * (call_rcu() from the callback) kept one of the two runnable at every
 * instant: no SCHED_NORMAL task ran again (TREE03's hang, issue 28). Here the
 * suite's own task (SCHED_NORMAL) sleeps in short steps while the callback
 * circulates, and must wake on time; the callback must keep circulating, so
 * grace periods go on. Every wait is bounded by the boot's host timeout:
 * on a kernel with the livelock the suite never prints its result.
 */
#define KPARAM_SUBSYS "cpuhp"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/cpu.h>
#include <kernel/ktap.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/atomic.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/sched.h>

static bool cpuhp_last_cpu_selftest;
KPARAM_BOOL("cpuhp.last_cpu_selftest", cpuhp_last_cpu_selftest,
	    "run the last-CPU self-test (KTAP suite \"cpuhp_last_cpu\") at boot");

#define LC_STEPS	50	/* msleep(10) steps while the callback circulates */
#define LC_MAX_MS	2000	/* all of them must be done within this */

static struct {
	struct rcu_head rh;
	int stop;		/* 1: asked to stop; 2: the callback saw it */
	atomic_t n;		/* invocations */
} lc_cb;

/* Requeues itself from its own invocation until asked to stop (rcutorture's fwd_prog_cb). */
static void lc_selfprop_cb(struct rcu_head *rhp)
{
	atomic_inc(&lc_cb.n);
	if (READ_ONCE(lc_cb.stop)) {
		WRITE_ONCE(lc_cb.stop, 2);
		return;
	}
	call_rcu(rhp, lc_selfprop_cb);
}

static const char *lc_policy(struct task_struct *t)
{
	return t && t->policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_NORMAL";
}

static void cpuhp_last_cpu_selfprop_cb(void)
{
	struct task_struct *rcuc = per_cpu(rcu_data, 0).rcu_cpu_kthread_task;
	unsigned int cpu, n = 0;
	int downed[NR_CPUS], gps;
	unsigned long t0, worst = 0, took;

	for_each_online_cpu(cpu)
		if (cpu && KTAP_EXPECT_MSG(cpu_down(cpu) == 0, "CPU %u did not go down", cpu))
			downed[n++] = cpu;
	if (num_online_cpus() != 1) {
		ktap_skip("a CPU other than 0 stayed online");
		goto up;
	}
	ktap_diag("CPU 0 alone: rcuc/0 %s, %s %s, this task %s",
		  lc_policy(rcuc), rcu_state.name, lc_policy(rcu_state.gp_kthread), lc_policy(current));
	WRITE_ONCE(lc_cb.stop, 0);
	atomic_set(&lc_cb.n, 0);
	call_rcu(&lc_cb.rh, lc_selfprop_cb);
	t0 = jiffies;
	for (int i = 0; i < LC_STEPS; i++) {
		unsigned long s = jiffies;

		msleep(10);
		if (jiffies - s > worst)
			worst = jiffies - s;
	}
	took = jiffies - t0;
	gps = atomic_read(&lc_cb.n);
	WRITE_ONCE(lc_cb.stop, 1);
	rcu_barrier();		/* the callback sees the flag and is not requeued */
	ktap_diag("%d msleep(10) steps took %lu ms (longest %lu ms); the callback went round %d times",
		  LC_STEPS, jiffies_to_msecs(took), jiffies_to_msecs(worst), gps);
	KTAP_EXPECT_MSG(jiffies_to_msecs(took) < LC_MAX_MS, "SCHED_NORMAL starved: %lu ms",
			jiffies_to_msecs(took));
	KTAP_EXPECT_MSG(gps >= 10, "grace periods stalled: the callback went round %d times", gps);
	KTAP_EXPECT(READ_ONCE(lc_cb.stop) == 2);
up:
	while (n)
		KTAP_EXPECT(cpu_up(downed[--n]) == 0);
}

static const struct ktap_case cpuhp_last_cpu_cases[] = {
	KTAP_CASE(cpuhp_last_cpu_selfprop_cb),
};
KTAP_SUITE(cpuhp_last_cpu, cpuhp_last_cpu_cases, &cpuhp_last_cpu_selftest);
