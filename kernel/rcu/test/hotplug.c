/*
 * CPU hotplug self-tests: the KTAP suite "cpuhp", run at boot with
 * cpuhp.selftest=1 (Documentation/RCU/hotplug.md). Each case takes CPUs
 * down and up with cpu_down()/cpu_up() while it checks one promise:
 * tasks leave a dead CPU and per-CPU kthreads park and resume; callbacks
 * queued on a CPU that dies are all invoked, none before its grace
 * period; normal and expedited grace periods keep completing while CPUs
 * come and go; a task preempted in a reader on a leaf whose CPUs all go
 * away still holds up grace periods; with every other CPU offline,
 * synchronize_rcu()'s one-CPU shortcut still satisfies a polling cookie
 * taken while a polled phase was open; and none of the waits returns
 * while a CPU out of the online mask, not yet through rcu_report_dead(),
 * still runs a reader (hotplug_window.c); and a timer left on a
 * CPU that dies runs on time while cpu_down()'s caller is held
 * (hotplug_timer.c). Every wait is bounded.
 */
#define KPARAM_SUBSYS "cpuhp"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "../tree.h"
#include "hotplug.h"
#include <rcu/rcupdate.h>
#include <kernel/cpu.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/atomic.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <mm/slab.h>

static bool cpuhp_selftest;
KPARAM_BOOL("cpuhp.selftest", cpuhp_selftest,
	    "run the CPU-hotplug self-tests (KTAP suite \"cpuhp\") at boot");

#define HP_CYCLES	8	/* down/up cycles of the repeated cases */
#define HP_NCBS		200	/* callbacks queued on a CPU about to die */

/* The n-th CPU other than 0 among the online ones at suite start (wraps). */
static unsigned int hp_pick(unsigned int n)
{
	unsigned int others = num_online_cpus() - 1, cpu, i = 0;

	n %= others;
	for_each_online_cpu(cpu)
		if (cpu && i++ == n)
			return cpu;
	return ktest_last_online_cpu();
}

static bool hp_need_cpus(unsigned int n)
{
	if (num_online_cpus() >= n)
		return true;
	ktap_skip("needs more CPUs");
	return false;
}

/* rcuc/N has parked (down) or left its parked state (up), within 2 s. */
static bool hp_rcuc_parked(unsigned int cpu, bool parked)
{
	struct task_struct *t = per_cpu(rcu_data, cpu).rcu_cpu_kthread_task;

	for (int i = 0; i < 200; i++) {
		if ((task_state(t) == TASK_PARKED) == parked)
			return true;
		msleep(10);
	}
	return false;
}

/* ---- the scheduler side: tasks leave, bound kthreads park and come back ---- */

struct hp_worker {
	atomic_t progress;
};

/*
 * What the sleeper looked like after each cpu_down(): how often it was
 * still asleep with the dead CPU as its last one, and how often the two
 * unlocked reads the case once made saw it "running on the dead CPU".
 */
struct hp_sleeper_reads {
	unsigned int downs_on_dead;	/* downs after which it was asleep there */
	unsigned long reads, torn;	/* unlocked pairs read; of which "running there" */
	unsigned long locked_bad;	/* locked reads that saw it queued or running there */
};

/* task_call_func(): under t's pi_lock and runqueue lock, is t queued or running on CPU *arg? */
static int hp_on_cpu_locked(struct task_struct *t, void *arg)
{
	return task_cpu(t) == *(unsigned int *)arg && (READ_ONCE(t->on_rq) || task_is_running(t));
}

/*
 * For 50 ms after cpu went down, t (which sleeps and wakes every
 * millisecond) is never queued or running on it, read under its locks.
 * The case once made this check with two unlocked reads, task_cpu() and
 * then the state, and a CI run failed it once: a wake-up between the two
 * reads (try_to_wake_up() sets the new CPU, then TASK_RUNNING, both under
 * pi_lock) shows the old CPU with the new state. Those reads are still
 * made alongside and counted in r, to show how often that happens; they
 * are not judged. Under the locks the pair is one state of the task.
 */
static bool hp_not_on_dead_cpu(struct task_struct *t, unsigned int cpu,
			       struct hp_sleeper_reads *r)
{
	u64 t0 = local_clock();
	bool ok = true;

