/*
 * Scheduler boot benchmark, our own (sched.bench=1; Linux has no
 * equivalent at boot). Runs from init as a late initcall and prints one
 * line per figure:
 *
 *   sched-bench: ctxsw ns_per_switch=N switches=S cpu=C
 *       Two SCHED_NORMAL kthreads bound to one CPU hand a token back and
 *       forth 10000 times (wake_up_process() the other, then sleep in
 *       schedule()): elapsed time / (2 * 10000). `switches` is the CPU's
 *       context-switch count over the run, which should be 20000.
 *   sched-bench: wakeup cpu A->B median_ns=N p90_ns=N min_ns=N max_ns=N samples=200
 *       A kthread on CPU A stamps local_clock() and wakes a kthread that
 *       sleeps on CPU B (idle, halted); the sleeper stamps local_clock()
 *       when it runs. 200 samples, 1 ms apart.
 *   sched-bench: idle cpuN wakeups_per_s=N interrupts=I window_ms=W
 *       With the system idle for 2 s: the interrupts each CPU took (LOC +
 *       RES + CAL from the per-CPU irq_stat, the shutdown table's rows)
 *       per second. There is no per-CPU idle-exit counter; with nothing
 *       to run, every such interrupt ends a halt in the idle loop.
 *
 * Figures are reported, never judged. Waits are bounded: a run that does
 * not finish prints "sched-bench: <figure> failed" and leaves its threads.
 */
#define KPARAM_SUBSYS "sched"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#define pr_fmt(fmt) "sched-bench: " fmt
#include <kernel/ktest.h>
#include <kernel/sort.h>
#include "../sched.h"
#include <sched/kthread.h>
#include <sched/completion.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/irq.h>
#include <time/time.h>
#include <time/delay.h>
#include <kernel/string.h>

static bool sched_bench;
KPARAM_BOOL("sched.bench", sched_bench,
	    "run the scheduler boot benchmark (context switch, wakeup latency, idle wakeups)");

#define BENCH_CTXSW_ROUNDS	10000
#define BENCH_WAKE_SAMPLES	200
#define BENCH_IDLE_MS		2000
#define BENCH_TIMEOUT_MS	20000

/* --- context switch: token passing between two threads on one CPU ---------------- */

static struct {
	struct task_struct *t[2];
	int turn;			/* whose turn: 0 or 1 */
	u64 t0, t1, sw0, sw1;
	struct completion done[2];
} bc;

/* Sleep until it is our turn. */
static void bc_wait_turn(int me)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(bc.turn) == me)
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* Thread 0 takes turns 0..N (stamping the first and last), thread 1 takes N. */
static int bc_fn(void *data)
{
	int me = (long)data;
	struct rq *rq = cpu_rq(smp_processor_id());
	int turns = me == 0 ? BENCH_CTXSW_ROUNDS + 1 : BENCH_CTXSW_ROUNDS;

	for (int i = 0; i < turns; i++) {
		bc_wait_turn(me);
		if (me == 0 && i == 0) {
			bc.sw0 = READ_ONCE(rq->nr_switches);
			bc.t0 = local_clock();
		}
		if (me == 0 && i == BENCH_CTXSW_ROUNDS) {
			bc.t1 = local_clock();
			bc.sw1 = READ_ONCE(rq->nr_switches);
			break;
		}
		WRITE_ONCE(bc.turn, !me);
		wake_up_process(bc.t[!me]);
	}
	complete(&bc.done[me]);
	ktest_wait_stop();
	return 0;
}

static void bench_ctxsw(void)
{
	unsigned int cpu = ktest_last_online_cpu();
	bool ok;

	memset(&bc, 0, sizeof(bc));
	init_completion(&bc.done[0]);
	init_completion(&bc.done[1]);
	bc.t[0] = kthread_create_on_cpu(bc_fn, (void *)0L, cpu, "bench_ctx0/%u");
	bc.t[1] = kthread_create_on_cpu(bc_fn, (void *)1L, cpu, "bench_ctx1/%u");
	if (!bc.t[0] || !bc.t[1]) {
		pr_info("ctxsw failed: cannot create threads\n");
		return;
	}
	wake_up_process(bc.t[1]);	/* sleeps: turn is 0 */
	wake_up_process(bc.t[0]);
	ok = ktest_wait(&bc.done[0], BENCH_TIMEOUT_MS) && ktest_wait(&bc.done[1], 1000);
	if (!ok) {
		pr_info("ctxsw failed: token passing stopped with thread %d to run\n",
			READ_ONCE(bc.turn));
		return;
	}
	pr_info("ctxsw ns_per_switch=%llu switches=%llu cpu=%u\n",
		(bc.t1 - bc.t0) / (2 * BENCH_CTXSW_ROUNDS), bc.sw1 - bc.sw0, cpu);
	kthread_stop(bc.t[0]);
	kthread_stop(bc.t[1]);
}

/* --- cross-CPU wakeup latency ------------------------------------------------------ */

