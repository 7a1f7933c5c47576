/*
 * Tiny RCU (CONFIG_TINY_RCU): RCU for a uniprocessor kernel without
 * preemption, built instead of Tree RCU when SMP=n and PREEMPT_NONE=y.
 *
 * With one CPU and no preemption a reader (preemption disabled) can never
 * be switched out, so any moment at which this CPU is outside a reader
 * ends a grace period for every callback queued before it: a context
 * switch, idle entry, cond_resched(), or a tick that interrupted task
 * context holding no preempt count. No grace-period kthread, no rcu_node
 * tree, no per-CPU data: one callback list with a "done" boundary that
 * each quiescent state moves to the list's tail, and synchronize_rcu()
 * waits for nothing (its caller is itself in a quiescent state).
 *
 * Callbacks run in one small kthread, rcu_kthread, which Linux's Tiny RCU
 * also used (2.6.39 to 3.1) before going back to RCU_SOFTIRQ. This kernel
 * has no softirqs, and quiescent states are noted where callbacks must not
 * run: inside schedule() with interrupts off, or in the tick's hard
 * interrupt. The kthread gives them a task context, in queue order.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include <rcu/tasks.h>
#include "rcu.h"
#include <rcu/tasks.h>
#include "eqs_debug.h"
#include <rcu/rcupdate.h>
#include <kernel/might_sleep.h>
#include <rcu/torture.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <mm/slab.h>
#include <kernel/string.h>
#include <time/time.h>
#include <time/timer.h>
#include <kernel/bug.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <sched/wait.h>
#include <sched/completion.h>

struct rcu_ctrlblk {
	struct rcu_head *cblist;	/* every queued callback, oldest first */
	struct rcu_head **donetail;	/* ->next of the last one whose grace period has ended */
	struct rcu_head **curtail;	/* ->next of the last one */
	unsigned long gp_seq;		/* rcu.h encoding: one whole grace period per quiescent state */
	bool gp_requested;		/* a poller or synchronize_rcu() waits on the next one */
	long qlen;			/* queued and not yet invoked */
	struct task_struct *kthread;	/* rcu_kthread */
	struct wait_queue_head kthread_wq;
	/* "Is RCU watching?": idle is an extended quiescent state unless an interrupt is in it. */
	bool in_eqs;
	int irq_nesting;
	/* Statistics (rcu_show_stats()). */
	unsigned long n_gp;		/* grace periods something waited for */
	unsigned long n_exp_gp;		/* synchronize_rcu_expedited() calls */
	unsigned long n_cbs_queued, n_cbs_invoked, n_max_batch, n_kthread_wakeups;
};

static struct rcu_ctrlblk rcu_ctrlblk = {
	.donetail = &rcu_ctrlblk.cblist,
	.curtail = &rcu_ctrlblk.cblist,
	/* Start 300 grace periods short of wrapping, as Tree RCU does, to exercise wrap handling. */
	.gp_seq = (0UL - 300UL) << RCU_SEQ_CTR_SHIFT,
};

/*
 * Ask the task on this (the only) CPU to call schedule() soon: only a flag,
 * no lock, no IPI, so it is safe from any context. The idle loop polls it
 * and leaves its halt for schedule(), whose context switch is the
 * quiescent state wanted; a busy task reaches it at its next cond_resched().
 */
static void rcu_tiny_resched(void)
{
	this_cpu_write(__need_resched, 1);
}

static bool rcu_tiny_is_idle_task(void)
{
	return current == idle_task(0);
}

/* ===== quiescent states ===================================================== */

/*
 * This CPU is outside any reader: a grace period has passed for every
 * callback queued so far and for every polling cookie taken so far.
 * Interrupts may be off (schedule(), idle entry, the tick); the kthread's
 * wakeup takes only its own locks, none the callers hold.
 */
static void rcu_qs(void)
{
	struct rcu_ctrlblk *rcb = &rcu_ctrlblk;
	bool wake = false;
	unsigned long flags;

	local_irq_save(flags);
	/*
	 * One whole grace period, start and end at once. Not rcu_seq_start()/
	 * rcu_seq_end(): their smp_mb()s order against other CPUs, and there
	 * are none; interrupts off (a compiler barrier) keeps this CPU's order.
	 */
	WRITE_ONCE(rcb->gp_seq, rcu_seq_endval(&rcb->gp_seq));
	if (rcb->donetail != rcb->curtail || rcb->gp_requested) {
		rcb->n_gp++;
		rcb->gp_requested = false;
		wake = rcb->donetail != rcb->curtail;
		rcb->donetail = rcb->curtail;
	}
	if (wake && rcb->kthread && wake_up_process(rcb->kthread))
		rcb->n_kthread_wakeups++;
	local_irq_restore(flags);
}

