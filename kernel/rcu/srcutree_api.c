/*
 * Tree SRCU's update-side API: domain set-up and tear-down, call_srcu(),
 * synchronize_srcu() (with auto-expediting), srcu_barrier(), the polling
 * API, the srcutree.* boot parameters and the statistics line. The
 * grace-period machine they feed is in srcutree.c.
 */
#define pr_fmt(fmt) "srcu: " fmt
#define KPARAM_SUBSYS "srcu"

#include "srcutree.h"
#include "rcu_trace.h"
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/errno.h>
#include <kernel/cpumask.h>
#include <kernel/irqflags.h>
#include <mm/slab.h>
#include <time/time.h>
#include <rcu/rcupdate.h>

/* Early boot, before srcu_gp runs: microseconds between turns of a self-driven grace period. */
#define SRCU_BOOT_POLL_US	10

/*
 * srcutree.exp_holdoff: a synchronize_srcu() on a domain that looks idle
 * (no callbacks queued on this CPU, no grace period running or asked
 * for) and whose last grace period ended more than this many nanoseconds
 * ago runs an expedited grace period. 0 disables it. Linux's default:
 * 25 microseconds. Any unsigned long is valid.
 */
#define DEFAULT_SRCU_EXP_HOLDOFF	(25 * 1000)
unsigned long srcu_exp_holdoff = DEFAULT_SRCU_EXP_HOLDOFF;
KPARAM("srcutree.exp_holdoff", srcu_exp_holdoff, KPARAM_ULONG, 1, 0,
       "ns after a grace period beyond which an idle SRCU domain's synchronize_srcu() is expedited");

/*
 * srcutree.counter_wrap_check: each grace period whose number has all of
 * these bits clear refreshes the per-CPU request marks (srcutree.c:
 * srcu_invoke_callbacks()). A mask of n low bits means about every
 * 2^(n-2) grace periods (the two state bits are always clear then).
 * Linux's default, ULONG_MAX >> 2, checks about once per 2^60 grace
 * periods, which is still before a mark can look ahead of the counter.
 */
unsigned long srcu_counter_wrap_check = ULONG_MAX >> 2;
KPARAM("srcutree.counter_wrap_check", srcu_counter_wrap_check, KPARAM_ULONG, 1, 0,
       "mask of grace-period numbers at which per-CPU SRCU request marks are refreshed");

/* --- domains ------------------------------------------------------------------------------ */

/*
 * A DEFINE_SRCU() domain gets its update side on first use; the acquire
 * pairs with the release below, so a caller that sees it set sees the
 * initialised per-CPU data.
 */
static void check_init_srcu_struct(struct srcu_struct *ssp)
{
	unsigned long flags;

	if (likely(smp_load_acquire(&ssp->srcu_initialized)))
		return;
	spin_lock_irqsave(&ssp->lock, flags);
	if (!ssp->srcu_initialized) {
		srcu_init_data(ssp);
		smp_store_release(&ssp->srcu_initialized, true);	/* pairs with the acquire above */
	}
	spin_unlock_irqrestore(&ssp->lock, flags);
}

int init_srcu_struct(struct srcu_struct *ssp)
{
	ssp->sda = kzalloc(nr_cpu_ids * sizeof(*ssp->sda), GFP_KERNEL);
	if (!ssp->sda)
		return -ENOMEM;
	ssp->srcu_idx = 0;
	spin_lock_init(&ssp->lock);
	ssp->srcu_gp_seq = SRCU_GP_SEQ_INITIAL_VAL;
	ssp->srcu_gp_seq_needed = SRCU_GP_SEQ_INITIAL_VAL;
	ssp->srcu_gp_seq_needed_exp = SRCU_GP_SEQ_INITIAL_VAL;
	ssp->srcu_last_gp_end = local_clock();
	ssp->srcu_n_exp_nodelay = 0;
	ssp->srcu_gp_exp = false;
	ssp->sda_is_static = false;
	ssp->srcu_n_gps = 0;
	ssp->srcu_n_exp_gps = 0;
	mutex_init(&ssp->srcu_barrier_mutex);
	ssp->srcu_barrier_seq = 0;
	atomic_set(&ssp->srcu_barrier_cpu_cnt, 0);
	init_completion(&ssp->srcu_barrier_completion);
	srcu_work_init(&ssp->work, process_srcu);
	init_waitqueue_head(&ssp->srcu_gp_wq);
	srcu_lockdep_init(ssp);
	ssp->name = "srcu_struct";
	srcu_init_data(ssp);
	smp_store_release(&ssp->srcu_initialized, true);
	return 0;
}

