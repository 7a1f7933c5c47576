/*
 * KTAP suite "rcu_exp": expedited grace periods (tree_exp.c) and the
 * expedite steering (update.c), run at boot with rcutree.selftest=1
 * (CONFIG_RCU_SELFTEST), after the "rcu" suite.
 *
 * Cases: a call returns and counts one expedited grace period; callers
 * queued during one grace period share the next one (exp_coalescing); many
 * callers on every CPU at once all get a full grace period through the
 * funnel (exp_funnel); a reader on another CPU holds it up until the reader
 * ends; idle CPUs are skipped rather than sent IPIs; polling cookies are
 * served by expedited grace periods; rcu_expedite_gp() steers
 * synchronize_rcu(). No case asserts on timing (TCG vCPUs can stall for
 * tens of milliseconds); durations are printed as diagnostics.
 */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <time/delay.h>
#include <kernel/atomic.h>
#include <kernel/printk.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>

/* api.c's rcutree.selftest gates both suites. */
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

/*
 * Callers that all take their snapshot while one expedited grace period is
 * held open by a reader need the same next grace period, so exactly one of
 * them runs it. The reader is released only once every caller has queued
 * (in the funnel or on exp_mutex, as counted by rcu_exp_funnel_stats()), so
 * nothing here depends on how the host schedules the vCPUs.
 */
#define EST_WAITERS	8

static struct completion est_first_go, est_go, est_done, est_hold_done;
static atomic_t est_left;
static int est_hold_in, est_hold_release;

/* The reader: spins in rcu_read_lock() on its own CPU until released (10 s at most). */
static int est_holder(void *unused)
{
	u64 deadline = local_clock() + 10ULL * NSEC_PER_SEC;

	rcu_read_lock();
	WRITE_ONCE(est_hold_in, 1);
	while (!READ_ONCE(est_hold_release) && local_clock() < deadline)
		cpu_relax();
	rcu_read_unlock();
	complete(&est_hold_done);
	return 0;
}

static int est_waiter(void *first)
{
	wait_for_completion(first ? &est_first_go : &est_go);
	synchronize_rcu_expedited();
	if (atomic_dec_and_test(&est_left))
		complete(&est_done);
	return 0;
}

/* Funnel arrivals so far: callers queued at a node or gone for the mutex, or done. */
static unsigned long est_arrivals(void)
{
	struct rcu_exp_funnel_stats st;

	rcu_exp_funnel_stats(&st);
	return st.reached_root + st.node_waits + st.done_early;
}

/* Poll (1 ms steps, up to EST_TIMEOUT_MS) until cond holds; returns it. */
#define est_poll(cond) ({							\
	unsigned long __dl = jiffies + msecs_to_jiffies(EST_TIMEOUT_MS);	\
	while (!(cond) && time_before(jiffies, __dl))				\
		msleep(1);							\
	(cond);									\
})

static void exp_coalescing_body(unsigned int hold_cpu);

/*
 * The controller must not share the reader's CPU: the reader spins there
 * without a preemption point (PREEMPT_NONE: rcu_read_lock() disables
 * preemption) until the controller releases it, so a controller queued
 * behind it would stall the case for the reader's 10-s limit (seen under
 * make check at -smp 2: the case sat from 2 s to the power-off at 12 s).
 * So run pinned to another CPU.
 */
static void exp_coalescing(void)
{
	unsigned int hold_cpu = 0, cpu;
	struct cpumask saved;

	if (!est_smp())
		return;
	for_each_online_cpu(cpu)
		hold_cpu = cpu;
	ktest_pin_current(cpumask_first(cpu_online_mask), &saved);
	exp_coalescing_body(hold_cpu);
	ktest_unpin_current(&saved);
}

