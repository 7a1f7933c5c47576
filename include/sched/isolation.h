/*
 * Housekeeping CPUs (CONFIG_NO_HZ_FULL): the CPUs that keep the kernel's
 * own background work (jiffies, the RCU grace-period and callback
 * kthreads, unbound kthreads) so that the nohz_full= CPUs can run one
 * task each without interruption. Without nohz_full= (or without the
 * option) every possible CPU is a housekeeping CPU and no CPU is
 * nohz_full. kernel/time/tick-nohz-full.c owns the masks.
 */
#ifndef _SCHED_ISOLATION_H
#define _SCHED_ISOLATION_H

#include <kernel/cpumask.h>

#ifdef CONFIG_NO_HZ_FULL
/* Parse nohz_full= and print the banner (boot CPU, before rcu_init() and any kthread). */
void housekeeping_init(void);
/* The housekeeping CPUs: cpu_possible_mask less the nohz_full CPUs. */
const struct cpumask *housekeeping_cpumask(void);
/* The nohz_full CPUs (empty without nohz_full=). */
const struct cpumask *tick_nohz_full_cpumask(void);
extern bool tick_nohz_full_running;	/* nohz_full= named at least one CPU */
static inline bool tick_nohz_full_enabled(void) { return READ_ONCE(tick_nohz_full_running); }
static inline bool tick_nohz_full_cpu(int cpu)
{
	return tick_nohz_full_enabled() && cpumask_test_cpu(cpu, tick_nohz_full_cpumask());
}
#else
static inline void housekeeping_init(void) { }
static inline const struct cpumask *housekeeping_cpumask(void) { return cpu_possible_mask; }
static inline bool tick_nohz_full_enabled(void) { return false; }
static inline bool tick_nohz_full_cpu(int cpu) { (void)cpu; return false; }
#endif

static inline bool housekeeping_cpu(int cpu) { return !tick_nohz_full_cpu(cpu); }

/*
 * isolcpus= (kernel/sched/isolation.c): CPUs out of the scheduler's load
 * balancing (Linux's "domain" isolation). sched_isolation_init() parses
 * the parameter (boot CPU, before sched_init()); sched_set_isolated()
 * changes the set at run time (the sched self-test).
 */
extern struct cpumask sched_isolated_mask;
void sched_isolation_init(void);
void sched_set_isolated(const struct cpumask *mask);
static inline bool sched_cpu_isolated(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, &sched_isolated_mask);
}

#endif
