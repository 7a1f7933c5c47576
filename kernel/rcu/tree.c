/*
 * Tree RCU (CONFIG_TREE_RCU): grace periods driven by the rcu_sched
 * kthread over the rcu_node combining tree, quiescent states from context
 * switches, idle and the tick, dyntick-idle tracking so idle CPUs are
 * credited without being woken, force-quiescent-state scans, and
 * per-CPU callback lists invoked by rcuc/N kthreads.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include <kernel/tick.h>
#include <kernel/delay.h>
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
DEFINE_PER_CPU(struct rcu_dynticks, rcu_dynticks) = {
	.nesting = 1,
	.dynticks = ATOMIC_INIT(1),
};

static bool rcu_scheduler_active;	/* kthreads exist: grace periods can be waited for */

/* ===== dyntick-idle: extended quiescent states ============================= */

/*
 * The per-CPU dynticks counter is incremented on every entry to and exit
 * from an extended quiescent state (EQS): even means "in EQS". Each
 * increment is fully ordered, so a remote CPU that reads an even value (or
 * a changed value) knows the CPU's earlier read-side critical sections
 * have ended.
 */
static void rcu_dynticks_eqs_flip(void)
{
	smp_mb();	/* order prior accesses before the counter change */
	atomic_inc(this_cpu_ptr(&rcu_dynticks.dynticks));
	smp_mb();	/* and later accesses after it */
}

bool rcu_dynticks_in_eqs(int snap)
{
	return !(snap & 1);
}

int rcu_dynticks_snap(int cpu)
{
	smp_mb();	/* pairs with rcu_dynticks_eqs_flip() */
	return atomic_read(&per_cpu(rcu_dynticks, cpu).dynticks);
}

bool rcu_is_watching(void)
{
	return atomic_read(this_cpu_ptr(&rcu_dynticks.dynticks)) & 1;
}

void rcu_idle_enter(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	WARN_ON_ONCE(IS_ENABLED(CONFIG_RCU_EQS_DEBUG) && rdt->nmi_nesting);
	WARN_ON_ONCE(IS_ENABLED(CONFIG_RCU_EQS_DEBUG) && rdt->nesting != 1);
	rdt->nesting = 0;
	rcu_dynticks_eqs_flip();
}

void rcu_idle_exit(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	WARN_ON_ONCE(IS_ENABLED(CONFIG_RCU_EQS_DEBUG) && rdt->nesting != 0);
	rcu_dynticks_eqs_flip();
	rdt->nesting = 1;
}

/* Interrupts and NMIs: entering from EQS makes RCU watch until the matching exit. */
void rcu_nmi_enter(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	if (!rcu_is_watching()) {
		rcu_dynticks_eqs_flip();
		WRITE_ONCE(rdt->nmi_nesting, 1);	/* "entered from EQS" */
	} else {
		WRITE_ONCE(rdt->nmi_nesting, rdt->nmi_nesting + 2);
	}
}

void rcu_nmi_exit(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	WARN_ON_ONCE(IS_ENABLED(CONFIG_RCU_EQS_DEBUG) && rdt->nmi_nesting <= 0);
	if (rdt->nmi_nesting != 1) {
		WRITE_ONCE(rdt->nmi_nesting, rdt->nmi_nesting - 2);
		return;
	}
	WRITE_ONCE(rdt->nmi_nesting, 0);
	rcu_dynticks_eqs_flip();
}

void rcu_irq_enter(void) { rcu_nmi_enter(); }
void rcu_irq_exit(void) { rcu_nmi_exit(); }

/* Interrupted the idle loop itself (not a nested interrupt, not a task)? Also tree_exp.c. */
bool rcu_is_cpu_rrupt_from_idle(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	return rdt->nesting == 0 && rdt->nmi_nesting <= 1;
}

/* ===== quiescent states ===================================================== */

static void invoke_rcu_core(void);
static void note_gp_changes(struct rcu_data *rdp);
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

void rcu_note_context_switch(bool preempt)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (!rdp->mynode)
		return;		/* before rcu_init() */
	/* Preemptible RCU: a task inside a reader goes on its leaf's blocked list first. */
	rcu_preempt_note_context_switch(preempt);
	rcu_qs();
	if (READ_ONCE(rdp->urgent_qs)) {
		WRITE_ONCE(rdp->urgent_qs, false);
		WRITE_ONCE(rdp->need_heavy_qs, false);
	}
}

