/*
 * Flavor-independent RCU pieces: the rcupdate.* boot parameters and the
 * stall-timeout arithmetic every flavor shares.
 *
 * As in Linux, this file has no "rcu: " prefix on its boot lines: they
 * are indented continuations of the implementation banner that
 * rcu_params_init() prints ("\tRCU CPU stall warnings ...").
 */
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/time.h>

#define RCU_STALL_TIMEOUT_MIN	3	/* seconds */
#define RCU_STALL_TIMEOUT_MAX	300
/* Extra jiffies on top of the timeout (Linux adds 5 s with lockdep-RCU; we have none). */
#define RCU_STALL_DELAY_DELTA	0

int rcu_cpu_stall_timeout = CONFIG_RCU_CPU_STALL_TIMEOUT;
KPARAM_CLAMP("rcupdate.rcu_cpu_stall_timeout", rcu_cpu_stall_timeout, KPARAM_INT,
	     RCU_STALL_TIMEOUT_MIN, RCU_STALL_TIMEOUT_MAX,
	     "seconds a grace period may last before an RCU CPU stall warning");

bool rcu_cpu_stall_suppress;
KPARAM_BOOL("rcupdate.rcu_cpu_stall_suppress", rcu_cpu_stall_suppress,
	    "do not print RCU CPU stall warnings");

/*
 * Jiffies from the start of a grace period to its stall warning. The
 * timeout is read afresh each time (once per grace period), so a changed
 * value takes effect at the next grace period; out-of-range values are
 * clamped and the clamped value stored back, as Linux does.
 */
unsigned long rcu_jiffies_till_stall_check(void)
{
	int secs = READ_ONCE(rcu_cpu_stall_timeout);

	if (secs < RCU_STALL_TIMEOUT_MIN) {
		secs = RCU_STALL_TIMEOUT_MIN;
		WRITE_ONCE(rcu_cpu_stall_timeout, secs);
	} else if (secs > RCU_STALL_TIMEOUT_MAX) {
		secs = RCU_STALL_TIMEOUT_MAX;
		WRITE_ONCE(rcu_cpu_stall_timeout, secs);
	}
	return (unsigned long)secs * HZ + RCU_STALL_DELAY_DELTA;
}

/*
 * The rcupdate.* part of the boot "oddness" list, printed at the end of
 * rcu_params_init()'s. rcu_normal / rcu_normal_after_boot / rcu_expedited
 * lines ("\tNo expedited grace period (rcu_normal).", ...) go first here
 * once those parameters exist.
 */
void rcupdate_announce_bootup_oddness(void)
{
	if (rcu_cpu_stall_suppress)
		pr_info("\tRCU CPU stall warnings suppressed (rcu_cpu_stall_suppress).\n");
	if (rcu_cpu_stall_timeout != CONFIG_RCU_CPU_STALL_TIMEOUT)
		pr_info("\tRCU CPU stall warnings timeout set to %d (rcu_cpu_stall_timeout).\n",
			rcu_cpu_stall_timeout);
}
