/*
 * Two cases of the "cpuhp" suite (listed in hotplug.c) that hold
 * one task inside a window of Tree RCU's hotplug handling with the hook of
 * the delay knobs (kernel/rcu/tree_window_delay.c), while a CPU comes up
 * and starts a reader, and check that no grace period ends under it:
 *  - cpuhp_trivial_gp_joiner (non-preemptible RCU): a synchronize_rcu()
 *    that found no other CPU in RCU's view (the one-CPU shortcut) is held
 *    between that look and its steps of the grace-period numbers while
 *    another CPU comes up and reads; the updater then takes a cookie, a
 *    full-state cookie, and a third task calls synchronize_rcu_expedited():
 *    none may complete while that reader is inside;
 *  - cpuhp_preempted_reader_unfolded (preemptible RCU, a leaf without
 *    CPU 0): with the grace-period kthread held before its hotplug fold, a
 *    CPU of a leaf the tree had dropped comes up, a task is preempted in a
 *    reader there by cpu_down(), and the leaf, never counted again, must
 *    still hold up the grace periods that follow;
 *  - cpuhp_preempted_reader_exp_unseen (preemptible RCU, first in the
 *    suite): the same for an expedited grace period, on a leaf whose CPUs
 *    all left before any expedited grace period counted them (no hook).
 * Every hold and wait is bounded.
 */
#include "../tree.h"
#include "hotplug.h"
#include <rcu/rcupdate.h>
#include <kernel/cpu.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <kernel/barrier.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>

#define HF_HOLD_MS	5000	/* the hook lets its task go after this, released or not */
#define HF_READ_MS	5000	/* a reader's longest hold */
#define HF_WAIT_MS	10000	/* any one step of the test */
#define HF_NWIN		(RCU_WIN_GP_FOLD + 1)

static struct task_struct *hf_target;	/* the one task the hook holds */
static int hf_held[HF_NWIN], hf_release[HF_NWIN];

static void hf_hook(enum rcu_window w)
{
	u64 t0 = local_clock();

	if (current != READ_ONCE(hf_target))
		return;
	WRITE_ONCE(hf_held[w], 1);
	while (!READ_ONCE(hf_release[w]) && local_clock() - t0 < HF_HOLD_MS * NSEC_PER_MSEC)
		msleep(1);
}

static void hf_arm(struct task_struct *t)
{
	for (int w = 0; w < HF_NWIN; w++) {
		WRITE_ONCE(hf_held[w], 0);
		WRITE_ONCE(hf_release[w], 0);
	}
	WRITE_ONCE(hf_target, t);
	smp_mb();	/* the flags before the hook can see its target */
	WRITE_ONCE(rcu_window_hook, hf_hook);
}

static void hf_disarm(void)
{
	for (int w = 0; w < HF_NWIN; w++)
		WRITE_ONCE(hf_release[w], 1);
	WRITE_ONCE(hf_target, NULL);
	WRITE_ONCE(rcu_window_hook, NULL);
}

static bool hf_wait_flag(int *flag, unsigned int ms)
{
	for (unsigned int i = 0; i < ms && !READ_ONCE(*flag); i++)
		msleep(1);
	return READ_ONCE(*flag);
}

/* A reader held until released (or HF_READ_MS), on the CPU it is bound to. */
struct hf_reader {
	int in, release, out;
	struct completion done;
};

static int hf_reader_fn(void *arg)
{
	struct hf_reader *r = arg;
	u64 t0;

	rcu_read_lock();
	WRITE_ONCE(r->in, 1);
	t0 = local_clock();
	while (!READ_ONCE(r->release) && local_clock() - t0 < HF_READ_MS * NSEC_PER_MSEC)
		cpu_relax();	/* preemptible RCU: preempted here by cpu_down()'s stopper */
	WRITE_ONCE(r->out, 1);
	rcu_read_unlock();
	complete(&r->done);
	ktest_wait_stop();
	return 0;
}

/* Every online CPU of leaf down; *down records them. */
static void hf_leaf_down(struct rcu_node *leaf, struct cpumask *down)
{
	cpumask_clear(down);
	for (unsigned int c = leaf->grplo; c <= (unsigned int)leaf->grphi; c++)
		if (cpu_online(c) && KTAP_EXPECT(cpu_down(c) == 0))
			cpumask_set_cpu(c, down);
}

