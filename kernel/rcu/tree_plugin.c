/*
 * Preemptible Tree RCU (CONFIG_PREEMPT_RCU): what lets a reader be
 * preempted without the grace period losing track of it.
 *
 * rcu_read_lock()/rcu_read_unlock() (include/rcu/rcupdate.h) only count
 * nesting in the task. When a task is switched out with a non-zero count,
 * rcu_preempt_note_context_switch() queues it on its CPU's leaf rcu_node
 * (->blkd_tasks) and marks it "blocked" in its rcu_read_unlock_special
 * word; the CPU itself is then in a quiescent state. A grace period that
 * starts while tasks are queued waits for all of them (->gp_tasks points
 * at the first); a task queued later waits for the running grace period
 * only if its CPU had not yet reported one. The leaf keeps its bit in its
 * parent until its CPUs have reported and ->gp_tasks has emptied; the
 * last blocking task to leave its reader reports for the leaf
 * (rcu_report_unblock_qs_rnp()).
 *
 * The slow path runs at the outermost rcu_read_unlock() when the special
 * word is set: leave the list, report a quiescent state the tick asked
 * for (need_qs), drop a priority boost. Where that is not safe (interrupts
 * or preemption disabled: scheduler or wait-queue locks may be held), it
 * is deferred to the next context switch or tick, as Linux does.
 *
 * Locking: a leaf's ->lock guards its list and pointers; always taken with
 * interrupts off. A task's special word is written by the task itself
 * with interrupts off (its context switch and its tick run on its CPU),
 * except need_qs, which CONFIG_RCU_STRICT_GRACE_PERIOD's rcu_read_lock()
 * sets with interrupts on: one byte store, which an interrupt on the
 * task's CPU (the only other writer) cannot split.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/bug.h>
#include <time/time.h>
#include <sched/sched.h>
#include <locking/mutex.h>

void rcu_preempt_init_node(struct rcu_node *rnp)
{
	INIT_LIST_HEAD(&rnp->blkd_tasks);
	rnp->gp_tasks = NULL;
	rnp->exp_tasks = NULL;
}

/*
 * Does this CPU still owe the running expedited grace period a quiescent
 * state (tree_exp.c's ->expmask)? Then a task preempted in a reader here
 * blocks that expedited grace period too.
 */
static bool rcu_preempt_exp_blkd(struct rcu_node *rnp, struct rcu_data *rdp)
{
	return rnp->expmask & rdp->grpmask;
}

/*
 * For the expedited grace period (tree_exp.c), at its start, leaf rnp
 * locked: every task already queued started its reader before it.
 */
void rcu_preempt_exp_start_node(struct rcu_node *rnp)
{
	if (!list_empty(&rnp->blkd_tasks))
		WRITE_ONCE(rnp->exp_tasks, rnp->blkd_tasks.next);
}

/*
 * The expedited IPI (tree_exp.c), interrupts off: is the interrupted task
 * inside a reader? Then the CPU's report waits for its outermost
 * rcu_read_unlock() (exp_hint sends it down the slow path, which calls
 * rcu_qs()) or for its context switch (which queues it on ->exp_tasks
 * first, the CPU still being in ->expmask, then calls rcu_qs()).
 */
bool rcu_preempt_exp_defer(struct rcu_data *rdp)
{
	struct task_struct *t = current;

	if (t->rcu_read_lock_nesting <= 0)
		return false;
	WRITE_ONCE(rdp->exp_deferred_qs, true);
	WRITE_ONCE(t->rcu_read_unlock_special.b.exp_hint, true);
	return true;
}

/*
 * rnp's last task blocking the expedited grace period left its reader
 * after its CPUs had all reported (rcu_preempt_deferred_qs_irqrestore()
 * calls this only then, so that grace period is still waiting for it):
 * clear its bit up the tree (the walk tree_exp.c does for CPU reports,
 * which stops at a leaf that still has ->exp_tasks) and wake the
 * expedited driver when the root empties. Interrupts off, no rcu_node
 * lock held.
 */
