/*
 * KTAP suite "rcu_preempt_exp": a preempted reader's exit from the
 * expedited grace period's blocked-tasks stretch must not reach into the
 * next expedited grace period. Run with rcutree.preempt_selftest=1 (after
 * the "rcu_preempt" suite) on a two-level tree: a leaf of two CPUs or more
 * and a second leaf (e.g. -smp 4 rcutree.rcu_fanout_leaf=2).
 *
 * The race (a cookie check failure in TREE03): reader R, preempted inside
 * rcu_read_lock() on leaf L, is the last task blocking expedited grace
 * period E1 (->exp_tasks) while another CPU B of L still owes E1 its
 * quiescent state. R's outermost rcu_read_unlock() dequeues itself under
 * L's lock, drops the lock (a preemption point), and only then reports L
 * up the tree. If B reports in between, B's report carries L to the root,
 * E1 ends, E2 starts: E2 sets the root's ->expmask before L's, and R's
 * late report, finding L's mask still empty, cleared L's bit in the root
 * for E2. E2 then never waited for L's CPUs or readers: a reader there
 * saw its polling cookie (and any expedited wait) complete inside its
 * critical section.
 *
 * The case makes the interleaving happen for real, except for E2, of
 * which it plays the first step itself (exp_mutex held, so no real
 * expedited grace period runs): S spins with preemption off on B so that
 * B owes E1; D (on another leaf) runs E1; R, queued on L's list, has H (a
 * FIFO task on R's CPU) woken with preemption off just before its
 * rcu_read_unlock(), so the first preemption point of the slow path, the
 * release of L's lock right after the dequeue, switches to H. H checks it
 * got that window, lets S report, waits for E1 to end, sets the root's
 * ->expmask as E2 would, lets R finish, and reads whether L's bit survived.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "../tree.h"
#include "common.h"	/* rcu_preempt_selftest */
#include <rcu/rcupdate.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <time/delay.h>
#include <mm/slab.h>
#include <kernel/printk.h>
#include <kernel/barrier.h>
#include <locking/mutex.h>

#define REU_WAIT_MS	10000	/* one step of one thread */
#define REU_TRIES	5	/* an interrupt may preempt R before its unlock: try again */

struct reu {
	unsigned int cpu_r, cpu_s, cpu_d;	/* R and H; S (R's leaf); D (another leaf) */
	struct rcu_node *leaf;
	struct task_struct *r, *h, *s, *d;
	/* R */
	bool r_queued, r_go, r_done, r_fail;
	/* S */
	bool s_spinning, s_stop;
	/* D */
	bool d_done;
	/* H: what it saw in the window, and of the root */
	bool h_go, h_done, h_window, h_b_owed, h_e1_done;
	unsigned long h_root_set, h_root_after;
};

/* Spin (never sleep: H must keep R off its CPU) until *flag or ms have passed. */
static bool reu_spin(bool *flag, unsigned int ms)
{
	u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;

	while (!READ_ONCE(*flag)) {
		if (local_clock() > end)
			return false;
		cpu_relax();
	}
	return true;
}

/* Sleep-poll until *flag or ms have passed. */
static bool reu_wait(bool *flag, unsigned int ms)
{
	u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;

	while (!READ_ONCE(*flag)) {
		if (local_clock() > end)
			return false;
		msleep(1);
	}
	return true;
}

static int reu_reader(void *arg)
{
	struct reu *x = arg;

	rcu_read_lock();
	/* A preemption inside the reader, with or without a switch: queued on the leaf. */
	preempt_disable();
	set_tsk_need_resched(current);
	preempt_enable();
	WRITE_ONCE(x->r_queued, READ_ONCE(current->rcu_read_unlock_special.b.blocked));
	if (!x->r_queued || !reu_spin(&x->r_go, 2 * REU_WAIT_MS))
		WRITE_ONCE(x->r_fail, true);
	/*
	 * Wake H with preemption off: need_resched stays set, and the next
	 * preemption point is the slow path's release of the leaf's lock
	 * (unless an interrupt returns in between: H notices and says so).
	 */
	preempt_disable();
	WRITE_ONCE(x->h_go, true);
	wake_up_process(x->h);
	preempt_enable_no_resched();
	rcu_read_unlock();
	WRITE_ONCE(x->r_done, true);
	ktest_wait_stop();
	return 0;
}

static int reu_spinner(void *arg)
{
	struct reu *x = arg;

	preempt_disable();	/* B cannot report to the expedited GP until this ends */
	WRITE_ONCE(x->s_spinning, true);
	reu_spin(&x->s_stop, REU_WAIT_MS);
	preempt_enable();
	ktest_wait_stop();
	return 0;
}

static int reu_driver(void *arg)
{
	struct reu *x = arg;

	synchronize_rcu_expedited();	/* E1 */
	WRITE_ONCE(x->d_done, true);
	ktest_wait_stop();
	return 0;
}