/* Callbacks queued whose grace period has not ended yet? */
static bool rcu_tiny_gp_pending(void)
{
	return READ_ONCE(rcu_ctrlblk.donetail) != READ_ONCE(rcu_ctrlblk.curtail);
}

void rcu_note_context_switch(bool preempt)
{
	rcu_qs();
}

/* cond_resched() is a quiescent state whenever it is called legally. */
int rcu_cond_resched_hook(void)
{
	if ((rcu_tiny_gp_pending() || READ_ONCE(rcu_ctrlblk.gp_requested)) &&
	    preempt_count() == 0 && !irqs_disabled())
		rcu_qs();
	return 0;
}

/* Did the tick interrupt the idle loop itself (not a nested interrupt)? */
static bool rcu_tiny_rrupt_from_idle(void)
{
	return rcu_ctrlblk.in_eqs && rcu_ctrlblk.irq_nesting <= 1;
}

/*
 * The tick. It interrupted a quiescent state if it came from user mode or
 * the idle loop, or from task context holding no preempt count: every
 * reader holds one (with CONFIG_PREEMPT_COUNT, the default), and interrupts
 * were on. Without the count only cond_resched() and schedule() end it. Otherwise, with callbacks waiting, ask for a reschedule so the next
 * cond_resched() or schedule() ends the grace period.
 */
void rcu_sched_clock_irq(int user)
{
	if (user || rcu_tiny_rrupt_from_idle() ||
	    (IS_ENABLED(CONFIG_PREEMPT_COUNT) && preempt_count() == HARDIRQ_OFFSET))
		rcu_qs();
	else if (rcu_tiny_gp_pending())
		rcu_tiny_resched();
}

/*
 * Keep the tick while callbacks are queued. Rarely true at idle entry:
 * the context switch to the idle task has already ended their grace
 * period, and rcu_kthread ran them before the CPU went idle.
 */
int rcu_needs_cpu(unsigned long basej, unsigned long *nextj)
{
	*nextj = basej + NEXT_TIMER_MAX_DELTA;
	return READ_ONCE(rcu_ctrlblk.qlen) != 0;
}

/* ===== idle and interrupts =================================================== */

/*
 * Idle entry is a quiescent state. Should it end a grace period for
 * callbacks an interrupt queued since the switch to idle, the kthread's
 * wakeup sets need_resched after the idle loop's first check; the loop
 * checks again just before halting (kernel/sched/idle.c) and runs it.
 */
void rcu_idle_enter(void)
{
	if (!rcu_eqs_debug_idle_enter(!rcu_ctrlblk.in_eqs, rcu_ctrlblk.irq_nesting))
		rcu_ctrlblk.irq_nesting = 0;	/* RCU_EQS_DEBUG: an irq enter missed its exit */
	WRITE_ONCE(rcu_ctrlblk.in_eqs, true);
	rcu_qs();
}

void rcu_idle_exit(void)
{
	rcu_eqs_debug_idle_exit(!rcu_ctrlblk.in_eqs, rcu_ctrlblk.irq_nesting);	/* RCU_EQS_DEBUG */
	WRITE_ONCE(rcu_ctrlblk.in_eqs, false);
}

/*
 * User mode: a quiescent state on entry (the one CPU holds no reader when
 * it leaves the kernel), and the tick from user mode reports another
 * (rcu_sched_clock_irq(1)). Nothing to undo on exit but Tasks RCU's flag.
 * Interrupts off (context tracking turns them off).
 */
void rcu_user_enter(void)
{
	rcu_tasks_user_enter(current);
	rcu_qs();
}

void rcu_user_exit(void)
{
	rcu_tasks_user_exit(current);
}

void rcu_nmi_enter(void)
{
	WRITE_ONCE(rcu_ctrlblk.irq_nesting, rcu_ctrlblk.irq_nesting + 1);
}

void rcu_nmi_exit(void)
{
	if (!rcu_eqs_debug_irq_exit(rcu_ctrlblk.irq_nesting))
		return;		/* RCU_EQS_DEBUG: an exit without its enter, reported */
	WRITE_ONCE(rcu_ctrlblk.irq_nesting, rcu_ctrlblk.irq_nesting - 1);
}

void rcu_irq_enter(void) { rcu_nmi_enter(); }
void rcu_irq_exit(void) { rcu_nmi_exit(); }

bool rcu_is_watching(void)
{
	return !READ_ONCE(rcu_ctrlblk.in_eqs) || READ_ONCE(rcu_ctrlblk.irq_nesting) > 0;
}

