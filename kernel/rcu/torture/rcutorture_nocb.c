/*
 * rcutorture: Linux's callback-offloading togglers. nocbs_nthreads
 * kthreads each sleep about nocbs_toggle milliseconds (plus up to an
 * eighth more, at random), then offload or de-offload a random online CPU
 * (rcu_nocb_cpu_offload()/rcu_nocb_cpu_deoffload(), kernel/rcu/
 * tree_nocb_toggle.c). As in Linux, every attempt counts, including one
 * refused for a CPU that rcu_nocbs= did not name: the statistics line's
 * "nocb-toggles: offloads:deoffloads".
 */
#include "rcutorture.h"
#include <time/time.h>

static struct task_struct **nocb_tasks;

static int rcu_nocb_toggle(void *unused)
{
	DEFINE_TORTURE_RANDOM(rand);
	u64 interval_ns = (u64)rtp->nocbs_toggle * NSEC_PER_MSEC;
	u32 fuzz_ns = interval_ns / 8 > 0xffffffffULL ? 0xffffffffU : (u32)(interval_ns / 8);
	unsigned int cpu, maxcpu = 0;
	unsigned long r;

	VERBOSE_TOROUT_STRING("rcu_nocb_toggle task started");
	for_each_online_cpu(cpu)
		maxcpu = cpu;
	if (!fuzz_ns)
		fuzz_ns = NSEC_PER_USEC;
	do {
		r = torture_random(&rand);
		cpu = (r >> 4) % (maxcpu + 1);
		if (r & 0x1) {
			rcu_nocb_cpu_offload(cpu);
			atomic_long_inc(&rcu_torture_counters.nocb_offload);
		} else {
			rcu_nocb_cpu_deoffload(cpu);
			atomic_long_inc(&rcu_torture_counters.nocb_deoffload);
		}
		torture_hrtimeout_ns(interval_ns, fuzz_ns, &rand);
		stutter_wait("rcu_nocb_toggle");
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_nocb_toggle");
	return 0;
}

int rcu_torture_nocb_init(void)
{
	int err;

	atomic_long_set(&rcu_torture_counters.nocb_offload, 0);
	atomic_long_set(&rcu_torture_counters.nocb_deoffload, 0);
	if (rtp->nocbs_nthreads <= 0)
		return 0;
	nocb_tasks = kcalloc(rtp->nocbs_nthreads, sizeof(nocb_tasks[0]), GFP_KERNEL);
	if (!nocb_tasks) {
		VERBOSE_TOROUT_ERRSTRING("out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < rtp->nocbs_nthreads; i++) {
		err = torture_create_kthread(rcu_nocb_toggle, NULL, nocb_tasks[i]);
		if (err)
			return err;
	}
	return 0;
}

void rcu_torture_nocb_cleanup(void)
{
	if (!nocb_tasks)
		return;
	for (int i = 0; i < rtp->nocbs_nthreads; i++)
		torture_stop_kthread(rcu_nocb_toggle, nocb_tasks[i]);
	kfree(nocb_tasks);
	nocb_tasks = NULL;
}
