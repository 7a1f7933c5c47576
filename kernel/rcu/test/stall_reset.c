/*
 * The "rcu_api" suite's rcu_cpu_stall_reset() check, Tree RCU only (it
 * reads rcu_state, so it sits in the Tree-only part of the Kbuild):
 * after the reset the current stall deadline is half the jiffies space
 * away, and the next normal grace period sets a real one again.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "api_extra.h"
#include "../tree.h"

static struct rcu_head rsr_head;
static void rsr_cb(struct rcu_head *rh) { }

void rcu_api_stall_reset_tree(void)
{
	unsigned long limit = rcu_jiffies_till_stall_check();
	unsigned long js;

	rcu_cpu_stall_reset();
	js = READ_ONCE(rcu_state.jiffies_stall);
	KTAP_EXPECT_MSG(js - jiffies > ULONG_MAX / 4,
			"stall deadline %lu jiffies away after rcu_cpu_stall_reset()", js - jiffies);
	/* A callback needs a normal grace period (synchronize_rcu() may be expedited). */
	call_rcu(&rsr_head, rsr_cb);
	if (!rst_barrier())
		return;
	js = READ_ONCE(rcu_state.jiffies_stall);
	/* Set at that grace period's start, so at most a timeout from now (or already past). */
	KTAP_EXPECT_MSG((long)(js - jiffies) <= (long)limit,
			"stall deadline %lu jiffies away after the next grace period (timeout %lu)",
			js - jiffies, limit);
}