/* cond_resched(): when a grace period has asked this CPU for help, give it a QS. */
int rcu_cond_resched_hook(void)
{
	struct rcu_data *rdp;
	unsigned long flags;

	if (!READ_ONCE(this_cpu_ptr(&rcu_data)->urgent_qs))
		return 0;
	local_irq_save(flags);
	rdp = this_cpu_ptr(&rcu_data);
	if (preempt_count() == 0 && rcu_preempt_depth() == 0 && rdp->urgent_qs) {
		WRITE_ONCE(rdp->urgent_qs, false);
		WRITE_ONCE(rdp->need_heavy_qs, false);
		rcu_qs();
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
		if (!(rnp->qsmask & mask) || rnp->gp_seq != gps) {
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
			return;
		}
		WRITE_ONCE(rnp->qsmask, rnp->qsmask & ~mask);
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
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return;
	}
	rdp->core_needs_qs = false;
	rdp->n_qs_reported++;
	rcu_report_qs_rnp(rdp->grpmask, rnp, rnp->gp_seq, flags);
}

static void rcu_check_quiescent_state(struct rcu_data *rdp)
{
	if (!rdp->core_needs_qs || rdp->cpu_no_qs)
		return;
	rcu_report_qs_rdp(rdp);
}

/* ===== grace-period requests and callback bookkeeping ====================== */

void rcu_gp_kthread_wake(void)
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
	rcu_state.n_gp_kthread_wakeups++;
	wake_up(&rcu_state.gp_wq);
}

/*
 * Make sure grace period gp_seq_req will happen: funnel up from rnp,
 * stopping at the first node that already has it recorded, and at the
 * root start a grace period if none is running. rnp->lock is held on
 * entry and exit (interrupts off). Returns true if the kthread must be woken.
 */
static bool rcu_start_this_gp(struct rcu_node *rnp_start, unsigned long gp_seq_req)
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

/* Assign grace periods to new callbacks and request them. rnp (rdp's leaf) locked. */
static bool rcu_accelerate_cbs(struct rcu_node *rnp, struct rcu_data *rdp)
{
	unsigned long gp_seq_req;

	if (!rcu_segcblist_pend_cbs(&rdp->cblist))
		return false;
	gp_seq_req = rcu_seq_snap(&rcu_state.gp_seq);
	if (rcu_segcblist_accelerate(&rdp->cblist, gp_seq_req))
		return rcu_start_this_gp(rnp, gp_seq_req);
	return false;
}

/* Move callbacks whose grace period ended to DONE, then accelerate. rnp locked. */
static bool rcu_advance_cbs(struct rcu_node *rnp, struct rcu_data *rdp)
{
	if (!rcu_segcblist_pend_cbs(&rdp->cblist))
		return false;
	rcu_segcblist_advance(&rdp->cblist, rnp->gp_seq);
	return rcu_accelerate_cbs(rnp, rdp);
}

/*
 * Catch this CPU up with its leaf: grace periods that ended (advance
 * callbacks) and one that started (expect a QS from us). rnp locked.
 */
static bool __note_gp_changes(struct rcu_node *rnp, struct rcu_data *rdp)
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

static void note_gp_changes(struct rcu_data *rdp)
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
	preempt_disable();
	needwake = __note_gp_changes(rnp, rdp);
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	if (needwake)
		rcu_gp_kthread_wake();
}

/* ===== call_rcu and callback invocation ===================================== */

static void invoke_rcu_core(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (!READ_ONCE(rcu_scheduler_active) || !rdp->rcu_cpu_kthread_task)
		return;
	WRITE_ONCE(rdp->rcu_cpu_has_work, true);
	wake_up_process(rdp->rcu_cpu_kthread_task);
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_data *rdp;
	unsigned long flags;
	bool needwake = false;

	head->func = func;
	head->next = NULL;
	local_irq_save(flags);
	rdp = this_cpu_ptr(&rcu_data);
	rcu_segcblist_enqueue(&rdp->cblist, head);
	rdp->n_cbs_queued++;
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
	/* Ask for a grace period now, unless the leaf is busy (rcu_core will). */
	if (do_raw_spin_trylock(&rdp->mynode->lock, __THIS_PC)) {
		preempt_disable();
		/* Its own request for a GP (from advancing callbacks) needs the wakeup too. */
		needwake |= __note_gp_changes(rdp->mynode, rdp);
		needwake |= rcu_accelerate_cbs(rdp->mynode, rdp);
		raw_spin_unlock_rcu_node(rdp->mynode);
		preempt_enable_no_resched();
	} else {
		invoke_rcu_core();
	}
	local_irq_restore(flags);
	if (needwake)
		rcu_gp_kthread_wake();
}

static void rcu_invoke_callback(struct rcu_head *rhp)
{
	unsigned long f = (unsigned long)rhp->func;

	if (__is_kfree_rcu_offset(f))
		kfree((char *)rhp - f);
	else
		rhp->func(rhp);
}

