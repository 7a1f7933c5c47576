/*
 * KTAP suite "nohz_full": full dynticks (CONFIG_NO_HZ_FULL) and RCU on
 * nohz_full CPUs, run at boot with rcutree.nohz_full_selftest=1.
 *
 *  - nohz_full_user_spin: the measurement. A user-mode spinner
 *    (user_spin.h) on every nohz_full CPU for rcutree.nohz_full_secs
 *    seconds while this thread, on a housekeeping CPU, runs
 *    synchronize_rcu() in a loop. Prints each CPU's local timer
 *    interrupts over the run, the grace periods completed and their
 *    median latency, then NF_EXP_GPS expedited grace periods. With
 *    nohz_full= given it checks counts: no function-call IPI, at most
 *    NF_MAX_TICKS local timer interrupts per spinning CPU, grace periods
 *    completed, each spinning CPU credited from its dynticks counter and
 *    sent no resched IPI and no forced tick by RCU. Without nohz_full=
 *    the spinners run on CPUs 1..N-1 and only the figures are printed
 *    (the comparison: the full tick rate).
 *  - nohz_full_user_program: the same measurement with a real ring-3
 *    program (user/spin.c, started bound to each CPU with
 *    user_run_program()) instead of the kthread spinner: system calls,
 *    interrupts from ring 3 and the return to user mode take the entry
 *    code's context tracking, not the emulation's.
 *  - nohz_full_second_task: a second CPU-bound task woken on a spinning
 *    CPU sets TICK_DEP_BIT_SCHED; the restarted tick time-slices the two
 *    (the spinner progresses while the other never yields voluntarily);
 *    once it exits the tick stops again.
 *  - nohz_full_timer: a timer armed from another CPU on a spinning CPU
 *    whose tick is stopped still runs, on that CPU.
 *  - nohz_full_kernel_loop: a task looping in the kernel on a nohz_full
 *    CPU (tick stopped, not in user mode) does not hold grace periods up
 *    for good: after rcutree.jiffies_till_sched_qs RCU sets
 *    TICK_DEP_BIT_RCU, the tick reports its quiescent state.
 *
 *  - nohz_full_tasks_rcu: with Tasks RCU, synchronize_rcu_tasks()
 *    completes while a spinner that never switches stays in user mode.
 *
 * rcutree.nohz_full_stall_secs=N (separate from the suite) makes a
 * kthread on the last nohz_full CPU loop in the kernel with preemption
 * disabled for N seconds: RCU must report a CPU stall for it.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "common.h"
#include "../tree.h"	/* a Tree-only suite (test/Kbuild): it reads rcu_data */
#include "user_spin.h"
#include <kernel/param.h>
#include <kernel/sort.h>
#include <kernel/init.h>
#include <sched/isolation.h>
#include <time/tick.h>
#include <time/timer.h>
#include <rcu/tasks.h>
#include <kernel/context_tracking.h>
#include <kernel/user.h>
#include <kernel/sprintf.h>

static bool nohz_full_selftest;
KPARAM_BOOL("rcutree.nohz_full_selftest", nohz_full_selftest,
	    "run the full-dynticks self-tests (KTAP suite \"nohz_full\") at boot");
static int nohz_full_secs = 2;
KPARAM_CLAMP("rcutree.nohz_full_secs", nohz_full_secs, KPARAM_INT, 1, 60,
	     "seconds the nohz_full suite's user-mode spinners run while synchronize_rcu() loops");
static int nohz_full_stall_secs;
KPARAM("rcutree.nohz_full_stall_secs", nohz_full_stall_secs, KPARAM_INT, 0, 300,
       "test: loop this many seconds in the kernel, preemption off, on the last nohz_full CPU after boot");

/*
 * Local timer interrupts a spinning nohz_full CPU may take over the run,
 * whatever its length: the ticks until its first interrupt exit with one
 * task, a few restarts (a kthread briefly woken there at the start or the
 * end). The budget is ~10 in 10 s; Linux's residual 1 Hz tick
 * alone would use it up.
 */
#define NF_MAX_TICKS		10
#define NF_MAX_SAMPLES		8192
#define NF_WAIT_MS		10000
#define NF_EXP_GPS		100	/* expedited grace periods after the normal ones */

