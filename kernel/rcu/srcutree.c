/*
 * Tree SRCU's grace-period machine: reader-counter scans, the index flip,
 * grace-period start and end, and callback invocation, run step by step
 * in the srcu_gp kthread (srcu_work.c) by process_srcu(), or, for a
 * synchronize_srcu() caller, by the waiting task itself (srcu_wait_gp(),
 * srcu_drive_gp()). The API on top is in srcutree_api.c.
 *
 * How a grace period knows the readers are gone. Readers count themselves
 * in one of two banks (srcu_idx & 1): lock_count[idx] on entry,
 * unlock_count[idx] on exit, each on the CPU they run on at that moment.
 * A bank is empty when its unlock total equals its lock total. The scan
 * sums unlocks first, then (after a full barrier) locks: a reader whose
 * unlock was counted had its lock counted too, so the lock sum can never
 * lag behind and report "empty" while a reader it saw is inside; a reader
 * whose lock the scan missed entered after the scan's barrier and sees
 * every update made before the grace period started.
 *
 * Why two scans (scan, flip, scan). A reader reads srcu_idx, then counts
 * itself: if a flip lands in between, the reader counts itself in the bank
 * the grace period has just retired, possibly after the second scan
 * found that bank empty. That reader is harmless to the grace period it
 * slipped past (it started after the flip, so it sees the updates), but it
 * may last long, and the next grace period makes its bank the active one
 * again. So each grace period first waits for the inactive bank to drain
 * (scan 1: such stragglers of the previous grace period), then flips, then
 * waits for the bank it retired (scan 2). Preemption is off between
 * reading srcu_idx and counting (<rcu/srcutree.h>), so each CPU holds at
 * most one straggler per flip.
 */
#define pr_fmt(fmt) "srcu: " fmt

#include "srcutree.h"
#include "rcu_trace.h"
#include <rcu/objdebug.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/cpumask.h>
#include <kernel/irqflags.h>
#include <time/time.h>

/* Non-expedited: jiffies between scans that found readers. */
#define SRCU_INTERVAL			1
/* Expedited: microseconds between quick rescans, and how many quick rescans per scan. */
#define SRCU_RETRY_CHECK_DELAY		5
#define SRCU_EXP_RETRIES		4
/*
 * Expedited scans requeued without sleeping, per phase, before the
 * machine falls back to SRCU_INTERVAL: a reader that sleeps for long
 * must not turn srcu_gp into a busy loop.
 */
#define SRCU_MAX_NODELAY_PHASE		10

void srcu_init_data(struct srcu_struct *ssp)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct srcu_data *sdp = &ssp->sda[cpu];

		spin_lock_init(&sdp->lock);
		rcu_segcblist_init(&sdp->srcu_cblist);
		sdp->srcu_gp_seq_needed = ssp->srcu_gp_seq;
		sdp->srcu_gp_seq_needed_exp = ssp->srcu_gp_seq;
		sdp->cpu = cpu;
		sdp->ssp = ssp;
	}
}

/* --- the scans ------------------------------------------------------------------------ */

static unsigned long srcu_sum_unlocks(struct srcu_struct *ssp, int idx)
{
	unsigned long sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		sum += atomic_long_read(&ssp->sda[cpu].srcu_unlock_count[idx]);
	return sum;
}

static unsigned long srcu_sum_locks(struct srcu_struct *ssp, int idx)
{
	unsigned long sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		sum += atomic_long_read(&ssp->sda[cpu].srcu_lock_count[idx]);
	return sum;
}

long srcu_readers_in_bank(struct srcu_struct *ssp, int idx)
{
	unsigned long unlocks = srcu_sum_unlocks(ssp, idx);

	smp_rmb();	/* a counted unlock's lock too: pairs with __srcu_read_unlock()'s barrier */
	return (long)(srcu_sum_locks(ssp, idx) - unlocks);
}