/* Invoke up to blimit ready callbacks (all of them when flooded). */
static void rcu_do_batch(struct rcu_data *rdp)
{
	struct rcu_cblist rcl;
	struct rcu_head *rhp;
	unsigned long flags;
	long bl, count = 0;

	local_irq_save(flags);
	rcu_cblist_init(&rcl);
	rcu_segcblist_extract_done_cbs(&rdp->cblist, &rcl);
	bl = rdp->blimit;
	local_irq_restore(flags);

	while (count < bl && (rhp = rcu_cblist_dequeue(&rcl))) {
		rcu_invoke_callback(rhp);
		count++;
		if (bl == LONG_MAX && !(count & 31))
			cond_resched();
	}

	local_irq_save(flags);
	rcu_segcblist_insert_done_cbs(&rdp->cblist, &rcl);
	rcu_segcblist_add_len(&rdp->cblist, -count);	/* only now: rcu_barrier() counts on it */
	rdp->n_cbs_invoked += count;
	if (count > (long)rdp->n_max_batch)
		rdp->n_max_batch = count;
	if (rdp->blimit == LONG_MAX && rcu_segcblist_n_cbs(&rdp->cblist) <= rcu_params.qlowmark)
		rdp->blimit = rcu_params.blimit;	/* the flood has drained: limited again */
	if (rcu_segcblist_n_cbs(&rdp->cblist) < rdp->qlen_last_fqs_check - rcu_params.qhimark)
		rdp->qlen_last_fqs_check = rcu_segcblist_n_cbs(&rdp->cblist);
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
	note_gp_changes(rdp);
	rcu_check_quiescent_state(rdp);
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
		wait_event_idle(rdp->rcuc_wq, READ_ONCE(rdp->rcu_cpu_has_work) || kthread_should_stop());
		if (kthread_should_stop())
			break;
		WRITE_ONCE(rdp->rcu_cpu_has_work, false);
		rcu_core();
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
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		return true;
	if (rcu_segcblist_pend_cbs(&rdp->cblist) && !rcu_gp_in_progress() &&
	    !rcu_segcblist_restempty(&rdp->cblist, RCU_NEXT_READY_TAIL))
		return true;
	if (rdp->gp_seq != READ_ONCE(rnp->gp_seq) || READ_ONCE(rdp->gpwrap))
		return true;
	return false;
}

