/*
 * KTAP suite "rcu_exp": expedited grace periods (tree_exp.c) and the
 * expedite steering (update.c), run at boot with rcutree.selftest=1
 * (CONFIG_RCU_SELFTEST), after the "rcu" suite.
 *
 * Cases: a call returns and counts one expedited grace period; concurrent
 * callers coalesce; a reader on another CPU holds it up until the reader
 * ends; idle CPUs are skipped rather than sent IPIs; polling cookies are
 * served by expedited grace periods; rcu_expedite_gp() steers
 * synchronize_rcu(). No case asserts on timing (TCG vCPUs can stall for
 * tens of milliseconds); durations are printed as diagnostics.
 */
#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/delay.h>
#include <kernel/atomic.h>
#include <kernel/printk.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>

/* selftest.c's rcutree.selftest gates both suites. */
extern bool rcu_selftest;

#define EST_TIMEOUT_MS	20000

static bool est_smp(void)
{
	if (num_online_cpus() >= 2 && !rcu_gp_is_normal())
		return true;
	ktap_skip("needs 2 CPUs and no rcupdate.rcu_normal");
	return false;
}

/* One call: returns, and is one expedited grace period (or served by one). */
static void exp_sync_returns(void)
{
	unsigned long before;
	u64 t0, ns;

	if (!est_smp())
		return;
	before = rcu_exp_gp_completed();
	t0 = local_clock();
	synchronize_rcu_expedited();
	ns = local_clock() - t0;
	KTAP_EXPECT_MSG(rcu_exp_gp_completed() != before,
			"no expedited grace period counted (still %lu)", before);
	ktap_diag("synchronize_rcu_expedited() took %llu us", (unsigned long long)(ns / 1000));
}

/* --- coalescing ------------------------------------------------------------------- */

#define EST_THREADS	4
#define EST_CALLS	20

static atomic_t est_left;
static struct completion est_done;
static struct completion est_go;
static int est_churn_stop, est_churn_running;

static int est_caller(void *unused)
{
	wait_for_completion(&est_go);
	for (int i = 0; i < EST_CALLS; i++)
		synchronize_rcu_expedited();
	if (atomic_dec_and_test(&est_left))
		complete(&est_done);
	return 0;
}

/*
 * Back-to-back 2 ms readers: nearly every expedited grace period has to
 * wait for one to end, long enough for the other callers to queue up even
 * when single-threaded TCG runs the vCPUs one at a time.
 */
static int est_churn(void *unused)
{
	while (!READ_ONCE(est_churn_stop)) {
		WRITE_ONCE(est_churn_running, 1);
		rcu_read_lock();
		mdelay(2);
		rcu_read_unlock();
		cond_resched();
	}
	complete(&est_done);
	return 0;
}

/*
 * EST_THREADS kthreads make EST_CALLS calls each at the same time, while
 * another CPU runs back-to-back readers so that each grace period lasts
 * a while: a caller arriving while one runs shares the next one, so far
 * fewer than EST_THREADS * EST_CALLS run. At least a quarter must be
 * saved (measured: well over half). Without the readers an idle-guest
 * grace period is so short that callers rarely overlap (printed too).
 */