static void rcu_report_exp_unblocked(struct rcu_node *rnp)
{
	unsigned long mask;

	raw_spin_lock_rcu_node(rnp);
	if (rnp->expmask || rnp->exp_tasks) {
		raw_spin_unlock_rcu_node(rnp);
		return;		/* CPUs or other tasks still owe it; they report */
	}
	while (rnp->parent) {
		mask = rnp->grpmask;
		raw_spin_unlock_rcu_node(rnp);
		rnp = rnp->parent;
		raw_spin_lock_rcu_node(rnp);
		if (!(rnp->expmask & mask)) {
			raw_spin_unlock_rcu_node(rnp);
			return;		/* already reported */
		}
		WRITE_ONCE(rnp->expmask, rnp->expmask & ~mask);
		if (rnp->expmask) {
			raw_spin_unlock_rcu_node(rnp);
			return;
		}
	}
	rcu_exp_root_done();
	raw_spin_unlock_rcu_node(rnp);
	wake_up(&rcu_state.exp_wq);
}

/*
 * Queue current (in a reader, being switched out) on rnp, its CPU's leaf;
 * rnp locked, interrupts off. The list runs newest to oldest, and each of
 * ->gp_tasks/->exp_tasks marks where the tasks blocking that grace period
 * begin (they extend to the tail). So a task that blocks neither goes to
 * the head, and one that blocks a grace period must land inside that
 * grace period's stretch without entering a stretch it does not block:
 * the cases below (Linux's table in rcu_preempt_ctxt_queue(), folded).
 */
static void rcu_preempt_ctxt_queue(struct rcu_node *rnp, struct rcu_data *rdp,
				   struct task_struct *t)
{
	bool gp_blkd = rnp->qsmask & rdp->grpmask;
	bool exp_blkd = rcu_preempt_exp_blkd(rnp, rdp);
	struct list_head *e = &t->rcu_node_entry;

	if (!gp_blkd && !exp_blkd) {
		list_add(e, &rnp->blkd_tasks);		/* blocks nothing running */
	} else if (exp_blkd) {
		/*
		 * Right behind the first expedited blocker, unless the normal
		 * stretch must take it too and starts later (both stretches
		 * then hold the tail) or nobody blocks the expedited GP yet.
		 */
		if (rnp->exp_tasks && !(gp_blkd && rnp->gp_tasks))
			list_add(e, rnp->exp_tasks);
		else
			list_add_tail(e, &rnp->blkd_tasks);
	} else if (rnp->gp_tasks) {
		list_add(e, rnp->gp_tasks);		/* inside the normal stretch */
	} else if (rnp->exp_tasks) {
		list_add(e, &rnp->blkd_tasks);		/* new stretch: keep out of the expedited one */
	} else {
		list_add_tail(e, &rnp->blkd_tasks);
	}
	if (gp_blkd && !rnp->gp_tasks)
		WRITE_ONCE(rnp->gp_tasks, e);
	if (exp_blkd && !rnp->exp_tasks)
		WRITE_ONCE(rnp->exp_tasks, e);
	rnp->n_tasks_blocked++;
}

/* GP init, rnp locked: every task still queued started its reader before this GP. */
void rcu_preempt_gp_init_node(struct rcu_node *rnp)
{
	WARN_ON_ONCE(rnp->gp_tasks);	/* the previous GP could not end with blockers */
	if (!list_empty(&rnp->blkd_tasks))
		WRITE_ONCE(rnp->gp_tasks, rnp->blkd_tasks.next);
}

/* The entry after t on rnp's list, NULL at the tail. */
static struct list_head *rcu_next_node_entry(struct task_struct *t, struct rcu_node *rnp)
{
	struct list_head *np = t->rcu_node_entry.next;

	return np == &rnp->blkd_tasks ? NULL : np;
}

/*
 * rnp's last task blocking the current GP has left its reader: if its
 * CPUs have all reported too, report rnp up the tree (or, for a one-node
 * tree, let the GP kthread end the GP). rnp locked with preemption and
 * interrupts off as by raw_spin_lock_irqsave_rcu_node(); releases it.
 */