void rcu_sched_clock_irq(int user)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (!rdp->mynode)
		return;		/* before rcu_init() */
	rdp->ticks_this_gp++;
	/*
	 * The tick interrupted the idle loop, or user mode: a quiescent
	 * state. So is any task context that holds no preempt count: in this
	 * non-preemptible flavor every reader (rcu_read_lock(), spinlocks,
	 * _sched readers) raises it, and interrupts were on. preempt_count
	 * is always maintained here (PREEMPT_COUNT), which Linux's !PREEMPT
	 * builds cannot count on, so a CPU busy in the kernel reports at its
	 * next tick instead of after jiffies_till_sched_qs.
	 * PREEMPT_RCU readers do not touch preempt_count: there the task's
	 * reader nesting must be zero too.
	 */
	rcu_preempt_sched_clock_irq(user);
	if (user || rcu_is_cpu_rrupt_from_idle() ||
	    (rcu_preempt_depth() == 0 &&
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

/* Dyntick-idle: keep the tick while this CPU still has callbacks to get through. */
int rcu_needs_cpu(void)
{
	return this_cpu_ptr(&rcu_data)->mynode && !rcu_segcblist_empty(&this_cpu_ptr(&rcu_data)->cblist);
}

/* ===== the grace-period kthread ============================================== */

static void rcu_gp_slow(int delay)
{
	if (delay > 0 && !(rcu_state.n_gp_started % 8))	/* every few GPs, as Linux does */
		schedule_timeout_uninterruptible(delay);
}

/*
 * Polled grace periods follow the normal ones (see rcu_state.gp_seq_polled)
 * and the expedited ones (rcu_exp_poll_start()): a grace period closes the
 * polled phase only if it is still the one that was open when that grace
 * period started, so every phase it closes began before it did.
 */
static unsigned long rcu_poll_gp_snap;	/* the polled phase this normal GP joined */

static void rcu_poll_gp_seq_start(void)
{
	raw_spin_lock(&rcu_state.poll_lock);
	if (!rcu_seq_state(rcu_state.gp_seq_polled))
		rcu_seq_start(&rcu_state.gp_seq_polled);
	rcu_poll_gp_snap = rcu_state.gp_seq_polled;
	raw_spin_unlock(&rcu_state.poll_lock);
}

/* Returns true if a start_poll_synchronize_rcu() cookie still needs another grace period. */
static bool rcu_poll_gp_seq_end(void)
{
	bool more;

	raw_spin_lock(&rcu_state.poll_lock);
	if (rcu_state.gp_seq_polled == rcu_poll_gp_snap)
		rcu_seq_end(&rcu_state.gp_seq_polled);
	more = ULONG_CMP_LT(rcu_state.gp_seq_polled, rcu_state.gp_seq_polled_needed);
	raw_spin_unlock(&rcu_state.poll_lock);
	return more;
}

static bool rcu_gp_init(void)
{
	struct rcu_node *rnp = rcu_get_root();
	struct rcu_data *rdp;
	unsigned long flags;

	if (!READ_ONCE(rcu_state.gp_flags))
		return false;	/* spurious wakeup */
	rcu_gp_slow(rcu_params.gp_preinit_delay);	/* sleeps: not under the root's lock */
	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	if (!READ_ONCE(rcu_state.gp_flags)) {
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return false;
	}
	WRITE_ONCE(rcu_state.gp_flags, 0);
	if (WARN_ON_ONCE(rcu_seq_state(rcu_state.gp_seq))) {
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return false;
	}
	/* Deadlines first: a CPU that sees the new gp_seq must see them too. */
	record_gp_stall_check_time();
	rcu_seq_start(&rcu_state.gp_seq);
	rcu_poll_gp_seq_start();
	rcu_state.n_gp_started++;
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);

	/* Breadth-first: a node's mask is set before any child can report into it. */
	WRITE_ONCE(rcu_state.gp_state, RCU_GP_INIT);
	rcu_for_each_node_breadth_first(rnp) {
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		rcu_preempt_gp_init_node(rnp);	/* tasks already blocked block this GP */
		rcu_boost_gp_start(rnp);
		WRITE_ONCE(rnp->qsmask, rnp->qsmaskinit);
		WRITE_ONCE(rnp->gp_seq, rcu_state.gp_seq);
		rdp = this_cpu_ptr(&rcu_data);
		if (rnp == rdp->mynode)
			(void)__note_gp_changes(rnp, rdp);
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		rcu_gp_slow(rcu_params.gp_init_delay);
		cond_resched();
	}
	return true;
}

/*
 * A CPU that stays idle never looks at the grace-period number; once its
 * gp_seq lags a quarter of the counter space, the wrap-tolerant comparisons
 * are about to take it for a recent (then a future) number, and the CPU
 * would miss the grace periods it slept through (report a stale quiescent
 * state, or none at all). Every FQS scan looks at each CPU it waits for
 * (rnp->lock held, which orders this against the CPU's __note_gp_changes())
 * and flags such a CPU: its next look then treats its gp_seq as meaningless
 * and resynchronises from scratch (Linux's rcu_gpnum_ovf()).
 */
static void rcu_gpnum_ovf(struct rcu_node *rnp, struct rcu_data *rdp)
{
	if (ULONG_CMP_LT(rcu_seq_current(&rdp->gp_seq) + ULONG_MAX / 4, rnp->gp_seq) &&
	    !READ_ONCE(rdp->gpwrap)) {
		WRITE_ONCE(rdp->gpwrap, true);
		rdp->n_gpwrap++;
	}
}

/*
 * One FQS scan: for every CPU still holding up the grace period, credit it
 * if it is idle now (first scan) or has been idle since the first scan;
 * ask long holdouts for help, and later send them reschedule IPIs.
 */
static void force_qs_rnp(bool first)
{
	struct rcu_node *rnp;
	unsigned long flags;
	int cpu;

	rcu_for_each_leaf_node(rnp) {
		unsigned long mask = 0;

		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		if (!rnp->qsmask) {
			/* Only preempted readers (if any) hold this leaf up: boost them when due. */
			if (rcu_preempt_blocked_readers_cgp(rnp))
				rcu_initiate_boost(rnp, flags);		/* releases the lock */
			else
				raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
			continue;
		}
		for_each_leaf_node_possible_cpu(rnp, cpu) {
			unsigned long bit = leaf_node_cpu_bit(rnp, cpu);
			struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
			int snap;

			if (!(rnp->qsmask & bit))
				continue;
			rcu_gpnum_ovf(rnp, rdp);
			snap = rcu_dynticks_snap(cpu);
			if (first) {
				rdp->dynticks_snap = snap;
				if (rcu_dynticks_in_eqs(snap)) {
					mask |= bit;
					rdp->n_dynticks_credit++;
				}
				continue;
			}
			if (rcu_dynticks_in_eqs(snap) || snap != rdp->dynticks_snap) {
				mask |= bit;
				rdp->n_dynticks_credit++;
				continue;
			}
			/* Still busy in the kernel: escalate with the grace period's age. */
			if (time_after(jiffies,
				       rcu_state.gp_start + rcu_params.jiffies_till_sched_qs)) {
				WRITE_ONCE(rdp->urgent_qs, true);
				if (time_after(jiffies, rcu_state.jiffies_resched) &&
				    time_after(jiffies, rdp->last_fqs_resched +
						rcu_params.jiffies_till_sched_qs)) {
					WRITE_ONCE(rdp->need_heavy_qs, true);
					rdp->last_fqs_resched = jiffies;
					rdp->n_resched_ipis++;
					resched_cpu(cpu);
				}
			}
		}
		if (mask)
			rcu_report_qs_rnp(mask, rnp, rnp->gp_seq, flags);	/* releases the lock */
		else
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	}
}

/* The grace period is over: every CPU and every blocking reader has reported to the root. */
static bool rcu_gp_root_done(void)
{
	struct rcu_node *root = rcu_get_root();

	return !READ_ONCE(root->qsmask) && !rcu_preempt_blocked_readers_cgp(root);
}

static void rcu_gp_fqs_loop(void)
{
	unsigned long j = rcu_params.jiffies_till_first_fqs;

	/*
	 * Unlike Linux, scan once right away: CPUs already idle are credited
	 * now instead of after jiffies_till_first_fqs, and the busy ones get
	 * their dyntick snapshot, so the first timed scan (after
	 * jiffies_till_first_fqs) credits any that passed through idle since.
	 * On an idle machine this takes the FQS wait out of every grace
	 * period; the scan reads one counter per CPU still in the mask.
	 */
	force_qs_rnp(true);
	rcu_state.n_force_qs++;
	for (;;) {
		long left;

		if (rcu_gp_root_done())
			break;
		rcu_state.jiffies_force_qs = jiffies + j;
		/*
		 * Three FQS waits, as Linux, plus HZ/10: under TCG a vCPU
		 * often runs the kthread 10 ms late with nothing wrong.
		 */
		rcu_state.jiffies_kick_kthreads = jiffies + 3 * j + HZ / 10;
		WRITE_ONCE(rcu_state.gp_state, RCU_GP_WAIT_FQS);
		left = wait_event_idle_timeout(rcu_state.gp_wq,
			rcu_gp_root_done() || (READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS),
			j ? j : 1);
		rcu_state.gp_activity = jiffies;
		if (rcu_gp_root_done())
			break;
		if (rcu_params.rcu_kick_kthreads &&
		    time_after(jiffies, rcu_state.jiffies_kick_kthreads))
			rcu_state.n_kthread_kicks++;	/* overslept: this wakeup is the kick */
		if (left && !(READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS))
			continue;
		WRITE_ONCE(rcu_state.gp_state, RCU_GP_DOING_FQS);
		WRITE_ONCE(rcu_state.gp_flags, READ_ONCE(rcu_state.gp_flags) & ~RCU_GP_FLAG_FQS);
		force_qs_rnp(false);
		rcu_state.n_force_qs++;
		j = rcu_params.jiffies_till_next_fqs;
		rcu_check_cpu_stall(NULL);
	}
}

static void rcu_gp_cleanup(void)
{
	struct rcu_node *rnp;
	struct rcu_data *rdp;
	unsigned long flags, new_gp_seq, gp_duration;
	bool needgp = false;
	int cpu;

	WRITE_ONCE(rcu_state.gp_state, RCU_GP_CLEANUP);
	/*
	 * The root is clear: the grace period is over. Tell pollers and
	 * rcu_gp_completed() now, before any callback of it can run (those
	 * wait for the leaves' gp_seq below), so that a task woken by one
	 * finds its earlier polling cookie done.
	 */
	local_irq_save(flags);
	smp_mb();	/* every reported QS before the end becomes visible */
	/*
	 * This grace period may have joined a polled phase that an expedited
	 * one opened, and either may have closed it: a cookie taken inside
	 * that phase needs the next one, and only a normal grace period is
	 * sure to come. Ask for it (below) while such a cookie is outstanding.
	 */
	needgp = rcu_poll_gp_seq_end();
	WRITE_ONCE(rcu_state.n_gp_completed, rcu_state.n_gp_completed + 1);
	local_irq_restore(flags);
	gp_duration = jiffies - rcu_state.gp_start;
	if (gp_duration > rcu_state.gp_max)
		rcu_state.gp_max = gp_duration;
	new_gp_seq = rcu_state.gp_seq;
	rcu_seq_end(&new_gp_seq);
	rcu_for_each_node_breadth_first(rnp) {
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		WRITE_ONCE(rnp->gp_seq, new_gp_seq);
		rdp = this_cpu_ptr(&rcu_data);
		if (rnp == rdp->mynode)
			needgp |= __note_gp_changes(rnp, rdp);
		if (ULONG_CMP_LT(new_gp_seq, rnp->gp_seq_needed))
			needgp = true;
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		rcu_gp_slow(rcu_params.gp_cleanup_delay);
		cond_resched();
	}
	rnp = rcu_get_root();
	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	rcu_seq_end(&rcu_state.gp_seq);
	WRITE_ONCE(rcu_state.gp_state, RCU_GP_IDLE);
	/* Someone asked for a later grace period while this one ran: start it. */
	if (needgp || ULONG_CMP_LT(rcu_state.gp_seq, rnp->gp_seq_needed))
		WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_INIT);
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	/*
	 * Kick every CPU with callbacks: their rcuc kthreads advance them now
	 * rather than at their next tick (idle CPUs with callbacks keep ticking,
	 * but waiting for it would add a jiffy to every synchronize_rcu()).
	 */
	for_each_online_cpu(cpu) {
		rdp = per_cpu_ptr(&rcu_data, cpu);
		if (READ_ONCE(rdp->cblist.len) && rdp->rcu_cpu_kthread_task) {
			WRITE_ONCE(rdp->rcu_cpu_has_work, true);
			wake_up_process(rdp->rcu_cpu_kthread_task);
		}
	}
}