	if (task_cpu(t) == cpu)
		r->downs_on_dead++;
	while (local_clock() - t0 < 50 * NSEC_PER_MSEC) {
		unsigned int seen = task_cpu(t);
		bool running = task_is_running(t);

		r->reads++;
		if (seen == cpu && running)
			r->torn++;
		if (task_call_func(t, hp_on_cpu_locked, &cpu)) {
			r->locked_bad++;
			ok = false;
		}
		cond_resched();
	}
	return ok;
}

/* Sleeps and wakes (timer and wakeup paths), wherever it is allowed to run. */
static int hp_worker_fn(void *arg)
{
	struct hp_worker *w = arg;

	while (!kthread_should_stop()) {
		atomic_inc(&w->progress);
		msleep(1);
	}
	return 0;
}

/* Spins (with cond_resched()): a CPU-bound task the dying CPU must hand off. */
static int hp_spinner_fn(void *arg)
{
	struct hp_worker *w = arg;

	while (!kthread_should_stop()) {
		atomic_inc(&w->progress);
		cond_resched();
	}
	return 0;
}

/* The counter moves within 3 s (a step count, a grace-period count). */
static bool hp_moves(atomic_t *a)
{
	int before = atomic_read(a);

	for (int i = 0; i < 300; i++) {
		if (atomic_read(a) != before)
			return true;
		msleep(10);
	}
	return false;
}

static void cpuhp_sched_down_up(void)
{
	struct hp_worker sleeper = { .progress = ATOMIC_INIT(0) }, spinner = { .progress = ATOMIC_INIT(0) };
	struct hp_sleeper_reads reads = { 0 };
	struct task_struct *ts, *tp;
	unsigned int cpu, i;

	if (!hp_need_cpus(2))
		return;
	KTAP_EXPECT(cpu_down(0) == -EINVAL);
	cpu = hp_pick(0);
	KTAP_EXPECT(cpu_up(cpu) == -EINVAL);	/* already online */
	ts = ktest_kthread(hp_worker_fn, &sleeper, -1, "hp_sleeper");
	tp = ktest_kthread(hp_spinner_fn, &spinner, -1, "hp_spinner");
	if (!ts || !tp)
		return;
	wake_up_process(ts);
	wake_up_process(tp);
	for (i = 0; i < HP_CYCLES; i++) {
		cpu = hp_pick(i);
		if (!KTAP_EXPECT_MSG(cpu_down(cpu) == 0, "cycle %u: CPU %u did not go down", i, cpu))
			break;
		KTAP_EXPECT(!cpu_online(cpu));
		KTAP_EXPECT(cpu_down(cpu) == -EINVAL);	/* already offline */
		KTAP_EXPECT_MSG(sched_nr_running(cpu) == 0, "CPU %u: %u tasks queued while offline",
				cpu, sched_nr_running(cpu));
		KTAP_EXPECT_MSG(hp_not_on_dead_cpu(ts, cpu, &reads),
				"the sleeper is queued or running on dead CPU %u", cpu);
		KTAP_EXPECT_MSG(task_cpu(tp) != cpu, "the spinner is still on dead CPU %u", cpu);
		KTAP_EXPECT_MSG(hp_rcuc_parked(cpu, true), "rcuc/%u not parked", cpu);
		KTAP_EXPECT(hp_moves(&sleeper.progress) && hp_moves(&spinner.progress));
		if (!KTAP_EXPECT_MSG(cpu_up(cpu) == 0, "cycle %u: CPU %u did not come back", i, cpu))
			break;
		KTAP_EXPECT(cpu_online(cpu));
		KTAP_EXPECT_MSG(hp_rcuc_parked(cpu, false), "rcuc/%u still parked", cpu);
	}
	/* The CPU that came back runs tasks again: a kthread bound to it gets there and runs. */
	{
		struct hp_worker b = { .progress = ATOMIC_INIT(0) };
		struct task_struct *tb = ktest_kthread(hp_worker_fn, &b, cpu, "hp_bound/%u");

		if (tb) {
			wake_up_process(tb);
			KTAP_EXPECT(hp_moves(&b.progress));
			KTAP_EXPECT(task_cpu(tb) == cpu);
			ktest_stop(tb, 5000, NULL);
		}
	}
	ktest_stop(ts, 5000, NULL);
	ktest_stop(tp, 5000, NULL);
	ktap_diag("%u down/up cycles, sleeper %d and spinner %d steps", i,
		  atomic_read(&sleeper.progress), atomic_read(&spinner.progress));
	ktap_diag("sleeper asleep on the dead CPU after %u downs; of %lu reads, %lu unlocked saw it running there, %lu locked saw it queued or running there",
		  reads.downs_on_dead, reads.reads, reads.torn, reads.locked_bad);
}

