/*
 * Tree RCU and CPUs coming and going (Documentation/RCU/hotplug.md), in
 * Linux's sequence:
 *
 *   up:   rcu_cpu_starting() on the new CPU, interrupts off, before it is
 *         marked online: it joins its leaf's ->qsmaskinitnext;
 *         rcutree_online_cpu(): rcuc/N unparked.
 *   down: rcutree_offline_cpu(): rcuc/N parked; rcu_report_dead() on the
 *         dying CPU, its last act: its last quiescent state (normal and
 *         expedited) and it leaves ->qsmaskinitnext;
 *         rcutree_migrate_callbacks() once it is dead: its callbacks go to
 *         a CPU that stays.
 *
 * ->qsmaskinitnext changes at any time, under ofl_lock; a grace period
 * only looks at ->qsmaskinit, which rcu_hotplug_gp_init() refreshes from
 * it at grace-period start, before any ->qsmask is set, and propagates up
 * the tree. So a grace period's set of CPUs never changes under it: a CPU
 * that comes online during it is not waited for (its readers all began
 * after the grace period did), and one that goes offline during it either
 * reported in rcu_report_dead() or is reported by rcu_gp_init() for it
 * (rcu_hotplug_gp_init_leaf()). A leaf whose CPUs all left keeps its bit
 * in its parent while tasks preempted in readers remain on its list
 * (->wait_blkd_tasks), so those readers still hold up grace periods.
 *
 * Expedited grace periods start from ->expmaskinit, which only grows (CPUs
 * ever online: ->expmaskinitnext, set by rcu_cpu_starting(), folded in at
 * each expedited grace period's start); the offline ones among them are reported at once by
 * rcu_exp_select_cpus() (not in ->qsmaskinitnext) or by rcu_report_dead().
 *
 * Callbacks of a dead CPU are never invoked early: the ready ones go to
 * the adopter's DONE segment, every pending one to its NEXT segment, so it
 * waits for a whole grace period more, started after the adoption.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <rcu/hooks.h>
#include <sched/kthread.h>
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <time/time.h>

static bool rcu_leaf_has_tasks(struct rcu_node *rnp)
{
#ifdef CONFIG_PREEMPT_RCU
	return !list_empty(&rnp->blkd_tasks);
#else
	return false;
#endif
}

/* ---- the masks ---------------------------------------------------------- */

void rcu_cpu_starting(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long mask = rdp->grpmask, flags, iflags;

	if (rdp->cpu_started)
		return;
	rdp->cpu_started = true;
	raw_spin_lock_irqsave(&rcu_state.ofl_lock, flags);
	local_irq_save(iflags);		/* off already: iflags keeps them off at the report's restore */
	raw_spin_lock_rcu_node(rnp);
	WRITE_ONCE(rnp->qsmaskinitnext, rnp->qsmaskinitnext | mask);
	/* Never cleared: the next expedited GP counts this leaf even if we are gone by then. */
	WRITE_ONCE(rnp->expmaskinitnext, rnp->expmaskinitnext | mask);
	/* Start from the leaf's view: no grace period waits for this CPU yet. */
	rdp->gp_seq = rdp->gp_seq_needed = rnp->gp_seq;
	rdp->gpwrap = false;
	rdp->cpu_no_qs = false;
	rdp->core_needs_qs = false;
	rdp->beenonline = true;
	/*
	 * A grace period that counts this CPU from before it left (it died
	 * between the fold and its leaf's setup) gets its quiescent state
	 * now: it is in no reader during bring-up.
	 */
	if (rnp->qsmask & mask) {
		rdp->n_qs_reported++;
		rcu_report_qs_rnp(mask, rnp, rnp->gp_seq, iflags);	/* releases rnp->lock */
	} else {
		raw_spin_unlock_rcu_node(rnp);
	}
	raw_spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
	/*
	 * Our bit in ->qsmaskinitnext before this CPU's first reader. Pairs
	 * with the smp_mb() before the mask reads in rcu_no_other_cpu_reads():
	 * store buffering, so either that check sees this CPU and does not
	 * take the shortcut, or this CPU's first reader sees the updater's
	 * removal. (The lock release above is only a release: a later load
	 * could pass the store.)
	 */
	smp_mb();
}