/*
 * cpu (down, in *down) up, a reader started on it and held there, then cpu
 * down again: the stopper preempts the reader on cpu's leaf and it moves.
 * Returns the reader's task (NULL, the failure reported, if it never
 * started); *down stays true to which CPUs are down.
 */
static struct task_struct *hf_reader_through_down(unsigned int cpu, struct hf_reader *r,
						  struct cpumask *down)
{
	struct task_struct *t;

	if (!KTAP_EXPECT(cpu_up(cpu) == 0))
		return NULL;
	cpumask_clear_cpu(cpu, down);
	init_completion(&r->done);
	t = ktest_kthread(hf_reader_fn, r, cpu, "hf_reader/%u");
	if (!t)
		return NULL;
	wake_up_process(t);
	if (KTAP_EXPECT(hf_wait_flag(&r->in, HF_WAIT_MS)) && KTAP_EXPECT(cpu_down(cpu) == 0))
		cpumask_set_cpu(cpu, down);
	KTAP_EXPECT(task_cpu(t) != cpu);
	return t;
}

static void hf_reader_end(struct hf_reader *r, struct task_struct *t)
{
	WRITE_ONCE(r->release, 1);
	KTAP_EXPECT(ktest_wait(&r->done, HF_WAIT_MS));
	ktest_stop(t, HF_WAIT_MS, NULL);
}

/* A wait run by its own task: done says it returned. */
struct hf_waiter {
	void (*wait)(void);
	int done;
	struct completion comp;
};

static int hf_waiter_fn(void *arg)
{
	struct hf_waiter *w = arg;

	w->wait();
	WRITE_ONCE(w->done, 1);
	complete(&w->comp);
	ktest_wait_stop();
	return 0;
}

static struct task_struct *hf_start_waiter(struct hf_waiter *w, void (*wait)(void), bool arm)
{
	struct task_struct *t;

	w->wait = wait;
	w->done = 0;
	init_completion(&w->comp);
	t = ktest_kthread(hf_waiter_fn, w, 0, "hf_wait/%u");
	if (t) {
		if (arm)
			hf_arm(t);
		wake_up_process(t);
	}
	return t;
}

/* ---- the one-CPU shortcut and a CPU that joins meanwhile --------------------- */

