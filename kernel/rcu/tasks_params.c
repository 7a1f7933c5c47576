/*
 * The rcupdate.rcu_task_* parameters every Tasks RCU flavor shares. Linux
 * 6.1 declares them in its generic Tasks code (kernel/rcu/tasks.h, under
 * CONFIG_TASKS_RCU_GENERIC), so they exist whenever any flavor is built
 * and each flavor reads them; this file is built on the same condition.
 * They once lived in tasks.c and tasks_trace.c, so a kernel with Tasks
 * Rude or Tasks Trace RCU but not Tasks RCU ignored the stall timeout
 * (Rude then had no warnings at all, Trace a fixed ten minutes).
 *
 * Linux's rcu_task_enqueue_lim, rcu_task_contend_lim and
 * rcu_task_collapse_lim (per-CPU callback queues) are not implemented:
 * linux_params.c answers for them. No "rcu: " prefix on the boot and
 * informational lines: Linux prints them from update.c, which has none.
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
/* Linux's defaults: the first informational message after ten seconds, the gaps tripling. */
#define RCU_TASK_STALL_INFO	(HZ * 10)
#define RCU_TASK_STALL_INFO_MULT	3
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

/*
 * Jiffies a grace period of any Tasks flavor waits before its first
 * informational message (rcu_tasks_info_check()); 0: none. Read at each
 * grace period's start, as Linux does.
 */
static int rcu_task_stall_info = RCU_TASK_STALL_INFO;
KPARAM("rcupdate.rcu_task_stall_info", rcu_task_stall_info, KPARAM_INT, 0, INT_MAX,
       "jiffies a Tasks RCU grace period waits before its first informational message (0: none)");

/*
 * Each informational message's gap is the last one's times this. Linux
 * clamps it to 1..10 at boot ("Tasks-RCU CPU stall info multiplier
 * clamped to ..."); here the command line's clamp warning says so.
 */
static int rcu_task_stall_info_mult = RCU_TASK_STALL_INFO_MULT;
KPARAM_CLAMP("rcupdate.rcu_task_stall_info_mult", rcu_task_stall_info_mult, KPARAM_INT, 1, 10,
	     "factor by which the gaps between Tasks RCU informational messages grow");

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

/* At the start of a grace period's wait for its holdouts: the first message is rcu_task_stall_info away. */
void rcu_tasks_info_start(struct rcu_tasks_info *ri)
{
	ri->last = jiffies;
	ri->gap = READ_ONCE(rcu_task_stall_info);
}

/*
 * Jiffies at which the next message falls due, to arm a timer for it
 * (Tasks Rude's wait sleeps on its visits, not in a rescan loop); false
 * when none will come.
 */
bool rcu_tasks_info_due(const struct rcu_tasks_info *ri, unsigned long *when)
{
	*when = ri->last + ri->gap;
	return ri->gap > 0;
}

/*
 * Linux's pre-stall informational message (its rcu_tasks_wait_gp()): once
 * the grace period has waited rcu_task_stall_info jiffies, one line with
 * its number and age, then again each time the gap since the last,
 * multiplied by rcu_task_stall_info_mult each time, has passed; none once
 * this grace period printed a stall warning (reported). The line keeps
 * Linux's words and the function name it prints for every flavor; the
 * number is the grace period's count since boot, 1 for the first (Linux
 * prints its sequence counter, four per grace period). Returns true if
 * it printed.
 */
bool rcu_tasks_info_check(struct rcu_tasks_info *ri, bool reported, const char *kname,
			  unsigned long gp, unsigned long gp_start)
{
	unsigned long j = jiffies;

	if (ri->gap <= 0 || reported || !time_after(j, ri->last + ri->gap))
		return false;
	ri->last = j;
	/* Saturates: a gap past INT_MAX jiffies (24 days at HZ=1000) ends the messages. */
	ri->gap = ri->gap > INT_MAX / rcu_task_stall_info_mult ? 0 : ri->gap * rcu_task_stall_info_mult;
	pr_info("rcu_tasks_wait_gp: %s grace period %lu is %lu jiffies old.\n", kname, gp, j - gp_start);
	return true;
}
