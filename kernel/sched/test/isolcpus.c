/*
 * The "sched" KTAP suite: isolcpus= (kernel/sched/isolation.c). With the
 * last online CPU isolated (set here for the case, as isolcpus=N would at
 * boot), CPU-bound kthreads all queued on CPU 0 and free to run anywhere
 * are spread by balancing over the other CPUs, never onto the isolated
 * one, though it is idle all along. Without the isolation idle balancing
 * puts one there within milliseconds (the sched_periodic_spread case).
 */
#include "suite.h"
#include <sched/isolation.h>

#define IC_SAMPLE_MS	400	/* how long the hogs' CPUs are watched */
#define IC_MAX_HOGS	8

static struct {
	bool stop;
	atomic_t started;
} ic;

static int ic_hog(void *data)
{
	atomic_inc(&ic.started);
	while (!READ_ONCE(ic.stop))
		cond_resched();
	ktest_wait_stop();
	return 0;
}

void sched_isolcpus_no_balance(void)
{
	struct task_struct *hogs[IC_MAX_HOGS];
	unsigned int ncpus = num_online_cpus(), iso = 0, cpu, i, n, started;
	unsigned int on_iso = 0, moved = 0, samples = 0;
	struct cpumask saved, one;
	bool was_on;
	u64 t0;

	if (ncpus < 3) {
		ktap_skip("needs 3 CPUs: one isolated, two to balance between");
		return;
	}
	if (tick_nohz_full_enabled()) {
		ktap_skip("nohz_full= given: unbound tasks stay on the housekeeping CPUs");
		return;
	}
	for_each_online_cpu(cpu)
		iso = cpu;
	n = min(ncpus, (unsigned int)IC_MAX_HOGS);
	cpumask_copy(&saved, &sched_isolated_mask);
	st_cpumask_one(&one, iso);
	sched_set_isolated(&one);
	was_on = READ_ONCE(sched_idle_balance_on);
	sched_set_idle_balance(true);

	WRITE_ONCE(ic.stop, false);
	atomic_set(&ic.started, 0);
	/* Queued on CPU 0, then free to move anywhere, the isolated CPU included. */
	started = st_start_queued_on_cpu0(hogs, n, ic_hog, "ic_hog");
	st_poll(atomic_read(&ic.started) == (int)started, ST_START_MS);
	t0 = local_clock();
	while (local_clock() - t0 < (u64)IC_SAMPLE_MS * NSEC_PER_MSEC) {
		for (i = 0; i < started; i++) {
			cpu = task_cpu(hogs[i]);
			on_iso += cpu == iso;
			moved += cpu != 0 && cpu != iso;
		}
		samples++;
		msleep(10);
	}
	WRITE_ONCE(ic.stop, true);
	for (i = 0; i < started; i++)
		st_stop_if(hogs[i], true);
	sched_set_isolated(&saved);
	sched_set_idle_balance(was_on);

	ktap_diag("CPU %u isolated: %u hogs from CPU 0, %u samples: %u hog-samples on it, %u on other CPUs",
		  iso, started, samples, on_iso, moved);
	KTAP_EXPECT_MSG(started == n, "started %u of %u hogs", started, n);
	KTAP_EXPECT_MSG(on_iso == 0, "a hog ran on isolated CPU %u (%u samples)", iso, on_iso);
	KTAP_EXPECT_MSG(moved > 0, "no hog was balanced onto a non-isolated CPU");
}