/*
 * What still uses the domain, or NULL. Callbacks only with all set:
 * srcu_gp counts a batch as queued until it has invoked all of it, so
 * srcu_work_cleanup() asks again once srcu_gp has let go.
 */
static const char *srcu_busy_reason(void *dom, bool all)
{
	struct srcu_struct *ssp = dom;

	if (srcu_readers_in_bank(ssp, 0) || srcu_readers_in_bank(ssp, 1))
		return "readers";
	if (rcu_seq_state(READ_ONCE(ssp->srcu_gp_seq)) != SRCU_STATE_IDLE ||
	    ULONG_CMP_LT(READ_ONCE(ssp->srcu_gp_seq), READ_ONCE(ssp->srcu_gp_seq_needed)))
		return "grace period in flight";
	for (unsigned int cpu = 0; all && cpu < nr_cpu_ids; cpu++)
		if (rcu_segcblist_n_cbs(&ssp->sda[cpu].srcu_cblist))
			return "callbacks";
	return NULL;
}

/*
 * Tear down ssp. The caller must have stopped all use; if readers,
 * callbacks or a grace period remain, WARN, print the domain's state and
 * leave it as it is (leaked rather than freed under a user, and still
 * working), as Linux does.
 */
void cleanup_srcu_struct(struct srcu_struct *ssp)
{
	if (!smp_load_acquire(&ssp->srcu_initialized) || !ssp->sda)
		return;	/* a static domain never used, or cleaned up already */
	if (!srcu_work_cleanup(&ssp->work, srcu_busy_reason, ssp, ssp->name)) {
		srcu_torture_stats_print(ssp, "srcu: ", "cleanup:");
		return;
	}
	if (!ssp->sda_is_static) {
		kfree(ssp->sda);
		ssp->sda = NULL;
	}
	smp_store_release(&ssp->srcu_initialized, false);
}

/* --- asking for grace periods ----------------------------------------------------------------- */

/*
 * Queue rhp (if any) on this CPU and make sure a grace period that
 * covers it (or, without rhp, one starting after now) will run. Returns
 * that grace period's number, a polling cookie. Any context but NMI.
 * quiet: the caller waits for it and runs the machine itself
 * (synchronize_srcu_here()), so srcu_gp is not woken for it.
 */
static unsigned long srcu_gp_start_if_needed(struct srcu_struct *ssp, struct rcu_head *rhp,
					     bool do_norm, bool quiet)
{
	bool needgp = false, needexp = false;
	struct srcu_data *sdp;
	unsigned long flags, s;

	check_init_srcu_struct(ssp);
	local_irq_save(flags);
	sdp = &ssp->sda[smp_processor_id()];
	spin_lock(&sdp->lock);
	if (rhp)
		rcu_segcblist_enqueue(&sdp->srcu_cblist, rhp);
	rcu_segcblist_advance(&sdp->srcu_cblist, rcu_seq_current(&ssp->srcu_gp_seq));
	/*
	 * The caller's earlier accesses (the update the callback is to
	 * follow) before the read of srcu_gp_seq: the snapshot names a
	 * grace period that starts after this read, so its scans come after
	 * those accesses. Pairs with rcu_seq_start()'s barrier in
	 * srcutree.c:srcu_gp_start().
	 */
	smp_mb();
	s = rcu_seq_snap(&ssp->srcu_gp_seq);
	if (rhp)
		rcu_segcblist_accelerate(&sdp->srcu_cblist, s);
	if (ULONG_CMP_LT(sdp->srcu_gp_seq_needed, s)) {
		sdp->srcu_gp_seq_needed = s;
		needgp = true;
	}
	if (!do_norm && ULONG_CMP_LT(sdp->srcu_gp_seq_needed_exp, s)) {
		sdp->srcu_gp_seq_needed_exp = s;
		needexp = true;
	}
	spin_unlock(&sdp->lock);
	local_irq_restore(flags);
	if (needgp || needexp)
		srcu_funnel_gp_start(ssp, s, do_norm, quiet);
	return s;
}

