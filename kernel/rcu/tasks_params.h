/*
 * The rcupdate.rcu_task_* parameters every Tasks RCU flavor shares
 * (tasks_params.c, built with CONFIG_TASKS_RCU_GENERIC), for the flavors
 * that read a variable directly, and the pre-stall informational
 * messages' helpers. The stall timeout is read through
 * rcu_tasks_stall_timeout() (<rcu/tasks.h>), which tests use too.
 */
#ifndef _KERNEL_RCU_TASKS_PARAMS_H
#define _KERNEL_RCU_TASKS_PARAMS_H

#include <kernel/types.h>

/* rcupdate.rcu_task_ipi_delay: jiffies before a Tasks Trace grace period IPIs a running task. */
extern int rcu_task_ipi_delay;

/*
 * Pre-stall informational messages (rcupdate.rcu_task_stall_info and
 * rcu_task_stall_info_mult), one state per grace period, kept by the
 * flavor's kthread (or, for Tasks Rude, its stall timer).
 */
struct rcu_tasks_info {
	unsigned long last;	/* jiffies of the last message, or of the wait's start */
	int gap;		/* jiffies from last to the next message; <= 0: no more */
};
void rcu_tasks_info_start(struct rcu_tasks_info *ri);
bool rcu_tasks_info_due(const struct rcu_tasks_info *ri, unsigned long *when);
bool rcu_tasks_info_check(struct rcu_tasks_info *ri, bool reported, const char *kname,
			  unsigned long gp, unsigned long gp_start);

#endif
