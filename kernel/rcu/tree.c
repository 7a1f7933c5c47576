/*
 * Tree RCU (CONFIG_TREE_RCU): grace periods driven by the rcu_sched
 * kthread over the rcu_node combining tree, quiescent states from context
 * switches, idle and the tick, force-quiescent-state scans, and per-CPU
 * callback lists invoked by rcuc/N kthreads (call_rcu(), which queues
 * them, is in tree_call.c). Dyntick-idle and user-mode
 * tracking (idle CPUs credited without being woken) is in tree_dynticks.c,
 * the grace-period kthread in tree_gp.c, waiting for grace periods (synchronize_rcu(),
 * the polling API, rcu_barrier()) in tree_sync.c, what the torture tests
 * ask in tree_torture.c.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include "kvfree.h"
#include <rcu/rcupdate.h>
#include <rcu/tasks.h>
#include <sched/isolation.h>
#include <time/tick.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <mm/slab.h>
#include <time/time.h>
#include <time/timer.h>
#include <time/delay.h>
#include <kernel/irqflags.h>
#include <kernel/init.h>
#include <sched/sched.h>
#include <sched/kthread.h>

struct rcu_state rcu_state = {
	/* Start 300 grace periods short of wrapping, as Linux does, to exercise wrap handling. */
	.gp_seq = (0UL - 300UL) << RCU_SEQ_CTR_SHIFT,
	/* Linux's names: the preemptible flavor's kthread is rcu_preempt. */
	.name = IS_ENABLED(CONFIG_PREEMPT_RCU) ? "rcu_preempt" : "rcu_sched",
	.abbr = IS_ENABLED(CONFIG_PREEMPT_RCU) ? 'p' : 's',
};
DEFINE_PER_CPU(struct rcu_data, rcu_data);

bool rcu_scheduler_active;	/* kthreads exist: grace periods can be waited for */

/* ===== quiescent states ===================================================== */

static void rcu_report_qs_rdp(struct rcu_data *rdp);

/*
 * This CPU is in a quiescent state right now (context switch, idle loop
 * interrupted by the tick, cond_resched() on request). Catch up with a
 * grace period that started since we last looked, then report at once:
 * waiting for rcu_core() would add up to a tick to every grace period.
 * Interrupts are off. Also preemptible RCU's outermost rcu_read_unlock().
 */
void rcu_qs(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	/* An expedited grace period's IPI found this CPU in a reader: it is out now. */
	if (READ_ONCE(rdp->exp_deferred_qs))
		rcu_exp_report_deferred(rdp);
	if (rdp->gp_seq != READ_ONCE(rdp->mynode->gp_seq) || READ_ONCE(rdp->gpwrap))
		note_gp_changes(rdp);
	if (READ_ONCE(rdp->cpu_no_qs)) {
		WRITE_ONCE(rdp->cpu_no_qs, false);
		if (rdp->core_needs_qs)
			rcu_report_qs_rdp(rdp);
	}
}

#ifdef CONFIG_PROVE_RCU
/* Linux's rcu_scheduler_active values for the lockdep-RCU splat: 0 inactive, 2 running. */
int rcu_lockdep_scheduler_state(void)
{
	return READ_ONCE(rcu_scheduler_active) ? 2 : 0;
}
#endif

void rcu_note_context_switch(bool preempt)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (!rdp->mynode)
		return;		/* before rcu_init() */
	RCU_LOCKDEP_WARN(!preempt && rcu_preempt_depth() > 0,
			 "Voluntary context switch within RCU read-side critical section!");
	/* Preemptible RCU: a task inside a reader goes on its leaf's blocked list first. */
	rcu_preempt_note_context_switch(preempt);
	rcu_qs();
	if (READ_ONCE(rdp->urgent_qs)) {
		WRITE_ONCE(rdp->urgent_qs, false);
		WRITE_ONCE(rdp->need_heavy_qs, false);
	}
}