static struct {
	struct task_struct *sleeper, *waker;
	unsigned int seq;		/* samples started by the waker */
	u64 t_wake;
	u64 lat[BENCH_WAKE_SAMPLES];
	unsigned int nr;		/* samples completed */
	struct completion ack, done;
} wl;

static int wl_sleeper_fn(void *data)
{
	for (unsigned int i = 0; i < BENCH_WAKE_SAMPLES; i++) {
		u64 now;

		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(wl.seq) > i || kthread_should_stop())
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		now = local_clock();
		if (kthread_should_stop())
			return 0;
		smp_rmb();	/* t_wake was written before seq */
		wl.lat[i] = now - READ_ONCE(wl.t_wake);
		wl.nr = i + 1;
		complete(&wl.ack);
	}
	ktest_wait_stop();
	return 0;
}

static int wl_waker_fn(void *data)
{
	struct task_struct *s = wl.sleeper;

	for (unsigned int i = 0; i < BENCH_WAKE_SAMPLES; i++) {
		u64 end;

		msleep(1);	/* let the sleeper's CPU go idle */
		end = local_clock() + 100 * NSEC_PER_MSEC;
		while (task_state(s) == TASK_RUNNING || READ_ONCE(s->on_cpu)) {
			if (local_clock() > end)
				break;
			cpu_relax();
		}
		WRITE_ONCE(wl.t_wake, local_clock());
		smp_wmb();
		WRITE_ONCE(wl.seq, i + 1);
		wake_up_process(s);
		if (!ktest_wait(&wl.ack, 1000))
			break;
	}
	complete(&wl.done);
	ktest_wait_stop();
	return 0;
}

static void bench_wakeup(unsigned int a, unsigned int b)
{
	bool ok;

	memset(&wl, 0, sizeof(wl));
	init_completion(&wl.ack);
	init_completion(&wl.done);
	wl.sleeper = kthread_create_on_cpu(wl_sleeper_fn, NULL, b, "bench_sleep/%u");
	wl.waker = kthread_create_on_cpu(wl_waker_fn, NULL, a, "bench_wake/%u");
	if (!wl.sleeper || !wl.waker) {
		pr_info("wakeup cpu %u->%u failed: cannot create threads\n", a, b);
		return;
	}
	wake_up_process(wl.sleeper);
	wake_up_process(wl.waker);
	ok = ktest_wait(&wl.done, BENCH_TIMEOUT_MS);
	if (!ok || wl.nr < BENCH_WAKE_SAMPLES) {
		pr_info("wakeup cpu %u->%u failed: %u of %u samples\n", a, b, wl.nr,
			BENCH_WAKE_SAMPLES);
		return;
	}
	sort_u64(wl.lat, wl.nr);
	pr_info("wakeup cpu %u->%u median_ns=%llu p90_ns=%llu min_ns=%llu max_ns=%llu samples=%u\n",
		a, b, wl.lat[wl.nr / 2], wl.lat[wl.nr * 9 / 10], wl.lat[0], wl.lat[wl.nr - 1],
		wl.nr);
	kthread_stop(wl.waker);
	kthread_stop(wl.sleeper);
}

/* --- idle wakeups ------------------------------------------------------------------- */

static unsigned long bench_irq_count(unsigned int cpu)
{
	const struct irq_stat *s = &per_cpu(irq_stat, cpu);

	return (unsigned long)READ_ONCE(s->local_timer) + READ_ONCE(s->resched) +
	       READ_ONCE(s->call_function);
}

static void bench_idle(void)
{
	static unsigned long before[NR_CPUS];
	unsigned int cpu;
	u64 t0, dt;

	pr_info("idle: counting LOC+RES+CAL interrupts over %u ms (no per-CPU idle-exit counter)\n",
		BENCH_IDLE_MS);
	t0 = local_clock();
	for_each_online_cpu(cpu)
		before[cpu] = bench_irq_count(cpu);
	msleep(BENCH_IDLE_MS);
	dt = local_clock() - t0;
	for_each_online_cpu(cpu) {
		unsigned long n = bench_irq_count(cpu) - before[cpu];

		pr_info("idle cpu%u wakeups_per_s=%llu interrupts=%lu window_ms=%llu\n", cpu,
			(u64)n * NSEC_PER_SEC / dt, n, dt / NSEC_PER_MSEC);
	}
}

static int sched_bench_run(void)
{
	unsigned int first = cpumask_first(cpu_online_mask), last = ktest_last_online_cpu();

	if (!sched_bench)
		return 0;
	pr_info("starting on %u CPUs (%s)\n", num_online_cpus(),
		IS_ENABLED(CONFIG_PREEMPTION) ? "PREEMPT" : "PREEMPT_NONE");
	bench_ctxsw();
	if (num_online_cpus() < 2) {
		pr_info("wakeup skipped: needs 2 CPUs\n");
	} else {
		unsigned int second = cpumask_next(first, cpu_online_mask);

		bench_wakeup(first, second);
		if (last != second)
			bench_wakeup(first, last);
	}
	bench_idle();
	return 0;
}
late_initcall(sched_bench_run);
