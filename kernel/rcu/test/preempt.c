/*
 * Preemptible RCU self-tests: the KTAP suite "rcu_preempt", run after the
 * initcalls when the command line says rcutree.preempt_selftest=1 (our own
 * test-only parameter; CONFIG_RCU_PREEMPT_SELFTEST, i.e. RCU_SELFTEST on a
 * PREEMPT_RCU kernel).
 *
 * The cases preempt a reader for real: a SCHED_NORMAL reader kthread bound
 * to one CPU enters rcu_read_lock() and then wakes a SCHED_FIFO kthread
 * bound to the same CPU, which preempts it on the spot. They check the
 * reader's blocked-tasks list entry, that grace periods wait for it (a
 * callback queued meanwhile must find the reader's unlock already done:
 * causality, not timing), that only the outermost rcu_read_unlock() ends
 * it, that expedited grace periods wait for it too (->exp_tasks), and
 * priority boosting: under a real-time hog that would starve the
 * reader, with CONFIG_RCU_BOOST the reader is boosted and leaves its
 * critical section while the hog still spins; without it, it does not.
 *
 * Every wait is bounded; on a failure, records a stuck thread might still
 * touch are leaked, never freed. Figures (reader pair cost, grace-period
 * latency after a preempted reader's unlock, boosted reader completion
 * time) are printed as diagnostics, never judged.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "../tree.h"
#include "common.h"
#include <rcu/rcupdate.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <time/delay.h>
#include <mm/slab.h>
#include <kernel/printk.h>
#include <kernel/barrier.h>

bool rcu_preempt_selftest;	/* also preempt_exp.c */
KPARAM_BOOL("rcutree.preempt_selftest", rcu_preempt_selftest,
	    "run the preemptible-RCU self-tests (KTAP suite \"rcu_preempt\") at boot");

/* How long the boost case's real-time hog spins at most (without boosting: all of it). */
static int preempt_hog_ms = 2000;
KPARAM("rcutree.preempt_hog_ms", preempt_hog_ms, KPARAM_INT, 100, 30000,
       "test only: longest spin of the RT hog in the rcu_preempt boost case, ms");

#define RPT_WAIT_MS	10000	/* a grace period, a thread's job, kthread_stop() */
#define RPT_HOLD_MS	200	/* how long the GP is watched while the reader is preempted */
#define RPT_LOOPS	1000000	/* reader pairs timed */
#ifdef CONFIG_RCU_BOOST_DELAY
#define RPT_BOOST_DELAY	CONFIG_RCU_BOOST_DELAY
#else
#define RPT_BOOST_DELAY	0
#endif

/* --- helpers ------------------------------------------------------------------- */

static struct task_struct *rpt_kthread(int (*fn)(void *), void *data, unsigned int cpu,
				       const char *name, int fifo_prio)
{
	struct task_struct *p = kthread_create_on_cpu(fn, data, cpu, name);
	struct sched_param sp = { .sched_priority = fifo_prio };

	if (!KTAP_EXPECT_MSG(p != NULL, "cannot create %s on CPU %u", name, cpu))
		return NULL;
	if (fifo_prio)
		sched_setscheduler_nocheck(p, SCHED_FIFO, &sp);
	return p;
}

/* Is t on rnp's blocked-tasks list? Within the stretch blocking the current GP? */
static bool rpt_on_list(struct rcu_node *rnp, struct task_struct *t, bool *blocks_gp)
{
	struct list_head *e;
	unsigned long flags;
	bool found = false, in_gp = false;

	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	list_for_each(e, &rnp->blkd_tasks) {
		if (e == rnp->gp_tasks)
			in_gp = true;
		if (e == &t->rcu_node_entry) {
			found = true;
			break;
		}
	}
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	if (blocks_gp)
		*blocks_gp = found && in_gp;
	return found;
}

/*
 * The CPU for the reader and its preempter: the last online CPU other than
 * the caller's, so a spinning preempter never starves the caller (tasks
 * stay on their CPU here unless it is busy when they wake). One CPU: 0.
 */