/*
 * cond_resched(), outside every reader: a quiescent state. Linux's
 * rcu_all_qs() reports it only once the grace period has asked for help
 * (urgent_qs); here it reports whenever this CPU owes the current grace
 * period (or an expedited one) a quiescent state, at the cost of two
 * per-CPU loads, so a CPU busy in the kernel ends a grace period at its
 * next cond_resched() rather than at its next tick. Without
 * CONFIG_PREEMPT_COUNT that is the only place a busy CPU can report.
 */
int rcu_cond_resched_hook(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	unsigned long flags;

	if (!READ_ONCE(rdp->urgent_qs) &&
	    !(READ_ONCE(rdp->cpu_no_qs) && READ_ONCE(rdp->core_needs_qs)) &&
	    !READ_ONCE(rdp->exp_deferred_qs))
		return 0;
	local_irq_save(flags);
	rdp = this_cpu_ptr(&rcu_data);		/* PREEMPT: we may have moved */
	/* Not in a preemptible reader (a PREEMPT_RCU task may call cond_resched() there). */
	if (preempt_count() == 0 && rcu_preempt_depth() == 0) {
		bool urgent = rdp->urgent_qs;

		WRITE_ONCE(rdp->urgent_qs, false);
		WRITE_ONCE(rdp->need_heavy_qs, false);
		rcu_qs();
		if (urgent)
			invoke_rcu_core();
	}
	local_irq_restore(flags);
	return 0;
}

/*
 * Report a quiescent state for the CPUs/children in mask on rnp, and up
 * the tree as nodes empty. Called with rnp->lock held (interrupts saved in
 * flags); releases it. gps is the grace period the report is for: a stale
 * report (the GP already ended) is dropped.
 */
void rcu_report_qs_rnp(unsigned long mask, struct rcu_node *rnp, unsigned long gps,
		       unsigned long flags)
{
	for (;;) {
		/* mask 0: a leaf with no CPU to wait for (tree_hotplug.c) goes up if it can. */
		if ((mask && !(rnp->qsmask & mask)) || rnp->gp_seq != gps) {
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
			return;
		}
		WRITE_ONCE(rnp->qsmask, rnp->qsmask & ~mask);
		trace_rcu_quiescent_state_report(gps, mask, rnp->qsmask, rnp->level, rnp->grplo, rnp->grphi);
		rnp->n_qs_reported++;
		/* A leaf stays up while tasks preempted in readers block this GP. */
		if (rnp->qsmask || rcu_preempt_blocked_readers_cgp(rnp)) {
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
			return;
		}
		mask = rnp->grpmask;
		if (!rnp->parent)
			break;
		raw_spin_unlock_rcu_node(rnp);
		rnp = rnp->parent;
		raw_spin_lock_rcu_node(rnp);
	}
	/* The root emptied: the grace period can end. */
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	rcu_gp_kthread_wake();
}

/*
 * Full dynticks: a nohz_full CPU the grace period has waited
 * jiffies_till_sched_qs for is busy in the kernel (in user mode its
 * dynticks counter would have credited it), maybe with its tick stopped,
 * so nothing on it would report a quiescent state. Make it tick
 * (TICK_DEP_BIT_RCU, which kicks it): rcu_sched_clock_irq() then reports
 * one as soon as the CPU is outside a reader, or sets need_resched for
 * urgent_qs. Linux does the same. rnp->lock held.
 */
void rcu_force_tick(struct rcu_data *rdp)
{
	if (!tick_nohz_full_cpu(rdp->cpu) || rdp->rcu_forced_tick)
		return;
	rdp->rcu_forced_tick = true;
	rdp->n_forced_ticks++;
	tick_dep_set_cpu(rdp->cpu, TICK_DEP_BIT_RCU);
}

/* The CPU reported its quiescent state (or was credited one): its tick may stop again. rnp->lock held. */
void rcu_disable_urgency_upon_qs(struct rcu_data *rdp)
{
	if (!rdp->rcu_forced_tick)
		return;
	rdp->rcu_forced_tick = false;
	tick_dep_clear_cpu(rdp->cpu, TICK_DEP_BIT_RCU);
}

