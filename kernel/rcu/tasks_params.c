/*
 * The rcupdate.rcu_task_* parameters every Tasks RCU flavor shares. Linux
 * 6.1 declares them in its generic Tasks code (kernel/rcu/tasks.h, under
 * CONFIG_TASKS_RCU_GENERIC), so they exist whenever any flavor is built
 * and each flavor reads them; this file is built on the same condition.
 * They once lived in tasks.c and tasks_trace.c, so a kernel with Tasks
 * Rude or Tasks Trace RCU but not Tasks RCU ignored the stall timeout
 * (Rude then had no warnings at all, Trace a fixed ten minutes).
 *
 * Linux's rcu_task_enqueue_lim, rcu_task_contend_lim, rcu_task_collapse_lim
 * (per-CPU callback queues) and rcu_task_stall_info(_mult) (informational
 * messages before a stall) are not implemented: linux_params.c answers
 * for them. No "rcu: " prefix on the boot line: Linux prints it from
 * update.c, which has none.
 */
#define KPARAM_SUBSYS "rcu"

#include "tasks_params.h"
#include <rcu/tasks.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/compiler.h>
#include <time/time.h>

/* Linux's default: ten minutes, in jiffies. */
#define RCU_TASK_STALL_TIMEOUT	(HZ * 60 * 10)
/* Linux's default: readers with full barriers can be read remotely, so IPIs wait half a second. */
#define RCU_TASK_IPI_DELAY	(IS_ENABLED(CONFIG_TASKS_TRACE_RCU_READ_MB) ? HZ / 2 : 0)

/* Jiffies a grace period of any Tasks flavor may wait before each stall warning; 0: never warn. */
static int rcu_task_stall_timeout = RCU_TASK_STALL_TIMEOUT;
KPARAM("rcupdate.rcu_task_stall_timeout", rcu_task_stall_timeout, KPARAM_INT, 0, INT_MAX,
       "jiffies a Tasks RCU grace period (any flavor) may wait before a stall warning (0: none)");

/*
 * Jiffies from a grace period's start before a running holdout gets an
 * IPI. Only Tasks Trace RCU sends such IPIs (tasks_trace.c); the other
 * flavors accept the parameter and ignore it, as Linux's do.
 */
int rcu_task_ipi_delay = RCU_TASK_IPI_DELAY;
KPARAM("rcupdate.rcu_task_ipi_delay", rcu_task_ipi_delay, KPARAM_INT, 0, INT_MAX,
       "jiffies a Tasks Trace RCU grace period waits before IPIing a running task");

int rcu_tasks_stall_timeout(void)
{
	return READ_ONCE(rcu_task_stall_timeout);
}

/* The first Tasks line of the boot banner (update.c's oddness list), before the flavors' own. */
void rcu_tasks_generic_bootup_oddness(void)
{
	if (rcu_task_stall_timeout != RCU_TASK_STALL_TIMEOUT)
		pr_info("\tTasks-RCU CPU stall warnings timeout set to %d (rcu_task_stall_timeout).\n",
			rcu_task_stall_timeout);
}