void call_srcu(struct srcu_struct *ssp, struct rcu_head *rhp, rcu_callback_t func)
{
	if (debug_rcu_head_queue(rhp, func))
		return;		/* DEBUG_OBJECTS_RCU_HEAD: queued already; reported, left alone */
	rhp->func = func;
	srcu_gp_start_if_needed(ssp, rhp, true, false);
}

struct srcu_sync {
	struct rcu_head head;
	struct completion done;
};

static void srcu_sync_cb(struct rcu_head *rhp)
{
	complete(&container_of(rhp, struct srcu_sync, head)->done);
}

/*
 * Sleep until c completes. Before srcu_gp runs (early boot), drive ssp's
 * machine from here: at that point nothing else would.
 */
static void srcu_wait_for(struct srcu_struct *ssp, struct completion *c)
{
	while (!srcu_work_ready() && !completion_done(c)) {
		srcu_run_work_now(&ssp->work);
		udelay(SRCU_BOOT_POLL_US);
	}
	wait_for_completion(c);
}

/*
 * A synchronous wait once srcu_gp runs: ask for the grace period as the
 * polling API does (no callback) but without waking srcu_gp, and help run
 * the machine from here (srcutree.c: srcu_wait_gp(), srcu_drive_gp(),
 * why). srcu_gp_start_if_needed()'s barrier orders the caller's earlier
 * accesses before the snapshot; the one below, its later accesses after
 * the grace period.
 */
static void synchronize_srcu_here(struct srcu_struct *ssp, bool do_norm)
{
	unsigned long s = srcu_gp_start_if_needed(ssp, NULL, do_norm, true);

	srcu_wait_gp(ssp, s, do_norm);
	trace_srcu_grace_period(ssp->name, READ_ONCE(ssp->srcu_gp_seq), "done", 0);
	/*
	 * The caller's later accesses after the grace period. Pairs with
	 * rcu_seq_end()'s barrier in srcutree.c:srcu_gp_end(), whose new
	 * srcu_gp_seq srcu_wait_gp() read.
	 */
	smp_mb();
}

static void __synchronize_srcu(struct srcu_struct *ssp, bool do_norm)
{
	struct srcu_sync ss;

	if (srcu_work_ready()) {
		synchronize_srcu_here(ssp, do_norm);
		return;
	}
	init_completion(&ss.done);
	ss.head.func = srcu_sync_cb;
	srcu_gp_start_if_needed(ssp, &ss.head, do_norm, false);
	srcu_wait_for(ssp, &ss.done);
	trace_srcu_grace_period(ssp->name, READ_ONCE(ssp->srcu_gp_seq), "done", 0);
	/*
	 * The caller's later accesses after the grace period. Pairs with
	 * rcu_seq_end()'s barrier in srcutree.c:srcu_gp_end(), which the
	 * callback that completed ss.done followed.
	 */
	smp_mb();
}

void synchronize_srcu_expedited(struct srcu_struct *ssp)
{
	__synchronize_srcu(ssp, rcu_gp_is_normal());
}

/*
 * A guess, good enough to pick the expedited path: no callback queued on
 * this CPU, auto-expediting on, the last grace period ended more than
 * srcutree.exp_holdoff ns ago, none running or asked for. A wrong guess
 * only costs speed (an expedited grace period busy-waits a little, a
 * normal one sleeps a jiffy), so the reads need no ordering. The list
 * needs its lock all the same: rcu_segcblist_pend_cbs() follows the DONE
 * tail into the last ready callback, which srcu_gp may be invoking (and
 * its owner freeing) on another CPU once srcu_invoke_callbacks() has
 * extracted it; under ->lock the tail points into the list or at its head.
 */