static void exp_coalescing_body(unsigned int hold_cpu)
{
	unsigned int cpu, n = 0;
	struct rcu_exp_funnel_stats st0, st;
	unsigned long gps0, gps, arr0;
	struct task_struct *t;
	bool ok;

	init_completion(&est_first_go);
	init_completion(&est_go);
	init_completion(&est_done);
	init_completion(&est_hold_done);
	atomic_set(&est_left, EST_WAITERS + 1);
	WRITE_ONCE(est_hold_in, 0);
	WRITE_ONCE(est_hold_release, 0);
	/* The first caller, then EST_WAITERS more, round-robin over every CPU but the reader's. */
	cpu = hold_cpu;
	for (int i = 0; i <= EST_WAITERS; i++) {
		do {
			cpu = cpumask_next(cpu, cpu_online_mask);
			if (cpu >= nr_cpu_ids)
				cpu = cpumask_first(cpu_online_mask);
		} while (cpu == hold_cpu);
		t = kthread_create_on_cpu(est_waiter, i ? NULL : (void *)1, cpu, "rcu_exp_st/%u");
		if (!KTAP_EXPECT_MSG(t != NULL, "cannot create caller %d", i))
			return;	/* the created ones stay blocked: a boot test, it powers off */
		wake_up_process(t);
		n++;
	}
	t = kthread_create_on_cpu(est_holder, NULL, hold_cpu, "rcu_exp_hold/%u");
	if (!KTAP_EXPECT_MSG(t != NULL, "cannot create the reader"))
		return;
	wake_up_process(t);
	if (!KTAP_EXPECT_MSG(est_poll(READ_ONCE(est_hold_in)), "the reader never started"))
		return;

	rcu_exp_funnel_stats(&st0);
	gps0 = rcu_exp_gp_completed();
	arr0 = est_arrivals();
	/* First caller: its grace period starts and waits for the reader. */
	complete(&est_first_go);
	ok = est_poll(rcu_seq_state(rcu_seq_current(&rcu_state.expedited_sequence)) &&
		      est_arrivals() != arr0);
	KTAP_EXPECT_MSG(ok, "the first caller's expedited grace period did not start");
	/* The others snapshot inside it: they all need the one after it. */
	complete_all(&est_go);
	ok = ok && est_poll(est_arrivals() - arr0 >= n);
	KTAP_EXPECT_MSG(ok, "only %lu of %u callers reached the funnel", est_arrivals() - arr0, n);
	rcu_exp_funnel_stats(&st);
	WRITE_ONCE(est_hold_release, 1);
	wait_for_completion(&est_hold_done);
	if (!KTAP_EXPECT_MSG(wait_for_completion_timeout(&est_done, msecs_to_jiffies(EST_TIMEOUT_MS)),
			     "%d callers still in synchronize_rcu_expedited() after %u ms",
			     atomic_read(&est_left), EST_TIMEOUT_MS))
		return;
	gps = rcu_exp_gp_completed() - gps0;
	ktap_diag("%u callers queued behind a reader: %lu expedited grace periods (2 needed); "
		  "%lu reached the root, %lu waited at a node, %lu done early", n, gps,
		  st.reached_root - st0.reached_root, st.node_waits - st0.node_waits,
		  st.done_early - st0.done_early);
	if (!ok)
		return;
	/*
	 * Two are needed (the first caller's, then one for everyone else);
	 * each further caller that ran its own would show here. Half the
	 * callers leaves room for an unrelated expedited caller and still
	 * fails if callers stopped sharing.
	 */
	KTAP_EXPECT_MSG(gps >= 2 && gps <= n / 2,
			"%u callers snapshotted in one grace period ran %lu expedited grace periods",
			n, gps);
	KTAP_EXPECT_MSG(st.reached_root - st0.reached_root <= n / 2,
			"%lu of %u queued callers went for exp_mutex", st.reached_root - st0.reached_root, n);
}

/* --- the funnel under load ------------------------------------------------------------ */

#define EST_PER_CPU	4
#define EST_CALLS	10

static atomic_t est_bad;
static atomic_t est_calls_done;		/* calls returned so far: the funnel's progress */

/* All of exp_funnel's calls, on a host that starves the vCPUs: 3 * EST_TIMEOUT_MS at most. */
#define EST_FUNNEL_MAX_MS	(3 * EST_TIMEOUT_MS)

/* Each call: the expedited sequence must have completed a grace period since before the call. */
static int est_hammer(void *unused)
{
	wait_for_completion(&est_go);
	for (int i = 0; i < EST_CALLS; i++) {
		unsigned long s = rcu_seq_snap(&rcu_state.expedited_sequence);

		synchronize_rcu_expedited();
		if (!rcu_seq_done(&rcu_state.expedited_sequence, s))
			atomic_inc(&est_bad);
		atomic_inc(&est_calls_done);
		if (i & 1)
			cond_resched();
	}
	if (atomic_dec_and_test(&est_left))
		complete(&est_done);
	return 0;
}

/*
 * Wait for exp_funnel's callers. A stuck funnel fails: no call returned
 * for EST_TIMEOUT_MS. A slow one does not: under KCSAN on a loaded host an
 * expedited IPI took 1.7 s to be delivered at -smp 8 and 320 calls needed
 * more than 20 s while returning all along. *ms: how long it took.
 */