static unsigned int rpt_pick_cpu(void)
{
	unsigned int cpu, self = raw_smp_processor_id(), last = self;

	for_each_online_cpu(cpu)
		if (cpu != self)
			last = cpu;
	return last;
}

/*
 * Keep the grace-period kthread off cpu while a FIFO task spins there:
 * tasks move only when they wake, so one queued behind the spinner would
 * stall every grace period (and the case would test nothing). Restored
 * with avoid = false.
 */
static void rpt_gp_kthread_avoid(unsigned int cpu, bool avoid)
{
	struct task_struct *gp = READ_ONCE(rcu_state.gp_kthread);
	struct cpumask m;

	cpumask_copy(&m, avoid ? cpu_online_mask : cpu_possible_mask);
	if (avoid)
		cpumask_clear_cpu(cpu, &m);
	if (gp)
		set_cpus_allowed_ptr(gp, &m);
}

/* Wait (sleeping) until t is marked blocked in a reader; false after ms. */
static bool rpt_wait_blocked(struct task_struct *t, unsigned int ms)
{
	u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;

	while (!READ_ONCE(t->rcu_read_unlock_special.b.blocked)) {
		if (local_clock() > end)
			return false;
		msleep(1);
	}
	return true;
}

/*
 * The shared state of one preempted-reader scenario: reader R and
 * preempter H on CPU cpu, the case's own thread (the controller) checking.
 */
struct rpt {
	unsigned int cpu;
	struct task_struct *r, *h;
	struct completion h_go, h_done, r_done, cb_done;
	/* H's view while R is preempted (the blocked-list case). */
	bool h_saw_blocked, h_saw_node, h_saw_listed;
	/* H spinning (the GP-wait and boost cases). */
	bool h_spin, h_spinning, h_stop, h_timed_out;
	unsigned int h_spin_ms;
	/* R's view of itself. */
	bool r_inner_listed, r_inner_blocked, r_outer_clear, r_saw_h_spinning;
	int r_prio_in_reader, r_prio_after;
	bool r_unlocked;
	u64 t_unlock, t_cb;
	/* The callback queued while R is preempted. */
	struct rcu_head rh;
	bool cb_saw_unlocked;
	bool r_finished, h_finished;	/* r_done/h_done seen (each completes once) */
	bool nested;			/* R takes two levels (the list case) */
	unsigned long cookie;		/* H's polling cookie (the list case) */
};

static void rpt_cb(struct rcu_head *rh)
{
	struct rpt *s = container_of(rh, struct rpt, rh);

	s->cb_saw_unlocked = READ_ONCE(s->r_unlocked);
	s->t_cb = local_clock();
	complete(&s->cb_done);
}

/* R: enter a reader, get preempted by H (woken on our CPU), then leave it. */
static int rpt_reader(void *arg)
{
	struct rpt *s = arg;
	struct rcu_node *rnp = per_cpu(rcu_data, s->cpu).mynode;

	rcu_read_lock();
	if (s->nested)
		rcu_read_lock();
	complete(&s->h_go);	/* H is FIFO on this CPU: we are preempted right here */
	if (s->nested) {
		rcu_read_unlock();	/* inner: still a reader, still queued */
		s->r_inner_blocked = READ_ONCE(current->rcu_read_unlock_special.b.blocked);
		s->r_inner_listed = rpt_on_list(rnp, current, NULL);
		mdelay(20);	/* a GP that did not wait for us would end about now */
	}
	s->r_saw_h_spinning = READ_ONCE(s->h_spinning);
	s->r_prio_in_reader = READ_ONCE(current->prio);
	WRITE_ONCE(s->r_unlocked, true);
	s->t_unlock = local_clock();
	smp_mb();	/* r_unlocked is visible before the GP can learn of the unlock */
	rcu_read_unlock();
	s->r_prio_after = READ_ONCE(current->prio);
	s->r_outer_clear = !READ_ONCE(current->rcu_read_unlock_special.s) &&
			   !current->rcu_blocked_node && list_empty(&current->rcu_node_entry);
	complete(&s->r_done);
	ktest_wait_stop();
	return 0;
}