/* ---- callbacks of a dying CPU: all invoked, none early ---- */

/*
 * "Invoked early" is judged on normal grace periods only (callbacks wait
 * for those; the polling API's numbers also move with expedited ones):
 * the cookie is the normal gp_seq a full grace period from now, checked
 * in the callback against the root's gp_seq, which the grace period's
 * cleanup sets before any leaf's (so before any CPU advances callbacks).
 */
static unsigned long hp_gp_cookie(void)
{
	smp_mb();	/* the caller's earlier accesses before the snapshot, as rcu_seq_snap() users do */
	return rcu_seq_snap(&rcu_state.gp_seq);
}

static bool hp_gp_done(unsigned long cookie)
{
	return rcu_seq_done(&rcu_get_root()->gp_seq, cookie);
}

struct hp_cb {
	struct rcu_head rh;
	unsigned long cookie;	/* hp_gp_cookie() when queued */
};

static atomic_t hp_cbs_invoked, hp_cbs_early;

static void hp_cb_fn(struct rcu_head *rh)
{
	struct hp_cb *c = container_of(rh, struct hp_cb, rh);

	if (!hp_gp_done(c->cookie))
		atomic_inc(&hp_cbs_early);	/* its grace period had not ended */
	atomic_inc(&hp_cbs_invoked);
	kfree(c);
}

/* On the CPU about to die (a cross call): queue HP_NCBS callbacks there. */
static void hp_queue_cbs(void *unused)
{
	for (int i = 0; i < HP_NCBS; i++) {
		struct hp_cb *c = kmalloc(sizeof(*c), GFP_ATOMIC);

		if (!c)
			return;
		c->cookie = hp_gp_cookie();
		call_rcu(&c->rh, hp_cb_fn);
	}
}

static void cpuhp_offline_pending_cbs(void)
{
	unsigned long orphaned0, adopted0 = 0, adopted1 = 0;
	unsigned int cpu, c, round;
	struct rcu_data *rdp;

	if (!hp_need_cpus(2))
		return;
	atomic_set(&hp_cbs_invoked, 0);
	atomic_set(&hp_cbs_early, 0);
	for (round = 0; round < 3; round++) {
		cpu = hp_pick(round);
		rdp = per_cpu_ptr(&rcu_data, cpu);
		orphaned0 = READ_ONCE(rdp->n_cbs_orphaned);
		for_each_possible_cpu(c)
			adopted0 += READ_ONCE(per_cpu(rcu_data, c).n_cbs_adopted);
		KTAP_EXPECT(smp_call_function_single(cpu, hp_queue_cbs, NULL, 1) == 0);
		KTAP_EXPECT(cpu_down(cpu) == 0);
		KTAP_EXPECT_MSG(READ_ONCE(rdp->cblist.len) == 0 || rcu_rdp_is_offloaded(rdp),
				"dead CPU %u still holds %ld callbacks", cpu, READ_ONCE(rdp->cblist.len));
		for_each_possible_cpu(c)
			adopted1 += READ_ONCE(per_cpu(rcu_data, c).n_cbs_adopted);
		KTAP_EXPECT(adopted1 - adopted0 == READ_ONCE(rdp->n_cbs_orphaned) - orphaned0);
		ktap_diag("CPU %u: %lu callbacks moved at its death", cpu,
			  READ_ONCE(rdp->n_cbs_orphaned) - orphaned0);
		adopted0 = adopted1 = 0;
		rcu_barrier();	/* every callback queued before it has run */
		KTAP_EXPECT_MSG(atomic_read(&hp_cbs_invoked) == (int)(round + 1) * HP_NCBS,
				"%d of %d callbacks invoked", atomic_read(&hp_cbs_invoked),
				(round + 1) * HP_NCBS);
		KTAP_EXPECT(cpu_up(cpu) == 0);
	}
	KTAP_EXPECT_MSG(!atomic_read(&hp_cbs_early), "%d callbacks invoked before their grace period",
			atomic_read(&hp_cbs_early));
}