static unsigned long est_burst(bool churn, unsigned int *ncallers)
{
	unsigned int last = 0, cpu, n = 0;
	struct task_struct *t;
	unsigned long before;

	for_each_online_cpu(cpu)
		last = cpu;
	atomic_set(&est_left, EST_THREADS);
	init_completion(&est_done);
	init_completion(&est_go);
	WRITE_ONCE(est_churn_stop, 0);
	WRITE_ONCE(est_churn_running, 0);
	if (churn) {
		t = kthread_create_on_cpu(est_churn, NULL, last, "rcu_exp_churn/%u");
		if (!KTAP_EXPECT_MSG(t != NULL, "cannot create the reader"))
			return 0;
		wake_up_process(t);
		while (!READ_ONCE(est_churn_running))	/* the burst must meet the readers */
			msleep(1);
	}
	cpu = last;
	for (int i = 0; i < EST_THREADS; i++) {
		do {	/* round-robin over the CPUs, leaving the readers' CPU alone if churning */
			cpu = cpumask_next(cpu, cpu_online_mask);
			if (cpu >= nr_cpu_ids)
				cpu = cpumask_first(cpu_online_mask);
		} while (churn && cpu == last);
		t = kthread_create_on_cpu(est_caller, NULL, cpu, "rcu_exp_st/%u");
		if (!KTAP_EXPECT_MSG(t != NULL, "cannot create caller %d", i))
			break;	/* the created ones stay blocked on est_go: a boot test, it powers off */
		wake_up_process(t);
		n++;
	}
	if (n < EST_THREADS) {
		WRITE_ONCE(est_churn_stop, 1);
		return 0;
	}
	before = rcu_exp_gp_completed();
	complete_all(&est_go);
	if (!KTAP_EXPECT_MSG(wait_for_completion_timeout(&est_done, msecs_to_jiffies(EST_TIMEOUT_MS)),
			     "%d callers still in synchronize_rcu_expedited() after %u ms",
			     atomic_read(&est_left), EST_TIMEOUT_MS))
		return 0;
	before = rcu_exp_gp_completed() - before;
	if (churn) {
		init_completion(&est_done);
		WRITE_ONCE(est_churn_stop, 1);
		wait_for_completion(&est_done);
	}
	*ncallers = n;
	return before;
}

static void exp_coalescing(void)
{
	unsigned int n = EST_THREADS * EST_CALLS, callers = 0;
	unsigned long gps;

	if (!est_smp())
		return;
	gps = est_burst(false, &callers);
	if (!callers)
		return;
	ktap_diag("%u concurrent calls, no readers: %lu expedited grace periods", n, gps);
	gps = est_burst(true, &callers);
	if (!callers)
		return;
	KTAP_EXPECT_MSG(gps >= 1 && gps <= n * 3 / 4,
			"%u concurrent calls ran %lu expedited grace periods", n, gps);
	ktap_diag("%u concurrent calls, readers on another CPU: %lu expedited grace periods", n, gps);
}

/* --- a reader holds it up ------------------------------------------------------------- */

#define EST_READER_MS	50

static int est_reader_in, est_reader_out;
static struct completion est_reader_done;

static int est_reader(void *unused)
{
	rcu_read_lock();
	WRITE_ONCE(est_reader_in, 1);
	mdelay(EST_READER_MS);
	smp_mb();	/* the flag after every access of the reader */
	WRITE_ONCE(est_reader_out, 1);
	rcu_read_unlock();
	complete(&est_reader_done);
	return 0;
}

/*
 * A reader on another CPU spins EST_READER_MS inside rcu_read_lock(); an
 * expedited grace period started inside it may not end before it does.
 * The IPI finds the reader and defers that CPU's report (counted).
 */
