/*
 * rcutorture.object_debug=1 (CONFIG_DEBUG_OBJECTS_RCU_HEAD): Linux's
 * duplicate call_rcu() self-check. From inside a reader with interrupts
 * off (so no grace period can end in between) it queues an on-stack head,
 * queues a second one, queues the first again, and does the same to a
 * kmalloc()ed head. Each duplicate must give an ODEBUG "activate active"
 * report and must not be queued: after rcu_barrier() each head's first
 * callback has run once and no duplicate's callback has run at all.
 * The reports are WARNINGs on purpose; a duplicate that ran is an error.
 */
#define pr_fmt(fmt) "rcutorture: " fmt

#include "rcutorture.h"

static atomic_t rcu_objdebug_leaks, rcu_objdebug_dups;

static void rcu_torture_leak_cb(struct rcu_head *rhp)
{
	atomic_inc(&rcu_objdebug_leaks);
}

static void rcu_torture_err_cb(struct rcu_head *rhp)
{
	/* Queued twice and run anyway: the list it sits on may be corrupt. */
	atomic_inc(&rcu_objdebug_dups);
	pr_alert("duplicated callback was invoked.\n");
}

static void rcu_test_debug_objects(void)
{
	struct rcu_head rh1, rh2;
	struct rcu_head *rhp = kmalloc(sizeof(*rhp), GFP_KERNEL);
	unsigned long flags;
	int dups, leaks, want = rhp ? 3 : 2;

	init_rcu_head_on_stack(&rh1);
	init_rcu_head_on_stack(&rh2);
	pr_alert("WARN: Duplicate call_rcu() test starting.\n");
	local_irq_save(flags);
	rcu_read_lock();
	call_rcu(&rh1, rcu_torture_leak_cb);
	call_rcu(&rh2, rcu_torture_leak_cb);
	call_rcu(&rh1, rcu_torture_err_cb);	/* duplicate */
	if (rhp) {
		call_rcu(rhp, rcu_torture_leak_cb);
		call_rcu(rhp, rcu_torture_err_cb);	/* another duplicate */
	}
	rcu_read_unlock();
	local_irq_restore(flags);
	rcu_barrier();
	pr_alert("WARN: Duplicate call_rcu() test complete.\n");
	destroy_rcu_head_on_stack(&rh1);
	destroy_rcu_head_on_stack(&rh2);
	kfree(rhp);
	dups = atomic_read(&rcu_objdebug_dups);
	leaks = atomic_read(&rcu_objdebug_leaks);
	pr_alert("Duplicate call_rcu() test: %d of %d callbacks ran, %d duplicates ran: %s\n",
		 leaks, want, dups, leaks == want && !dups ? "PASS" : "FAIL");
	if (leaks != want || dups)
		kernel_note_test_failure();
}

/* Its tester entry: the check runs once, at start, when asked for. */
int rcu_torture_objdebug_init(void)
{
	if (rtp->object_debug)
		rcu_test_debug_objects();
	return 0;
}