/* ===== callbacks ================================================================ */

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_ctrlblk *rcb = &rcu_ctrlblk;
	unsigned long flags;

	if (debug_rcu_head_queue(head, func))
		return;		/* DEBUG_OBJECTS_RCU_HEAD: queued already; reported, left alone */
	head->func = func;
	head->next = NULL;
	local_irq_save(flags);
	*rcb->curtail = head;
	rcb->curtail = &head->next;
	rcb->qlen++;
	rcb->n_cbs_queued++;
	local_irq_restore(flags);
	/*
	 * Queued by an interrupt handler that interrupted the idle loop:
	 * without a reschedule the CPU would halt again with nothing to end
	 * this grace period. (As Linux's Tiny RCU does.)
	 */
	if (unlikely(rcu_tiny_is_idle_task()))
		rcu_tiny_resched();
}

static void rcu_tiny_invoke(struct rcu_head *rhp)
{
	unsigned long f = (unsigned long)rhp->func;

	debug_rcu_head_unqueue(rhp);	/* DEBUG_OBJECTS_RCU_HEAD: before it may be freed */
	if (__is_kfree_rcu_offset(f))
		kfree((char *)rhp - f);		/* kfree_rcu(): the offset travels in ->func */
	else
		rhp->func(rhp);
}

/* Detach the callbacks whose grace period has ended and invoke them, oldest first. */
static void rcu_tiny_do_batch(void)
{
	struct rcu_ctrlblk *rcb = &rcu_ctrlblk;
	struct rcu_head *list, *next;
	unsigned long flags, count = 0;

	local_irq_save(flags);
	if (rcb->donetail == &rcb->cblist) {
		local_irq_restore(flags);
		return;
	}
	list = rcb->cblist;
	rcb->cblist = *rcb->donetail;
	*rcb->donetail = NULL;
	if (rcb->curtail == rcb->donetail)
		rcb->curtail = &rcb->cblist;
	rcb->donetail = &rcb->cblist;
	local_irq_restore(flags);

	for (; list; list = next) {
		next = list->next;
		rcu_tiny_invoke(list);
		if (!(++count & 31))
			cond_resched();		/* a flood must not hog the CPU */
	}

	local_irq_save(flags);
	rcb->qlen -= count;
	rcb->n_cbs_invoked += count;
	if (count > rcb->n_max_batch)
		rcb->n_max_batch = count;
	local_irq_restore(flags);
}

static bool rcu_tiny_cbs_done(void)
{
	return READ_ONCE(rcu_ctrlblk.donetail) != &rcu_ctrlblk.cblist;
}

static int rcu_tiny_kthread(void *unused)
{
	for (;;) {
		wait_event_idle(rcu_ctrlblk.kthread_wq, rcu_tiny_cbs_done());
		rcu_tiny_do_batch();
		cond_resched();
	}
	return 0;
}

/* ===== waiting for grace periods ================================================= */

/*
 * A legal caller is outside any reader, and no other CPU can hold one:
 * the grace period is over on entry. Note it as one, so that callbacks
 * and polling cookies from before this call see it too.
 */
void synchronize_rcu(void)
{
	if (rcu_sync_in_reader())
		return;		/* PROVE_RCU reported it; the caller's reader outlives us */
	if (!IS_ENABLED(CONFIG_PROVE_RCU))
		WARN_ONCE(preempt_count() || irqs_disabled(),
			  "Illegal synchronize_rcu() in RCU read-side critical section or atomic context\n");
	might_sleep();
	WRITE_ONCE(rcu_ctrlblk.gp_requested, true);
	rcu_qs();
}

/* Nothing to expedite: counted apart only for the statistics and tests. */
void synchronize_rcu_expedited(void)
{
	WRITE_ONCE(rcu_ctrlblk.n_exp_gp, rcu_ctrlblk.n_exp_gp + 1);
	synchronize_rcu();
}

unsigned long rcu_exp_gp_completed(void)
{
	return READ_ONCE(rcu_ctrlblk.n_exp_gp);
}

/* No IPIs, no deferred reports, no waiting driver: nothing to break down. */
void rcu_exp_latency(struct rcu_exp_latency *st)
{
	memset(st, 0, sizeof(*st));
}

void rcu_exp_latency_reset(void) { }

/*
 * One list, invoked in order by one kthread: once a callback queued now
 * has run, every callback queued before it has run too.
 */
void rcu_barrier(void)
{
	wait_rcu_gp(call_rcu);
}

/* Polling cookies: the gp_seq value one whole grace period from now (as Tree RCU's). */
unsigned long get_state_synchronize_rcu(void)
{
	/*
	 * The caller's prior accesses come before the snapshot. One CPU: only
	 * the compiler could reorder them, and rcu_qs() runs on this CPU in
	 * program order (or in an interrupt, which sees it). Pairs with nothing.
	 */
	barrier();
	return rcu_seq_snap(&rcu_ctrlblk.gp_seq);
}