static int rcu_gp_kthread(void *unused)
{
	for (;;) {
		WRITE_ONCE(rcu_state.gp_state, RCU_GP_WAIT_GPS);
		wait_event_idle(rcu_state.gp_wq, READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_INIT);
		rcu_state.gp_activity = jiffies;
		if (!rcu_gp_init())
			continue;
		rcu_gp_fqs_loop();
		rcu_gp_cleanup();
	}
	return 0;
}

/* ===== waiting for grace periods ============================================= */

struct rcu_synchronize {
	struct rcu_head head;
	struct completion completion;
};

static void wakeme_after_rcu(struct rcu_head *head)
{
	struct rcu_synchronize *rs = container_of(head, struct rcu_synchronize, head);

	complete(&rs->completion);
}

void wait_rcu_gp(call_rcu_func_t crf)
{
	struct rcu_synchronize rs;

	init_completion(&rs.completion);
	crf(&rs.head, wakeme_after_rcu);
	wait_for_completion(&rs.completion);
}

/*
 * With one CPU online in a non-preemptible kernel, a caller of
 * synchronize_rcu() is itself in a quiescent state and no reader can run
 * elsewhere: the wait is already over (Linux's rcu_blocking_is_gp()).
 * Preemptible RCU readers may be preempted on this very CPU: no shortcut.
 */