static bool srcu_might_be_idle(struct srcu_struct *ssp)
{
	unsigned long holdoff = READ_ONCE(srcu_exp_holdoff);
	unsigned long flags, curseq;
	struct srcu_data *sdp;
	u64 tlast, now;
	bool pending;

	local_irq_save(flags);
	sdp = &ssp->sda[smp_processor_id()];
	spin_lock(&sdp->lock);
	pending = rcu_segcblist_pend_cbs(&sdp->srcu_cblist);
	spin_unlock(&sdp->lock);
	local_irq_restore(flags);
	if (pending || !holdoff)
		return false;
	tlast = READ_ONCE(ssp->srcu_last_gp_end);
	now = local_clock();
	if (now < tlast || now - tlast <= holdoff)
		return false;
	curseq = rcu_seq_current(&ssp->srcu_gp_seq);
	return rcu_seq_state(curseq) == SRCU_STATE_IDLE &&
	       ULONG_CMP_GE(curseq, READ_ONCE(ssp->srcu_gp_seq_needed));
}

void synchronize_srcu(struct srcu_struct *ssp)
{
	check_init_srcu_struct(ssp);
	if (srcu_might_be_idle(ssp) || rcu_gp_is_expedited())
		synchronize_srcu_expedited(ssp);
	else
		__synchronize_srcu(ssp, true);
}

/* --- srcu_barrier() --------------------------------------------------------------------------- */

static void srcu_barrier_cb(struct rcu_head *rhp)
{
	struct srcu_data *sdp = container_of(rhp, struct srcu_data, srcu_barrier_head);
	struct srcu_struct *ssp = sdp->ssp;

	if (atomic_dec_and_test(&ssp->srcu_barrier_cpu_cnt))
		complete(&ssp->srcu_barrier_completion);
}

/* Queue sdp's barrier callback behind every callback already queued there (none: skip). */
static void srcu_barrier_one_cpu(struct srcu_struct *ssp, struct srcu_data *sdp)
{
	unsigned long flags;

	spin_lock_irqsave(&sdp->lock, flags);
	atomic_inc(&ssp->srcu_barrier_cpu_cnt);
	sdp->srcu_barrier_head.func = srcu_barrier_cb;
	if (!rcu_segcblist_entrain(&sdp->srcu_cblist, &sdp->srcu_barrier_head))
		atomic_dec(&ssp->srcu_barrier_cpu_cnt);
	spin_unlock_irqrestore(&sdp->lock, flags);
}

/*
 * Wait until every callback queued by call_srcu() on ssp before this call
 * has been invoked. Concurrent callers share a barrier that started after
 * they arrived (srcu_barrier_seq).
 */
void srcu_barrier(struct srcu_struct *ssp)
{
	unsigned long s = rcu_seq_snap(&ssp->srcu_barrier_seq);

	check_init_srcu_struct(ssp);
	mutex_lock(&ssp->srcu_barrier_mutex);
	if (rcu_seq_done(&ssp->srcu_barrier_seq, s)) {
		smp_mb();	/* pairs with rcu_seq_end()'s barrier below: their callbacks ran */
		mutex_unlock(&ssp->srcu_barrier_mutex);
		return;
	}
	rcu_seq_start(&ssp->srcu_barrier_seq);
	reinit_completion(&ssp->srcu_barrier_completion);
	atomic_set(&ssp->srcu_barrier_cpu_cnt, 1);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		srcu_barrier_one_cpu(ssp, &ssp->sda[cpu]);
	/* Callbacks already done but not yet invoked are run without a grace period. */
	srcu_queue_work(&ssp->work, 0);
	if (atomic_dec_and_test(&ssp->srcu_barrier_cpu_cnt))
		complete(&ssp->srcu_barrier_completion);
	srcu_wait_for(ssp, &ssp->srcu_barrier_completion);
	rcu_seq_end(&ssp->srcu_barrier_seq);
	mutex_unlock(&ssp->srcu_barrier_mutex);
}

/* --- polling ---------------------------------------------------------------------------------- */

unsigned long get_state_synchronize_srcu(struct srcu_struct *ssp)
{
	/*
	 * The caller's earlier accesses before the read of srcu_gp_seq.
	 * Pairs with rcu_seq_start()'s barrier in srcutree.c:srcu_gp_start().
	 */
	smp_mb();
	return rcu_seq_snap(&ssp->srcu_gp_seq);
}