static int reu_preempter(void *arg)
{
	struct reu *x = arg;
	struct rcu_node *root = rcu_get_root();
	unsigned long flags, bbit = leaf_node_cpu_bit(x->leaf, x->cpu_s);
	u64 end;

	set_current_state(TASK_INTERRUPTIBLE);
	while (!READ_ONCE(x->h_go)) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	/* R left the list but has not returned from rcu_read_unlock(): the window. */
	x->h_window = !READ_ONCE(x->r->rcu_blocked_node) && !READ_ONCE(x->r_done);
	raw_spin_lock_irqsave_rcu_node(x->leaf, flags);
	x->h_b_owed = !x->leaf->exp_tasks && (x->leaf->expmask & bbit);
	raw_spin_unlock_irqrestore_rcu_node(x->leaf, flags);
	WRITE_ONCE(x->s_stop, true);	/* B reports: E1 can end */
	if (!x->h_window)
		goto out;
	x->h_e1_done = reu_spin(&x->d_done, REU_WAIT_MS);
	if (!x->h_e1_done)
		goto out;
	/* E2's first step, as rcu_exp_select_cpus() takes it: the root's mask first. */
	end = local_clock() + (u64)REU_WAIT_MS * NSEC_PER_MSEC;
	while (!mutex_trylock(&rcu_state.exp_mutex)) {
		if (local_clock() > end) {
			x->h_e1_done = false;	/* reported as such: no verdict */
			goto out;
		}
		cpu_relax();
	}
	raw_spin_lock_irqsave_rcu_node(root, flags);
	WRITE_ONCE(root->expmask, root->qsmaskinit);
	x->h_root_set = root->expmask;
	raw_spin_unlock_irqrestore_rcu_node(root, flags);
	reu_wait(&x->r_done, REU_WAIT_MS);	/* R runs on: its report, if any, lands now */
	raw_spin_lock_irqsave_rcu_node(root, flags);
	x->h_root_after = root->expmask;
	WRITE_ONCE(root->expmask, 0);	/* as it was: no expedited GP is running */
	raw_spin_unlock_irqrestore_rcu_node(root, flags);
	mutex_unlock(&rcu_state.exp_mutex);
out:
	WRITE_ONCE(x->h_done, true);
	ktest_wait_stop();
	return 0;
}

static struct task_struct *reu_kthread(int (*fn)(void *), struct reu *x, unsigned int cpu,
				       const char *name, int fifo)
{
	struct task_struct *t = ktest_kthread(fn, x, cpu, name);
	struct sched_param sp = { .sched_priority = fifo };

	if (t && fifo)
		sched_setscheduler_nocheck(t, SCHED_FIFO, &sp);
	return t;
}

/* Pick R's CPU and S's on one leaf, D's on another; false if the tree has no such shape. */
static bool reu_cpus(struct reu *x)
{
	unsigned int a, b;

	for_each_online_cpu(a)
		for_each_online_cpu(b) {
			struct rcu_node *la = per_cpu(rcu_data, a).mynode;
			unsigned int c;

			if (a == b || la != per_cpu(rcu_data, b).mynode || la == rcu_get_root())
				continue;
			for_each_online_cpu(c)
				if (per_cpu(rcu_data, c).mynode != la) {
					x->cpu_r = a;
					x->cpu_s = b;
					x->cpu_d = c;
					x->leaf = la;
					return true;
				}
		}
	return false;
}