static bool rcu_blocking_is_gp(void)
{
	return !READ_ONCE(rcu_scheduler_active) ||
	       (!IS_ENABLED(CONFIG_PREEMPT_RCU) && num_online_cpus() <= 1);
}

/* Also synchronize_rcu_expedited()'s shortcut (tree_exp.c). */
bool rcu_sync_is_trivial(void)
{
	unsigned long flags;

	if (!rcu_blocking_is_gp())
		return false;
	/*
	 * The wait is over, but pollers must see a grace period pass:
	 * step the polled number through a whole one, unless a grace
	 * period is under way (its end will count for them).
	 */
	raw_spin_lock_irqsave(&rcu_state.poll_lock, flags);
	if (!rcu_seq_state(rcu_state.gp_seq_polled)) {
		rcu_seq_start(&rcu_state.gp_seq_polled);
		rcu_seq_end(&rcu_state.gp_seq_polled);
	}
	raw_spin_unlock_irqrestore(&rcu_state.poll_lock, flags);
	return true;
}

/*
 * An expedited grace period counts for pollers too. At its start it opens
 * a polled phase if none is open, and returns the phase's number; at its
 * end it closes that phase if still open: whoever opened it, the phase
 * began before this expedited grace period did, so a full grace period
 * has passed since. Normal grace periods may close it earlier (by the
 * same argument); then the expedited end leaves the number alone.
 */
unsigned long rcu_exp_poll_start(void)
{
	unsigned long flags, snap;

	raw_spin_lock_irqsave(&rcu_state.poll_lock, flags);
	if (!rcu_seq_state(rcu_state.gp_seq_polled))
		rcu_seq_start(&rcu_state.gp_seq_polled);
	snap = rcu_state.gp_seq_polled;
	raw_spin_unlock_irqrestore(&rcu_state.poll_lock, flags);
	return snap;
}

void rcu_exp_poll_end(unsigned long snap)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rcu_state.poll_lock, flags);
	if (rcu_state.gp_seq_polled == snap)
		rcu_seq_end(&rcu_state.gp_seq_polled);
	raw_spin_unlock_irqrestore(&rcu_state.poll_lock, flags);
}

void synchronize_rcu(void)
{
	WARN_ONCE(preempt_count() || irqs_disabled() || rcu_preempt_depth(),
		  "Illegal synchronize_rcu() in RCU read-side critical section or atomic context\n");
	if (rcu_sync_is_trivial())
		return;
	/* rcupdate.rcu_expedited, rcu_expedite_gp() or boot (update.c). */
	if (rcu_gp_is_expedited()) {
		synchronize_rcu_expedited();
		return;
	}
	wait_rcu_gp(call_rcu);
}