/*
 * The one-CPU shortcut's test (tree_sync.c:rcu_blocking_is_gp()): no CPU
 * but the caller's can be running, or start, a reader that began before
 * this call. rcu_sync_is_trivial() asks twice, the second time under
 * rcu_state.ofl_lock with its steps of the grace-period numbers, so that
 * no CPU joins between the answer and the steps (see there). RCU's own view decides, not cpu_online_mask: a CPU is in
 * its leaf's ->qsmaskinitnext from rcu_cpu_starting(), before its first
 * reader, until rcu_report_dead(), after its last one. A dying CPU
 * leaves the online mask long before that: its stopper runs cross calls
 * and sched_cpu_dying() with interrupts off, then timer handlers run on
 * it in the idle loop, readers all. The caller, in task context outside
 * any reader (non-preemptible RCU), is itself quiescent; preemption off
 * keeps "the caller's CPU" fixed while the leaves are read. Each other
 * CPU's bit is judged on its own, so the leaves need not be read at
 * one instant:
 *  - bit seen clear after rcu_report_dead(): its readers, smp_mb(),
 *    the clear; here the read, smp_mb(), the caller's later accesses:
 *    those readers are over before the caller frees anything;
 *  - bit seen clear before rcu_cpu_starting()'s set is visible: the
 *    caller's removal, smp_mb(), the read here; there the set, smp_mb(),
 *    the first reader: that reader sees the removal.
 */
bool rcu_no_other_cpu_reads(void)
{
	struct rcu_data *rdp;
	struct rcu_node *rnp;
	bool alone = true;

	preempt_disable();
	rdp = this_cpu_ptr(&rcu_data);
	/*
	 * The caller's updates before the mask reads. Pairs with the smp_mb()
	 * at the end of rcu_cpu_starting() (store buffering, see above).
	 */
	smp_mb();
	rcu_for_each_leaf_node(rnp) {
		unsigned long others = READ_ONCE(rnp->qsmaskinitnext);

		if (rnp == rdp->mynode)
			others &= ~rdp->grpmask;
		if (others) {
			alone = false;
			break;
		}
	}
	preempt_enable();
	/*
	 * The mask reads before the caller's later accesses (the free after
	 * synchronize_rcu()). Pairs with the smp_mb() in rcu_report_dead()
	 * between the dying CPU's last reader and the clear of its bit.
	 */
	if (alone)
		smp_mb();
	return alone;
}

/* rnp's leaf gained its first CPU: count it in its ancestors' ->qsmaskinit. */
static void rcu_init_new_rnp(struct rcu_node *rnp)
{
	unsigned long mask = rnp->grpmask, old;

	for (rnp = rnp->parent; rnp; rnp = rnp->parent) {
		raw_spin_lock_rcu_node(rnp);
		old = rnp->qsmaskinit;
		WRITE_ONCE(rnp->qsmaskinit, old | mask);
		raw_spin_unlock_rcu_node(rnp);
		if (old)	/* the node above already counts this one */
			return;
		mask = rnp->grpmask;
	}
}

/* rnp's leaf lost its last CPU and has no preempted readers: uncount it upwards. */
static void rcu_cleanup_dead_rnp(struct rcu_node *rnp)
{
	unsigned long mask = rnp->grpmask;
	bool empty;

	for (rnp = rnp->parent; rnp; rnp = rnp->parent) {
		raw_spin_lock_rcu_node(rnp);
		WRITE_ONCE(rnp->qsmaskinit, rnp->qsmaskinit & ~mask);
		empty = !rnp->qsmaskinit;
		raw_spin_unlock_rcu_node(rnp);
		if (!empty)
			return;
		mask = rnp->grpmask;
	}
}