static void rcu_report_qs_rdp(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;

	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	if (rdp->cpu_no_qs || rdp->gp_seq != rnp->gp_seq || rdp->gpwrap) {
		/* The QS predates this grace period: it does not count. */
		rdp->cpu_no_qs = true;
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return;
	}
	if (!(rnp->qsmask & rdp->grpmask)) {
		/*
		 * Already reported for us (an FQS idle credit): this grace period
		 * needs nothing more from this CPU. Say so, or rcu_pending() stays
		 * true and wakes rcuc on every tick until the next grace period.
		 */
		rdp->core_needs_qs = false;
		rcu_disable_urgency_upon_qs(rdp);
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return;
	}
	rdp->core_needs_qs = false;
	rdp->n_qs_reported++;
	rcu_disable_urgency_upon_qs(rdp);
	rcu_report_qs_rnp(rdp->grpmask, rnp, rnp->gp_seq, flags);
}

static void rcu_check_quiescent_state(struct rcu_data *rdp)
{
	if (!rdp->core_needs_qs || rdp->cpu_no_qs)
		return;
	rcu_report_qs_rdp(rdp);
}

/* ===== grace-period requests and callback bookkeeping ====================== */

static void __rcu_gp_kthread_wake(bool sync)
{
	struct task_struct *t = READ_ONCE(rcu_state.gp_kthread);

	/*
	 * The kthread need not wake itself while it runs (it rechecks the
	 * root), but it may be the one reporting the last QS from inside its
	 * own schedule(), its wait condition already checked: that wakeup
	 * must not be lost, or the grace period waits out an FQS timeout.
	 */
	if (!t || (current == t && READ_ONCE(t->__state) == TASK_RUNNING))
		return;
	/* Any CPU, no lock in common: atomic, or counts are lost (KCSAN: rcu_gp/gp_wake_count). */
	__atomic_fetch_add(&rcu_state.n_gp_kthread_wakeups, 1, __ATOMIC_RELAXED);
	if (sync)
		__wake_up_sync(&rcu_state.gp_wq, TASK_NORMAL);
	else
		wake_up(&rcu_state.gp_wq);
}

void rcu_gp_kthread_wake(void)
{
	__rcu_gp_kthread_wake(false);
}

/* From a task that sleeps right after: WF_SYNC (tree_sync.c's call_rcu_waiter() says why). */
void rcu_gp_kthread_wake_sync(void)
{
	__rcu_gp_kthread_wake(true);
}

/*
 * Make sure grace period gp_seq_req will happen: funnel up from rnp,
 * stopping at the first node that already has it recorded, and at the
 * root start a grace period if none is running. rnp->lock is held on
 * entry and exit (interrupts off). Returns true if the kthread must be woken.
 */
bool rcu_start_this_gp(struct rcu_node *rnp_start, unsigned long gp_seq_req)
{
	struct rcu_node *rnp;
	bool ret = false;

	for (rnp = rnp_start; ; rnp = rnp->parent) {
		if (rnp != rnp_start)
			raw_spin_lock_rcu_node(rnp);
		if (ULONG_CMP_GE(rnp->gp_seq_needed, gp_seq_req) ||
		    rcu_seq_started(&rnp->gp_seq, gp_seq_req) ||
		    (rnp != rnp_start && rcu_seq_state(rcu_seq_current(&rnp->gp_seq)))) {
			/* Already requested, or a GP in progress here will request it at cleanup. */
			if (ULONG_CMP_LT(rnp->gp_seq_needed, gp_seq_req))
				WRITE_ONCE(rnp->gp_seq_needed, gp_seq_req);
			goto unlock_out;
		}
		WRITE_ONCE(rnp->gp_seq_needed, gp_seq_req);
		if (rcu_seq_state(rcu_seq_current(&rnp->gp_seq)))
			goto unlock_out;	/* the running GP's cleanup will start the next */
		if (!rnp->parent)
			break;
		if (rnp != rnp_start)
			raw_spin_unlock_rcu_node(rnp);
	}
	/* At the root, and no grace period in progress: start one. */
	if (!rcu_seq_state(rcu_state.gp_seq)) {
		WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_INIT);
		rcu_state.gp_wake_time = jiffies;
		ret = true;
	}
