/*
 * RCU priority boosting (CONFIG_RCU_BOOST): readers preempted inside their
 * critical sections and starved by real-time tasks are lent a real-time
 * priority until they leave them, so that grace periods end.
 *
 * One kthread per leaf rcu_node, rcub/N, runs SCHED_FIFO at
 * rcutree.kthread_prio. A grace period's readers become eligible
 * CONFIG_RCU_BOOST_DELAY ms after it started (->boost_time), and only once
 * every CPU of the leaf has reported, so that only preempted readers hold
 * the leaf up; the FQS scan (force_qs_rnp() -> rcu_initiate_boost()) then
 * points ->boost_tasks at the leaf's first blocking task and wakes rcub.
 * Blocked tasks of an expedited grace period (->exp_tasks) are boosted at
 * once, as in Linux.
 *
 * rcub boosts one task at a time through priority inheritance: it makes
 * the reader the owner of the leaf's ->boost_mtx without the reader
 * running (rt_mutex_init_proxy_locked()), then blocks on that rt_mutex,
 * which lends the reader rcub's priority. At its outermost
 * rcu_read_unlock() the reader sees it owns the lock and releases it
 * (tree_plugin.c), dropping back to its own priority and handing the lock
 * to rcub, which unlocks it and moves on to the next task: the reader
 * removed itself from the list and advanced ->boost_tasks past itself.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <kernel/printk.h>
#include <time/time.h>
#include <kernel/bug.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <locking/mutex.h>
#include <sched/wait.h>

#define RCU_BOOST_DELAY_JIFFIES	DIV_ROUND_UP(CONFIG_RCU_BOOST_DELAY * HZ, 1000)

void rcu_boost_init_node(struct rcu_node *rnp)
{
	rnp->boost_tasks = NULL;
	rt_mutex_init(&rnp->boost_mtx);
	init_waitqueue_head(&rnp->boost_wq);
}

void rcu_boost_gp_start(struct rcu_node *rnp)
{
	rnp->boost_time = jiffies + RCU_BOOST_DELAY_JIFFIES;
}

/*
 * rnp locked (as raw_spin_lock_irqsave_rcu_node()); releases it. Start
 * boosting if an expedited GP waits for rnp's tasks, or if the normal GP
 * has waited for nothing but them for the boost delay.
 */
void rcu_initiate_boost(struct rcu_node *rnp, unsigned long flags)
{
	struct task_struct *t = rnp->boost_kthread_task;

	if (!t || (!rcu_preempt_blocked_readers_cgp(rnp) && !rnp->exp_tasks)) {
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return;
	}
	if (rnp->exp_tasks ||
	    (rnp->gp_tasks && !rnp->boost_tasks && !rnp->qsmask &&
	     !time_after(rnp->boost_time, jiffies))) {
		if (!rnp->exp_tasks)
			WRITE_ONCE(rnp->boost_tasks, rnp->gp_tasks);
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		wake_up(&rnp->boost_wq);
		return;
	}
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
}

/* Boost the next task of rnp; returns true if more are waiting to be boosted. */
static bool rcu_boost(struct rcu_node *rnp)
{
	struct task_struct *t;
	struct list_head *tb;
	unsigned long flags;

	if (!READ_ONCE(rnp->exp_tasks) && !READ_ONCE(rnp->boost_tasks))
		return false;
	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	tb = rnp->exp_tasks ? rnp->exp_tasks : rnp->boost_tasks;
	if (!tb) {
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return false;
	}
	/*
	 * Under rnp's lock, so t cannot leave its reader in between: it
	 * checks the owner under the same lock when it dequeues itself.
	 */
	t = list_entry(tb, struct task_struct, rcu_node_entry);
	rt_mutex_init_proxy_locked(&rnp->boost_mtx, t);
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);

	trace_rcu_boost(rnp->grplo, rnp->grphi, rnp->exp_tasks ? "boostexp" : "boost");
	rt_mutex_lock(&rnp->boost_mtx);	/* t runs at our priority until it hands this over */
	rt_mutex_unlock(&rnp->boost_mtx);
	trace_rcu_boost(rnp->grplo, rnp->grphi, "unboosted");
	rnp->n_boosts++;
	return READ_ONCE(rnp->exp_tasks) || READ_ONCE(rnp->boost_tasks);
}

static int rcu_boost_kthread(void *arg)
{
	struct rcu_node *rnp = arg;
	int spincnt = 0;

	for (;;) {
		wait_event_idle(rnp->boost_wq,
				READ_ONCE(rnp->boost_tasks) || READ_ONCE(rnp->exp_tasks));
		if (rcu_boost(rnp))
			spincnt++;
		else
			spincnt = 0;
		/* Many readers in a row: let lower-priority work run a little (Linux: 10, 2 jiffies). */
		if (spincnt > 10) {
			schedule_timeout_interruptible(2);
			spincnt = 0;
		}
	}
	return 0;
}

/* From rcu_init_kthreads(): one rcub/N per leaf, N its index among the leaves. */
void rcu_spawn_boost_kthreads(void)
{
	struct rcu_node *rnp;
	int n = 0;

	rcu_for_each_leaf_node(rnp) {
		struct task_struct *t = kthread_create(rcu_boost_kthread, rnp, "rcub/%d", n++);

		BUG_ON(!t);
		rcu_kthread_set_prio(t);
		rnp->boost_kthread_task = t;
		wake_up_process(t);
	}
}
