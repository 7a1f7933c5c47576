/*
 * Test kernels only (CONFIG_RCU_HOTPLUG_WINDOW_DELAY): delay knobs inside
 * two windows of Tree RCU's CPU-hotplug handling, where the code acts on
 * what it learnt of the CPUs a moment earlier (Documentation/RCU/hotplug.md):
 *  - rcutree.trivial_gp_delay_ms: the one-CPU shortcut of the grace-period
 *    waits (rcu_sync_is_trivial()) sleeps N ms after its first look at
 *    the CPUs and again after it took exp_mutex, before it steps the
 *    grace-period numbers; a CPU that comes up meanwhile must not have
 *    its readers' cookies completed by those steps;
 *  - rcutree.gp_fold_delay_ms: the grace-period kthread sleeps N ms in
 *    rcu_gp_init() before it folds the CPUs that came and went into the
 *    tree, so a CPU may come up and go down again unseen by any fold.
 * A self-test may set rcu_window_hook instead, to hold one task at these
 * places until it lets it go (the "cpuhp" suite).
 */
#define KPARAM_SUBSYS "rcutree"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "tree.h"
#include <kernel/param.h>
#include <time/delay.h>

static unsigned int rcu_trivial_gp_delay_ms;
KPARAM("rcutree.trivial_gp_delay_ms", rcu_trivial_gp_delay_ms, KPARAM_UINT, 0, 1000,
       "test kernels: sleep this many ms twice inside the one-CPU shortcut of the grace-period waits");

static unsigned int rcu_gp_fold_delay_ms;
KPARAM("rcutree.gp_fold_delay_ms", rcu_gp_fold_delay_ms, KPARAM_UINT, 0, 1000,
       "test kernels: sleep this many ms in each grace period's start before the CPU-hotplug fold");

void (*rcu_window_hook)(enum rcu_window w);

/* Task context, may sleep: both places are outside any lock. */
void rcu_window_delay(enum rcu_window w)
{
	void (*hook)(enum rcu_window w) = READ_ONCE(rcu_window_hook);
	unsigned int ms;

	if (!READ_ONCE(rcu_scheduler_active))
		return;		/* early boot: nothing to race with, and no sleeping yet */
	if (hook) {
		hook(w);
		return;
	}
	ms = w == RCU_WIN_GP_FOLD ? READ_ONCE(rcu_gp_fold_delay_ms) : READ_ONCE(rcu_trivial_gp_delay_ms);
	if (ms)
		msleep(ms);
}
