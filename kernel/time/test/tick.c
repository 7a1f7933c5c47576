/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * the periodic tick comes at each CPU's skew_tick offset into the jiffy.
 */
#include "../../sched/test/suite.h"
#include <time/tick.h>
#include <sched/isolation.h>

/* --- skew_tick ------------------------------------------------------------------- */

static struct {
	struct completion done[NR_CPUS];
	u64 armed[NR_CPUS];	/* the tick event armed on each CPU, 0 if none */
	struct task_struct *t[NR_CPUS];
	bool reported[NR_CPUS];
} st_skew;	/* static: NR_CPUS-sized arrays do not belong on a kernel stack */

/*
 * Bound to its CPU, busy (so the tick runs periodically): read the event
 * the tick armed. Interrupts off, so no tick re-arms it while we read.
 */
static int st_skew_fn(void *arg)
{
	unsigned int cpu = (unsigned int)(long)arg;
	unsigned long flags;
	u64 start = local_clock();

	/* Let at least one tick pass on this CPU while it is busy (not idle). */
	while (local_clock() - start < 3 * TICK_NSEC)
		cpu_relax();
	local_irq_save(flags);
	st_skew.armed[cpu] = tick_armed_event();
	local_irq_restore(flags);
	complete(&st_skew.done[cpu]);
	ktest_wait_stop();
	return 0;
}

/*
 * With skew_tick=1 CPU n's periodic tick is armed n/nr_cpu_ids of half a
 * tick into the jiffy, and distinct CPUs tick at distinct phases; without
 * it every CPU's tick is armed on the jiffy boundary.
 */
void sched_tick_skew(void)
{
	struct task_struct **t = st_skew.t;
	bool *reported = st_skew.reported;
	unsigned int cpu, phased = 0;

	/* A busy nohz_full CPU stops its periodic tick: there is no phase to look at. */
	if (tick_nohz_full_enabled()) {
		ktap_skip("nohz_full= given: busy nohz_full CPUs have no periodic tick");
		return;
	}

	for_each_online_cpu(cpu) {
		init_completion(&st_skew.done[cpu]);
		st_skew.armed[cpu] = 0;
		reported[cpu] = false;
		t[cpu] = ktest_kthread(st_skew_fn, (void *)(long)cpu, (int)cpu, "st_skew/%u");
		if (t[cpu])
			wake_up_process(t[cpu]);
	}
	for_each_online_cpu(cpu) {
		u64 want = tick_skew_enabled() ? (u64)(TICK_NSEC / 2) / nr_cpu_ids * cpu : 0;
		u64 phase;

		if (!t[cpu])
			continue;
		reported[cpu] = ktest_wait(&st_skew.done[cpu], 2000);
		if (!KTAP_EXPECT_MSG(reported[cpu], "CPU %u: the test thread did not report", cpu))
			continue;
		phase = st_skew.armed[cpu] % TICK_NSEC;
		KTAP_EXPECT_MSG(st_skew.armed[cpu] && phase == want,
				"CPU %u: tick armed for %llu, phase %llu ns, expected %llu ns", cpu,
				(unsigned long long)st_skew.armed[cpu], (unsigned long long)phase,
				(unsigned long long)want);
		if (phase)
			phased++;
	}
	if (tick_skew_enabled() && num_online_cpus() > 1)
		KTAP_EXPECT_MSG(phased == num_online_cpus() - 1,
				"%u CPUs off the jiffy boundary, expected all but CPU 0", phased);
	ktap_diag("skew_tick=%d: %u of %u CPUs tick off the jiffy boundary", tick_skew_enabled(),
		  phased, num_online_cpus());
	for_each_online_cpu(cpu)
		if (t[cpu])
			ktest_stop_if(t[cpu], reported[cpu], 2000);
}