static bool est_funnel_wait(unsigned long *ms)
{
	unsigned long start = jiffies;
	int done = atomic_read(&est_calls_done);

	for (;;) {
		bool ok = wait_for_completion_timeout(&est_done, msecs_to_jiffies(EST_TIMEOUT_MS));
		int now = atomic_read(&est_calls_done);

		*ms = jiffies_to_msecs(jiffies - start);
		if (ok)
			return true;
		if (now == done || *ms >= EST_FUNNEL_MAX_MS)
			return false;
		done = now;
	}
}

/*
 * EST_PER_CPU kthreads on every CPU, EST_CALLS calls each, all at once:
 * every call must return after a full expedited grace period, every call
 * must leave the funnel one of the counted ways, and only callers that
 * reached the root ran grace periods. How many coalesced depends on the
 * host's scheduling: printed, not asserted (exp_coalescing asserts it).
 */
static void exp_funnel(void)
{
	struct rcu_exp_funnel_stats st0, st;
	unsigned int cpu, n = 0;
	struct task_struct *t;
	unsigned long gps0, gps, calls, left, ms;

	if (!est_smp())
		return;
	init_completion(&est_go);
	init_completion(&est_done);
	atomic_set(&est_left, EST_PER_CPU * num_online_cpus());
	atomic_set(&est_bad, 0);
	atomic_set(&est_calls_done, 0);
	for_each_online_cpu(cpu) {
		for (int i = 0; i < EST_PER_CPU; i++) {
			t = kthread_create_on_cpu(est_hammer, NULL, cpu, "rcu_exp_fn/%u");
			if (!KTAP_EXPECT_MSG(t != NULL, "cannot create caller %u on CPU %u", i, cpu))
				return;
			wake_up_process(t);
			n++;
		}
	}
	calls = (unsigned long)n * EST_CALLS;
	rcu_exp_funnel_stats(&st0);
	gps0 = rcu_exp_gp_completed();
	complete_all(&est_go);
	if (!KTAP_EXPECT_MSG(est_funnel_wait(&ms),
			     "%d of %u callers still in synchronize_rcu_expedited() after %lu ms "
			     "(%d of %lu calls returned)", atomic_read(&est_left), n, ms,
			     atomic_read(&est_calls_done), calls))
		return;
	gps = rcu_exp_gp_completed() - gps0;
	rcu_exp_funnel_stats(&st);
	st.reached_root -= st0.reached_root;
	st.ran_gp -= st0.ran_gp;
	st.node_waits -= st0.node_waits;
	st.done_early -= st0.done_early;
	left = st.reached_root + st.node_waits + st.done_early;
	ktap_diag("%u kthreads x %u calls on %u CPUs in %lu ms: %lu expedited grace periods; %lu "
		  "reached the root (%lu ran one), %lu waited at a node, %lu done early", n, EST_CALLS,
		  num_online_cpus(), ms, gps, st.reached_root, st.ran_gp, st.node_waits,
		  st.done_early);
	KTAP_EXPECT_MSG(!atomic_read(&est_bad), "%d calls returned before a full expedited grace period",
			atomic_read(&est_bad));
	/* Others may call too (the counts are global): at least ours, and each GP run by a root caller. */
	KTAP_EXPECT_MSG(left >= calls, "%lu calls counted leaving the funnel, %lu made", left, calls);
	KTAP_EXPECT_MSG(gps == st.ran_gp && gps >= 1,
			"%lu expedited grace periods but %lu callers ran one", gps, st.ran_gp);
	KTAP_EXPECT_MSG(st.ran_gp <= st.reached_root, "%lu ran a grace period, %lu reached the root",
			st.ran_gp, st.reached_root);
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
 * The IPI finds the reader and defers that CPU's report (counted); the
 * latency breakdown (rcu_exp_latency()) measures the grace period and
 * counts the deferred report when the reader ends (reporting zero
 * deferrals for a handler that deferred one is the failure).
 */
static void exp_waits_for_reader(void)
{
	unsigned int me = raw_smp_processor_id(), cpu;
	struct rcu_exp_latency l0, l1;
	struct task_struct *t;
	unsigned long deferred, reports;
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
	reports = READ_ONCE(per_cpu(rcu_data, cpu).n_exp_deferred_reports);
	rcu_exp_latency(&l0);
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
	deferred = READ_ONCE(per_cpu(rcu_data, cpu).n_exp_deferred) - deferred;
	reports = READ_ONCE(per_cpu(rcu_data, cpu).n_exp_deferred_reports) - reports;
	rcu_exp_latency(&l1);
	ktap_diag("reader on CPU %u: %lu deferred expedited reports, %lu counted when made", cpu,
		  deferred, reports);
	KTAP_EXPECT_MSG(l1.gps > l0.gps, "no expedited grace period measured (%lu before, %lu after)",
			l0.gps, l1.gps);
	/* The reader has ended, and with it every deferral its CPU's handler made. */
	if (deferred)
		KTAP_EXPECT_MSG(reports >= 1 && l1.deferred > l0.deferred,
				"the handler deferred %lu reports on CPU %u, %lu counted (%lu in all)",
				deferred, cpu, reports, l1.deferred - l0.deferred);
	else
		ktap_diag("the IPI reached CPU %u after the reader (a stalled vCPU): nothing deferred",
			  cpu);
	ktap_diag("deferred report %llu us after its IPI (max since boot), IPI delivery max %llu us",
		  (unsigned long long)(l1.defer_max_ns / 1000),
		  (unsigned long long)(l1.ipi_max_ns / 1000));
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
 *
 * The full-state cookie always (its expedited half, Linux's guarantee).
 * The plain cookie when it was taken with no polled phase open: a cookie
 * taken while a normal grace period's phase is open names the end of the
 * phase after it, and an expedited grace period closes only the phase it
 * found open (it cannot tell that cookie from one taken after it started),
 * so that cookie waits for the next grace period; Linux 6.1's expedited
 * grace periods complete no plain cookie at all. (The one-CPU trivial wait
 * completes both: exp_polling_open_phase.)
 */
static void exp_polling(void)
{
	struct rcu_gp_oldstate rgos;
	unsigned long cookie, p0, p1;
	unsigned long deadline;

	get_state_synchronize_rcu_full(&rgos);
	p0 = READ_ONCE(rcu_state.gp_seq_polled);
	cookie = get_state_synchronize_rcu();
	p1 = READ_ONCE(rcu_state.gp_seq_polled);
	synchronize_rcu_expedited();
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu_full(&rgos),
			"full cookie from before synchronize_rcu_expedited() not done after it");
	if (p0 == p1 && !rcu_seq_state(p0))
		KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
				"cookie %#lx (no phase open) from before synchronize_rcu_expedited() not done after it",
				cookie);
	else
		ktap_diag("a normal grace period's polled phase was open (%#lx): plain cookie not checked", p0);
	cookie = start_poll_synchronize_rcu();
	deadline = jiffies + msecs_to_jiffies(EST_TIMEOUT_MS);
	while (!poll_state_synchronize_rcu(cookie) && time_before(jiffies, deadline))
		msleep(1);
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
			"start_poll_synchronize_rcu() cookie %#lx not done after %u ms", cookie,
			EST_TIMEOUT_MS);
}

