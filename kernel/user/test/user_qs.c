/*
 * The KTAP suite "user" (user.selftest=1): user mode as an RCU quiescent
 * state. The program "spin" runs on every CPU but CPU 0 for SPIN_SECS
 * seconds without system calls while this test, on CPU 0, waits for
 * grace periods. They must complete while the spinners are still in user
 * mode: a spinning task never switches voluntarily, so without user mode
 * counted as quiescent a Tasks RCU grace period would wait for the
 * spinners to exit. The figures (grace periods, latency) are reported,
 * not asserted.
 */
#define KPARAM_SUBSYS "user"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "../user.h"
#include <kernel/ktap.h>
#include <kernel/param.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <kernel/context_tracking.h>
#include <rcu/rcupdate.h>
#include <rcu/tasks.h>
#include <sched/sched.h>
#include <time/time.h>
#include <time/delay.h>

#define SPIN_SECS	8

static bool user_selftest;
KPARAM_BOOL("user.selftest", user_selftest,
	    "run the user-mode self-tests (KTAP suite \"user\") at boot");

static struct cpumask cpu0_mask;

/* Start spinners on CPUs 1..n-1 and wait (bounded) until each has entered user mode. */
static int start_spinners(unsigned long before[])
{
	int n = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		before[cpu] = ct_user_enter_count(cpu);
		if (cpu != 0 && !user_run_program("spin", cpu, SPIN_SECS))
			n++;
	}
	for (int waited = 0; waited < 5000; waited += 10) {
		int in = 0;

		for_each_online_cpu(cpu)
			if (cpu != 0 && ct_user_enter_count(cpu) > before[cpu])
				in++;
		if (in == n)
			break;
		msleep(10);
	}
	return n;
}

static void user_rcu_gp_while_user_spins(void)
{
	static unsigned long before[NR_CPUS];
	int exited0 = user_processes_exited(), n, gps = 0;
	unsigned long gp0 = rcu_gp_completed();
	u64 t0, total_ns = 0, max_ns = 0;
	unsigned int cpu;

	cpu0_mask = (struct cpumask){ 0 };
	cpumask_set_cpu(0, &cpu0_mask);
	set_cpus_allowed_ptr(current, &cpu0_mask);
	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	n = start_spinners(before);
	KTAP_EXPECT(n == (int)num_online_cpus() - 1);
	for_each_online_cpu(cpu)
		if (cpu != 0)
			KTAP_EXPECT_MSG(ct_user_enter_count(cpu) > before[cpu],
					"CPU %u never entered user mode", cpu);
	/* One second of back-to-back grace periods (well inside the spinners' SPIN_SECS). */
	t0 = local_clock();
	while (local_clock() - t0 < NSEC_PER_SEC) {
		u64 s = local_clock(), d;

		synchronize_rcu();
		d = local_clock() - s;
		total_ns += d;
		max_ns = max(max_ns, d);
		gps++;
	}
	s64 tasks_ns = local_clock();
	synchronize_rcu_tasks();
	tasks_ns = local_clock() - tasks_ns;
	/* Every spinner still in user mode: the grace periods did not wait for them to leave. */
	KTAP_EXPECT_MSG(user_processes_exited() == exited0,
			"%d spinners exited before the grace periods ended", user_processes_exited() - exited0);
	KTAP_EXPECT(gps > 0 && rcu_gp_completed() - gp0 >= (unsigned long)gps);
	ktap_diag("%d spinning CPUs: %d synchronize_rcu() in 1 s, mean %llu us, max %llu us; synchronize_rcu_tasks() %lld us",
		  n, gps, total_ns / gps / 1000, max_ns / 1000, tasks_ns / 1000);
	cpumask_setall(&cpu0_mask);
	set_cpus_allowed_ptr(current, &cpu0_mask);
}

static const struct ktap_case user_cases[] = {
	KTAP_CASE(user_rcu_gp_while_user_spins),
};
KTAP_SUITE(user, user_cases, &user_selftest);
