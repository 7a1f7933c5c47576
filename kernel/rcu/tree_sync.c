/*
 * Waiting for Tree RCU grace periods: synchronize_rcu() (and its fast
 * paths), the polling API (get_state/start_poll/poll_state_synchronize_rcu
 * and their full-state _full forms), the grace-period counters, and
 * rcu_barrier(). The expedited polling API is in tree_exp_poll.c.
 */
#define pr_fmt(fmt) "rcu: " fmt
#include "tree.h"
#include <kernel/cpu.h>
#include <rcu/rcupdate.h>
#include <kernel/might_sleep.h>
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

/* ===== waiting for grace periods ============================================= */

/*
 * The wait is already over: before the scheduler runs (one CPU, no
 * reader can be blocked: Linux 6.1's rule), or, in a non-preemptible
 * kernel, when RCU's own view of the CPUs that may run readers (the
 * leaves' ->qsmaskinitnext, kept by rcu_cpu_starting() and
 * rcu_report_dead()) holds no CPU but the caller's, which is itself
 * quiescent. Not num_online_cpus(): a dying CPU leaves the online mask
 * well before its last reader (interrupts-off stopper work, then timer
 * handlers in its idle loop), and synchronize_rcu() returning then freed
 * memory under it. rcu_no_other_cpu_reads() (tree_hotplug.c) gives the
 * argument and its barriers. Preemptible RCU readers may be preempted on
 * this very CPU: no shortcut once the scheduler runs.
 */
static bool rcu_blocking_is_gp(void)
{
	if (!READ_ONCE(rcu_scheduler_active))
		return true;
	return !IS_ENABLED(CONFIG_PREEMPT_RCU) && rcu_no_other_cpu_reads();
}

/*
 * Also synchronize_rcu_expedited()'s shortcut (tree_exp.c). The look at
 * the CPUs and the steps of the grace-period numbers are one step with
 * respect to CPUs coming up: a step completes every cookie and expedited
 * snapshot taken before it, so a CPU that joined between an unlocked look
 * and the steps would have its readers' cookies completed by a wait that
 * never saw it (the updater then frees under them). So the steps happen
 * under rcu_state.ofl_lock, which rcu_cpu_starting() takes to set its
 * bit, after a second look under it; exp_mutex, which they also need
 * (the expedited sequence's owner), is taken first, since it may sleep
 * (lock order: exp_mutex, ofl_lock, poll_lock, as in rcu_gp_init() and
 * rcu_exp_select_cpus()). A CPU that joins after the lock is released
 * starts its first reader after the steps: the release here, its
 * acquire and the smp_mb() at the end of rcu_cpu_starting(), so any
 * cookie taken after that reader began is of a later number
 * (Documentation/RCU/ordering.md). The first, unlocked look only keeps
 * the usual case (other CPUs online) off exp_mutex.
 */
