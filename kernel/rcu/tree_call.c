/*
 * call_rcu(): queueing a callback on this CPU (Tree RCU). The callback
 * goes to this CPU's segmented list (or to rcuog/N on an offloaded CPU).
 * It is numbered with the grace period it needs at once (without the
 * leaf's lock when that grace period is already asked for) when it is the
 * only callback waiting here or no grace period runs; else it waits
 * unnumbered and is numbered in bulk with the others (rcu_cb_bulk()). A
 * flood beyond rcutree.qhimark lifts the batch limit and pushes the grace
 * period with an FQS scan. Invoking the callbacks is rcu_do_batch()'s, in
 * tree.c.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include "kvfree.h"
#include <rcu/rcupdate.h>
#include <kernel/irqflags.h>
#include <time/time.h>
#include <sched/sched.h>

/*
 * call_rcu()'s common case, without the leaf's lock (Linux's
 * rcu_accelerate_cbs_unlocked()): this CPU has seen its leaf's latest grace
 * period, and the grace period the new callback needs is one this CPU
 * already asked for (rdp->gp_seq_needed, set under the leaf's lock by
 * rcu_accelerate_cbs() or __note_gp_changes()). Then nothing but this CPU's
 * own segment numbers change, which interrupts-off protects. Returns false
 * for the locked path: something to notice, the holdoff of
 * rcu_accelerate_cbs(), or a grace period not yet requested.
 *
 * Why: a flood of call_rcu() on one CPU (rcutorture's forward-progress
 * test) took the leaf's lock for every callback; that was most of the
 * cost of a call_rcu(), and when another CPU held the lock each failed
 * trylock woke rcuc/N for nothing (Documentation/RCU/performance.md,
 * 2026-12-07 14:15).
 */
static bool rcu_accelerate_cbs_nolock(struct rcu_data *rdp)
{
	unsigned long gp_seq_req;

	if (rdp->gp_seq != READ_ONCE(rdp->mynode->gp_seq) || READ_ONCE(rdp->gpwrap) ||
	    rdp->gp_req_holdoff == jiffies + 1)
		return false;
	/*
	 * The callback (and the caller's updates before it) before the
	 * snapshot: a grace period whose start the snapshot misses looks at
	 * CPUs after them. Pairs with rcu_seq_start()'s smp_mb(), as the
	 * leaf lock's acquisition does on the locked path.
	 */
	smp_mb();
	gp_seq_req = rcu_seq_snap(&rcu_state.gp_seq);
	if (ULONG_CMP_LT(rdp->gp_seq_needed, gp_seq_req))
		return false;	/* not asked for yet: the locked path funnels the request */
	(void)rcu_segcblist_accelerate(&rdp->cblist, gp_seq_req);
	return true;
}

/*
 * May the new callback wait in NEXT, unnumbered, to be numbered in bulk
 * with others (Linux's call_rcu() numbers none: rcu_core() does)? Only
 * when callbacks queued earlier already wait here for a grace period
 * (pending: the caller reads it before the enqueue) and one is running.
 * Then the running grace period's end numbers them all at once: it
 * kicks rcuc/N, whose note_gp_changes() advances and accelerates this
 * CPU's list (rcu_gp_cleanup(), tree_gp.c). Failing that kick, the tick
 * sees the new gp_seq (rcu_pending()), and an idle CPU numbers its new
 * callbacks on the way into idle (rcu_prepare_for_idle()) or keeps its
 * tick. The number is always a snapshot taken after the enqueue, so a
 * late number only costs the callback a grace period, never safety.
 *
 * A callback alone or an idle system keeps the numbering at once: the
 * grace period is asked for in call_rcu() itself, not a tick later, which
 * is what makes a lone call_rcu() come back faster than Linux's
 * (rcuperf's async1 kind).
 *
 * Why: numbering each callback costs a full barrier and a read of the
 * global gp_seq in every call_rcu() (rcu_accelerate_cbs_nolock()): in a
 * flood that is per callback what one rcu_core() pass does for all of
 * them (Documentation/RCU/performance.md, issue 34).
 *
 * The read of the grace-period state needs no barrier: a stale "running"
 * (the grace period ended meanwhile) still finds this CPU's earlier
 * callbacks queued, so its end kicks rcuc/N (its cblist.len is not zero)
 * or this CPU's tick sees the new gp_seq; either comes after this
 * enqueue, as both run on this CPU once interrupts are back on.
 */
static bool rcu_cb_bulk(struct rcu_data *rdp, bool pending)
{
	if (!pending || !rcu_gp_in_progress())
		return false;
	rdp->n_cbs_bulk++;
	return true;
}