static void rcu_report_unblock_qs_rnp(struct rcu_node *rnp, unsigned long flags)
{
	struct rcu_node *parent = rnp->parent;
	unsigned long gps, mask;

	if (rnp->qsmask || rcu_preempt_blocked_readers_cgp(rnp) ||
	    !rcu_seq_state(rnp->gp_seq)) {
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return;
	}
	if (!parent) {
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		rcu_gp_kthread_wake();	/* rcu_gp_root_done() is now true */
		return;
	}
	gps = rnp->gp_seq;
	mask = rnp->grpmask;
	raw_spin_unlock_rcu_node(rnp);
	raw_spin_lock_rcu_node(parent);
	rcu_report_qs_rnp(mask, parent, gps, flags);	/* releases parent's lock */
}

/*
 * Do what t's special word asks: t is current, outside any reader,
 * interrupts off (flags: the state to restore). Safe from task context
 * with nothing held, from the context switch and from the tick.
 */
static void rcu_preempt_deferred_qs_irqrestore(struct task_struct *t, unsigned long flags)
{
	struct rcu_node *rnp;
	struct list_head *np;
	bool was_blocking, was_exp;
	u8 blocked, need_qs;
#ifdef CONFIG_RCU_BOOST
	bool drop_boost;
#endif

	if (!READ_ONCE(t->rcu_read_unlock_special.s)) {
		local_irq_restore(flags);
		return;
	}
	blocked = t->rcu_read_unlock_special.b.blocked;
	need_qs = t->rcu_read_unlock_special.b.need_qs || t->rcu_read_unlock_special.b.exp_hint;
	WRITE_ONCE(t->rcu_read_unlock_special.s, 0);
	/*
	 * The GP (or an expedited GP's IPI) asked this CPU for a QS while t
	 * was in its reader: it has one now. rcu_qs() reports both.
	 */
	if (need_qs) {
		rcu_strict_note_gp();		/* STRICT_GRACE_PERIOD: report to the GP now running */
		rcu_qs();
		rcu_strict_unlock_delay();	/* STRICT_GRACE_PERIOD: rcutree.rcu_unlock_delay */
	}
	if (!blocked) {
		local_irq_restore(flags);
		return;
	}

	rnp = t->rcu_blocked_node;
	preempt_disable();	/* as raw_spin_lock_irqsave_rcu_node(): the unlock re-enables */
	raw_spin_lock_rcu_node(rnp);
	was_blocking = rcu_preempt_blocked_readers_cgp(rnp);
	was_exp = rnp->exp_tasks != NULL;
	np = rcu_next_node_entry(t, rnp);
	list_del_init(&t->rcu_node_entry);
	t->rcu_blocked_node = NULL;
	if (rnp->gp_tasks == &t->rcu_node_entry)
		WRITE_ONCE(rnp->gp_tasks, np);
	if (rnp->exp_tasks == &t->rcu_node_entry)
		WRITE_ONCE(rnp->exp_tasks, np);
#ifdef CONFIG_RCU_BOOST
	/* rcub proxy-locked boost_mtx for t under this lock: t hands it back. */
	drop_boost = rt_mutex_owner(&rnp->boost_mtx) == t;
	if (rnp->boost_tasks == &t->rcu_node_entry)
		WRITE_ONCE(rnp->boost_tasks, np);
#endif
	/*
	 * Report for the expedited GP only if this dequeue finished rnp (no
	 * task left and every CPU reported): then the GP cannot end without
	 * this report, so the report, made after the lock is dropped (a
	 * preemption point), still belongs to it. If a CPU of rnp still owes
	 * it, that CPU's report carries rnp up (rcu_report_exp_rnp()); ours,
	 * if made, could come after that GP ended and the next one set the
	 * parent's ->expmask but not yet rnp's, and would clear rnp's bit
	 * from the next one: it would then wait for none of rnp's readers.
	 */
	was_exp = was_exp && !rnp->exp_tasks && !rnp->expmask;
	if (was_blocking && !rcu_preempt_blocked_readers_cgp(rnp))
		rcu_report_unblock_qs_rnp(rnp, flags);	/* releases the lock */
	else
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	if (was_exp) {
		local_irq_save(flags);
		rcu_report_exp_unblocked(rnp);
		local_irq_restore(flags);
	}
#ifdef CONFIG_RCU_BOOST
	if (drop_boost)
		rt_mutex_proxy_unlock(&rnp->boost_mtx);	/* unboost; rcub gets the lock */
#endif
}