void cpuhp_trivial_gp_joiner(void)
{
	struct hf_waiter a = { }, c = { };
	struct task_struct *ta, *tc = NULL, *tr;
	struct hf_reader r = { };
	struct rcu_gp_oldstate full;
	unsigned int cpu, victim, n = 0;
	unsigned long cookie;
	struct cpumask saved;
	int downed[NR_CPUS];

	if (!cpuhp_shortcut_case_runs())
		return;
	ktest_pin_current(0, &saved);
	victim = ktest_last_online_cpu();
	for_each_online_cpu(cpu)
		if (cpu && KTAP_EXPECT_MSG(cpu_down(cpu) == 0, "CPU %u did not go down", cpu))
			downed[n++] = cpu;
	if (!KTAP_EXPECT_MSG(num_online_cpus() == 1, "%u CPUs still online", num_online_cpus()))
		goto up;
	/* Task A: a synchronize_rcu() that takes the shortcut, held after its look. */
	ta = hf_start_waiter(&a, synchronize_rcu, true);
	if (!ta)
		goto up;
	if (!KTAP_EXPECT_MSG(hf_wait_flag(&hf_held[RCU_WIN_TRIVIAL_CHECKED], HF_WAIT_MS),
			     "synchronize_rcu() with one CPU online did not take the shortcut"))
		goto out_a;
	/* The victim joins, and a reader starts there. */
	if (!KTAP_EXPECT_MSG(cpu_up(victim) == 0, "CPU %u did not come up", victim))
		goto out_a;
	init_completion(&r.done);
	tr = ktest_kthread(hf_reader_fn, &r, victim, "hf_reader/%u");
	if (!tr)
		goto out_a;
	wake_up_process(tr);
	if (!KTAP_EXPECT_MSG(hf_wait_flag(&r.in, HF_WAIT_MS), "no reader on CPU %u", victim))
		goto out_r;
	/* The updater, after the reader began: its cookies need a grace period after it. */
	cookie = get_state_synchronize_rcu();
	get_state_synchronize_rcu_full(&full);
	WRITE_ONCE(hf_release[RCU_WIN_TRIVIAL_CHECKED], 1);
	KTAP_EXPECT_MSG(hf_wait_flag(&hf_held[RCU_WIN_TRIVIAL_LOCKED], HF_WAIT_MS),
			"the shortcut did not reach exp_mutex");
	/* Task C: an expedited wait, queued behind exp_mutex, which A holds. */
	tc = hf_start_waiter(&c, synchronize_rcu_expedited, false);
	msleep(100);
	WRITE_ONCE(hf_release[RCU_WIN_TRIVIAL_LOCKED], 1);
	msleep(300);	/* whatever A's steps complete, they have by now */
	KTAP_EXPECT_MSG(!READ_ONCE(r.out), "the reader on CPU %u ended early", victim);
	KTAP_EXPECT_MSG(!poll_state_synchronize_rcu(cookie),
			"cookie %lu complete (now %lu) while CPU %u, up after the shortcut's look, still reads",
			cookie, get_state_synchronize_rcu(), victim);
	KTAP_EXPECT_MSG(!poll_state_synchronize_rcu_full(&full),
			"full-state cookie complete while CPU %u, up after the shortcut's look, still reads",
			victim);
	KTAP_EXPECT_MSG(!READ_ONCE(c.done),
			"synchronize_rcu_expedited() returned while CPU %u, up after the shortcut's look, still reads",
			victim);
out_r:
	WRITE_ONCE(r.release, 1);
	KTAP_EXPECT(ktest_wait(&r.done, HF_WAIT_MS));
	ktest_stop(tr, HF_WAIT_MS, NULL);
	if (tc) {
		KTAP_EXPECT(ktest_wait(&c.comp, HF_WAIT_MS));
		ktest_stop_if(tc, READ_ONCE(c.done), HF_WAIT_MS);
	}
out_a:
	hf_disarm();
	KTAP_EXPECT(ktest_wait(&a.comp, HF_WAIT_MS));
	ktest_stop_if(ta, READ_ONCE(a.done), HF_WAIT_MS);
	if (tc) {
		synchronize_rcu();
		KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie) &&
				poll_state_synchronize_rcu_full(&full),
				"cookies not complete after the reader and a grace period");
	}
up:
	while (n)
		if (!cpu_online(downed[--n]))
			KTAP_EXPECT(cpu_up(downed[n]) == 0);
	ktest_unpin_current(&saved);
}

/* ---- a preempted reader on a leaf that no fold counted ------------------------ */

void cpuhp_preempted_reader_unfolded(void)
{
	struct rcu_node *leaf, *up;
	struct hf_reader r = { };
	struct task_struct *t;
	unsigned int cpu, c;
	unsigned long cookie;
	struct cpumask down, saved;
	int i;

	if (!IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		ktap_skip("needs CONFIG_PREEMPT_RCU");
		return;
	}
	cpu = ktest_last_online_cpu();
	leaf = per_cpu(rcu_data, cpu).mynode;
	up = leaf->parent;
	if (!up || leaf->grplo == 0) {
		ktap_skip("needs a leaf without CPU 0 (rcutree.rcu_fanout_leaf=2, 4 CPUs)");
		return;
	}
	ktest_pin_current(0, &saved);
	hf_leaf_down(leaf, &down);
	/* Two grace periods: the first folds the leaf out of the tree, the second is clean. */
	synchronize_rcu();
	synchronize_rcu();
	if (!KTAP_EXPECT_MSG(!READ_ONCE(leaf->qsmaskinit) &&
			     !(READ_ONCE(up->qsmaskinit) & leaf->grpmask),
			     "leaf %d-%d still in the tree (qsmaskinit %#lx, parent's %#lx)",
			     leaf->grplo, leaf->grphi, leaf->qsmaskinit, up->qsmaskinit))
		goto out;
	ktap_diag("leaf %d-%d: %u CPUs down, out of the tree", leaf->grplo, leaf->grphi,
		  cpumask_weight(&down));
	/* No fold from here until the reader is queued on the leaf and its CPU gone. */
	hf_arm(rcu_state.gp_kthread);
	for (i = 0; i < HF_WAIT_MS && READ_ONCE(rcu_state.gp_state) == RCU_GP_INIT &&
		    !READ_ONCE(hf_held[RCU_WIN_GP_FOLD]); i++)
		msleep(1);	/* a fold under way when the hook was set: let it end */
	t = hf_reader_through_down(cpu, &r, &down);
	if (!t)
		goto out_hook;
	cookie = start_poll_synchronize_rcu();
	hf_disarm();	/* the held grace period folds now */
	msleep(300);	/* grace periods run: none may end under the reader */
	KTAP_EXPECT_MSG(!READ_ONCE(r.out), "the reader ended early");
	KTAP_EXPECT_MSG(!poll_state_synchronize_rcu(cookie),
			"a grace period ended under a reader preempted on leaf %d-%d, which no fold counted (cookie %lu, now %lu)",
			leaf->grplo, leaf->grphi, cookie, get_state_synchronize_rcu());
	hf_reader_end(&r, t);
	synchronize_rcu();
	synchronize_rcu_expedited();
out_hook:
	hf_disarm();
out:
	for_each_cpu(c, &down)
		KTAP_EXPECT(cpu_up(c) == 0);
	ktest_unpin_current(&saved);
}