/* Polling cookies are rcu_state.gp_seq_polled numbers. */
unsigned long get_state_synchronize_rcu(void)
{
	smp_mb();	/* the caller's prior updates come before the snapshot */
	return rcu_seq_snap(&rcu_state.gp_seq_polled);
}

unsigned long start_poll_synchronize_rcu(void)
{
	unsigned long cookie = get_state_synchronize_rcu();
	struct rcu_data *rdp;
	unsigned long flags;
	bool needwake;

	/*
	 * Every normal grace period that starts from now on is also a polled
	 * one, but it may join a phase an expedited grace period opened
	 * before the cookie was taken, and closing that phase falls short of
	 * the cookie. So record the cookie: rcu_gp_cleanup() keeps asking for
	 * normal grace periods until gp_seq_polled reaches it.
	 */
	raw_spin_lock_irqsave(&rcu_state.poll_lock, flags);
	if (ULONG_CMP_LT(rcu_state.gp_seq_polled_needed, cookie))
		rcu_state.gp_seq_polled_needed = cookie;
	raw_spin_unlock_irqrestore(&rcu_state.poll_lock, flags);
	local_irq_save(flags);
	rdp = this_cpu_ptr(&rcu_data);
	raw_spin_lock_rcu_node(rdp->mynode);
	needwake = rcu_start_this_gp(rdp->mynode, rcu_seq_snap(&rcu_state.gp_seq));
	raw_spin_unlock_rcu_node(rdp->mynode);
	local_irq_restore(flags);
	if (needwake)
		rcu_gp_kthread_wake();
	return cookie;
}

bool poll_state_synchronize_rcu(unsigned long oldstate)
{
	if (rcu_seq_done(&rcu_state.gp_seq_polled, oldstate)) {
		smp_mb();	/* the caller's later accesses come after the grace period */
		return true;
	}
	return false;
}

unsigned long rcu_gp_completed(void)
{
	return READ_ONCE(rcu_state.n_gp_completed);
}

unsigned long rcu_get_gp_seq(void)
{
	return READ_ONCE(rcu_state.gp_seq);
}

void rcutorture_get_gp_data(int *flags, unsigned long *gp_seq)
{
	*flags = READ_ONCE(rcu_state.gp_flags);
	*gp_seq = READ_ONCE(rcu_state.gp_seq);
}

/* rcutorture's boost test: the grace-period kthread's SCHED_FIFO priority (0: SCHED_NORMAL). */
int rcu_get_gp_kthreads_prio(void)
{
	return rcu_params.kthread_prio;
}

/*
 * rcutorture's boost test, when a grace period outlived its window: can
 * boosting be blamed? As Linux: not while some CPU has yet to report a
 * quiescent state (boosting cannot help that one; its number goes to
 * *cpup, -1 if none), only when a preempted reader (->gp_tasks) is all
 * that is left. cpup NULL: a quick lockless look that says "false"
 * whenever a CPU still holds the grace period up.
 */
bool rcu_check_boost_fail(unsigned long gp_state, int *cpup)
{
	bool blocked_by_task = false;
	struct rcu_node *rnp;
	unsigned long flags;
	int cpu;

	(void)gp_state;
	if (cpup)
		*cpup = -1;
	rcu_for_each_leaf_node(rnp) {
		if (!cpup) {
			if (READ_ONCE(rnp->qsmask))
				return false;
			if (rcu_preempt_blocked_readers_cgp(rnp))
				blocked_by_task = true;
			continue;
		}
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		if (rcu_preempt_blocked_readers_cgp(rnp))
			blocked_by_task = true;
		for_each_leaf_node_possible_cpu(rnp, cpu) {
			if (rnp->qsmask & leaf_node_cpu_bit(rnp, cpu)) {
				raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
				*cpup = cpu;
				return false;
			}
		}
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	}
	return blocked_by_task;
}

/* Readers boosted by the rcub kthreads since boot, all leaves (0 without RCU_BOOST). */
unsigned long rcu_get_n_boosts(void)
{
	unsigned long n = 0;
#ifdef CONFIG_RCU_BOOST
	struct rcu_node *rnp;

	rcu_for_each_leaf_node(rnp)
		n += READ_ONCE(rnp->n_boosts);
#endif
	return n;
}

/*
 * Ask the grace-period kthread for a forced quiescent-state scan now
 * rather than at its next timeout (rcutorture's fqs kthread uses this to
 * hit the races around the scan). Nothing to do without a grace period.
 */
void rcu_force_quiescent_state(void)
{
	struct rcu_node *root = rcu_get_root();
	unsigned long flags;
	bool wake = false;

	raw_spin_lock_irqsave_rcu_node(root, flags);
	if (rcu_gp_in_progress() && !(READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS)) {
		WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_FQS);
		wake = true;
	}
	raw_spin_unlock_irqrestore_rcu_node(root, flags);
	if (wake)
		rcu_gp_kthread_wake();
}