/*
 * Grace-period start, from rcu_gp_init() after rcu_seq_start() and before
 * any ->qsmask is set: every ->qsmask is zero, so the ->qsmaskinit masks
 * may change. Leaf locks are taken leaf to root, the order of reports.
 */
void rcu_hotplug_gp_init(void)
{
	struct rcu_node *rnp;
	unsigned long flags, old, new;
	bool held;

	rcu_for_each_leaf_node(rnp) {
		raw_spin_lock_irqsave(&rcu_state.ofl_lock, flags);
		raw_spin_lock_rcu_node(rnp);
		old = rnp->qsmaskinit;
		new = rnp->qsmaskinitnext;
		if (old != new || rnp->wait_blkd_tasks) {
			held = old || rnp->wait_blkd_tasks;	/* the parent counts this leaf */
			WRITE_ONCE(rnp->qsmaskinit, new);
			if (new) {
				rnp->wait_blkd_tasks = false;
				if (!held)
					rcu_init_new_rnp(rnp);
			} else if (held) {
				if (rcu_leaf_has_tasks(rnp)) {
					rnp->wait_blkd_tasks = true;	/* readers still block GPs */
				} else {
					rnp->wait_blkd_tasks = false;
					rcu_cleanup_dead_rnp(rnp);
				}
			}
		} else if (!old && rcu_leaf_has_tasks(rnp)) {
			/*
			 * Out of the tree, no CPU, yet a task preempted in a
			 * reader here: its CPU came up and went down again
			 * between two folds (cpu_down() runs no grace period,
			 * unlike Linux's, whose sched_cpu_deactivate() waits
			 * for one while the CPU is still online), and the task
			 * was queued here when no grace period counted the
			 * leaf. Count the leaf again until its list empties,
			 * as for a leaf whose last CPU just left: the parent
			 * then waits for it, and the fold that finds the list
			 * empty removes it.
			 */
			rcu_init_new_rnp(rnp);
			rnp->wait_blkd_tasks = true;
		}
		raw_spin_unlock_rcu_node(rnp);
		raw_spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
	}
}

bool rcu_hotplug_gp_init_leaf(struct rcu_node *rnp, unsigned long flags)
{
	unsigned long gone = rnp->qsmask & ~READ_ONCE(rnp->qsmaskinitnext);

	if (!gone && (rnp->qsmask || !rnp->wait_blkd_tasks))
		return false;
	/* mask 0 for a CPU-less leaf: goes up if no reader blocks this GP (tree.c). */
	rcu_report_qs_rnp(gone, rnp, rnp->gp_seq, flags);
	return true;
}

void rcu_hotplug_exp_init(void)
{
	struct rcu_node *rnp, *up;
	unsigned long flags, mask, old;

	rcu_for_each_leaf_node(rnp) {
		raw_spin_lock_irqsave(&rcu_state.ofl_lock, flags);
		raw_spin_lock_rcu_node(rnp);
		/*
		 * Every CPU ever started here, not only those online now: a
		 * CPU that came and went since the last expedited GP may have
		 * left a task preempted in a reader on this leaf, which
		 * rcu_preempt_exp_start_node() makes this GP wait for only if
		 * the leaf counts in its parent.
		 */
		old = rnp->expmaskinit;
		WRITE_ONCE(rnp->expmaskinit, old | rnp->expmaskinitnext);
		mask = old ? 0 : (rnp->expmaskinit ? rnp->grpmask : 0);
		raw_spin_unlock_rcu_node(rnp);
		for (up = rnp->parent; mask && up; up = up->parent) {
			raw_spin_lock_rcu_node(up);
			old = up->expmaskinit;
			WRITE_ONCE(up->expmaskinit, old | mask);
			raw_spin_unlock_rcu_node(up);
			mask = old ? 0 : up->grpmask;
		}
		raw_spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
	}
}