static struct user_spin nf_spin[NR_CPUS];
static u64 nf_lat_ns[NF_MAX_SAMPLES];
/* nohz_full_user_program: real processes (user/spin.c) instead of nf_spin[], and how many ended before. */
static bool nf_real;
static int nf_real_exited0;

/* The CPUs that spin: the nohz_full ones, or without nohz_full= CPUs 1..N-1 (the comparison). */
static void nf_spin_cpus(struct cpumask *m)
{
	unsigned int cpu;

	cpumask_clear(m);
	for_each_online_cpu(cpu)
		if (tick_nohz_full_enabled() ? tick_nohz_full_cpu(cpu) : cpu != 0)
			cpumask_set_cpu(cpu, m);
}

/*
 * Start user/spin.c on each CPU of m, for longer than the measurement, and
 * wait until each has returned to user mode; then past its ~20 ms of
 * clock_gettime() calls (it times its spin with the TSC).
 */
static bool nf_start_programs(const struct cpumask *m)
{
	unsigned long entered0[NR_CPUS];
	unsigned int cpu;
	bool ok = true;

	nf_real_exited0 = user_processes_exited();
	for_each_cpu(cpu, m) {
		entered0[cpu] = ct_user_enter_count(cpu);
		ok &= KTAP_EXPECT_MSG(!user_run_program("spin", cpu, nohz_full_secs + 3),
				      "cannot start user/spin on CPU %u", cpu);
	}
	for_each_cpu(cpu, m) {
		unsigned int ms = 0;

		while (ct_user_enter_count(cpu) == entered0[cpu] && ms < NF_WAIT_MS) {
			msleep(10);
			ms += 10;
		}
		ok &= KTAP_EXPECT_MSG(ct_user_enter_count(cpu) != entered0[cpu],
				      "spin on CPU %u never entered user mode", cpu);
	}
	msleep(200);
	return ok;
}

/* Wait (bounded) until every program started by nf_start_programs() has ended. */
static void nf_wait_programs(const struct cpumask *m)
{
	int want = nf_real_exited0 + cpumask_weight(m);
	unsigned int ms = 0, limit = (nohz_full_secs + 10) * 1000;

	while (user_processes_exited() < want && ms < limit) {
		msleep(20);
		ms += 20;
	}
	KTAP_EXPECT_MSG(user_processes_exited() >= want, "%d of %u spin processes still running",
			want - user_processes_exited(), cpumask_weight(m));
}

static bool nf_start_all(const struct cpumask *m)
{
	unsigned int cpu;
	bool ok = true;

	if (nf_real)
		return nf_start_programs(m);
	for_each_cpu(cpu, m)
		ok &= user_spin_start(&nf_spin[cpu], cpu);
	for_each_cpu(cpu, m)
		ok &= KTAP_EXPECT_MSG(user_spin_wait_started(&nf_spin[cpu]),
				      "spinner on CPU %u never started", cpu);
	return ok;
}

static void nf_stop_all(const struct cpumask *m)
{
	unsigned int cpu;

	if (nf_real) {
		nf_wait_programs(m);
		return;
	}
	for_each_cpu(cpu, m)
		WRITE_ONCE(nf_spin[cpu].stop, true);
	for_each_cpu(cpu, m)
		user_spin_stop(&nf_spin[cpu]);
}

/* Wait (bounded, polling) until cpu's tick is stopped by full dynticks; the stop count then. */
static bool nf_wait_tick_stopped(unsigned int cpu, unsigned long *loc)
{
	unsigned int last = READ_ONCE(per_cpu(irq_stat, cpu).local_timer);

	/* Stopped: no local timer interrupt for 50 ms while the spinner runs. */
	for (unsigned int ms = 0, quiet = 0; ms < NF_WAIT_MS; ms += 10) {
		unsigned int now;

		msleep(10);
		now = READ_ONCE(per_cpu(irq_stat, cpu).local_timer);
		quiet = now == last ? quiet + 10 : 0;
		last = now;
		if (quiet >= 50) {
			*loc = now;
			return true;
		}
	}
	return false;
}