bool rcu_sync_is_trivial(void)
{
	unsigned long flags;

	if (!rcu_blocking_is_gp())
		return false;
	rcu_window_delay(RCU_WIN_TRIVIAL_CHECKED);	/* test kernels: widen the window */
	mutex_lock(&rcu_state.exp_mutex);
	rcu_window_delay(RCU_WIN_TRIVIAL_LOCKED);
	raw_spin_lock_irqsave(&rcu_state.ofl_lock, flags);
	if (!rcu_blocking_is_gp()) {
		/* A CPU came up since the first look: a real grace period. */
		raw_spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
		mutex_unlock(&rcu_state.exp_mutex);
		return false;
	}
	/*
	 * The wait is over, and pollers must see a grace period pass: step
	 * the polled number through a whole phase, and close an open one
	 * too, as Linux's rcu_poll_gp_seq_start/end_unlocked() pair does.
	 * Every reader that began before now has ended: this CPU is in a
	 * quiescent state, and the others have passed rcu_report_dead() (their
	 * readers ended before it). So every cookie taken before now may
	 * complete, including one taken while a normal grace period's phase
	 * was open, which names the end of the phase after that one: close an
	 * open phase, then step a whole one (the wait has no duration, so no
	 * cookie can be taken inside it). Closing the open phase alone left
	 * such a cookie pending (test/exp.c's exp_polling_open_phase, and
	 * exp_polling at -smp 1 on CI; rcutorture's "Cookie check 3" saw the
	 * same with CPU 1 of 2 offline before any step was taken). The normal
	 * and expedited ends close a phase only if it is still theirs
	 * (rcu_poll_gp_seq_end(), rcu_exp_poll_end()).
	 */
	raw_spin_lock(&rcu_state.poll_lock);
	if (rcu_seq_state(rcu_state.gp_seq_polled))
		rcu_seq_end(&rcu_state.gp_seq_polled);
	rcu_seq_start(&rcu_state.gp_seq_polled);
	rcu_seq_end(&rcu_state.gp_seq_polled);
	raw_spin_unlock(&rcu_state.poll_lock);
	/* Full-state cookies must see it too: through the expedited sequence. */
	rcu_exp_trivial_gp();
	raw_spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
	rcu_exp_trivial_gp_wake();	/* drops exp_mutex */
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

/*
 * synchronize_rcu()'s callback: someone waits for it, so never lazy (as
 * call_rcu_hurry()). The caller sleeps right after queueing it, so the
 * grace-period kthread is woken WF_SYNC (rcu_gp_kthread_wake_sync(),
 * kernel/sched/select.c): on a CPU running only the caller, the kthread
 * runs there, and the grace period starts, ends and has its callback run
 * (by rcuc/N, bound to this CPU) with no cross-CPU wake-up. Woken on its
 * last CPU instead, it costs two: there, and back for the callback. Under
 * QEMU's single-threaded TCG each is a pass of the round robin from one
 * vCPU to the other: 9 and 41 us of a 118 us median at -smp 128 (issue 36
 * in Documentation/RCU/performance.md). rcuc/N helps by sleeping, not
 * yielding, once its batch is done (rcu_cpu_kthread()): left queued after
 * waking this caller, it made a second task on the CPU, and the next
 * request took the ordinary path. The kthread stays unbound: with other
 * tasks on the CPU, or from an interrupt, the wake-up is an ordinary one.
 */
static void call_rcu_waiter(struct rcu_head *head, rcu_callback_t func)
{
	__call_rcu_common(head, func, false, true);
}

void synchronize_rcu(void)
{
	if (rcu_sync_in_reader())
		return;		/* PROVE_RCU reported it; waiting would deadlock */
	if (!IS_ENABLED(CONFIG_PROVE_RCU))
		WARN_ONCE(preempt_count() || irqs_disabled() || rcu_preempt_depth(),
			  "Illegal synchronize_rcu() in RCU read-side critical section or atomic context\n");
	might_sleep();
	if (rcu_sync_is_trivial())
		return;
	/* rcupdate.rcu_expedited, rcu_expedite_gp() or boot (update.c). */
	if (rcu_gp_is_expedited()) {
		synchronize_rcu_expedited();
		return;
	}
	wait_rcu_gp(call_rcu_waiter);
}

/* Polling cookies are rcu_state.gp_seq_polled numbers. */
unsigned long get_state_synchronize_rcu(void)
{
	/*
	 * The caller's prior updates before the snapshot. Pairs with the
	 * smp_mb() in rcu_seq_start() (rcu.h) of the polled phase, from
	 * tree_gp.c:rcu_poll_gp_seq_start() or rcu_exp_poll_start(): a phase that
	 * this snapshot did not see started after the updates were visible.
	 */
	smp_mb();
	return rcu_seq_snap(&rcu_state.gp_seq_polled);
}

/*
 * Ask for the normal grace period that ends a full one after now, from
 * this CPU's leaf up, and wake the GP kthread if it must start it. For
 * both start_poll forms: called after the cookie was taken, so the
 * grace period asked for ends at or after the one the cookie names.
 */
static void rcu_poll_request_gp(void)
{
	struct rcu_data *rdp;
	unsigned long flags;
	bool needwake;

	local_irq_save(flags);
	rdp = this_cpu_ptr(&rcu_data);
	raw_spin_lock_rcu_node(rdp->mynode);
	needwake = rcu_start_this_gp(rdp->mynode, rcu_seq_snap(&rcu_state.gp_seq));
	raw_spin_unlock_rcu_node(rdp->mynode);
	local_irq_restore(flags);
	if (needwake)
		rcu_gp_kthread_wake();
}

unsigned long start_poll_synchronize_rcu(void)
{
	unsigned long cookie = get_state_synchronize_rcu();
	unsigned long flags;

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
	rcu_poll_request_gp();
	return cookie;
}

/*
 * RCU_GET_STATE_COMPLETED always polls complete; any other cookie once
 * gp_seq_polled has reached it (rcu_seq_done_exact(): a cookie kept for
 * longer than half the counter space still reads as done).
 */
bool poll_state_synchronize_rcu(unsigned long oldstate)
{
	if (oldstate == RCU_GET_STATE_COMPLETED ||
	    rcu_seq_done_exact(&rcu_state.gp_seq_polled, oldstate)) {
		/*
		 * The caller's later accesses after the grace period. Pairs with
		 * the smp_mb() in rcu_seq_end() (rcu.h) of the polled phase, from
		 * tree_gp.c:rcu_poll_gp_seq_end(), rcu_exp_poll_end() or
		 * rcu_sync_is_trivial().
		 */
		smp_mb();
		return true;
	}
	return false;
}

/*
 * ===== full-state cookies =====================================================
 *
 * Each word of a struct rcu_gp_oldstate is a snapshot of one grace-period
 * sequence: rgos_norm of rcu_state.gp_seq, rgos_exp of
 * rcu_state.expedited_sequence. The cookie is complete once either
 * sequence has run a whole grace period past its snapshot. Unlike the
 * ordinary cookie, nothing here depends on how normal and expedited
 * grace periods overlapped (gp_seq_polled's shared phases): each kind is
 * judged on its own counter.
 *
 * The normal word is taken from rcu_state.gp_seq, which rcu_gp_init()
 * moves before it folds CPU hotplug into the masks, and checked against
 * the root rcu_node's ->gp_seq, which rcu_gp_cleanup() moves first, under
 * the root's lock, once the root's mask is empty. Taking it from the root
 * as well could miss a grace period that had already started: a CPU
 * coming online after that grace period's hotplug fold is not waited for
 * by it, yet a reader there would have been handed a cookie that it ends.
 */
void get_completed_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = RCU_GET_STATE_COMPLETED;
	rgosp->rgos_exp = RCU_GET_STATE_COMPLETED;
}