unsigned long start_poll_synchronize_srcu(struct srcu_struct *ssp)
{
	return srcu_gp_start_if_needed(ssp, NULL, true, false);
}

bool poll_state_synchronize_srcu(struct srcu_struct *ssp, unsigned long cookie)
{
	if (cookie != SRCU_GET_STATE_COMPLETED && !rcu_seq_done(&ssp->srcu_gp_seq, cookie))
		return false;
	/*
	 * The caller's later accesses after the grace period. Pairs with
	 * rcu_seq_end()'s barrier in srcutree.c:srcu_gp_end().
	 */
	smp_mb();
	return true;
}

/* --- statistics ------------------------------------------------------------------------------- */

/*
 * The counter part of srcu_gp_seq, shifted as a signed value so that the
 * count runs on through the early wrap (SRCU_GP_SEQ_INITIAL_VAL): -100,
 * -99, ... 0, 1, and differences between two reads stay small.
 */
unsigned long srcu_batches_completed(struct srcu_struct *ssp)
{
	return (unsigned long)((long)READ_ONCE(ssp->srcu_gp_seq) >> RCU_SEQ_CTR_SHIFT);
}

void srcu_get_gp_counts(struct srcu_struct *ssp, unsigned long *normal, unsigned long *exp)
{
	*normal = READ_ONCE(ssp->srcu_n_gps);
	*exp = READ_ONCE(ssp->srcu_n_exp_gps);
}

/*
 * Linux's line, with our phase names in place of its size states, then
 * the grace-period counts (ours):
 *   srcud-torture: Tree SRCU g1234 state 0 (SRCU_STATE_IDLE) per-CPU(idx=1): 0(0,0 .) 1(0,1 C)
 *     T(0,1)
 *   srcud-torture: srcu: 300 normal, 17 expedited grace periods
 * Per CPU: readers inside the inactive and the active bank (lock minus
 * unlock counts on that CPU, so a migrated reader shows as +1 on one CPU
 * and -1 on another), C when callbacks are queued there.
 */
void srcu_torture_stats_print(struct srcu_struct *ssp, const char *tt, const char *tf)
{
	static const char * const state_name[] = {
		"SRCU_STATE_IDLE", "SRCU_STATE_SCAN1", "SRCU_STATE_SCAN2", "SRCU_STATE_???",
	};
	unsigned long gpseq = READ_ONCE(ssp->srcu_gp_seq);
	int idx = READ_ONCE(ssp->srcu_idx) & 1;
	long s0 = 0, s1 = 0;

	printk(KERN_ALERT "%s%s Tree SRCU g%ld state %d (%s)", tt, tf, (long)gpseq,
	       rcu_seq_state(gpseq), state_name[rcu_seq_state(gpseq)]);
	if (!ssp->sda) {
		pr_cont(" No per-CPU srcu_data structures (->sda == NULL).\n");
		return;
	}
	pr_cont(" per-CPU(idx=%d):", idx);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct srcu_data *sdp = &ssp->sda[cpu];
		unsigned long u0 = atomic_long_read(&sdp->srcu_unlock_count[!idx]);
		unsigned long u1 = atomic_long_read(&sdp->srcu_unlock_count[idx]);
		long c0, c1;

		smp_rmb();	/* a counted unlock's lock too: pairs with __srcu_read_unlock()'s barrier */
		c0 = (long)(atomic_long_read(&sdp->srcu_lock_count[!idx]) - u0);
		c1 = (long)(atomic_long_read(&sdp->srcu_lock_count[idx]) - u1);
		pr_cont(" %u(%ld,%ld %c)", cpu, c0, c1,
			"C."[rcu_segcblist_empty(&sdp->srcu_cblist)]);
		s0 += c0;
		s1 += c1;
	}
	pr_cont(" T(%ld,%ld)\n", s0, s1);
	printk(KERN_ALERT "%s%s srcu: %lu normal, %lu expedited grace periods\n", tt, tf,
	       READ_ONCE(ssp->srcu_n_gps), READ_ONCE(ssp->srcu_n_exp_gps));
}