void invoke_rcu_core(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (!READ_ONCE(rcu_scheduler_active) || !rdp->rcu_cpu_kthread_task)
		return;
	WRITE_ONCE(rdp->rcu_cpu_has_work, true);
	wake_up_process(rdp->rcu_cpu_kthread_task);
}

/*
 * lazy: the callback only frees memory and may wait (call_rcu() under
 * CONFIG_RCU_LAZY); offloaded CPUs then hold it (tree_nocb_lazy.c).
 */
void __call_rcu_common(struct rcu_head *head, rcu_callback_t func, bool lazy, bool waiter)
{
	struct rcu_data *rdp;
	unsigned long flags;
	bool needwake = false, pending;

	if (debug_rcu_head_queue(head, func))
		return;		/* DEBUG_OBJECTS_RCU_HEAD: queued already; reported, left alone */
	head->func = func;
	head->next = NULL;
	local_irq_save(flags);
	rdp = this_cpu_ptr(&rcu_data);
	/*
	 * Queued by a callback rcuc/N is invoking, and since the last batch
	 * that requeued this CPU ran nothing but real-time tasks (rcuc/N and
	 * the grace-period kthread, say): its grace period waits for a tick
	 * (see rcu_accelerate_cbs()). A CPU that ran a SCHED_NORMAL or its
	 * idle task meanwhile is not starving anything: ask at once.
	 */
	if (rdp->cbs_invoking && current == rdp->rcu_cpu_kthread_task) {
		rdp->cbs_requeued = true;
		if (rdp->cbs_rt_only)
			rdp->gp_req_holdoff = jiffies + 1;
	}
	if (rcu_nocb_try_enqueue(rdp, head, flags, lazy))
		return;		/* offloaded CPU: rcuog/N and rcuos/N take it from here */
	pending = rcu_segcblist_pend_cbs(&rdp->cblist);
	rcu_segcblist_enqueue(&rdp->cblist, head);
	trace_rcu_callback(head, func, rcu_segcblist_n_cbs(&rdp->cblist));	/* RCU_TRACE */
	rdp->n_cbs_queued++;
	rdp->n_lazy_cbs += __is_kfree_rcu_offset(func);	/* a kfree offset: lazy (tree_nohz.c) */
	if (rcu_segcblist_n_cbs(&rdp->cblist) > rdp->qlen_last_fqs_check + rcu_params.qhimark) {
		/*
		 * Flooded: lift the batch limit and push the grace period along
		 * with an FQS scan. Then not again until another qhimark
		 * callbacks have piled up, or every call_rcu() would wake the
		 * kthread.
		 */
		struct rcu_node *root = rcu_get_root();

		rdp->blimit = LONG_MAX;
		rdp->qlen_last_fqs_check = rcu_segcblist_n_cbs(&rdp->cblist);
		raw_spin_lock_rcu_node(root);
		if (rcu_gp_in_progress()) {
			WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_FQS);
			needwake = true;
		}
		raw_spin_unlock_rcu_node(root);
	}
	/*
	 * Left for bulk numbering (rcu_cb_bulk()), or ask for a grace period
	 * now: without the leaf's lock when it is asked for already, else
	 * under it unless the leaf is busy. A busy
	 * leaf during a grace period leaves the callback in NEXT: that grace
	 * period's end kicks rcuc/N (rcu_gp_cleanup()), which numbers it. With
	 * no grace period running rcuc/N is woken to ask for one. (Waking it
	 * for every callback while another CPU held the lock made the flooder
	 * and rcuc/N take turns for nothing.)
	 */
	if (rcu_cb_bulk(rdp, pending)) {
		/* numbered with the others when the running grace period ends */
	} else if (rcu_accelerate_cbs_nolock(rdp)) {
		/* numbered, and its grace period requested */
	} else if (do_raw_spin_trylock(&rdp->mynode->lock, __THIS_PC)) {
		spin_acquire(&rdp->mynode->lock, true, LOCKDEP_HERE);
		smp_mb__after_unlock_lock();	/* as raw_spin_lock_rcu_node() (tree.h) */
		preempt_disable();
		/* Its own request for a GP (from advancing callbacks) needs the wakeup too. */
		needwake |= __note_gp_changes(rdp->mynode, rdp);
		needwake |= rcu_accelerate_cbs(rdp->mynode, rdp);
		raw_spin_unlock_rcu_node(rdp->mynode);
		preempt_enable_no_resched();
	} else if (!rcu_gp_in_progress()) {
		invoke_rcu_core();
	}
	local_irq_restore(flags);
	if (needwake && waiter)
		rcu_gp_kthread_wake_sync();
	else if (needwake)
		rcu_gp_kthread_wake();
}

/* Lazy with CONFIG_RCU_LAZY: call_rcu_hurry() is for callers that must not wait. */
void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	__call_rcu_common(head, func, IS_ENABLED(CONFIG_RCU_LAZY), false);
}