static void nohz_full_user_spin(void)
{
	unsigned int loc0[NR_CPUS], res0[NR_CPUS], cal0[NR_CPUS], cpu, n = 0, nexp;
	unsigned long credit0[NR_CPUS], ipis0[NR_CPUS], forced0[NR_CPUS];
	u64 start, end, t0, total = 0;
	struct cpumask spin, saved;
	bool nohz = tick_nohz_full_enabled();

	nf_spin_cpus(&spin);
	if (cpumask_empty(&spin)) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	ktest_pin_current(0, &saved);	/* the housekeeping CPU runs the grace periods */
	if (!nf_start_all(&spin))
		goto out;
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		loc0[cpu] = READ_ONCE(per_cpu(irq_stat, cpu).local_timer);
		res0[cpu] = READ_ONCE(per_cpu(irq_stat, cpu).resched);
		cal0[cpu] = READ_ONCE(per_cpu(irq_stat, cpu).call_function);
		credit0[cpu] = READ_ONCE(rdp->n_dynticks_credit);
		ipis0[cpu] = READ_ONCE(rdp->n_resched_ipis);
		forced0[cpu] = READ_ONCE(rdp->n_forced_ticks);
	}
	start = local_clock();
	end = start + (u64)nohz_full_secs * NSEC_PER_SEC;
	do {
		t0 = local_clock();
		synchronize_rcu();
		if (n < NF_MAX_SAMPLES)
			nf_lat_ns[n] = local_clock() - t0;
		total += local_clock() - t0;
		n++;
	} while (local_clock() < end);
	/* Expedited grace periods skip a CPU in EQS too: no IPI (function call) for the spinners. */
	for (nexp = 0; nexp < NF_EXP_GPS; nexp++)
		synchronize_rcu_expedited();
	end = local_clock();
	for_each_cpu(cpu, &spin) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		unsigned int loc = READ_ONCE(per_cpu(irq_stat, cpu).local_timer) - loc0[cpu];
		unsigned int res = READ_ONCE(per_cpu(irq_stat, cpu).resched) - res0[cpu];
		unsigned int cal = READ_ONCE(per_cpu(irq_stat, cpu).call_function) - cal0[cpu];
		unsigned long credit = READ_ONCE(rdp->n_dynticks_credit) - credit0[cpu];
		unsigned long ipis = READ_ONCE(rdp->n_resched_ipis) - ipis0[cpu];
		unsigned long forced = READ_ONCE(rdp->n_forced_ticks) - forced0[cpu];
		char who[64];

		if (nf_real)
			snprintf(who, sizeof(who), "user/spin in ring 3");
		else
			snprintf(who, sizeof(who), "spinner %lu rounds, %lu kernel visits",
				 READ_ONCE(nf_spin[cpu].iters), nf_spin[cpu].kernel_visits);
		ktap_diag("CPU %u (%s): %u local timer interrupts, %u resched, %u function calls in %llu ms; RCU: %lu dynticks credits, %lu resched IPIs, %lu forced ticks; %s",
			  cpu, nohz ? "nohz_full" : "ticking", loc, res, cal,
			  (unsigned long long)((end - start) / NSEC_PER_MSEC), credit, ipis, forced, who);
		if (!nohz)
			continue;
		KTAP_EXPECT_MSG(loc <= NF_MAX_TICKS, "CPU %u took %u local timer interrupts (at most %u)",
				cpu, loc, NF_MAX_TICKS);
		KTAP_EXPECT_MSG(credit > 0, "CPU %u never credited from its dynticks counter", cpu);
		KTAP_EXPECT_MSG(cal == 0, "CPU %u in user mode got %u function-call IPIs (expedited GPs?)",
				cpu, cal);
		KTAP_EXPECT_MSG(ipis == 0 && forced == 0,
				"RCU disturbed CPU %u in user mode: %lu resched IPIs, %lu forced ticks",
				cpu, ipis, forced);
	}
	if (n) {
		unsigned int m = n < NF_MAX_SAMPLES ? n : NF_MAX_SAMPLES;

		sort_u64(nf_lat_ns, m);
		ktap_diag("%s: %u grace periods in %llu ms, median latency %llu us, max %llu us, mean %llu us",
			  nohz ? "nohz_full" : "without nohz_full", n,
			  (unsigned long long)((end - start) / NSEC_PER_MSEC),
			  (unsigned long long)(nf_lat_ns[m / 2] / NSEC_PER_USEC),
			  (unsigned long long)(nf_lat_ns[m - 1] / NSEC_PER_USEC),
			  (unsigned long long)(total / n / NSEC_PER_USEC));
	}
	KTAP_EXPECT_MSG(n >= 10, "only %u grace periods completed", n);
	for_each_cpu(cpu, &spin)
		KTAP_EXPECT_MSG(nf_real || READ_ONCE(nf_spin[cpu].iters) > 0,
				"spinner on CPU %u made no progress", cpu);