/* One try; false if it reached no verdict (R preempted before its unlock): try again. */
static bool reu_try(struct reu *x, int try)
{
	unsigned long flags, abit = leaf_node_cpu_bit(x->leaf, x->cpu_r);
	int h_prio = rcu_params.kthread_prio + 10;
	bool verdict = true, all;	/* a failure reported: no more tries */
	u64 end;

	x->r = reu_kthread(reu_reader, x, x->cpu_r, "rcu_eu_r/%u", 0);
	x->h = reu_kthread(reu_preempter, x, x->cpu_r, "rcu_eu_h/%u", h_prio < 99 ? h_prio : 98);
	x->s = reu_kthread(reu_spinner, x, x->cpu_s, "rcu_eu_s/%u", 0);
	x->d = reu_kthread(reu_driver, x, x->cpu_d, "rcu_eu_d/%u", 0);
	if (!x->r || !x->h || !x->s || !x->d)
		return true;	/* reported; threads that exist are leaked unwoken */
	wake_up_process(x->h);	/* sleeps until R wakes it */
	wake_up_process(x->r);
	if (!KTAP_EXPECT_MSG(reu_wait(&x->r_queued, REU_WAIT_MS), "reader never got queued"))
		goto stop;
	wake_up_process(x->s);
	if (!KTAP_EXPECT_MSG(reu_wait(&x->s_spinning, REU_WAIT_MS), "spinner never ran"))
		goto stop;
	wake_up_process(x->d);
	/* E1 under way: R alone blocks it on the leaf, the IPI to R's CPU found R in its reader. */
	end = local_clock() + (u64)REU_WAIT_MS * NSEC_PER_MSEC;
	for (;;) {
		raw_spin_lock_irqsave_rcu_node(x->leaf, flags);
		all = x->leaf->exp_tasks == &x->r->rcu_node_entry &&
		      x->r->rcu_node_entry.next == &x->leaf->blkd_tasks &&
		      (!(x->leaf->expmask & abit) || READ_ONCE(per_cpu(rcu_data, x->cpu_r).exp_deferred_qs));
		raw_spin_unlock_irqrestore_rcu_node(x->leaf, flags);
		if (all || local_clock() > end)
			break;
		msleep(1);
	}
	if (!all)
		ktap_diag("try %d: the expedited GP never had the reader alone on ->exp_tasks (exp_tasks %s, reader %s tail, expmask 0x%lx, E1 %s)",
			  try, !x->leaf->exp_tasks ? "empty" :
			  x->leaf->exp_tasks == &x->r->rcu_node_entry ? "the reader" : "another task",
			  x->r->rcu_node_entry.next == &x->leaf->blkd_tasks ? "at the" : "not at the",
			  x->leaf->expmask, READ_ONCE(x->d_done) ? "over" : "running");
	WRITE_ONCE(x->r_go, true);
	if (!KTAP_EXPECT_MSG(reu_wait(&x->h_done, 2 * REU_WAIT_MS), "preempting thread did not finish") ||
	    !KTAP_EXPECT_MSG(reu_wait(&x->r_done, REU_WAIT_MS), "reader did not finish") ||
	    !KTAP_EXPECT_MSG(reu_wait(&x->d_done, REU_WAIT_MS), "expedited GP did not end"))
		return true;	/* threads leaked: they may still touch x */
	KTAP_EXPECT_MSG(!x->r_fail, "reader was not queued or never told to leave");
	verdict = all && x->h_window;
	if (!verdict) {
		ktap_diag("try %d: no window (alone %d, in window %d)", try, all, x->h_window);
	} else {
		KTAP_EXPECT_MSG(x->h_b_owed, "CPU %u did not owe E1 when the reader left", x->cpu_s);
		KTAP_EXPECT_MSG(x->h_e1_done, "E1 did not end while the reader was preempted");
		KTAP_EXPECT_MSG(x->h_root_after == x->h_root_set,
				"the reader's late report for E1 cleared the next expedited GP's root mask: 0x%lx -> 0x%lx (leaf bit 0x%lx)",
				x->h_root_set, x->h_root_after, x->leaf->grpmask);
	}
stop:
	WRITE_ONCE(x->r_go, true);
	WRITE_ONCE(x->s_stop, true);
	WRITE_ONCE(x->h_go, true);
	wake_up_process(x->h);
	if (!reu_wait(&x->h_done, REU_WAIT_MS) || !reu_wait(&x->r_done, REU_WAIT_MS) ||
	    !reu_wait(&x->d_done, REU_WAIT_MS))
		return true;
	kthread_stop(x->r);
	kthread_stop(x->h);
	kthread_stop(x->s);
	kthread_stop(x->d);
	return verdict;
}

static void rcu_preempt_exp_unblock_stale(void)
{
	struct cpumask saved;
	struct reu *x;
	bool done;
	int try;

	if (num_online_cpus() < 3 || rcu_gp_is_normal()) {
		ktap_skip("needs 3 CPUs and no rcupdate.rcu_normal");
		return;
	}
	for (try = 1; try <= REU_TRIES; try++) {
		x = kzalloc(sizeof(*x), GFP_KERNEL);
		if (!KTAP_EXPECT_MSG(x != NULL, "cannot allocate the test state"))
			return;
		if (!reu_cpus(x)) {
			kfree(x);
			ktap_skip("needs a two-level tree with two CPUs on a leaf (rcutree.rcu_fanout_leaf=2 -smp 4)");
			return;
		}
		/* Off S's CPU, where a wakeup of ours would wait for S to stop spinning. */
		ktest_pin_current(x->cpu_d, &saved);
		done = reu_try(x, try);
		ktest_unpin_current(&saved);
		if (done) {
			/* x is leaked if a thread may still touch it (a failure was reported). */
			if (x->h_done && x->r_done && x->d_done)
				kfree(x);
			return;
		}
		kfree(x);
	}
	KTAP_EXPECT_MSG(false, "the reader was never preempted in the window (%d tries)", REU_TRIES);
}

static const struct ktap_case rcu_preempt_exp_cases[] = {
	KTAP_CASE(rcu_preempt_exp_unblock_stale),
};
KTAP_SUITE(rcu_preempt_exp, rcu_preempt_exp_cases, &rcu_preempt_selftest);