/*
 * True if no reader is inside bank idx. Counters wrap: only equality of
 * the two sums matters, which holds as long as fewer than ULONG_MAX
 * readers are inside at once.
 */
static bool srcu_readers_active_idx_check(struct srcu_struct *ssp, int idx)
{
	unsigned long unlocks = srcu_sum_unlocks(ssp, idx);

	/*
	 * Unlocks before locks: a reader whose unlock we counted is seen
	 * with its lock. Pairs with the smp_mb__before_atomic() of
	 * <rcu/srcutree.h>:__srcu_read_unlock() (the critical section and
	 * the lock count precede that unlock count) and, for the updates,
	 * with the smp_mb__after_atomic() of __srcu_read_lock(): a reader
	 * whose lock count this sum misses runs its critical section after
	 * this barrier and sees everything before it.
	 */
	smp_mb();
	return srcu_sum_locks(ssp, idx) == unlocks;
}

/*
 * How long srcu_gp waits before the next step: 0 while someone asked for
 * an expedited grace period that has not ended (up to
 * SRCU_MAX_NODELAY_PHASE immediate requeues per phase), else a jiffy.
 */
static unsigned long srcu_get_delay(struct srcu_struct *ssp)
{
	if (ULONG_CMP_LT(READ_ONCE(ssp->srcu_gp_seq), READ_ONCE(ssp->srcu_gp_seq_needed_exp)) &&
	    READ_ONCE(ssp->srcu_n_exp_nodelay) < SRCU_MAX_NODELAY_PHASE)
		return 0;
	return SRCU_INTERVAL;
}

/* Scan bank idx; when expedited, rescan a few times after short busy-waits. */
static bool srcu_try_check_zero(struct srcu_struct *ssp, int idx)
{
	int tries = srcu_get_delay(ssp) ? 1 : 1 + SRCU_EXP_RETRIES;

	for (;;) {
		if (srcu_readers_active_idx_check(ssp, idx))
			return true;
		if (--tries <= 0)
			return false;
		udelay(SRCU_RETRY_CHECK_DELAY);
	}
}

/*
 * Retire the active bank. The barrier before orders scan 1's counter
 * reads before the flip: a reader whose lock scan 1 counted read the old
 * srcu_idx. The barrier after orders the flip before scan 2's reads: a
 * reader that still got the old index and counts itself after scan 2
 * looked is a straggler (file comment), and its critical section comes
 * after this barrier. Both pair with the smp_mb__after_atomic() of
 * <rcu/srcutree.h>:__srcu_read_lock().
 */
static void srcu_flip(struct srcu_struct *ssp)
{
	smp_mb();	/* scan 1 before the flip (pairs with __srcu_read_lock()) */
	WRITE_ONCE(ssp->srcu_idx, ssp->srcu_idx + 1);
	smp_mb();	/* the flip before scan 2 (pairs with __srcu_read_lock()) */
}

/* --- grace-period start and end ------------------------------------------------------------ */

/*
 * Start the grace period that srcu_gp_seq_needed asks for. Caller holds
 * ssp->lock, the domain is idle. rcu_seq_start()'s barrier orders the
 * requesters' updates (read under the lock) before the scans.
 */
static void srcu_gp_start(struct srcu_struct *ssp)
{
	lockdep_assert_held(&ssp->lock);
	WARN_ON_ONCE(ULONG_CMP_GE(ssp->srcu_gp_seq, ssp->srcu_gp_seq_needed));
	ssp->srcu_gp_exp = ULONG_CMP_LT(ssp->srcu_gp_seq, ssp->srcu_gp_seq_needed_exp);
	WRITE_ONCE(ssp->srcu_n_exp_nodelay, 0);
	rcu_seq_start(&ssp->srcu_gp_seq);
	WARN_ON_ONCE(rcu_seq_state(ssp->srcu_gp_seq) != SRCU_STATE_SCAN1);
	trace_srcu_grace_period(ssp->name, ssp->srcu_gp_seq, ssp->srcu_gp_exp ? "start-exp" : "start",
				0);
}

