/*
 * kvfree_rcu() for Tiny RCU, as Linux's Tiny RCU has it: no batching (one
 * CPU, grace periods are cheap). The two-argument form queues the
 * object's rcu_head with the offset as its "function" (tiny.c frees it
 * when it sees one); the one-argument (headless) form waits for a grace
 * period and frees at once, so it may sleep.
 */
#include <rcu/rcupdate.h>
#include <mm/slab.h>
#include <kernel/might_sleep.h>

void kvfree_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	if (head) {
		call_rcu(head, func);
		return;
	}
	might_sleep();
	synchronize_rcu();
	kvfree((void *)func);
}

/* Every earlier kvfree_rcu() is a queued callback or already freed. */
void kvfree_rcu_barrier(void)
{
	rcu_barrier();
}