/* H: preempt R; either inspect it and queue a callback, or spin. */
static int rpt_preempter(void *arg)
{
	struct rpt *s = arg;
	struct task_struct *r = s->r;
	struct rcu_node *rnp = per_cpu(rcu_data, s->cpu).mynode;

	wait_for_completion(&s->h_go);
	if (!s->h_spin) {
		s->h_saw_blocked = READ_ONCE(r->rcu_read_unlock_special.b.blocked);
		s->h_saw_node = READ_ONCE(r->rcu_blocked_node) == rnp;
		s->h_saw_listed = rpt_on_list(rnp, r, NULL);
		s->cookie = start_poll_synchronize_rcu();
		call_rcu(&s->rh, rpt_cb);
	} else {
		u64 end = local_clock() + (u64)s->h_spin_ms * NSEC_PER_MSEC;

		WRITE_ONCE(s->h_spinning, true);
		while (!READ_ONCE(s->h_stop)) {
			if (local_clock() > end) {
				s->h_timed_out = true;
				break;
			}
			cpu_relax();
		}
		WRITE_ONCE(s->h_spinning, false);
	}
	complete(&s->h_done);
	ktest_wait_stop();
	return 0;
}

static struct rpt *rpt_alloc(unsigned int cpu)
{
	struct rpt *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!KTAP_EXPECT_MSG(s != NULL, "cannot allocate the test state"))
		return NULL;
	s->cpu = cpu;
	init_completion(&s->h_go);
	init_completion(&s->h_done);
	init_completion(&s->r_done);
	init_completion(&s->cb_done);
	return s;
}

/* Create H (FIFO prio) and R on s->cpu and start them: R runs and gets preempted. */
static bool rpt_start(struct rpt *s, int h_prio)
{
	s->h = rpt_kthread(rpt_preempter, s, s->cpu, "rcu_pt_h/%u", h_prio);
	if (!s->h)
		return false;
	/* H reads s->r only after h_go, which R completes: set it before either runs. */
	s->r = rpt_kthread(rpt_reader, s, s->cpu, "rcu_pt_r/%u", 0);
	if (!s->r) {
		wake_up_process(s->h);
		complete(&s->h_go);	/* lets H run and finish without a reader */
		return false;
	}
	wake_up_process(s->h);	/* blocks on h_go */
	wake_up_process(s->r);
	return true;
}

/* Has R (H) finished its job? Waits at most RPT_WAIT_MS the first time. */
static bool rpt_r_finished(struct rpt *s)
{
	if (!s->r_finished)
		s->r_finished = ktest_wait(&s->r_done, RPT_WAIT_MS);
	return s->r_finished;
}

static bool rpt_h_finished(struct rpt *s)
{
	if (!s->h_finished)
		s->h_finished = ktest_wait(&s->h_done, RPT_WAIT_MS);
	return s->h_finished;
}

/* Stop both threads if they finished; free s only if nothing can touch it any more. */
static void rpt_finish(struct rpt *s, bool cb_pending)
{
	bool h_ok = rpt_h_finished(s), r_ok = rpt_r_finished(s);

	KTAP_EXPECT_MSG(h_ok, "preempting thread did not finish");
	KTAP_EXPECT_MSG(r_ok, "reader thread did not finish");
	if (h_ok)
		kthread_stop(s->h);
	if (r_ok)
		kthread_stop(s->r);
	if (h_ok && r_ok && !cb_pending)
		kfree(s);
}

/* --- cases ------------------------------------------------------------------------- */

