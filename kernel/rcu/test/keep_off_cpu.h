/*
 * For the RCU tests that spin or loop on one CPU with preemption or
 * interrupts off (gp_sched_qs.c, stall.c, gp_bulk.c): keep a task,
 * usually the grace-period kthread, off that CPU meanwhile, where it
 * could not run.
 * The caller gives the saved affinity back with set_cpus_allowed_ptr().
 */
#ifndef _RCU_TEST_KEEP_OFF_CPU_H
#define _RCU_TEST_KEEP_OFF_CPU_H

#include <sched/sched.h>
#include <kernel/cpumask.h>

/* Saves p's affinity in saved; 0 once p may run anywhere it could but cpu. */
static inline int rcu_test_keep_off_cpu(struct task_struct *p, unsigned int cpu,
					struct cpumask *saved)
{
	struct cpumask away;

	cpumask_copy(saved, &p->cpus_mask);
	cpumask_copy(&away, saved);
	cpumask_clear_cpu(cpu, &away);
	return set_cpus_allowed_ptr(p, &away);
}

#endif