unlock_out:
	if (ULONG_CMP_LT(rnp_start->gp_seq_needed, rnp->gp_seq_needed))
		WRITE_ONCE(rnp_start->gp_seq_needed, rnp->gp_seq_needed);
	if (rnp != rnp_start)
		raw_spin_unlock_rcu_node(rnp);
	return ret;
}

/*
 * Assign grace periods to new callbacks and request them. rnp (rdp's leaf)
 * locked. Not in the jiffy in which one of rdp's callbacks queued another
 * while the CPU had run only real-time tasks since the previous such
 * requeue (rdp->gp_req_holdoff, set in call_rcu()): those wait in the
 * NEXT segment, unassigned, for the next tick's rcu_pending() ->
 * rcu_core(), or for the running grace period's end. Leaving new
 * callbacks unassigned for a while is always safe: they only wait longer.
 *
 * Why: a callback that requeues itself (rcutorture's forward-progress
 * test has one for seconds) wants a grace period as soon as the last one
 * ended. Here call_rcu() asks at once, rcu_gp_cleanup() kicks rcuc/N for
 * the callbacks, and a CPU's context switch reports its quiescent state
 * at once, so with one CPU online a grace period needs nothing but the
 * rcuc/0 and GP kthreads to run, and with kthread_prio both run
 * SCHED_FIFO: one of them was runnable at every instant and no other
 * task ran again (TREE03 once CPUs 1-3 were all offline). Linux asks for
 * a new callback's grace period only from rcu_core() after a tick, so
 * such a chain costs it one grace period per tick. Asking a tick later
 * only when a callback queued it and nothing but real-time tasks ran
 * since the last time breaks the chain at every other grace period at
 * most, leaving the rest of that jiffy to the waiting tasks, without
 * slowing call_rcu() from tasks or callbacks requeued on a CPU that runs
 * other work too (rcutorture's pipeline: holding off every requeue cut
 * TREE03's writer to a third).
 */
bool rcu_accelerate_cbs(struct rcu_node *rnp, struct rcu_data *rdp)
{
	unsigned long gp_seq_req;

	if (rcu_rdp_is_offloaded(rdp) || !rcu_segcblist_pend_cbs(&rdp->cblist))
		return false;	/* offloaded: rcuog/N does this under the nocb lock */
	if (rdp->gp_req_holdoff == jiffies + 1) {	/* equal only within that jiffy: no wrap */
		rdp->n_gp_req_held++;
		return false;
	}
	gp_seq_req = rcu_seq_snap(&rcu_state.gp_seq);
	if (rcu_segcblist_accelerate(&rdp->cblist, gp_seq_req)) {
		bool ret = rcu_start_this_gp(rnp, gp_seq_req);

		/* Recorded at our leaf now: call_rcu()'s lockless path may count on it. */
		if (ULONG_CMP_LT(rdp->gp_seq_needed, rnp->gp_seq_needed))
			rdp->gp_seq_needed = rnp->gp_seq_needed;
		return ret;
	}
	return false;
}

/* Move callbacks whose grace period ended to DONE, then accelerate. rnp locked. */
static bool rcu_advance_cbs(struct rcu_node *rnp, struct rcu_data *rdp)
{
	if (rcu_rdp_is_offloaded(rdp) || !rcu_segcblist_pend_cbs(&rdp->cblist))
		return false;
	rcu_segcblist_advance(&rdp->cblist, rnp->gp_seq);
	return rcu_accelerate_cbs(rnp, rdp);
}