/* Nesting is per task, only the outermost unlock matters; the fast path's cost. */
static void rcu_preempt_nesting(void)
{
	u64 t0, t_rcu, t_pre;
	int i;

	KTAP_EXPECT(rcu_preempt_depth() == 0);
	rcu_read_lock();
	rcu_read_lock();
	KTAP_EXPECT(rcu_preempt_depth() == 2);
	KTAP_EXPECT(rcu_read_lock_held());
	KTAP_EXPECT(preempt_count() == 0);	/* readers leave preemption on */
	rcu_read_unlock();
	KTAP_EXPECT(rcu_preempt_depth() == 1);
	rcu_read_unlock();
	KTAP_EXPECT(rcu_preempt_depth() == 0);
	KTAP_EXPECT(current->rcu_read_unlock_special.s == 0);

	t0 = local_clock();
	for (i = 0; i < RPT_LOOPS; i++) {
		rcu_read_lock();
		rcu_read_unlock();
	}
	t_rcu = local_clock() - t0;
	t0 = local_clock();
	for (i = 0; i < RPT_LOOPS; i++) {
		preempt_disable();
		preempt_enable();
	}
	t_pre = local_clock() - t0;
	KTAP_EXPECT(rcu_preempt_depth() == 0);
	ktap_diag("rcu_read_lock/unlock pair %llu.%02llu ns, preempt_disable/enable pair %llu.%02llu ns (%d loops)",
		  t_rcu / RPT_LOOPS, (t_rcu * 100 / RPT_LOOPS) % 100,
		  t_pre / RPT_LOOPS, (t_pre * 100 / RPT_LOOPS) % 100, RPT_LOOPS);
}

/*
 * A nested reader preempted by a FIFO task: it is queued on its CPU's leaf
 * and marked blocked; the inner unlock leaves it there, the outer one
 * takes it off; a callback queued while it was preempted runs only after
 * its outer unlock. Works on one CPU (H sleeps, R resumes).
 */
static void rcu_preempt_blocked_list(void)
{
	struct rpt *s = rpt_alloc(rpt_pick_cpu());
	bool cb_ok;

	if (!s)
		return;
	s->nested = true;
	if (!rpt_start(s, 10))
		return;		/* s leaked: a thread may hold it */
	if (!rpt_r_finished(s)) {
		rpt_finish(s, true);
		return;
	}
	KTAP_EXPECT_MSG(s->h_saw_blocked, "preempted reader not marked blocked");
	KTAP_EXPECT_MSG(s->h_saw_node, "preempted reader's rcu_blocked_node is not CPU %u's leaf", s->cpu);
	KTAP_EXPECT_MSG(s->h_saw_listed, "preempted reader not on its leaf's blkd_tasks list");
	KTAP_EXPECT_MSG(s->r_inner_blocked && s->r_inner_listed,
			"inner rcu_read_unlock() took the reader off the list");
	KTAP_EXPECT_MSG(s->r_outer_clear, "outermost rcu_read_unlock() left the reader queued");
	cb_ok = ktest_wait(&s->cb_done, RPT_WAIT_MS);
	KTAP_EXPECT_MSG(cb_ok, "callback queued while the reader was preempted never ran");
	KTAP_EXPECT_MSG(!cb_ok || s->cb_saw_unlocked,
			"grace period ended before the preempted reader's rcu_read_unlock()");
	KTAP_EXPECT(!cb_ok || poll_state_synchronize_rcu(s->cookie));
	rpt_finish(s, !cb_ok);
}

/*
 * The reader stays preempted (H spins on its CPU) while the controller
 * watches a grace period: it must not end, the reader's leaf must say a
 * task blocks it; once H lets the reader run, the grace period ends after
 * the reader's unlock. Needs a second CPU for the controller.
 */