/*
 * Any context: record that grace period s is needed (expedited unless
 * do_norm) and start it if the domain is idle. A request arriving while
 * a grace period sleeps between scans pulls the next scan forward.
 * quiet: the caller will run the machine itself (srcu_wait_gp()), so
 * srcu_gp is not woken for it.
 */
void srcu_funnel_gp_start(struct srcu_struct *ssp, unsigned long s, bool do_norm, bool quiet)
{
	void (*queue)(struct srcu_work *w, unsigned long delay) =
		quiet ? srcu_queue_work_quiet : srcu_queue_work;
	bool kick = false;
	unsigned long flags;

	spin_lock_irqsave(&ssp->lock, flags);
	trace_srcu_grace_period(ssp->name, s, do_norm ? "req" : "req-exp", 0);
	if (ULONG_CMP_LT(ssp->srcu_gp_seq_needed, s))
		WRITE_ONCE(ssp->srcu_gp_seq_needed, s);
	if (!do_norm && ULONG_CMP_LT(ssp->srcu_gp_seq_needed_exp, s)) {
		WRITE_ONCE(ssp->srcu_gp_seq_needed_exp, s);
		if (rcu_seq_state(ssp->srcu_gp_seq) != SRCU_STATE_IDLE)
			ssp->srcu_gp_exp = true;
		kick = true;
	}
	if (!rcu_seq_done(&ssp->srcu_gp_seq, s) &&
	    rcu_seq_state(ssp->srcu_gp_seq) == SRCU_STATE_IDLE) {
		srcu_gp_start(ssp);
		queue(&ssp->work, srcu_get_delay(ssp));
	} else if (kick) {
		queue(&ssp->work, 0);
	}
	spin_unlock_irqrestore(&ssp->lock, flags);
}

/*
 * Invoke every callback whose grace period has ended, CPU by CPU, in
 * queueing order (only srcu_gp invokes, one CPU's batch at a time). On a
 * counter_wrap_check boundary, also pull each CPU's request marks up to
 * date: a mark left 2^(BITS_PER_LONG-1) grace periods behind would
 * compare as being ahead and suppress a needed request. Without invoke
 * (a task driving the machine, srcu_drive_gp()), only advance the lists
 * and say whether some callback is ready, for srcu_gp to invoke.
 */
static bool srcu_invoke_callbacks(struct srcu_struct *ssp, bool wrap_check, bool invoke)
{
	unsigned long gpseq = rcu_seq_current(&ssp->srcu_gp_seq);
	bool ready = false;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct srcu_data *sdp = &ssp->sda[cpu];
		struct rcu_cblist cbs;
		struct rcu_head *rhp;
		unsigned long flags;
		long n = 0;

		spin_lock_irqsave(&sdp->lock, flags);
		if (wrap_check) {
			if (ULONG_CMP_GE(gpseq, sdp->srcu_gp_seq_needed + 100))
				sdp->srcu_gp_seq_needed = gpseq;
			if (ULONG_CMP_GE(gpseq, sdp->srcu_gp_seq_needed_exp + 100))
				sdp->srcu_gp_seq_needed_exp = gpseq;
		}
		rcu_segcblist_advance(&sdp->srcu_cblist, gpseq);
		if (!rcu_segcblist_ready_cbs(&sdp->srcu_cblist) || !invoke) {
			ready = ready || rcu_segcblist_ready_cbs(&sdp->srcu_cblist);
			spin_unlock_irqrestore(&sdp->lock, flags);
			continue;
		}
		rcu_cblist_init(&cbs);
		rcu_segcblist_extract_done_cbs(&sdp->srcu_cblist, &cbs);
		spin_unlock_irqrestore(&sdp->lock, flags);
		trace_srcu_grace_period(ssp->name, gpseq, "invoke", cbs.len);
		while ((rhp = rcu_cblist_dequeue(&cbs))) {
			debug_rcu_head_unqueue(rhp);
			rhp->func(rhp);
			n++;
		}
		spin_lock_irqsave(&sdp->lock, flags);
		rcu_segcblist_add_len(&sdp->srcu_cblist, -n);
		spin_unlock_irqrestore(&sdp->lock, flags);
	}
	return ready;
}