/*
 * Catch this CPU up with its leaf: grace periods that ended (advance
 * callbacks) and one that started (expect a QS from us). rnp locked.
 */
bool __note_gp_changes(struct rcu_node *rnp, struct rcu_data *rdp)
{
	bool ret = false;

	if (rdp->gp_seq == rnp->gp_seq && !rdp->gpwrap)
		return false;
	if (rcu_seq_completed_gp(rdp->gp_seq, rnp->gp_seq) || rdp->gpwrap)
		ret = rcu_advance_cbs(rnp, rdp);
	else
		ret = rcu_accelerate_cbs(rnp, rdp);
	if (rcu_seq_new_gp(rdp->gp_seq, rnp->gp_seq) || rdp->gpwrap) {
		/* A new grace period: it needs a QS from us if we are in its mask. */
		bool need_qs = !!(rnp->qsmask & rdp->grpmask);

		rdp->cpu_no_qs = need_qs;
		rdp->core_needs_qs = need_qs;
		rdp->ticks_this_gp = 0;
	}
	rdp->gp_seq = rnp->gp_seq;
	if (ULONG_CMP_LT(rdp->gp_seq_needed, rnp->gp_seq_needed))
		rdp->gp_seq_needed = rnp->gp_seq_needed;
	WRITE_ONCE(rdp->gpwrap, false);
	return ret;
}

void note_gp_changes(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;
	bool needwake;

	local_irq_save(flags);
	if (rdp->gp_seq == READ_ONCE(rnp->gp_seq) && !READ_ONCE(rdp->gpwrap)) {
		local_irq_restore(flags);
		return;
	}
	if (!do_raw_spin_trylock(&rnp->lock, __THIS_PC)) {
		local_irq_restore(flags);
		return;	/* contended: try again later */
	}
	spin_acquire(&rnp->lock, true, LOCKDEP_HERE);
	smp_mb__after_unlock_lock();	/* as raw_spin_lock_rcu_node() (tree.h) */
	preempt_disable();
	needwake = __note_gp_changes(rnp, rdp);
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	if (needwake)
		rcu_gp_kthread_wake();
}

/* ===== callback invocation (call_rcu() itself is in tree_call.c) ============ */

/* Returns true for a lazy callback (a kfree offset: nothing but a kfree()). */
static bool rcu_invoke_callback(struct rcu_head *rhp)
{
	unsigned long f = (unsigned long)rhp->func;

	debug_rcu_head_unqueue(rhp);	/* before the callback may free or requeue it */
	trace_rcu_invoke_callback(rhp, f);
	if (__is_kfree_rcu_offset(f)) {
		kfree((char *)rhp - f);
		return true;
	}
	rhp->func(rhp);
	return false;
}