static void rcu_preempt_gp_waits(void)
{
	struct rcu_node *rnp;
	struct rpt *s;
	unsigned long cookie;
	bool cb_ok, blocks_gp = false;
	unsigned int cpu;
	u64 t_req;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	s = rpt_alloc(rpt_pick_cpu());
	if (!s)
		return;
	rnp = per_cpu(rcu_data, s->cpu).mynode;
	s->h_spin = true;
	s->h_spin_ms = RPT_WAIT_MS;
	cpu = s->cpu;
	rpt_gp_kthread_avoid(cpu, true);
	if (!rpt_start(s, 10))
		goto out;
	if (!KTAP_EXPECT_MSG(rpt_wait_blocked(s->r, RPT_WAIT_MS), "reader never got preempted")) {
		WRITE_ONCE(s->h_stop, true);
		rpt_finish(s, false);
		goto out;
	}
	cookie = start_poll_synchronize_rcu();
	call_rcu(&s->rh, rpt_cb);
	t_req = local_clock();
	msleep(RPT_HOLD_MS);
	KTAP_EXPECT_MSG(READ_ONCE(s->h_spinning), "preempting thread stopped spinning early");
	KTAP_EXPECT_MSG(!poll_state_synchronize_rcu(cookie),
			"grace period ended while a reader was preempted");
	KTAP_EXPECT_MSG(rpt_on_list(rnp, s->r, &blocks_gp) && blocks_gp,
			"preempted reader not in the stretch of its leaf's list blocking the GP");
	KTAP_EXPECT(rcu_preempt_blocked_readers_cgp(rnp));
	WRITE_ONCE(s->h_stop, true);	/* the reader runs again */
	cb_ok = ktest_wait(&s->cb_done, RPT_WAIT_MS);
	KTAP_EXPECT_MSG(cb_ok, "grace period did not end after the reader left");
	if (cb_ok) {
		KTAP_EXPECT_MSG(s->cb_saw_unlocked,
				"grace period ended before the preempted reader's rcu_read_unlock()");
		KTAP_EXPECT(poll_state_synchronize_rcu(cookie));
		ktap_diag("grace period held %llu ms by a preempted reader, ended %llu us after its rcu_read_unlock()",
			  (s->t_unlock - t_req) / NSEC_PER_MSEC,
			  s->t_unlock < s->t_cb ? (s->t_cb - s->t_unlock) / NSEC_PER_USEC : 0);
	}
	rpt_finish(s, !cb_ok);
out:
	rpt_gp_kthread_avoid(cpu, false);	/* s may be freed */
}

/* The expedited grace period's caller, bound away from the reader's CPU. */
struct rpt_exp {
	struct rpt *s;
	struct completion done;
	bool saw_unlocked;
	u64 t_done;
};

static int rpt_exp_caller(void *arg)
{
	struct rpt_exp *x = arg;

	synchronize_rcu_expedited();
	x->saw_unlocked = READ_ONCE(x->s->r_unlocked);
	x->t_done = local_clock();
	complete(&x->done);
	ktest_wait_stop();
	return 0;
}

/*
 * An expedited grace period started while a reader is kept preempted: the
 * reader is queued as blocking it (->exp_tasks), synchronize_rcu_expedited()
 * does not return until the reader's rcu_read_unlock(), and then it does.
 */
static void rcu_preempt_exp_waits(void)
{
	struct rcu_node *rnp;
	struct task_struct *caller;
	struct rpt_exp *x;
	struct rpt *s;
	unsigned long exp0;
	bool done_ok;
	unsigned int cpu;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	x = kzalloc(sizeof(*x), GFP_KERNEL);
	s = rpt_alloc(rpt_pick_cpu());
	if (!KTAP_EXPECT_MSG(x != NULL, "cannot allocate the caller's record") || !s)
		return;
	init_completion(&x->done);
	x->s = s;
	rnp = per_cpu(rcu_data, s->cpu).mynode;
	s->h_spin = true;
	s->h_spin_ms = RPT_WAIT_MS;
	cpu = s->cpu;
	rpt_gp_kthread_avoid(cpu, true);
	if (!rpt_start(s, 10))
		goto out;
	if (!KTAP_EXPECT_MSG(rpt_wait_blocked(s->r, RPT_WAIT_MS), "reader never got preempted")) {
		WRITE_ONCE(s->h_stop, true);
		rpt_finish(s, false);
		goto out;
	}
	exp0 = rcu_exp_gp_completed();
	caller = rpt_kthread(rpt_exp_caller, x, raw_smp_processor_id(), "rcu_pt_x/%u", 0);
	if (!caller) {
		WRITE_ONCE(s->h_stop, true);
		rpt_finish(s, false);
		goto out;
	}
	wake_up_process(caller);
	msleep(RPT_HOLD_MS);
	KTAP_EXPECT_MSG(READ_ONCE(s->h_spinning), "preempting thread stopped spinning early");
	KTAP_EXPECT_MSG(!completion_done(&x->done),
			"synchronize_rcu_expedited() returned while a reader was preempted");
	KTAP_EXPECT_MSG(rcu_preempt_exp_blocked(rnp),
			"no task blocks the expedited grace period on the reader's leaf");
	WRITE_ONCE(s->h_stop, true);	/* the reader runs again */
	done_ok = ktest_wait(&x->done, RPT_WAIT_MS);
	KTAP_EXPECT_MSG(done_ok, "synchronize_rcu_expedited() did not return after the reader left");
	if (done_ok) {
		KTAP_EXPECT_MSG(x->saw_unlocked,
				"synchronize_rcu_expedited() returned before the reader's rcu_read_unlock()");
		KTAP_EXPECT_MSG(rcu_exp_gp_completed() > exp0, "no expedited grace period ran");
		ktap_diag("expedited grace period ended %llu us after the preempted reader's rcu_read_unlock()",
			  s->t_unlock < x->t_done ? (x->t_done - s->t_unlock) / NSEC_PER_USEC : 0);
		kthread_stop(caller);
	}
	rpt_finish(s, !done_ok);
	if (done_ok)
		kfree(x);
out:
	rpt_gp_kthread_avoid(cpu, false);	/* s may be freed */
}