/* ---- grace periods while CPUs come and go ---- */

struct hp_gp_driver {
	bool expedited;
	atomic_t gps;
	atomic_t early;
	struct rcu_head rh;
	unsigned long cookie;	/* hp_gp_cookie() when rh was queued */
	atomic_t cb_pending;
};

static void hp_gp_cb(struct rcu_head *rh)
{
	struct hp_gp_driver *d = container_of(rh, struct hp_gp_driver, rh);

	if (!hp_gp_done(d->cookie))
		atomic_inc(&d->early);	/* invoked before its grace period ended */
	atomic_set(&d->cb_pending, 0);
}

static int hp_gp_driver_fn(void *arg)
{
	struct hp_gp_driver *d = arg;

	while (!kthread_should_stop()) {
		if (d->expedited) {
			synchronize_rcu_expedited();
		} else {
			/* A callback in flight as well, checked as hp_cb_fn() does. */
			if (!atomic_read(&d->cb_pending)) {
				atomic_set(&d->cb_pending, 1);
				d->cookie = hp_gp_cookie();
				call_rcu(&d->rh, hp_gp_cb);
			}
			synchronize_rcu();
		}
		atomic_inc(&d->gps);
		cond_resched();
	}
	return 0;
}

static void cpuhp_gps_during_hotplug(void)
{
	struct hp_gp_driver exp = { .expedited = true }, norm = { .expedited = false };
	struct task_struct *te, *tn;
	int e0, n0;
	unsigned int i, cpu;

	if (!hp_need_cpus(2))
		return;
	te = ktest_kthread(hp_gp_driver_fn, &exp, 0, "hp_exp/%u");
	tn = ktest_kthread(hp_gp_driver_fn, &norm, -1, "hp_gp");
	if (!te || !tn)
		return;
	wake_up_process(te);
	wake_up_process(tn);
	for (i = 0; i < HP_CYCLES; i++) {
		cpu = hp_pick(i);
		e0 = atomic_read(&exp.gps);
		n0 = atomic_read(&norm.gps);
		if (!KTAP_EXPECT(cpu_down(cpu) == 0))
			break;
		/* Both kinds of grace period complete with the CPU away, then with it back. */
		KTAP_EXPECT_MSG(atomic_read(&exp.gps) != e0 || hp_moves(&exp.gps),
				"no expedited GP with CPU %u offline", cpu);
		KTAP_EXPECT_MSG(atomic_read(&norm.gps) != n0 || hp_moves(&norm.gps),
				"no normal GP with CPU %u offline", cpu);
		if (!KTAP_EXPECT(cpu_up(cpu) == 0))
			break;
	}
	KTAP_EXPECT(ktest_stop(te, 30000, NULL));
	KTAP_EXPECT(ktest_stop(tn, 30000, NULL));
	rcu_barrier();
	KTAP_EXPECT(!atomic_read(&norm.cb_pending));
	KTAP_EXPECT_MSG(!atomic_read(&norm.early), "%d callbacks invoked before their grace period",
			atomic_read(&norm.early));
	ktap_diag("%u cycles: %d expedited and %d normal grace periods", i, atomic_read(&exp.gps),
		  atomic_read(&norm.gps));
}

/* ---- a preempted reader on a leaf whose CPUs all go (preemptible RCU) ---- */

struct hp_reader {
	bool in, release;
	struct completion done;
};

static int hp_reader_fn(void *arg)
{
	struct hp_reader *r = arg;

	rcu_read_lock();
	WRITE_ONCE(r->in, true);
	while (!READ_ONCE(r->release))
		cpu_relax();	/* preempted here by cpu_down()'s stopper, then moved */
	rcu_read_unlock();
	complete(&r->done);
	ktest_wait_stop();
	return 0;
}