/* Invoke up to blimit ready callbacks (all of them when flooded). */
static void rcu_do_batch(struct rcu_data *rdp)
{
	struct rcu_cblist rcl;
	struct rcu_head *rhp;
	unsigned long flags;
	long bl, count = 0, lazy = 0;
	u64 nonrt;

	local_irq_save(flags);
	rcu_cblist_init(&rcl);
	rcu_segcblist_extract_done_cbs(&rdp->cblist, &rcl);
	/*
	 * Linux's rule: the batch limit, or a share of the backlog
	 * (rcutree.rcu_divisor) if that is more, so that a CPU with thousands
	 * queued does not pay a pass of rcuc/N for every blimit of them.
	 */
	bl = max(rdp->blimit, rcu_segcblist_n_cbs(&rdp->cblist) >> rcu_params.rcu_divisor);
	local_irq_restore(flags);

	/*
	 * call_rcu() from these callbacks: see rcu_accelerate_cbs(). Only
	 * real-time tasks ran here since the last batch whose callbacks
	 * queued callbacks? Then so do this batch's requeues.
	 */
	nonrt = sched_nr_nonrt_switches(rdp->cpu);
	rdp->cbs_rt_only = nonrt == rdp->requeue_nonrt_switches;
	rdp->cbs_requeued = false;
	rdp->cbs_invoking = true;
	while (count < bl && (rhp = rcu_cblist_dequeue(&rcl))) {
		lazy += rcu_invoke_callback(rhp);
		count++;
		if (bl > rcu_params.blimit && rcu_batch_resched_due(count))
			cond_resched();	/* beyond blimit: reschedule points */
	}
	rdp->cbs_invoking = false;
	if (rdp->cbs_requeued)
		rdp->requeue_nonrt_switches = nonrt;

	local_irq_save(flags);
	rcu_segcblist_insert_done_cbs(&rdp->cblist, &rcl);
	rcu_segcblist_add_len(&rdp->cblist, -count);	/* only now: rcu_barrier() counts on it */
	rdp->n_cbs_invoked += count;
	rdp->n_lazy_cbs -= lazy;
	if (count > (long)rdp->n_max_batch)
		rdp->n_max_batch = count;
	if (rdp->blimit == LONG_MAX && rcu_segcblist_n_cbs(&rdp->cblist) <= rcu_params.qlowmark)
		rdp->blimit = rcu_params.blimit;	/* the flood has drained: batches are limited again */
	rcu_flood_mark_drained(rdp);
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		WRITE_ONCE(rdp->rcu_cpu_has_work, true);
	local_irq_restore(flags);
}

/* The per-CPU RCU work: notice GP changes, report QS, request GPs, invoke callbacks. */
static void rcu_core(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	unsigned long flags;

	rdp->n_rcu_core++;
	/* A run-time (de)offload switch asked of this CPU: here, between batches (tree_nocb_toggle.c). */
	rcu_nocb_toggle_local(rdp);
	note_gp_changes(rdp);
	rcu_check_quiescent_state(rdp);
	if (rcu_rdp_is_offloaded(rdp))
		return;		/* its callbacks are rcuog/rcuos's, under the nocb lock */
	if (rcu_segcblist_pend_cbs(&rdp->cblist) && !rcu_gp_in_progress()) {
		bool needwake;

		raw_spin_lock_irqsave_rcu_node(rdp->mynode, flags);
		needwake = rcu_accelerate_cbs(rdp->mynode, rdp);
		raw_spin_unlock_irqrestore_rcu_node(rdp->mynode, flags);
		if (needwake)
			rcu_gp_kthread_wake();
	}
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		rcu_do_batch(rdp);
}

static int rcu_cpu_kthread(void *arg)
{
	struct rcu_data *rdp = arg;

	for (;;) {
		wait_event_idle(rdp->rcuc_wq, READ_ONCE(rdp->rcu_cpu_has_work) ||
				kthread_should_stop_or_park());
		if (kthread_should_stop())
			break;
		if (kthread_should_park()) {	/* its CPU goes offline (tree_hotplug.c) */
			kthread_parkme();
			continue;
		}
		WRITE_ONCE(rdp->rcu_cpu_has_work, false);
		rcu_core();
		/*
		 * More to do: a reschedule point. Nothing left: the wait above
		 * sleeps, not a yield that leaves this kthread queued beside the
		 * task a callback woke (tree_sync.c's call_rcu_waiter() says why).
		 */
		if (READ_ONCE(rdp->rcu_cpu_has_work))
			cond_resched();
	}
	return 0;
}

/* Is there RCU work for this CPU? (tick) */
static bool rcu_pending(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;

	if (rdp->core_needs_qs && !rdp->cpu_no_qs)
		return true;
	if (rdp->gp_seq != READ_ONCE(rnp->gp_seq) || READ_ONCE(rdp->gpwrap))
		return true;
	if (rcu_rdp_is_offloaded(rdp))
		return false;	/* its callbacks are rcuog/rcuos's work, not this CPU's */
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		return true;
	if (rcu_segcblist_pend_cbs(&rdp->cblist) && !rcu_gp_in_progress() &&
	    !rcu_segcblist_restempty(&rdp->cblist, RCU_NEXT_READY_TAIL))
		return true;
	return false;
}

