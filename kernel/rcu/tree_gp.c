/*
 * Tree RCU's grace-period kthread (rcu_sched / rcu_preempt): it starts a grace
 * period when one is needed (rcu_gp_init), forces quiescent states for the
 * CPUs that have not reported (the FQS loop over the leaves), and ends it
 * (rcu_gp_cleanup), advancing every rcu_node's and rcu_data's gp_seq.
 */
#define pr_fmt(fmt) "rcu: " fmt
#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <mm/slab.h>
#include <time/time.h>
#include <time/tick.h>
#include <time/delay.h>
#include <kernel/irqflags.h>
#include <kernel/init.h>
#include <sched/sched.h>
#include <sched/kthread.h>

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
	trace_rcu_grace_period(rcu_state.gp_seq, "start");
	rcu_poll_gp_seq_start();
	rcu_state.n_gp_started++;
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);

	/* CPUs that came or went since the last grace period: into ->qsmaskinit. */
	WRITE_ONCE(rcu_state.gp_state, RCU_GP_INIT);
	rcu_window_delay(RCU_WIN_GP_FOLD);	/* test kernels: CPUs may come and go unfolded */
	rcu_hotplug_gp_init();
	/* Breadth-first: a node's mask is set before any child can report into it. */
	rcu_for_each_node_breadth_first(rnp) {
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		rcu_preempt_gp_init_node(rnp);	/* tasks already blocked block this GP */
		rcu_boost_gp_start(rnp);
		WRITE_ONCE(rnp->qsmask, rnp->qsmaskinit);
		WRITE_ONCE(rnp->gp_seq, rcu_state.gp_seq);
		rdp = this_cpu_ptr(&rcu_data);
		if (rnp == rdp->mynode)
			(void)__note_gp_changes(rnp, rdp);
		/* A leaf's CPUs gone offline since the fold: reported for them. */
		if (!rcu_is_leaf_node(rnp) || !rcu_hotplug_gp_init_leaf(rnp, flags))
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		rcu_gp_slow(rcu_params.gp_init_delay);
		cond_resched();
	}
	rcu_strict_gp_boundary_ipi();	/* STRICT_GRACE_PERIOD: every CPU sees it now */
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

	trace_rcu_grace_period(rcu_state.gp_seq, "fqsstart");
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
			if (!(READ_ONCE(rnp->qsmaskinitnext) & bit)) {
				mask |= bit;	/* offline: owes this GP nothing (Linux warns, never waits) */
				continue;
			}
			rcu_gpnum_ovf(rnp, rdp);
			snap = rcu_dynticks_snap(cpu);
			if (first) {
				rdp->dynticks_snap = snap;
				if (rcu_dynticks_in_eqs(snap)) {
					rcu_disable_urgency_upon_qs(rdp);
					mask |= bit;
					rdp->n_dynticks_credit++;
					trace_rcu_fqs(rnp->gp_seq, cpu, "dti");
				}
				continue;
			}
			if (rcu_dynticks_in_eqs(snap) || snap != rdp->dynticks_snap) {
				rcu_disable_urgency_upon_qs(rdp);
				mask |= bit;
				rdp->n_dynticks_credit++;
				trace_rcu_fqs(rnp->gp_seq, cpu, "dti");
				continue;
			}
			/* Still busy in the kernel: escalate with the grace period's age. */
			if (time_after(jiffies, rcu_state.gp_start + rcu_params.jiffies_till_sched_qs)) {
				WRITE_ONCE(rdp->urgent_qs, true);
				rcu_force_tick(rdp);
				if (time_after(jiffies, rcu_state.jiffies_resched) &&
				    time_after(jiffies, rdp->last_fqs_resched + rcu_params.jiffies_till_sched_qs)) {
					WRITE_ONCE(rdp->need_heavy_qs, true);
					rdp->last_fqs_resched = jiffies;
					rdp->n_resched_ipis++;
					trace_rcu_fqs(rnp->gp_seq, cpu, "rqc");
					resched_cpu(cpu);
				}
			}
		}
		if (mask)
			rcu_report_qs_rnp(mask, rnp, rnp->gp_seq, flags);	/* releases the lock */
		else
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	}
	trace_rcu_grace_period(rcu_state.gp_seq, "fqsend");
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
		if (rcu_params.rcu_kick_kthreads && time_after(jiffies, rcu_state.jiffies_kick_kthreads))
			rcu_state.n_kthread_kicks++;	/* overslept: this wakeup is the kick */
		if (left && !(READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS))
			continue;
		WRITE_ONCE(rcu_state.gp_state, RCU_GP_DOING_FQS);
		WRITE_ONCE(rcu_state.gp_flags, READ_ONCE(rcu_state.gp_flags) & ~RCU_GP_FLAG_FQS);
		force_qs_rnp(false);
		rcu_state.n_force_qs++;
		rcu_strict_fqs_ipi();	/* STRICT_GRACE_PERIOD: hurry the holdouts */
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
	 *
	 * "Over" is decided here, under the root's lock: the FQS loop's
	 * lockless rcu_gp_root_done() only ends the wait. Every report that
	 * emptied the root did so holding this lock, and nothing refills the
	 * root's mask before the next rcu_gp_init(). Taking the lock (with
	 * smp_mb__after_unlock_lock(), tree.h) orders all those reports, and
	 * through the tree's lock chain everything their CPUs did before their
	 * quiescent states, before the grace period's end below: the polled
	 * end, the nodes' gp_seq, rcu_seq_end() and the callbacks.
	 */
	rnp = rcu_get_root();
	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	WARN_ON_ONCE(!rcu_gp_root_done());
	/*
	 * This grace period may have joined a polled phase that an expedited
	 * one opened, and either may have closed it: a cookie taken inside
	 * that phase needs the next one, and only a normal grace period is
	 * sure to come. Ask for it (below) while such a cookie is outstanding.
	 */
	needgp = rcu_poll_gp_seq_end();
	WRITE_ONCE(rcu_state.n_gp_completed, rcu_state.n_gp_completed + 1);
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	gp_duration = jiffies - rcu_state.gp_start;
	if (gp_duration > rcu_state.gp_max)
		rcu_state.gp_max = gp_duration;
	new_gp_seq = rcu_seq_endval(&rcu_state.gp_seq);	/* a value only: no barrier */
	rcu_for_each_node_breadth_first(rnp) {
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		WRITE_ONCE(rnp->gp_seq, new_gp_seq);
		rdp = this_cpu_ptr(&rcu_data);
		if (rnp == rdp->mynode)
			needgp |= __note_gp_changes(rnp, rdp);
		/*
		 * A request beyond this grace period: start the next one.
		 * Otherwise pull ->gp_seq_needed up to the new number, as
		 * Linux's rcu_future_gp_cleanup() does: left behind while
		 * gp_seq ran half the counter space ahead, it would compare
		 * as a request still in the future (ULONG_CMP_LT) and start
		 * grace periods nobody asked for, or make rcu_start_this_gp()
		 * think a wanted one already requested.
		 */
		if (ULONG_CMP_LT(new_gp_seq, rnp->gp_seq_needed))
			needgp = true;
		else
			WRITE_ONCE(rnp->gp_seq_needed, new_gp_seq);	/* avoid counter wrap */
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		rcu_gp_slow(rcu_params.gp_cleanup_delay);
		cond_resched();
	}
	rnp = rcu_get_root();
	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	trace_rcu_grace_period(rcu_state.gp_seq, "end");	/* the number "start" printed */
	rcu_seq_end(&rcu_state.gp_seq);
	WRITE_ONCE(rcu_state.gp_state, RCU_GP_IDLE);
	/* Someone asked for a later grace period while this one ran: start it. */
	if (needgp || ULONG_CMP_LT(rcu_state.gp_seq, rnp->gp_seq_needed))
		WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_INIT);
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	rcu_nocb_gp_cleanup();	/* rcuog kthreads waiting for this grace period */
	rcu_strict_gp_boundary_ipi();	/* STRICT_GRACE_PERIOD: every CPU sees the end now */
	/*
	 * Kick every CPU with callbacks: their rcuc kthreads advance them now
	 * rather than at their next tick (idle CPUs with callbacks keep ticking,
	 * but waiting for it would add a jiffy to every synchronize_rcu()).
	 * Not a CPU that RCU_FAST_NO_HZ lets sleep: its own one-shot wakes it.
	 */
	for_each_online_cpu(cpu) {
		rdp = per_cpu_ptr(&rcu_data, cpu);
		/*
		 * Offloaded CPUs are skipped: their rcuog/N advances them
		 * (rcu_nocb_gp_cleanup()). So is a CPU that RCU_FAST_NO_HZ lets
		 * sleep: its own one-shot wakes it.
		 */
		if (!rcu_rdp_is_offloaded(rdp) && READ_ONCE(rdp->cblist.len) &&
		    rdp->rcu_cpu_kthread_task && !rcu_nohz_sleeping(rdp)) {
			WRITE_ONCE(rdp->rcu_cpu_has_work, true);
			wake_up_process(rdp->rcu_cpu_kthread_task);
		}
	}
}

int rcu_gp_kthread(void *unused)
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