static void cpuhp_preempted_reader_leaf(void)
{
	struct hp_reader r = { };
	struct rcu_node *leaf;
	struct task_struct *t;
	unsigned long cookie;
	unsigned int cpu, c, ndown = 0;
	struct cpumask down;

	if (!IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		ktap_skip("needs CONFIG_PREEMPT_RCU");
		return;
	}
	if (!hp_need_cpus(2))
		return;
	cpu = ktest_last_online_cpu();
	leaf = per_cpu(rcu_data, cpu).mynode;
	init_completion(&r.done);
	t = ktest_kthread(hp_reader_fn, &r, cpu, "hp_reader/%u");
	if (!t)
		return;
	wake_up_process(t);
	while (!READ_ONCE(r.in))
		msleep(1);
	cookie = start_poll_synchronize_rcu();
	cpumask_clear(&down);
	/* Every CPU of the reader's leaf but CPU 0: the leaf is left with no CPU if 0 is not in it. */
	for (c = leaf->grplo; c <= (unsigned int)leaf->grphi; c++) {
		if (c == 0 || !cpu_online(c))
			continue;
		if (KTAP_EXPECT(cpu_down(c) == 0)) {
			cpumask_set_cpu(c, &down);
			ndown++;
		}
	}
	ktap_diag("leaf %d-%d: %u CPUs down, %s", leaf->grplo, leaf->grphi, ndown,
		  leaf->grplo ? "no CPU left on it" : "CPU 0 stays on it");
	KTAP_EXPECT(task_cpu(t) != cpu);
	msleep(300);	/* grace periods may run meanwhile: none may end this one */
	KTAP_EXPECT_MSG(!poll_state_synchronize_rcu(cookie),
			"a grace period ended under a reader preempted on a leaf gone offline");
	WRITE_ONCE(r.release, true);
	KTAP_EXPECT(ktest_wait(&r.done, 10000));
	synchronize_rcu();
	KTAP_EXPECT(poll_state_synchronize_rcu(cookie));
	for_each_cpu(c, &down)
		KTAP_EXPECT(cpu_up(c) == 0);
	ktest_stop(t, 5000, NULL);
	/* A grace period after the leaf is back and its reader gone. */
	synchronize_rcu();
	synchronize_rcu_expedited();
}

/*
 * Non-preemptible RCU with one CPU online: synchronize_rcu() returns at
 * once (rcu_blocking_is_gp()), yet must count for pollers. A cookie taken
 * while a polled phase is open (opened here as an expedited grace period
 * opens one) needs the phase after it: two waits must complete it, as
 * rcutorture's writer checks ("Cookie check 3").
 */
static void cpuhp_trivial_sync_cookie(void)
{
	unsigned long snap, cookie;
	unsigned int cpu, n = 0;
	int downed[NR_CPUS];

	if (IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		ktap_skip("preemptible RCU has no one-CPU shortcut");
		return;
	}
	if (!hp_need_cpus(2))
		return;
	for_each_online_cpu(cpu)
		if (cpu && KTAP_EXPECT_MSG(cpu_down(cpu) == 0, "CPU %u did not go down", cpu))
			downed[n++] = cpu;
	if (num_online_cpus() == 1) {
		snap = rcu_exp_poll_start();	/* a polled phase is open */
		cookie = get_state_synchronize_rcu();
		synchronize_rcu();
		synchronize_rcu();
		KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
				"cookie %lu not complete after two one-CPU waits (now %lu)", cookie,
				get_state_synchronize_rcu());
		rcu_exp_poll_end(snap);
	}
	while (n)
		KTAP_EXPECT(cpu_up(downed[--n]) == 0);
}

static const struct ktap_case cpuhp_cases[] = {
	/* First: it needs a leaf no expedited grace period has seen yet. */
	KTAP_CASE(cpuhp_preempted_reader_exp_unseen),
	KTAP_CASE(cpuhp_sched_down_up),
	KTAP_CASE(cpuhp_offline_pending_cbs),
	KTAP_CASE(cpuhp_gps_during_hotplug),
	KTAP_CASE(cpuhp_preempted_reader_leaf),
	KTAP_CASE(cpuhp_trivial_sync_cookie),
	KTAP_CASE(cpuhp_dying_reader_waits),
	KTAP_CASE(cpuhp_trivial_gp_joiner),
	KTAP_CASE(cpuhp_preempted_reader_unfolded),
	KTAP_CASE(cpuhp_exp_starting_cpu),
	KTAP_CASE(cpuhp_dead_cpu_timers),
};
KTAP_SUITE(cpuhp, cpuhp_cases, &cpuhp_selftest);