/* ===== rcu_barrier ============================================================ */

static void rcu_barrier_callback(struct rcu_head *rhp)
{
	if (atomic_dec_and_test(&rcu_state.barrier_cpu_count))
		complete(&rcu_state.barrier_completion);
}

/* On each CPU (cross call): queue the barrier callback behind everything already queued. */
static void rcu_barrier_entrain(void *unused)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	rdp->barrier_head.func = rcu_barrier_callback;
	atomic_inc(&rcu_state.barrier_cpu_count);
	if (!rcu_segcblist_entrain(&rdp->cblist, &rdp->barrier_head)) {
		atomic_dec(&rcu_state.barrier_cpu_count);	/* nothing queued here */
		return;
	}
	rdp->n_cbs_queued++;
	/* The entrained callback sits in NEXT if NEXT was the last segment: give it a GP. */
	raw_spin_lock_rcu_node(rdp->mynode);
	if (rcu_accelerate_cbs(rdp->mynode, rdp))
		WRITE_ONCE(rdp->rcu_cpu_has_work, true);
	raw_spin_unlock_rcu_node(rdp->mynode);
	invoke_rcu_core();
}

void rcu_barrier(void)
{
	unsigned int cpu;

	mutex_lock(&rcu_state.barrier_mutex);
	rcu_state.barrier_sequence++;
	init_completion(&rcu_state.barrier_completion);
	atomic_set(&rcu_state.barrier_cpu_count, 1);	/* our own reference, dropped below */
	for_each_online_cpu(cpu) {
		if (!READ_ONCE(per_cpu(rcu_data, cpu).cblist.len))
			continue;
		smp_call_function_single(cpu, rcu_barrier_entrain, NULL, 1);
	}
	rcu_gp_kthread_wake();
	if (atomic_dec_and_test(&rcu_state.barrier_cpu_count))
		complete(&rcu_state.barrier_completion);
	wait_for_completion(&rcu_state.barrier_completion);
	mutex_unlock(&rcu_state.barrier_mutex);
}

/* ===== statistics ============================================================= */

void rcu_show_stats(void)
{
	unsigned int cpu;

	pr_info("%s: %lu grace periods completed (%lu started), %lu FQS scans, %lu GP kthread wakeups, longest GP %lu jiffies\n",
		rcu_state.name, rcu_state.n_gp_completed, rcu_state.n_gp_started, rcu_state.n_force_qs,
		rcu_state.n_gp_kthread_wakeups, rcu_state.gp_max);
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		pr_info("CPU %u: cbs queued %lu invoked %lu pending %ld max batch %lu, QS reported %lu, dyntick credits %lu, resched IPIs %lu, rcuc wakeups %lu\n",
			cpu, rdp->n_cbs_queued, rdp->n_cbs_invoked, rcu_segcblist_n_cbs(&rdp->cblist),
			rdp->n_max_batch, rdp->n_qs_reported, rdp->n_dynticks_credit, rdp->n_resched_ipis,
			rdp->n_rcu_core);
	}
	rcu_exp_show_stats();
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

/* A CPU joins the grace periods that start after this point. Interrupts off. */
void rcu_cpu_starting(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long mask = rdp->grpmask;

	for (; rnp; rnp = rnp->parent) {
		unsigned long old;

		raw_spin_lock_rcu_node(rnp);
		old = rnp->qsmaskinit;
		WRITE_ONCE(rnp->qsmaskinit, old | mask);
		if (rnp == rdp->mynode) {
			rdp->gp_seq = rdp->gp_seq_needed = rnp->gp_seq;
			rdp->cpu_no_qs = false;
			rdp->core_needs_qs = false;
			rdp->beenonline = true;
		}
		raw_spin_unlock_rcu_node(rnp);
		if (old)	/* the parent already counts this node */
			break;
		mask = rnp->grpmask;
	}
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
	init_completion(&rcu_state.barrier_completion);
	rcu_exp_init();
	rcu_expedite_gp();	/* as Linux: expedited until rcu_end_inkernel_boot() */
	rcu_init_nodes();
	for_each_possible_cpu(cpu)
		rcu_init_percpu_data(cpu);
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
	smp_mb();	/* kthreads visible before grace periods may be waited for */
	WRITE_ONCE(rcu_scheduler_active, true);
	/* Callbacks queued during early boot wait for a grace period now. */
	for_each_possible_cpu(cpu)
		if (per_cpu(rcu_data, cpu).cblist.len) {
			per_cpu(rcu_data, cpu).rcu_cpu_has_work = true;
			wake_up_process(per_cpu(rcu_data, cpu).rcu_cpu_kthread_task);
		}
}