unsigned long start_poll_synchronize_rcu(void)
{
	unsigned long cookie = get_state_synchronize_rcu();

	WRITE_ONCE(rcu_ctrlblk.gp_requested, true);
	if (unlikely(rcu_tiny_is_idle_task()))
		rcu_tiny_resched();	/* the idle loop must schedule for it to pass */
	return cookie;
}

bool poll_state_synchronize_rcu(unsigned long oldstate)
{
	bool done = oldstate == RCU_GET_STATE_COMPLETED ||
		    rcu_seq_done_exact(&rcu_ctrlblk.gp_seq, oldstate);

	barrier();	/* the caller's later accesses come after the check (one CPU, as above) */
	return done;
}

/*
 * Nothing to expedite (see synchronize_rcu_expedited()): the grace period
 * the ordinary cookie needs is the next quiescent state, which
 * start_poll_synchronize_rcu() already asks for. Any context, as that.
 */
unsigned long start_poll_synchronize_rcu_expedited(void)
{
	return start_poll_synchronize_rcu();
}

/*
 * Full-state cookies are one word here (<rcu/rcutiny.h>): every grace
 * period is both kinds, so the ordinary cookie says all there is.
 */
void get_completed_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = RCU_GET_STATE_COMPLETED;
}

bool same_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp1,
				     struct rcu_gp_oldstate *rgosp2)
{
	return rgosp1->rgos_norm == rgosp2->rgos_norm;
}

void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = get_state_synchronize_rcu();
}

void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = start_poll_synchronize_rcu();
}

void start_poll_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = start_poll_synchronize_rcu_expedited();
}

bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	return poll_state_synchronize_rcu(rgosp->rgos_norm);
}

unsigned long rcu_gp_completed(void)
{
	return READ_ONCE(rcu_ctrlblk.n_gp);
}

unsigned long rcu_get_gp_seq(void)
{
	return READ_ONCE(rcu_ctrlblk.gp_seq);
}

void rcutorture_get_gp_data(int *flags, unsigned long *gp_seq)
{
	*flags = 0;
	*gp_seq = rcu_get_gp_seq();
}

/* No scan to force: ask for the next quiescent state now, as the tick would. */
void rcu_force_quiescent_state(void)
{
	if (rcu_tiny_gp_pending())
		rcu_tiny_resched();
}

/*
 * Tiny RCU has no stall detector. rcutorture's forward-progress test sizes
 * its runs from the stall timeout: give it the Kconfig default's 21 s, as
 * Linux's Tiny RCU does.
 */
unsigned long rcu_jiffies_till_stall_check(void)
{
	return 21UL * HZ;
}

/* ===== statistics and boot ========================================================= */

void rcu_show_stats(void)
{
	struct rcu_ctrlblk *rcb = &rcu_ctrlblk;

	pr_info("rcu_tiny: %lu grace periods completed (%lu expedited), gp_seq %#lx\n",
		rcb->n_gp, rcb->n_exp_gp, rcb->gp_seq);
	pr_info("rcu_tiny: cbs queued %lu invoked %lu pending %ld max batch %lu, rcu_kthread wakeups %lu\n",
		rcb->n_cbs_queued, rcb->n_cbs_invoked, rcb->qlen, rcb->n_max_batch,
		rcb->n_kthread_wakeups);
}

void rcu_init(void)
{
	pr_info("Tiny RCU implementation: one CPU, no preemption, callbacks in rcu_kthread.\n");
	init_waitqueue_head(&rcu_ctrlblk.kthread_wq);
	/*
	 * Tiny never expedites (every grace period is already instant), but
	 * rcu_end_inkernel_boot() drops this reference as under Tree RCU: keep
	 * rcu_gp_is_expedited() meaning the same in both.
	 */
	rcu_expedite_gp();
}

#ifdef CONFIG_PROVE_RCU
/* Linux's rcu_scheduler_active values for the lockdep-RCU splat: 0 inactive, 2 running. */
int rcu_lockdep_scheduler_state(void)
{
	return READ_ONCE(rcu_ctrlblk.kthread) ? 2 : 0;
}
#endif

/* From init (pid 1). Callbacks queued during early boot run from here on. */
void rcu_init_kthreads(void)
{
	struct task_struct *t = kthread_create(rcu_tiny_kthread, NULL, "rcu_kthread");

	BUG_ON(!t);
	WRITE_ONCE(rcu_ctrlblk.kthread, t);
	wake_up_process(t);
}