/* ---- a preempted reader on a leaf no expedited grace period ever saw ---------- */

/*
 * Run first in the suite, before any case runs an expedited grace period:
 * a leaf without CPU 0 whose CPUs all go down before any expedited grace
 * period has seen them is in no ->expmaskinit. Its CPU comes up and goes
 * down again with a task preempted in a reader there; the expedited grace
 * period after that must wait for the task. Skipped when an expedited
 * grace period already counted the leaf (nothing to test then).
 */
void cpuhp_preempted_reader_exp_unseen(void)
{
	struct hf_waiter e = { };
	struct hf_reader r = { };
	struct rcu_node *leaf;
	struct task_struct *t, *te;
	unsigned int cpu, c;
	struct cpumask down, saved;

	if (!IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		ktap_skip("needs CONFIG_PREEMPT_RCU");
		return;
	}
	cpu = ktest_last_online_cpu();
	leaf = per_cpu(rcu_data, cpu).mynode;
	if (!leaf->parent || leaf->grplo == 0) {
		ktap_skip("needs a leaf without CPU 0 (rcutree.rcu_fanout_leaf=2, 4 CPUs)");
		return;
	}
	if (READ_ONCE(leaf->expmaskinit)) {
		ktap_diag("leaf %d-%d: ->expmaskinit %#lx, %lu expedited grace periods before this case",
			  leaf->grplo, leaf->grphi, READ_ONCE(leaf->expmaskinit),
			  rcu_seq_ctr(READ_ONCE(rcu_state.expedited_sequence)));
		ktap_skip("an expedited grace period already counted the leaf");
		return;
	}
	ktest_pin_current(0, &saved);
	hf_leaf_down(leaf, &down);
	t = hf_reader_through_down(cpu, &r, &down);
	if (!t)
		goto out;
	ktap_diag("leaf %d-%d: CPU %u up and down again, ->expmaskinit %#lx, parent's %#lx",
		  leaf->grplo, leaf->grphi, cpu, READ_ONCE(leaf->expmaskinit),
		  READ_ONCE(leaf->parent->expmaskinit));
	te = hf_start_waiter(&e, synchronize_rcu_expedited, false);
	msleep(300);
	KTAP_EXPECT_MSG(!READ_ONCE(r.out), "the reader ended early");
	KTAP_EXPECT_MSG(!READ_ONCE(e.done),
			"synchronize_rcu_expedited() returned under a reader preempted on leaf %d-%d, which no expedited grace period had counted",
			leaf->grplo, leaf->grphi);
	hf_reader_end(&r, t);
	if (te) {
		KTAP_EXPECT(ktest_wait(&e.comp, HF_WAIT_MS));
		ktest_stop_if(te, READ_ONCE(e.done), HF_WAIT_MS);
	}
out:
	for_each_cpu(c, &down)
		KTAP_EXPECT(cpu_up(c) == 0);
	ktest_unpin_current(&saved);
}