/* ---- going down ----------------------------------------------------------- */

void rcutree_offline_cpu(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

	/* Linux's smpboot rule for rcuc/N: parked while its CPU is away. */
	if (rdp->rcu_cpu_kthread_task)
		kthread_park(rdp->rcu_cpu_kthread_task);
}

void rcu_report_dead(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long mask = rdp->grpmask, flags, iflags;

	WARN_ON_ONCE(cpu != raw_smp_processor_id() || !irqs_disabled());
	/*
	 * This CPU's last reader before its bit leaves ->qsmaskinitnext.
	 * Pairs with the smp_mb() after the mask reads in
	 * rcu_no_other_cpu_reads(): a caller that sees the bit clear and
	 * takes the one-CPU shortcut frees nothing this CPU still reads.
	 * (The rcu_node lock below orders it too, through
	 * smp_mb__after_unlock_lock(); written out for the pair's sake.)
	 */
	smp_mb();
	raw_spin_lock_irqsave(&rcu_state.ofl_lock, flags);
	local_irq_save(iflags);		/* as in rcu_cpu_starting() */
	raw_spin_lock_rcu_node(rnp);
	rdp->n_offline++;
	rdp->cpu_started = false;
	WRITE_ONCE(rnp->qsmaskinitnext, rnp->qsmaskinitnext & ~mask);
	if (rnp->qsmask & mask) {	/* the running GP waits for us: this is our QS */
		rdp->n_qs_reported++;
		rcu_report_qs_rnp(mask, rnp, rnp->gp_seq, iflags);	/* releases rnp->lock */
	} else {
		raw_spin_unlock_rcu_node(rnp);
	}
	raw_spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
	/*
	 * The expedited GP after leaving ->qsmaskinitnext: one that selects
	 * CPUs from here on reports us as offline; one that selected us
	 * earlier had its IPI dropped (we are marked offline) and gets our
	 * quiescent state here.
	 */
	rcu_exp_report_deferred(rdp);
}

/* The adopter for cpu's callbacks: this CPU if it processes its own, else another. */
static int rcu_adopter(unsigned int cpu)
{
	unsigned int c, me = raw_smp_processor_id();

	if (me != cpu && !rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, me)))
		return me;
	for_each_online_cpu(c)
		if (c != cpu && !rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, c)))
			return c;
	return -1;
}

bool rcutree_can_offline(unsigned int cpu)
{
	bool ok;

	if (rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu)))
		return true;	/* its rcuo kthreads keep its callbacks */
	preempt_disable();
	ok = rcu_adopter(cpu) >= 0;
	preempt_enable();
	return ok;
}

/* The adopter's side, interrupts off on it (a cross call, or called with them off). */
static void rcu_adopt_callbacks(void *arg)
{
	struct rcu_data *src = arg, *dst = this_cpu_ptr(&rcu_data);
	struct rcu_cblist done, pend;
	struct rcu_head *rhp;
	bool needwake;
	long n;

	rcu_cblist_init(&done);
	rcu_cblist_init(&pend);
	rcu_segcblist_extract_all(&src->cblist, &done, &pend);
	n = done.len + pend.len;
	/* Ready ones stay ready; the rest wait for a new grace period here. */
	rcu_segcblist_add_len(&dst->cblist, done.len);
	rcu_segcblist_insert_done_cbs(&dst->cblist, &done);
	while ((rhp = rcu_cblist_dequeue(&pend)))
		rcu_segcblist_enqueue(&dst->cblist, rhp);
	dst->n_lazy_cbs += src->n_lazy_cbs;
	src->n_lazy_cbs = 0;
	src->n_cbs_orphaned += n;
	dst->n_cbs_adopted += n;
	rcu_flood_mark_drained(src);
	raw_spin_lock_rcu_node(dst->mynode);
	needwake = __note_gp_changes(dst->mynode, dst);
	needwake |= rcu_accelerate_cbs(dst->mynode, dst);
	raw_spin_unlock_rcu_node(dst->mynode);
	WRITE_ONCE(dst->rcu_cpu_has_work, true);
	invoke_rcu_core();
	if (needwake)
		rcu_gp_kthread_wake();
}

