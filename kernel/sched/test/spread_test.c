/*
 * The "sched" KTAP suite (sched.selftest=1): periodic balancing
 * (kernel/sched/balance.c). Two CPU-bound kthreads per CPU, all woken on
 * one CPU, must end up spread two per CPU. Idle balancing alone cannot do
 * that: each idle CPU takes one task and then is busy, leaving the first
 * CPU with all the rest; the busy CPUs' periodic pulls even it out. The
 * same run with periodic balancing off (sched.balance_ms=0 semantics, set
 * here for the run) shows the contrast in the diagnostics.
 */
#include "sched_test.h"
#include <kernel/sprintf.h>

#define SP_PER_CPU	2	/* hogs per online CPU */
#define SP_SETTLE_MS	400	/* time given to balancing */
#define SP_MAX_HOGS	16	/* at most this many hogs (8 CPUs' worth) */

static struct {
	bool stop;
	atomic_t started;
} sp;

/* Spin with cond_resched() (so RCU and the other hogs get their turn) until told to stop. */
static int sp_hog(void *data)
{
	atomic_inc(&sp.started);
	while (!READ_ONCE(sp.stop))
		cond_resched();
	ktest_wait_stop();
	return 0;
}

/* Start n hogs queued on CPU 0, let balancing work, count them per CPU; max - min per CPU. */
static unsigned int sp_spread(unsigned int n, unsigned int *counts, unsigned long *pulls)
{
	struct task_struct *hogs[SP_MAX_HOGS];
	unsigned int i, cpu, lo = ~0u, hi = 0, started = 0;
	unsigned long pulls0 = 0;
	struct cpumask one;

	memset(counts, 0, sizeof(unsigned int) * NR_CPUS);
	for_each_online_cpu(cpu)
		pulls0 += READ_ONCE(cpu_rq(cpu)->nr_periodic_pulls);
	WRITE_ONCE(sp.stop, false);
	atomic_set(&sp.started, 0);
	st_cpumask_one(&one, 0);
	for (i = 0; i < n; i++) {
		hogs[i] = ktest_kthread(sp_hog, NULL, -1, "sp_hog");
		if (!hogs[i])
			break;
		/* Woken while allowed on CPU 0 only, then free to move: all start queued there. */
		set_cpus_allowed_ptr(hogs[i], &one);
		wake_up_process(hogs[i]);
		set_cpus_allowed_ptr(hogs[i], cpu_possible_mask);
		started++;
	}
	st_poll(atomic_read(&sp.started) == (int)started, ST_START_MS);
	msleep(SP_SETTLE_MS);
	for (i = 0; i < started; i++)
		counts[task_cpu(hogs[i])]++;
	*pulls = 0;
	for_each_online_cpu(cpu) {
		lo = min(lo, counts[cpu]);
		hi = max(hi, counts[cpu]);
		*pulls += READ_ONCE(cpu_rq(cpu)->nr_periodic_pulls);
	}
	*pulls -= pulls0;
	WRITE_ONCE(sp.stop, true);
	for (i = 0; i < started; i++)
		st_stop_if(hogs[i], true);
	KTAP_EXPECT_MSG(started == n, "started %u of %u hogs", started, n);
	return hi - lo;
}

static void sp_report(const char *what, unsigned int spread, const unsigned int *counts,
		      unsigned long pulls)
{
	char buf[128];
	int len = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		len += scnprintf(buf + len, sizeof(buf) - len, "%s%u", len ? "/" : "", counts[cpu]);
	ktap_diag("%s: hogs per CPU %s (spread %u), %lu periodic pulls", what, buf, spread, pulls);
}

void sched_periodic_spread(void)
{
	static unsigned int counts[NR_CPUS];
	unsigned int ncpus = num_online_cpus(), n, spread;
	unsigned long pulls;
	int saved_ms;
	bool was_on;

	if (ncpus < 2 || ncpus * SP_PER_CPU > SP_MAX_HOGS) {
		ktap_skip("needs 2 to 8 CPUs");
		return;
	}
	n = ncpus * SP_PER_CPU;
	was_on = READ_ONCE(sched_idle_balance_on);
	sched_set_idle_balance(true);
	saved_ms = sched_get_balance_ms();

	/* Idle balancing only: each CPU takes one, CPU 0 keeps the rest. */
	sched_set_balance_ms(0);
	spread = sp_spread(n, counts, &pulls);
	sp_report("periodic balancing off", spread, counts, pulls);
	KTAP_EXPECT_MSG(pulls == 0, "%lu periodic pulls with it off", pulls);

	sched_set_balance_ms(saved_ms ? saved_ms : 8);
	spread = sp_spread(n, counts, &pulls);
	sp_report("periodic balancing on", spread, counts, pulls);
	KTAP_EXPECT_MSG(spread <= 1, "hogs not spread: per-CPU counts differ by %u", spread);
	KTAP_EXPECT_MSG(pulls > 0, "no periodic pull happened");

	sched_set_balance_ms(saved_ms);
	sched_set_idle_balance(was_on);
}