void rcu_sched_clock_irq(int user)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (!rdp->mynode)
		return;		/* before rcu_init() */
	rdp->ticks_this_gp++;
	if (user)
		this_cpu_inc(rcu_dynticks.n_user_ticks);
	/*
	 * The tick interrupted the idle loop, or user mode: a quiescent
	 * state. So is any task context that holds no preempt count: in this
	 * non-preemptible flavor every reader (rcu_read_lock(), spinlocks,
	 * _sched readers) raises it, and interrupts were on. preempt_count
	 * is maintained by default here (CONFIG_PREEMPT_COUNT), which Linux's
	 * !PREEMPT builds do not do, so a CPU busy in the kernel reports at its
	 * next tick instead of after jiffies_till_sched_qs. Without it, a
	 * busy CPU reports at cond_resched() or a context switch.
	 * PREEMPT_RCU readers do not touch preempt_count: there the task's
	 * reader nesting must be zero too.
	 */
	rcu_preempt_sched_clock_irq(user);
	if (user || rcu_is_cpu_rrupt_from_idle() ||
	    (IS_ENABLED(CONFIG_PREEMPT_COUNT) && rcu_preempt_depth() == 0 &&
	     (preempt_count() & ~HARDIRQ_MASK) == 0 &&
	     (preempt_count() & HARDIRQ_MASK) == HARDIRQ_OFFSET))	/* not a nested irq */
		rcu_qs();
	/* Asked for help and the interrupted task never calls cond_resched(): reschedule it. */
	if (READ_ONCE(rdp->urgent_qs) && preempt_count() == HARDIRQ_OFFSET)
		set_tsk_need_resched(current);
	rcu_check_cpu_stall(rdp);
	if (rcu_pending(rdp))
		invoke_rcu_core();
}

/*
 * Dyntick-idle: may this idle CPU stop its tick, and by which jiffy must
 * it be woken for RCU (*nextj)? Without RCU_FAST_NO_HZ the tick stays
 * while this CPU still has callbacks to get through; with it, see
 * tree_nohz.c. An offloaded CPU's callbacks are its rcuog/rcuos kthreads'
 * business (tree_nocb.c): it never needs the tick for them.
 */
int rcu_needs_cpu(unsigned long basej, unsigned long *nextj)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	*nextj = basej + NEXT_TIMER_MAX_DELTA;	/* no wakeup of RCU's own */
	if (!rdp->mynode || rcu_rdp_is_offloaded(rdp) || rcu_segcblist_empty(&rdp->cblist))
		return 0;
	return rcu_nohz_needs_cpu(rdp, basej, nextj);
}

/* ===== boot ==================================================================== */

static void rcu_init_nodes(void)
{
	const struct rcu_geometry *g = &rcu_state.geo;

	for (int level = 0; level < g->levels; level++) {
		rcu_state.level[level] = &rcu_state.node[g->level_offset[level]];
		for (int i = 0; i < g->num_rcu_lvl[level]; i++) {
			struct rcu_node *rnp = &rcu_state.node[g->level_offset[level] + i];
			int parent = rcu_geometry_parent(g, level, i);

			spin_lock_init(&rnp->lock);
			rcu_preempt_init_node(rnp);
			rcu_boost_init_node(rnp);
			rcu_exp_init_node(rnp);
			rnp->level = level;
			rcu_geometry_node_span(g, level, i, &rnp->grplo, &rnp->grphi);
			rnp->gp_seq = rnp->gp_seq_needed = rcu_state.gp_seq;
			if (parent >= 0) {
				struct rcu_node *first = rcu_state.level[level - 1] ?
					&rcu_state.node[g->level_offset[level - 1]] : NULL;
				int first_child = rcu_geometry_first_child(g, level - 1, parent);

				rnp->parent = first + parent;
				rnp->grpnum = i - first_child;
				rnp->grpmask = 1UL << rnp->grpnum;
			}
		}
	}
}