/* synchronize_rcu_expedited() in a kthread, for the boost case: it records when it returned. */
static struct {
	struct completion done;
	u64 t_done;
} rpt_exp_gp;

static int rpt_exp_gp_fn(void *unused)
{
	synchronize_rcu_expedited();
	rpt_exp_gp.t_done = local_clock();
	complete(&rpt_exp_gp.done);
	ktest_wait_stop();
	return 0;
}

/*
 * A SCHED_NORMAL reader preempted by a FIFO hog on its CPU that would keep
 * it off the CPU for preempt_hog_ms. With CONFIG_RCU_BOOST the reader is
 * boosted to kthread_prio (above the hog) and finishes while the hog still
 * spins; without, it runs only once the hog is done, and the grace period
 * waits all that time. exp: the grace period is an expedited one, whose
 * blocked readers are boosted at once (no CONFIG_RCU_BOOST_DELAY), as in
 * Linux; no normal grace period runs to boost them through its FQS scans.
 */
static void rpt_boost_case(bool exp)
{
	bool boost = IS_ENABLED(CONFIG_RCU_BOOST), gp_during_hog = false, gp_done = false;
	int hog_prio = boost ? rcu_params.kthread_prio - 1 : 1;
	unsigned long cookie = 0, boosts0 __maybe_unused = 0;
	struct task_struct *gp_thread = NULL;
	const char *gp = exp ? "expedited grace period" : "grace period";
	struct rcu_node *rnp __maybe_unused;
	struct rpt *s;
	unsigned int cpu;
	u64 t_req, t_gp = 0, end;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	if (hog_prio < 1) {
		ktap_skip("rcutree.kthread_prio=1 leaves no FIFO priority for a hog below the boost");
		return;
	}
	s = rpt_alloc(rpt_pick_cpu());
	if (!s)
		return;
	rnp = per_cpu(rcu_data, s->cpu).mynode;
#ifdef CONFIG_RCU_BOOST
	boosts0 = READ_ONCE(rnp->n_boosts);
#endif
	s->h_spin = true;
	s->h_spin_ms = preempt_hog_ms;
	cpu = s->cpu;
	rpt_gp_kthread_avoid(cpu, true);
	if (!rpt_start(s, hog_prio))
		goto out;
	if (!KTAP_EXPECT_MSG(rpt_wait_blocked(s->r, RPT_WAIT_MS), "reader never got preempted")) {
		WRITE_ONCE(s->h_stop, true);
		rpt_finish(s, false);
		goto out;
	}
	ktap_diag("reader P%d preempted on CPU %u by a FIFO %d hog spinning up to %d ms",
		  s->r->pid, s->cpu, hog_prio, preempt_hog_ms);
	if (exp) {
		init_completion(&rpt_exp_gp.done);
		/* Off the hog's CPU: the hog would keep the grace period from starting. */
		gp_thread = ktest_kthread(rpt_exp_gp_fn, NULL, raw_smp_processor_id() != cpu ?
					  (int)raw_smp_processor_id() : (int)cpumask_first(cpu_online_mask),
					  "rcu_pt_exp/%u");
		if (!gp_thread) {
			WRITE_ONCE(s->h_stop, true);
			rpt_finish(s, false);
			goto out;
		}
		wake_up_process(gp_thread);
	} else {
		cookie = start_poll_synchronize_rcu();
	}
	t_req = local_clock();
	/* Watch until the GP ends, the hog gives up, or a bound long past both. */
	end = t_req + ((u64)preempt_hog_ms + RPT_WAIT_MS) * NSEC_PER_MSEC;
	while (local_clock() < end) {
		bool spinning = READ_ONCE(s->h_spinning);

		if (exp ? completion_done(&rpt_exp_gp.done) : poll_state_synchronize_rcu(cookie)) {
			gp_done = true;
			gp_during_hog = spinning;
			t_gp = exp ? rpt_exp_gp.t_done : local_clock();
			break;
		}
		msleep(1);
	}
	WRITE_ONCE(s->h_stop, true);
	KTAP_EXPECT_MSG(gp_done, "%s never ended", gp);
	if (boost) {
		KTAP_EXPECT_MSG(s->r_saw_h_spinning,
				"boosted reader ran only after the hog stopped (%d ms)", preempt_hog_ms);
		KTAP_EXPECT_MSG(gp_during_hog, "%s ended only after the hog stopped", gp);
		KTAP_EXPECT_MSG(s->r_prio_in_reader == MAX_RT_PRIO - 1 - rcu_params.kthread_prio,
				"reader's priority in its critical section was %d, not %d (FIFO %d)",
				s->r_prio_in_reader, MAX_RT_PRIO - 1 - rcu_params.kthread_prio,
				rcu_params.kthread_prio);
#ifdef CONFIG_RCU_BOOST
		/* rcub counts a boost once it gets the lock back: it may not have run yet. */
		end = local_clock() + (u64)RPT_WAIT_MS * NSEC_PER_MSEC;
		while (READ_ONCE(rnp->n_boosts) == boosts0 && local_clock() < end)
			msleep(1);
		KTAP_EXPECT_MSG(READ_ONCE(rnp->n_boosts) > boosts0, "rcub/N never counted a boost");
#endif
		if (gp_done)
			ktap_diag("boosted reader left its critical section %llu ms after the %s request under a FIFO %d hog (RCU_BOOST_DELAY %d ms), it ended after %llu ms",
				  (s->t_unlock - t_req) / NSEC_PER_MSEC, gp, hog_prio,
				  RPT_BOOST_DELAY, (t_gp - t_req) / NSEC_PER_MSEC);
	} else {
		KTAP_EXPECT_MSG(!gp_during_hog, "%s ended while the reader was starved", gp);
		KTAP_EXPECT_MSG(!s->r_saw_h_spinning, "starved reader ran while the hog spun");
		KTAP_EXPECT_MSG(s->h_timed_out, "hog did not spin its %d ms", preempt_hog_ms);
		if (gp_done)
			ktap_diag("without boosting the %s waited %llu ms, until the FIFO %d hog stopped",
				  gp, (t_gp - t_req) / NSEC_PER_MSEC, hog_prio);
	}
	if (rpt_r_finished(s))
		KTAP_EXPECT_MSG(s->r_prio_after == DEFAULT_PRIO,
				"reader's priority after its unlock is %d", s->r_prio_after);
	rpt_finish(s, false);
	if (gp_thread)
		ktest_stop_if(gp_thread, ktest_wait(&rpt_exp_gp.done, RPT_WAIT_MS), RPT_WAIT_MS);
out:
	rpt_gp_kthread_avoid(cpu, false);	/* s may be freed */
}

static void rcu_preempt_boost(void)
{
	rpt_boost_case(false);
}

static void rcu_preempt_exp_boost(void)
{
	rpt_boost_case(true);
}

static const struct ktap_case rcu_preempt_cases[] = {
	KTAP_CASE(rcu_preempt_nesting),
	KTAP_CASE(rcu_preempt_blocked_list),
	KTAP_CASE(rcu_preempt_gp_waits),
	KTAP_CASE(rcu_preempt_exp_waits),
	KTAP_CASE(rcu_preempt_boost),
	KTAP_CASE(rcu_preempt_exp_boost),
};
KTAP_SUITE(rcu_preempt, rcu_preempt_cases, &rcu_preempt_selftest);