static void exp_waits_for_reader(void)
{
	unsigned int me = raw_smp_processor_id(), cpu;
	struct task_struct *t;
	unsigned long deferred;
	bool out;

	if (!est_smp())
		return;
	cpu = cpumask_next(me, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	WRITE_ONCE(est_reader_in, 0);
	WRITE_ONCE(est_reader_out, 0);
	init_completion(&est_reader_done);
	deferred = READ_ONCE(per_cpu(rcu_data, cpu).n_exp_deferred);
	t = kthread_create_on_cpu(est_reader, NULL, cpu, "rcu_exp_rd/%u");
	if (!KTAP_EXPECT_MSG(t != NULL, "cannot create the reader"))
		return;
	wake_up_process(t);
	while (!READ_ONCE(est_reader_in))
		cond_resched();
	synchronize_rcu_expedited();
	smp_mb();	/* read the flag after the grace period */
	out = READ_ONCE(est_reader_out);
	KTAP_EXPECT_MSG(out, "synchronize_rcu_expedited() returned inside a %u ms reader on CPU %u",
			EST_READER_MS, cpu);
	wait_for_completion(&est_reader_done);
	ktap_diag("reader on CPU %u: %lu deferred expedited reports", cpu,
		  READ_ONCE(per_cpu(rcu_data, cpu).n_exp_deferred) - deferred);
}

/* --- idle CPUs get no IPI ----------------------------------------------------------- */

#define EST_IDLE_GPS	20

/*
 * With the other CPUs idle, a burst of expedited grace periods skips them
 * (dyntick-idle) instead of sending IPIs. An idle CPU handling an
 * interrupt at the moment of the scan is not idle, so a few IPIs may go
 * out; at least half the possible ones must be skipped.
 */
static void exp_idle_skip(void)
{
	unsigned long skips, ipis = 0, possible;
	static unsigned long ipis0[NR_CPUS];
	unsigned int me, cpu;

	if (!est_smp())
		return;
	rcu_barrier();		/* no callbacks: idle CPUs can stop their ticks */
	msleep(50);
	preempt_disable();	/* the caller's CPU is never sent an IPI; stay on it */
	me = raw_smp_processor_id();
	preempt_enable();
	for_each_online_cpu(cpu)
		ipis0[cpu] = READ_ONCE(per_cpu(rcu_data, cpu).n_exp_ipis);
	skips = READ_ONCE(rcu_state.n_exp_idle_skips);
	for (int i = 0; i < EST_IDLE_GPS; i++)
		synchronize_rcu_expedited();
	skips = READ_ONCE(rcu_state.n_exp_idle_skips) - skips;
	for_each_online_cpu(cpu)
		if (cpu != me)
			ipis += READ_ONCE(per_cpu(rcu_data, cpu).n_exp_ipis) - ipis0[cpu];
	possible = EST_IDLE_GPS * (num_online_cpus() - 1);
	KTAP_EXPECT_MSG(skips >= possible / 2 && ipis <= possible / 2,
			"%u grace periods: %lu idle skips, %lu IPIs to the other %u CPUs",
			EST_IDLE_GPS, skips, ipis, num_online_cpus() - 1);
	ktap_diag("%u grace periods with %u other CPUs idle: %lu skips, %lu IPIs", EST_IDLE_GPS,
		  num_online_cpus() - 1, skips, ipis);
}

/* --- polling ------------------------------------------------------------------------- */

/*
 * A cookie taken before an expedited grace period is done after it; a
 * polled grace period requested with start_poll_synchronize_rcu() still
 * completes through the normal machinery.
 */
static void exp_polling(void)
{
	unsigned long cookie;
	unsigned long deadline;

	cookie = get_state_synchronize_rcu();
	synchronize_rcu_expedited();
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
			"cookie %#lx from before synchronize_rcu_expedited() not done after it", cookie);
	cookie = start_poll_synchronize_rcu();
	deadline = jiffies + msecs_to_jiffies(EST_TIMEOUT_MS);
	while (!poll_state_synchronize_rcu(cookie) && time_before(jiffies, deadline))
		msleep(1);
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
			"start_poll_synchronize_rcu() cookie %#lx not done after %u ms", cookie,
			EST_TIMEOUT_MS);
}

/* --- rcu_expedite_gp() ------------------------------------------------------------------- */

/* rcu_expedite_gp() makes synchronize_rcu() expedited (unless rcu_normal); nesting unwinds. */
static void exp_expedite_nesting(void)
{
	bool was = rcu_gp_is_expedited();
	unsigned long before;

	rcu_expedite_gp();
	rcu_expedite_gp();
	KTAP_EXPECT(rcu_gp_is_expedited());
	rcu_unexpedite_gp();
	KTAP_EXPECT(rcu_gp_is_expedited());
	if (num_online_cpus() >= 2 && !rcu_gp_is_normal()) {
		before = rcu_exp_gp_completed();
		synchronize_rcu();
		KTAP_EXPECT_MSG(rcu_exp_gp_completed() != before,
				"synchronize_rcu() under rcu_expedite_gp() ran no expedited grace period");
	}
	rcu_unexpedite_gp();
	KTAP_EXPECT(rcu_gp_is_expedited() == was);
}

static const struct ktap_case rcu_exp_cases[] = {
	KTAP_CASE(exp_sync_returns),
	KTAP_CASE(exp_coalescing),
	KTAP_CASE(exp_waits_for_reader),
	KTAP_CASE(exp_idle_skip),
	KTAP_CASE(exp_polling),
	KTAP_CASE(exp_expedite_nesting),
};
KTAP_SUITE(rcu_exp, rcu_exp_cases, &rcu_selftest);