out:
	nf_stop_all(&spin);
	ktest_unpin_current(&saved);
}

/* The first nohz_full CPU, or -1 (the case is skipped). */
static int nf_first_cpu(void)
{
	if (!tick_nohz_full_enabled() || cpumask_empty(tick_nohz_full_cpumask())) {
		ktap_skip("no nohz_full= CPU");
		return -1;
	}
	return cpumask_first(tick_nohz_full_cpumask());
}

struct nf_hog {
	struct user_spin *us;
	unsigned long spin_iters0;
	bool done;		/* the spinner progressed while this task ran: time-sliced */
	bool finished;		/* the loop is over (done or its 5 s bound) */
	unsigned long dep_seen;
};

/*
 * A second CPU-bound task on the spinner's CPU: it never sleeps, and
 * yields only through cond_resched() when its time slice ends, which
 * needs the tick. It stops once the spinner has progressed past where it
 * was when this task first ran: only the restarted tick lets that happen.
 */
static int nf_hog_fn(void *arg)
{
	struct nf_hog *h = arg;

	h->spin_iters0 = READ_ONCE(h->us->iters);
	h->dep_seen = tick_dep_mask_cpu(raw_smp_processor_id());
	for (u64 deadline = local_clock() + 5 * NSEC_PER_SEC; local_clock() < deadline;) {
		if (READ_ONCE(h->us->iters) > h->spin_iters0 + 4096) {
			WRITE_ONCE(h->done, true);
			break;
		}
		cond_resched();
	}
	WRITE_ONCE(h->finished, true);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/*
 * Pin this thread to CPU 0 and start the kthread spinner on cpu; with
 * *loc, also wait until cpu's tick has stopped and return its local timer
 * count then. The spinner, or NULL after a failed expectation (the caller
 * still calls nf_one_done()).
 */
static struct user_spin *nf_one_start(int cpu, struct cpumask *saved, unsigned long *loc)
{
	struct user_spin *us = &nf_spin[cpu];

	ktest_pin_current(0, saved);
	if (!user_spin_start(us, cpu) || !KTAP_EXPECT(user_spin_wait_started(us)))
		return NULL;
	if (loc && !KTAP_EXPECT_MSG(nf_wait_tick_stopped(cpu, loc), "CPU %d kept ticking with one task", cpu))
		return NULL;
	return us;
}

static void nf_one_done(int cpu, struct cpumask *saved)
{
	user_spin_stop(&nf_spin[cpu]);
	ktest_unpin_current(saved);
}

static void nohz_full_second_task(void)
{
	int cpu = nf_first_cpu();
	struct user_spin *us;
	struct nf_hog h = { 0 };
	struct task_struct *t;
	unsigned long loc;
	struct cpumask saved;

	if (cpu < 0)
		return;
	us = nf_one_start(cpu, &saved, &loc);
	if (!us)
		goto out;
	h.us = us;
	t = ktest_kthread(nf_hog_fn, &h, cpu, "nf_hog/%u");
	if (!t)
		goto out;
	wake_up_process(t);
	for (unsigned int ms = 0; ms < NF_WAIT_MS && !READ_ONCE(h.finished); ms++)
		msleep(1);
	ktest_stop(t, NF_WAIT_MS, NULL);
	KTAP_EXPECT_MSG(h.dep_seen & TICK_DEP_MASK_SCHED, "second task ran without TICK_DEP_BIT_SCHED (%#lx)",
			h.dep_seen);
	KTAP_EXPECT_MSG(READ_ONCE(h.done), "the two tasks were not time-sliced (no tick?)");
	KTAP_EXPECT_MSG(READ_ONCE(per_cpu(irq_stat, cpu).local_timer) > loc,
			"no local timer interrupt on CPU %d while two tasks shared it", cpu);
	/*
	 * kthread_stop() returns at the hog's complete(&k->exited), before its
	 * final schedule() takes it off the runqueue: until then the CPU still
	 * has two tasks and the bit stays. A vCPU held by the host between the
	 * two left it set at one read here (two loaded runs, 2026-12-07).
	 * The bit must go once the hog is off the runqueue: give it 100 ms.
	 */
	for (unsigned int ms = 0; ms < 100 && (tick_dep_mask_cpu(cpu) & TICK_DEP_MASK_SCHED); ms++)
		msleep(1);
	KTAP_EXPECT_MSG(!(tick_dep_mask_cpu(cpu) & TICK_DEP_MASK_SCHED), "TICK_DEP_BIT_SCHED still set 100 ms after the second task exited");
	KTAP_EXPECT_MSG(nf_wait_tick_stopped(cpu, &loc), "the tick did not stop again on CPU %d", cpu);
out:
	nf_one_done(cpu, &saved);
}

struct nf_timer {
	struct timer_list t;
	int ran_on;
	bool ran;
};

static void nf_timer_fn(struct timer_list *t)
{
	struct nf_timer *nt = from_timer(nt, t, t);

	nt->ran_on = raw_smp_processor_id();
	WRITE_ONCE(nt->ran, true);
}

static void nohz_full_timer(void)
{
	int cpu = nf_first_cpu();
	struct nf_timer nt = { .ran_on = -1 };
	struct user_spin *us;
	struct cpumask saved;
	unsigned long loc;
	unsigned int ms;

	if (cpu < 0)
		return;
	us = nf_one_start(cpu, &saved, &loc);
	if (!us)
		goto out;
	timer_setup(&nt.t, nf_timer_fn, 0);
	nt.t.expires = jiffies + msecs_to_jiffies(20);
	add_timer_on(&nt.t, cpu);
	for (ms = 0; ms < NF_WAIT_MS && !READ_ONCE(nt.ran); ms++)
		msleep(1);
	if (!KTAP_EXPECT_MSG(READ_ONCE(nt.ran), "a timer on tickless CPU %d never ran", cpu))
		del_timer_sync(&nt.t);
	else
		KTAP_EXPECT_MSG(nt.ran_on == cpu, "timer ran on CPU %d, armed on %d", nt.ran_on, cpu);
out:
	nf_one_done(cpu, &saved);
}

struct nf_loop {
	bool stop;
	bool running;
};

/*
 * In the kernel, preemptible, never calling into the scheduler: only the
 * tick can report for it. Without CONFIG_PREEMPT_COUNT (a choice on newer
 * trees) the tick cannot tell a busy kernel from a reader, so the loop
 * calls cond_resched() as a PREEMPT_NONE kernel loop must; the CPU still
 * needs its forced tick to notice the grace period at all.
 */
static int nf_loop_fn(void *arg)
{
	struct nf_loop *l = arg;

	WRITE_ONCE(l->running, true);
	while (!READ_ONCE(l->stop)) {
		cpu_relax();
		if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
			cond_resched();
	}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static int nf_sync_fn(void *arg)
{
	synchronize_rcu();
	return 0;
}

static void nohz_full_kernel_loop(void)
{
	int cpu = nf_first_cpu();
	struct rcu_data *rdp;
	struct nf_loop l = { 0 };
	struct task_struct *t;
	unsigned long forced0, loc;
	bool ok;

	if (cpu < 0)
		return;
	rdp = per_cpu_ptr(&rcu_data, cpu);
	t = ktest_kthread(nf_loop_fn, &l, cpu, "nf_loop/%u");
	if (!t)
		return;
	wake_up_process(t);
	while (!READ_ONCE(l.running))
		msleep(1);
	if (!KTAP_EXPECT_MSG(nf_wait_tick_stopped(cpu, &loc), "CPU %d kept ticking with one task", cpu))
		goto out;
	forced0 = READ_ONCE(rdp->n_forced_ticks);
	/* Bounded: a grace period that never ends fails the case rather than hanging the boot. */
	ok = ktest_call_timeout("nf_sync", 0, nf_sync_fn, NULL, RST_GP_MS, NULL, NULL);
	KTAP_EXPECT_MSG(ok, "synchronize_rcu() stuck behind CPU %d looping in the kernel", cpu);
	KTAP_EXPECT_MSG(READ_ONCE(rdp->n_forced_ticks) > forced0,
			"RCU never forced CPU %d's tick (TICK_DEP_BIT_RCU)", cpu);
	ktap_diag("CPU %d looping in the kernel: %lu forced ticks, dependencies now %#lx",
		  cpu, READ_ONCE(rdp->n_forced_ticks) - forced0, tick_dep_mask_cpu(cpu));
out:
	WRITE_ONCE(l.stop, true);
	ktest_stop(t, NF_WAIT_MS, NULL);
}

static int nf_sync_tasks_fn(void *arg)
{
	synchronize_rcu_tasks();
	return 0;
}

/*
 * Tasks RCU (CONFIG_TASKS_RCU, preemptible kernels): a spinner that never
 * switches voluntarily would hold a Tasks RCU grace period forever, were
 * its user-mode time not a quiescent state (rcu_tasks_in_user).
 */
static void nohz_full_tasks_rcu(void)
{
	int cpu = nf_first_cpu();
	struct user_spin *us;
	struct cpumask saved;
	bool ok;

	if (cpu < 0)
		return;
	if (!IS_ENABLED(CONFIG_TASKS_RCU)) {
		ktap_skip("needs CONFIG_TASKS_RCU");
		return;
	}
	us = nf_one_start(cpu, &saved, NULL);
	if (!us)
		goto out;
	ok = ktest_call_timeout("nf_tasks", 0, nf_sync_tasks_fn, NULL, RST_GP_MS, NULL, NULL);
	KTAP_EXPECT_MSG(ok, "synchronize_rcu_tasks() stuck behind the user-mode spinner on CPU %d", cpu);
	KTAP_EXPECT_MSG(!READ_ONCE(us->stop) && READ_ONCE(us->iters) > 0,
			"spinner on CPU %d made no progress", cpu);
out:
	nf_one_done(cpu, &saved);
}

static void nohz_full_user_program(void)
{
	nf_real = true;
	nohz_full_user_spin();
	nf_real = false;
}

static const struct ktap_case nohz_full_cases[] = {
	KTAP_CASE(nohz_full_user_spin),
	KTAP_CASE(nohz_full_user_program),
	KTAP_CASE(nohz_full_second_task),
	KTAP_CASE(nohz_full_timer),
	KTAP_CASE(nohz_full_kernel_loop),
	KTAP_CASE(nohz_full_tasks_rcu),
};
KTAP_SUITE(nohz_full, nohz_full_cases, &nohz_full_selftest);

/*
 * rcutree.nohz_full_stall_secs: loop with preemption off; Tree RCU must
 * report the stall. The callback queued first makes sure a grace period
 * is wanted (nothing else may need one on an idle machine); it cannot end
 * before the loop does.
 */
static struct rcu_head nf_stall_head;

static void nf_stall_cb(struct rcu_head *rh)
{
}

static int nf_stall_fn(void *unused)
{
	u64 end = local_clock() + (u64)nohz_full_stall_secs * NSEC_PER_SEC;

	pr_info("nohz_full stall test: CPU %u loops in the kernel, preemption off, for %d s\n",
		raw_smp_processor_id(), nohz_full_stall_secs);
	preempt_disable();
	call_rcu(&nf_stall_head, nf_stall_cb);
	while (local_clock() < end)
		cpu_relax();
	preempt_enable();
	pr_info("nohz_full stall test: CPU %u done\n", raw_smp_processor_id());
	return 0;
}

static int nf_stall_init(void)
{
	struct task_struct *t;
	unsigned int cpu, last = 0;

	if (!nohz_full_stall_secs)
		return 0;
	for_each_cpu(cpu, tick_nohz_full_cpumask())
		if (cpu_online(cpu))
			last = cpu;
	if (!tick_nohz_full_enabled() || !last) {
		pr_warn("rcutree.nohz_full_stall_secs: no nohz_full= CPU, nothing to do\n");
		return 0;
	}
	t = kthread_create_on_cpu(nf_stall_fn, NULL, last, "nf_stall/%u");
	if (t)
		wake_up_process(t);
	return 0;
}
late_initcall(nf_stall_init);