/*
 * One CPU: synchronize_rcu_expedited() is the trivial wait (no other CPU
 * can hold a reader). A cookie taken while a normal grace period's polled
 * phase is open names the end of the phase after it; the trivial wait is a
 * full grace period after the cookie, so the cookie must be done after it.
 * The open phase is made here as rcu_gp_init() makes it (poll_lock,
 * rcu_seq_start()), so the case does not depend on catching a real grace
 * period in the act; a real one that starts meanwhile changes nothing.
 */
static void exp_polling_open_phase(void)
{
	unsigned long cookie, flags;

	/*
	 * Preemptible RCU never takes the trivial wait once the scheduler runs
	 * (a reader may be preempted on this very CPU): its expedited grace
	 * period then closes only the phase it found open, and a cookie of
	 * that phase waits for the next, as in Linux.
	 */
	if (num_online_cpus() != 1 || IS_ENABLED(CONFIG_PREEMPT_RCU) || rcu_gp_is_normal()) {
		ktap_skip("needs 1 CPU and non-preemptible RCU (the trivial wait), no rcupdate.rcu_normal");
		return;
	}
	raw_spin_lock_irqsave(&rcu_state.poll_lock, flags);
	if (!rcu_seq_state(rcu_state.gp_seq_polled))
		rcu_seq_start(&rcu_state.gp_seq_polled);
	raw_spin_unlock_irqrestore(&rcu_state.poll_lock, flags);
	cookie = get_state_synchronize_rcu();
	synchronize_rcu_expedited();
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
			"cookie %#lx taken in an open phase not done after the trivial wait (polled %#lx)",
			cookie, READ_ONCE(rcu_state.gp_seq_polled));
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
	KTAP_CASE(exp_funnel),
	KTAP_CASE(exp_waits_for_reader),
	KTAP_CASE(exp_idle_skip),
	KTAP_CASE(exp_polling),
	KTAP_CASE(exp_polling_open_phase),
	KTAP_CASE(exp_expedite_nesting),
};
KTAP_SUITE(rcu_exp, rcu_exp_cases, &rcu_selftest);