static void rcu_init_percpu_data(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	int leaf = rcu_geometry_leaf_of(&rcu_state.geo, cpu);

	rdp->cpu = cpu;
	rdp->mynode = &rcu_state.level[rcu_state.geo.levels - 1][leaf];
	rdp->grpmask = leaf_node_cpu_bit(rdp->mynode, cpu);
	rdp->blimit = rcu_params.blimit;
	rcu_segcblist_init(&rdp->cblist);
	init_waitqueue_head(&rdp->rcuc_wq);
}

void rcu_init(void)
{
	unsigned int cpu;

	rcu_params_init();	/* banners, parameters, geometry */
	init_waitqueue_head(&rcu_state.gp_wq);
	raw_spin_lock_init(&rcu_state.poll_lock);
	rcu_state.gp_seq_polled = rcu_state.gp_seq;	/* wrap early here too */
	rcu_state.gp_seq_polled_needed = rcu_state.gp_seq_polled;
	mutex_init(&rcu_state.barrier_mutex);
	raw_spin_lock_init(&rcu_state.ofl_lock);
	init_completion(&rcu_state.barrier_completion);
	rcu_exp_init();
	rcu_expedite_gp();	/* as Linux: expedited until rcu_end_inkernel_boot() */
	rcu_init_nodes();
	for_each_possible_cpu(cpu)
		rcu_init_percpu_data(cpu);
	rcu_nocb_init();	/* rcu_nocbs=: offloaded CPUs and their groups */
	kvfree_rcu_init();	/* kvfree_rcu()'s per-CPU blocks and monitors (kvfree.c) */
	rcu_state.ncpus = nr_cpu_ids;
	preempt_disable();
	rcu_cpu_starting(raw_smp_processor_id());
	preempt_enable();
}

/* From init (pid 1), before the other CPUs come up. */
void rcu_init_kthreads(void)
{
	unsigned int cpu;
	struct task_struct *t;

	t = kthread_create(rcu_gp_kthread, NULL, "%s", rcu_state.name);
	BUG_ON(!t);
	rcu_kthread_set_prio(t);	/* rcutree.kthread_prio, as Linux */
	WRITE_ONCE(rcu_state.gp_kthread, t);
	wake_up_process(t);
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		t = kthread_create_on_cpu(rcu_cpu_kthread, rdp, cpu, "rcuc/%u");
		BUG_ON(!t);
		rdp->rcu_cpu_kthread_task = t;
		if (IS_ENABLED(CONFIG_RCU_BOOST))	/* Linux: rcuc runs at kthread_prio with boosting */
			rcu_kthread_set_prio(t);
		if (cpu_online(cpu))	/* the rest start at their first wakeup, once online */
			wake_up_process(t);
	}
	rcu_spawn_boost_kthreads();	/* rcub/N, with CONFIG_RCU_BOOST */
	rcu_spawn_nocb_kthreads();	/* rcuog/N, rcuos/N, with CONFIG_RCU_NOCB_CPU */
	/*
	 * Kthreads before the flag that lets grace periods be waited for. No
	 * other CPU is up yet (init calls smp_init() after this, and bringing
	 * a CPU up orders all that came before): only an interrupt on this CPU
	 * (call_rcu() -> invoke_rcu_core()) can look, and it sees program
	 * order. So a compiler barrier is all that is needed; it pairs with
	 * nothing.
	 */
	barrier();
	WRITE_ONCE(rcu_scheduler_active, true);
	/* Callbacks queued during early boot wait for a grace period now. */
	for_each_possible_cpu(cpu)	/* offloaded CPUs': rcuog's first pass takes them */
		if (per_cpu(rcu_data, cpu).cblist.len &&
		    !rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu))) {
			per_cpu(rcu_data, cpu).rcu_cpu_has_work = true;
			wake_up_process(per_cpu(rcu_data, cpu).rcu_cpu_kthread_task);
		}
}