/* Two cookies for the same grace periods (a cookie that is complete may match none). */
bool same_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp1,
				     struct rcu_gp_oldstate *rgosp2)
{
	return rgosp1->rgos_norm == rgosp2->rgos_norm &&
	       rgosp1->rgos_exp == rgosp2->rgos_exp;
}

void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	/*
	 * The caller's prior updates before both snapshots. Pairs with the
	 * smp_mb() in rcu_seq_start() (rcu.h) that starts a normal grace
	 * period (tree_gp.c:rcu_gp_init()) or an expedited one
	 * (tree_exp.c:rcu_exp_gp()): a grace period whose start a snapshot
	 * did not see looks at the CPUs only after the updates are visible.
	 */
	smp_mb();
	rgosp->rgos_norm = rcu_seq_snap(&rcu_state.gp_seq);
	rgosp->rgos_exp = rcu_seq_snap(&rcu_state.expedited_sequence);
}

/*
 * The cookie, and a normal grace period on its way that will complete it
 * (as start_poll_synchronize_rcu(), but the polled phases play no part:
 * the grace period asked for is judged on gp_seq alone).
 */
void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	get_state_synchronize_rcu_full(rgosp);
	rcu_poll_request_gp();
}

bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	if (rgosp->rgos_norm == RCU_GET_STATE_COMPLETED ||
	    rcu_seq_done_exact(&rcu_get_root()->gp_seq, rgosp->rgos_norm) ||
	    rgosp->rgos_exp == RCU_GET_STATE_COMPLETED ||
	    rcu_seq_done_exact(&rcu_state.expedited_sequence, rgosp->rgos_exp)) {
		/*
		 * The caller's later accesses after the grace period. Pairs
		 * with the full barrier before the end the check saw: the
		 * root's lock acquisition in tree_gp.c:rcu_gp_cleanup() before
		 * it writes the root's ->gp_seq (smp_mb__after_unlock_lock(),
		 * tree.h), or rcu_seq_end()'s smp_mb() (rcu.h) ending the
		 * expedited sequence in tree_exp.c:rcu_exp_gp() or
		 * rcu_exp_trivial_gp().
		 */
		smp_mb();
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

/* ===== rcu_barrier ============================================================ */

/*
 * barrier_cpu_count is a plain count. The value-returning decrements are
 * fully ordered, but nothing relies on it: the last one's complete() and
 * rcu_barrier()'s wait_for_completion() (the completion's lock) order the
 * callbacks before rcu_barrier() returns, and the relaxed atomic_inc() in
 * rcu_barrier_entrain() is ordered before rcu_barrier()'s own decrement
 * by the cross call it runs in (smp_call_function_single() waits for it).
 */
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

	/*
	 * No CPU comes or goes meanwhile (Linux held the hotplug lock here
	 * too): an online CPU's callbacks get an entrained callback by IPI;
	 * an offline one has none, or, offloaded, keeps them where its rcuo
	 * kthreads still serve them, and they are entrained from here.
	 */
	cpus_read_lock();
	mutex_lock(&rcu_state.barrier_mutex);
	rcu_state.barrier_sequence++;
	init_completion(&rcu_state.barrier_completion);
	atomic_set(&rcu_state.barrier_cpu_count, 1);	/* our own reference, dropped below */
	/*
	 * The caller's earlier accesses (a call_rcu() it knows returned)
	 * before the lockless ->len reads below. Pairs with the smp_mb()
	 * after the store in rcu_segcblist.c:rcu_segcblist_add_len(): a
	 * count read as 0 belongs to a call_rcu() still under way.
	 */
	smp_mb();
	for_each_possible_cpu(cpu) {
		/* Offloaded: entrained from here under its nocb lock, no IPI to disturb it. */
		if (rcu_nocb_barrier_entrain(per_cpu_ptr(&rcu_data, cpu), rcu_barrier_callback,
					     &rcu_state.barrier_cpu_count))
			continue;
		if (!cpu_online(cpu)) {
			WARN_ON_ONCE(READ_ONCE(per_cpu(rcu_data, cpu).cblist.len));	/* adopted */
			continue;
		}
		if (!READ_ONCE(per_cpu(rcu_data, cpu).cblist.len))
			continue;	/* nothing queued or being invoked: ordered below */
		smp_call_function_single(cpu, rcu_barrier_entrain, NULL, 1);
	}
	/*
	 * A CPU skipped for a count of 0: its last callback's accesses before
	 * the caller's later ones (freeing what it used, unloading its code).
	 * Pairs with the smp_mb() before the store in rcu_segcblist.c:
	 * rcu_segcblist_add_len(), which rcu_do_batch() runs after invoking.
	 * (The fully ordered atomic_dec_and_test() below would do as well;
	 * the pair is kept explicit rather than resting on that.) Both
	 * pairs are model-checked: tools/model/rcu/rcu_wmm.pml, SCEN=1/2.
	 */
	smp_mb();
	rcu_gp_kthread_wake();
	if (atomic_dec_and_test(&rcu_state.barrier_cpu_count))
		complete(&rcu_state.barrier_completion);
	wait_for_completion(&rcu_state.barrier_completion);
	mutex_unlock(&rcu_state.barrier_mutex);
	cpus_read_unlock();
}