/*
 * Both scans are done: end the grace period, run its callbacks (or, from
 * srcu_drive_gp(), leave them to srcu_gp), wake the synchronous waiters,
 * and start the next one if it was asked for meanwhile. rcu_seq_end()'s
 * barrier orders the scans before the new number, for whoever polls it.
 */
static void srcu_gp_end(struct srcu_struct *ssp, bool invoke)
{
	unsigned long gpseq, flags;
	bool more = false;

	spin_lock_irqsave(&ssp->lock, flags);
	WARN_ON_ONCE(rcu_seq_state(ssp->srcu_gp_seq) != SRCU_STATE_SCAN2);
	if (ssp->srcu_gp_exp)
		WRITE_ONCE(ssp->srcu_n_exp_gps, ssp->srcu_n_exp_gps + 1);
	else
		WRITE_ONCE(ssp->srcu_n_gps, ssp->srcu_n_gps + 1);
	WRITE_ONCE(ssp->srcu_last_gp_end, local_clock());
	rcu_seq_end(&ssp->srcu_gp_seq);
	gpseq = rcu_seq_current(&ssp->srcu_gp_seq);
	trace_srcu_grace_period(ssp->name, gpseq, "end", 0);
	if (ULONG_CMP_LT(ssp->srcu_gp_seq_needed_exp, gpseq))
		WRITE_ONCE(ssp->srcu_gp_seq_needed_exp, gpseq);
	spin_unlock_irqrestore(&ssp->lock, flags);
	/*
	 * Always take the queue's lock (no lockless emptiness check): a
	 * waiter queued under it before us is woken; one queued after us
	 * reads the new srcu_gp_seq after that lock, as it checks.
	 */
	wake_up_all(&ssp->srcu_gp_wq);

	if (srcu_invoke_callbacks(ssp, !(gpseq & READ_ONCE(srcu_counter_wrap_check)), invoke))
		srcu_queue_work(&ssp->work, 0);	/* ready callbacks, for srcu_gp to invoke */

	spin_lock_irqsave(&ssp->lock, flags);
	if (rcu_seq_state(ssp->srcu_gp_seq) == SRCU_STATE_IDLE &&
	    ULONG_CMP_LT(ssp->srcu_gp_seq, ssp->srcu_gp_seq_needed)) {
		srcu_gp_start(ssp);
		more = true;
	}
	spin_unlock_irqrestore(&ssp->lock, flags);
	if (more)
		srcu_queue_work(&ssp->work, srcu_get_delay(ssp));
}

/* Readers found: look again later (immediately while expedited, for a while). */
static void srcu_reschedule(struct srcu_struct *ssp)
{
	unsigned long delay = srcu_get_delay(ssp);

	if (!delay)
		WRITE_ONCE(ssp->srcu_n_exp_nodelay, ssp->srcu_n_exp_nodelay + 1);
	trace_srcu_grace_period(ssp->name, READ_ONCE(ssp->srcu_gp_seq), "wait", delay);
	srcu_queue_work(&ssp->work, delay);
}

/*
 * One turn of the machine: as far as the readers allow. Whoever runs it
 * holds ssp->work (srcu_gp, or a task that claimed it), so the phases
 * need no lock of their own; ssp->lock orders the phase changes against
 * requesters reading srcu_gp_seq. Callbacks are invoked only in srcu_gp
 * (invoke): a task may hold locks, and srcu_barrier() needs each CPU's
 * callbacks invoked in order, by one invoker.
 */
