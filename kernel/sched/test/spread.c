/*
 * The "sched" KTAP suite (sched.selftest=1): periodic balancing
 * (kernel/sched/balance.c). Two CPU-bound kthreads per CPU, all woken on
 * one CPU, must end up spread two per CPU. Idle balancing alone cannot do
 * that: each idle CPU takes one task and then is busy, leaving the first
 * CPU with all the rest; the busy CPUs' periodic pulls even it out. The
 * same run with periodic balancing off (sched.balance_ms=0 semantics, set
 * here for the run) shows the contrast in the diagnostics.
 */
#include "suite.h"
#include <kernel/sprintf.h>
#include <sched/isolation.h>

#define SP_PER_CPU	2	/* hogs per online CPU */
#define SP_SETTLE_MS	400	/* time given to idle balancing alone */
#define SP_WAIT_MS	3000	/* the most periodic balancing may take to even them out */
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

/*
 * Start n kthreads running fn, each woken while allowed on CPU 0 only and
 * then free to move: all start queued there. Returns how many started.
 * (Also isolcpus.c's.)
 */
unsigned int st_start_queued_on_cpu0(struct task_struct **hogs, unsigned int n,
				     int (*fn)(void *), const char *name)
{
	struct cpumask one;
	unsigned int i;

	st_cpumask_one(&one, 0);
	for (i = 0; i < n; i++) {
		hogs[i] = ktest_kthread(fn, NULL, -1, name);
		if (!hogs[i])
			break;
		set_cpus_allowed_ptr(hogs[i], &one);
		wake_up_process(hogs[i]);
		set_cpus_allowed_ptr(hogs[i], cpu_possible_mask);
	}
	return i;
}

/* Hogs per CPU now; returns max - min over the online CPUs. */
static unsigned int sp_count(struct task_struct **hogs, unsigned int n, unsigned int *counts)
{
	unsigned int i, cpu, lo = ~0u, hi = 0;

	memset(counts, 0, sizeof(unsigned int) * NR_CPUS);
	for (i = 0; i < n; i++)
		counts[task_cpu(hogs[i])]++;
	for_each_online_cpu(cpu) {
		lo = min(lo, counts[cpu]);
		hi = max(hi, counts[cpu]);
	}
	return hi - lo;
}

/*
 * Start n hogs queued on CPU 0, let balancing work (until the hogs are
 * spread, at most wait_ms; settle_ms first), count them per CPU; returns
 * max - min per CPU, and in *took_ms how long it took.
 */
static unsigned int sp_spread(unsigned int n, unsigned int *counts, unsigned long *pulls,
			      unsigned int settle_ms, unsigned int wait_ms, unsigned int *took_ms)
{
	struct task_struct *hogs[SP_MAX_HOGS];
	unsigned int i, cpu, started, spread;
	unsigned long pulls0 = 0;
	u64 t0;

	for_each_online_cpu(cpu)
		pulls0 += READ_ONCE(cpu_rq(cpu)->nr_periodic_pulls);
	WRITE_ONCE(sp.stop, false);
	atomic_set(&sp.started, 0);
	started = st_start_queued_on_cpu0(hogs, n, sp_hog, "sp_hog");
	st_poll(atomic_read(&sp.started) == (int)started, ST_START_MS);
	t0 = local_clock();
	msleep(settle_ms);
	/* Under single-threaded TCG each of 8 busy vCPUs runs an eighth of the time: poll. */
	while ((spread = sp_count(hogs, started, counts)) > 1 &&
	       local_clock() - t0 < (u64)wait_ms * NSEC_PER_MSEC)
		msleep(20);
	*took_ms = (local_clock() - t0) / NSEC_PER_MSEC;
	*pulls = 0;
	for_each_online_cpu(cpu)
		*pulls += READ_ONCE(cpu_rq(cpu)->nr_periodic_pulls);
	*pulls -= pulls0;
	WRITE_ONCE(sp.stop, true);
	for (i = 0; i < started; i++)
		st_stop_if(hogs[i], true);
	KTAP_EXPECT_MSG(started == n, "started %u of %u hogs", started, n);
	return spread;
}

static void sp_report(const char *what, unsigned int spread, const unsigned int *counts,
		      unsigned long pulls, unsigned int took_ms)
{
	char buf[128];
	int len = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		len += scnprintf(buf + len, sizeof(buf) - len, "%s%u", len ? "/" : "", counts[cpu]);
	ktap_diag("%s: hogs per CPU %s (spread %u) after %u ms, %lu periodic pulls", what, buf,
		  spread, took_ms, pulls);
}

void sched_periodic_spread(void)
{
	static unsigned int counts[NR_CPUS];
	unsigned int ncpus = num_online_cpus(), n, spread, took;
	unsigned long pulls;
	int saved_ms;
	bool was_on;

	if (ncpus < 2 || ncpus * SP_PER_CPU > SP_MAX_HOGS) {
		ktap_skip("needs 2 to 8 CPUs");
		return;
	}
	/* The hogs may run on housekeeping CPUs, so balancing never moves them to nohz_full ones. */
	if (tick_nohz_full_enabled()) {
		ktap_skip("nohz_full= given: unbound tasks stay on the housekeeping CPUs");
		return;
	}
	n = ncpus * SP_PER_CPU;
	was_on = READ_ONCE(sched_idle_balance_on);
	sched_set_idle_balance(true);
	saved_ms = sched_get_balance_ms();

	/* Idle balancing only: each CPU takes one, CPU 0 keeps the rest. */
	sched_set_balance_ms(0);
	spread = sp_spread(n, counts, &pulls, SP_SETTLE_MS, 0, &took);
	sp_report("periodic balancing off", spread, counts, pulls, took);
	KTAP_EXPECT_MSG(pulls == 0, "%lu periodic pulls with it off", pulls);

	sched_set_balance_ms(saved_ms ? saved_ms : 8);
	spread = sp_spread(n, counts, &pulls, 0, SP_WAIT_MS, &took);
	sp_report("periodic balancing on", spread, counts, pulls, took);
	KTAP_EXPECT_MSG(spread <= 1, "hogs not spread: per-CPU counts differ by %u", spread);
	KTAP_EXPECT_MSG(pulls > 0, "no periodic pull happened");

	sched_set_balance_ms(saved_ms);
	sched_set_idle_balance(was_on);
}