/*
 * The outermost rcu_read_unlock() found the special word set. Interrupt
 * handlers only get here in the window of the interrupted task's own
 * unlock (they nest on its count), and the task's check follows: leave it
 * to the task. With interrupts or preemption off the caller may hold
 * scheduler locks that reporting would take: defer to the context switch
 * this forces (or the tick).
 */
void rcu_read_unlock_special(struct task_struct *t)
{
	unsigned long flags;

	if (in_interrupt())
		return;
	local_irq_save(flags);
	if (irqs_disabled_flags(flags) || (preempt_count() & PREEMPT_MASK)) {
		set_tsk_need_resched(t);
		local_irq_restore(flags);
		return;
	}
	rcu_preempt_deferred_qs_irqrestore(t, flags);
}

/* Context switch (interrupts off, before the runqueue lock). */
void rcu_preempt_note_context_switch(bool preempt)
{
	struct task_struct *t = current;
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp;

	if (t->rcu_read_lock_nesting > 0) {
		if (t->rcu_read_unlock_special.b.blocked)
			return;		/* still queued from an earlier switch in this reader */
		rnp = rdp->mynode;
		raw_spin_lock_rcu_node(rnp);
		WRITE_ONCE(t->rcu_read_unlock_special.b.blocked, true);
		t->rcu_blocked_node = rnp;
		rcu_preempt_ctxt_queue(rnp, rdp, t);
		raw_spin_unlock_rcu_node(rnp);
	} else if (READ_ONCE(t->rcu_read_unlock_special.s)) {
		unsigned long flags;

		/* Left its reader while the slow path had to wait: do it now. */
		local_irq_save(flags);
		rcu_preempt_deferred_qs_irqrestore(t, flags);
	}
}

/*
 * The tick, interrupts off. A reader that runs long on a CPU the GP still
 * waits for is asked to report from its outermost unlock (Linux waits a
 * second before asking). A task out of its reader with deferred work gets
 * it done here when it holds no locks, else a reschedule will.
 */
void rcu_preempt_sched_clock_irq(int user)
{
	struct task_struct *t = current;
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	unsigned long flags;

	if (t->rcu_read_lock_nesting > 0) {
		if (rdp->core_needs_qs && READ_ONCE(rdp->cpu_no_qs) &&
		    !t->rcu_read_unlock_special.b.need_qs &&
		    time_after(jiffies, READ_ONCE(rcu_state.gp_start) + HZ))
			WRITE_ONCE(t->rcu_read_unlock_special.b.need_qs, true);
		return;
	}
	if (!READ_ONCE(t->rcu_read_unlock_special.s) || (t->flags & PF_IDLE))
		return;
	if ((preempt_count() & ~HARDIRQ_MASK) == 0 &&
	    (preempt_count() & HARDIRQ_MASK) == HARDIRQ_OFFSET) {
		local_irq_save(flags);
		rcu_preempt_deferred_qs_irqrestore(t, flags);
	} else {
		set_tsk_need_resched(t);
	}
}

/*
 * Stall report: the tasks on rnp that block the current GP, in Linux's
 * format ("\tTasks blocked on level-0 rcu_node (CPUs 0-3): P57 P58"),
 * oldest first. Returns how many there are.
 */
int rcu_print_task_stall(struct rcu_node *rnp)
{
	int pids[32], n = 0, total = 0;
	struct list_head *e;
	unsigned long flags;

	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	if (!rcu_preempt_blocked_readers_cgp(rnp)) {
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		return 0;
	}
	for (e = rnp->gp_tasks; e != &rnp->blkd_tasks; e = e->next, total++)
		if (n < (int)ARRAY_SIZE(pids))
			pids[n++] = list_entry(e, struct task_struct, rcu_node_entry)->pid;
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	pr_err("\tTasks blocked on level-%d rcu_node (CPUs %d-%d):", rnp->level, rnp->grplo,
	       rnp->grphi);
	while (n)
		pr_cont(" P%d", pids[--n]);
	if (total > (int)ARRAY_SIZE(pids))
		pr_cont(" (+%d more)", total - (int)ARRAY_SIZE(pids));
	pr_cont("\n");
	return total;
}