static void srcu_advance(struct srcu_struct *ssp, bool invoke)
{
	unsigned long flags;
	int idx;

	trace_srcu_grace_period(ssp->name, READ_ONCE(ssp->srcu_gp_seq), invoke ? "run" : "drive", 0);
	if (rcu_seq_state(READ_ONCE(ssp->srcu_gp_seq)) == SRCU_STATE_IDLE) {
		/* No grace period: srcu_barrier() may have left ready callbacks. */
		if (srcu_invoke_callbacks(ssp, false, invoke))
			srcu_queue_work(&ssp->work, 0);
		return;
	}
	if (rcu_seq_state(READ_ONCE(ssp->srcu_gp_seq)) == SRCU_STATE_SCAN1) {
		idx = 1 & (READ_ONCE(ssp->srcu_idx) + 1);	/* the inactive bank */
		if (!srcu_try_check_zero(ssp, idx)) {
			srcu_reschedule(ssp);
			return;
		}
		srcu_flip(ssp);
		spin_lock_irqsave(&ssp->lock, flags);
		WRITE_ONCE(ssp->srcu_gp_seq,
			   (ssp->srcu_gp_seq & ~RCU_SEQ_STATE_MASK) | SRCU_STATE_SCAN2);
		WRITE_ONCE(ssp->srcu_n_exp_nodelay, 0);
		spin_unlock_irqrestore(&ssp->lock, flags);
		trace_srcu_grace_period(ssp->name, ssp->srcu_gp_seq, "scan1", 0);
	}
	idx = 1 & (READ_ONCE(ssp->srcu_idx) + 1);	/* the bank the flip retired */
	if (!srcu_try_check_zero(ssp, idx)) {
		srcu_reschedule(ssp);
		return;
	}
	srcu_gp_end(ssp, invoke);
}

void process_srcu(struct srcu_work *work)
{
	srcu_advance(container_of(work, struct srcu_struct, work), true);
}

/*
 * A synchronous wait's shortcut, from task context: the caller holds
 * ssp->work (srcu_work_hold()) and has asked for grace period s; run the
 * machine's pending turns here rather than have srcu_gp run them, which is
 * usually on another CPU (Linux runs SRCU's work on the requester's CPU,
 * from a per-CPU workqueue; our one kthread is wherever it last ran), and
 * then be woken by it: two cross-CPU wake-ups per grace period, most of
 * its time when no reader is inside (Documentation/RCU/performance.md,
 * 2026-12-07 10:40). Two turns at most: one may end a grace period that
 * was running, the next ours. A scan that finds readers requeues the
 * work, which srcu_gp takes over once the caller lets go.
 */
void srcu_drive_gp(struct srcu_struct *ssp, unsigned long s)
{
	for (int turn = 0; turn < 2 && !rcu_seq_done(&ssp->srcu_gp_seq, s); turn++) {
		if (!srcu_work_take(&ssp->work))
			break;
		srcu_advance(ssp, false);
	}
}

/*
 * Wait for grace period s, asked for with quiet set: first SRCU_INTERVAL
 * (a normal grace period's first turn waits that long, to batch requests;
 * none for an expedited one), then, every SRCU_INTERVAL until s ends, run
 * the due turns here if srcu_gp is not running them. The timer is this
 * CPU's, and with no reader inside, no other CPU is woken.
 */
void srcu_wait_gp(struct srcu_struct *ssp, unsigned long s, bool do_norm)
{
	long delay = do_norm ? SRCU_INTERVAL : 0;

	for (;;) {
		if (delay)
			wait_event_timeout(ssp->srcu_gp_wq, rcu_seq_done(&ssp->srcu_gp_seq, s), delay);
		if (rcu_seq_done(&ssp->srcu_gp_seq, s))
			return;
		if (srcu_work_hold(&ssp->work)) {
			srcu_drive_gp(ssp, s);
			srcu_work_release(&ssp->work);
		}
		delay = SRCU_INTERVAL;
	}
}