void rcutree_migrate_callbacks(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	unsigned long flags;
	int to;

	if (rcu_rdp_is_offloaded(rdp) || !READ_ONCE(rdp->cblist.len))
		return;		/* offloaded: rcuog/rcuo go on serving it, as in Linux */
	preempt_disable();
	to = rcu_adopter(cpu);
	if (WARN_ON_ONCE(to < 0)) {	/* cpu_down() checked rcutree_can_offline() */
		preempt_enable();
		return;
	}
	if (to == (int)raw_smp_processor_id()) {
		local_irq_save(flags);
		rcu_adopt_callbacks(rdp);
		local_irq_restore(flags);
	} else {
		smp_call_function_single(to, rcu_adopt_callbacks, rdp, 1);
	}
	preempt_enable();
	WARN_ON_ONCE(READ_ONCE(rdp->cblist.len));
}

void rcutree_online_cpu(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

	if (rdp->rcu_cpu_kthread_task)
		kthread_unpark(rdp->rcu_cpu_kthread_task);
}

/* ---- the books ------------------------------------------------------------ */

/* Invoked here or, offloaded, by its rcuo kthread. */
static long rcu_cbs_invoked(struct rcu_data *rdp)
{
	long n = READ_ONCE(rdp->n_cbs_invoked);

#ifdef CONFIG_RCU_NOCB_CPU
	n += READ_ONCE(rdp->n_nocb_cbs_invoked);
#endif
	return n;
}

/*
 * Read without locks while other CPUs may still be queueing or invoking
 * (their counter and the list length change a few instructions apart):
 * a CPU that does not balance is looked at again a few times first.
 */
static bool rcu_cpu_cbs_balance(struct rcu_data *rdp)
{
	for (int tries = 0; tries < 5; tries++) {
		long in = READ_ONCE(rdp->n_cbs_queued) + READ_ONCE(rdp->n_cbs_adopted);
		long out = rcu_cbs_invoked(rdp) + READ_ONCE(rdp->n_cbs_orphaned) +
			   READ_ONCE(rdp->cblist.len);

		if (in == out)
			return true;
		udelay(2000);
	}
	return false;
}

bool rcu_check_cb_accounting(void)
{
	unsigned long adopted = 0, orphaned = 0, offl = 0;
	unsigned int cpu, bad = 0;

	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		adopted += rdp->n_cbs_adopted;
		orphaned += rdp->n_cbs_orphaned;
		offl += rdp->n_offline;
		if (rdp->n_offline || rdp->n_cbs_adopted)
			pr_info("CPU %u: hotplug: offline %lu times, cbs orphaned %lu adopted %lu\n",
				cpu, rdp->n_offline, rdp->n_cbs_orphaned, rdp->n_cbs_adopted);
		if (!rcu_cpu_cbs_balance(rdp)) {
			pr_err("CPU %u: callbacks queued %lu + adopted %lu != invoked %ld + orphaned %lu + pending %ld\n",
			       cpu, rdp->n_cbs_queued, rdp->n_cbs_adopted, rcu_cbs_invoked(rdp),
			       rdp->n_cbs_orphaned, READ_ONCE(rdp->cblist.len));
			bad++;
		}
	}
	if (adopted != orphaned) {
		pr_err("callbacks orphaned %lu != adopted %lu\n", orphaned, adopted);
		bad++;
	}
	pr_info("%s: callback accounting: %s (CPUs went offline %lu times, %lu callbacks moved)\n",
		rcu_state.name, bad ? "MISMATCH" : "ok", offl, adopted);
	return !bad;
}
