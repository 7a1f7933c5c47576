/*
 * Tasks RCU self-tests: the KTAP suite "rcu_tasks", run after the
 * initcalls when the command line says rcutree.tasks_selftest=1 (our own
 * test-only parameter, beside rcutree.selftest; CONFIG_RCU_TASKS_SELFTEST,
 * i.e. RCU_SELFTEST on a TASKS_RCU kernel).
 *
 * The reader is a "spinner": a SCHED_NORMAL kthread in a busy loop that
 * never switches voluntarily (it may be preempted) until the test tells
 * it to stop, then sleeps. The cases check that a grace period waits for
 * it even while it is preempted, and ends once it sleeps or exits; that
 * blocked tasks and idle CPUs are not waited for, while a reader
 * preempted in state D and moved by CPU hotplug is; that callbacks run once,
 * after a grace period; that rcu_barrier_tasks() waits for them; and,
 * with a short rcupdate.rcu_task_stall_timeout, the stall warning. The
 * last case prints synchronize_rcu_tasks() latencies as figures, never
 * judged.
 *
 * Every wait is bounded. State a stuck thread may still touch is static,
 * one instance per case, so it is never freed under it.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include <rcu/tasks.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <time/time.h>
#include <time/delay.h>
#include <kernel/printk.h>
#include <kernel/barrier.h>
#include <kernel/cpu.h>
#include "gp_async.h"

static bool rcu_tasks_selftest;
KPARAM_BOOL("rcutree.tasks_selftest", rcu_tasks_selftest,
	    "run the Tasks RCU self-tests (KTAP suite \"rcu_tasks\") at boot");

#define RTT_WAIT_MS	10000	/* a grace period with no holdout left, a thread's job */
#define RTT_HOLD_MS	300	/* how long a grace period is watched while a spinner holds it */
#define RTT_NCBS	64	/* callbacks in the callbacks-once case */
#define RTT_NLAT	10	/* synchronize_rcu_tasks() calls timed per figure */

/* --- spinners, the readers -------------------------------------------------------- */

struct rtt_spinner {
	struct task_struct *t;
	bool stop;			/* the test says: leave the loop */
	bool exit;			/* then return (exit) instead of sleeping until kthread_stop() */
	bool left;			/* it left the loop (a waited-for completion reads 0 again) */
	bool dstate;			/* spin in TASK_UNINTERRUPTIBLE (a waiter before schedule()) */
	struct completion started, stopped;
};

static int rtt_spin_fn(void *arg)
{
	struct rtt_spinner *s = arg;

	complete(&s->started);
	if (s->dstate)
		set_current_state(TASK_UNINTERRUPTIBLE);
	while (!READ_ONCE(s->stop))
		cpu_relax();	/* preemptible, and never a voluntary switch */
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(s->left, true);
	complete(&s->stopped);
	if (READ_ONCE(s->exit))
		return 0;
	ktest_wait_stop();
	return 0;
}

/* Start s on cpu and wait until it spins; false (reported) if it never did. */
static bool rtt_spinner_start(struct rtt_spinner *s, int cpu, bool exit)
{
	init_completion(&s->started);
	init_completion(&s->stopped);
	s->stop = false;
	s->exit = exit;
	s->left = false;
	s->t = ktest_kthread(rtt_spin_fn, s, cpu, "rtt_spin/%u");
	if (!s->t)
		return false;
	wake_up_process(s->t);
	return KTAP_EXPECT_MSG(ktest_wait(&s->started, RTT_WAIT_MS), "spinner never started");
}

/* Stop s's loop; true once it left it (it then sleeps or exits). */
static bool rtt_spinner_stop(struct rtt_spinner *s)
{
	WRITE_ONCE(s->stop, true);
	return KTAP_EXPECT_MSG(ktest_wait(&s->stopped, RTT_WAIT_MS), "spinner never stopped");
}

/* Wait until the grace-period kthread has listed t as a holdout. */
static bool rtt_wait_holdout(struct task_struct *t)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(RTT_WAIT_MS);

	while (!READ_ONCE(t->rcu_tasks_holdout) && time_before(jiffies, deadline))
		msleep(10);
	return KTAP_EXPECT_MSG(READ_ONCE(t->rcu_tasks_holdout),
			       "P%d never became a Tasks RCU holdout", t->pid);
}

/* --- a grace period (or barrier) in the background -------------------------------- */

static bool rtt_async_start(struct gp_async *a, void (*fn)(void), const char *name)
{
	return gp_async_start(a, fn, -1, name);
}

static void rtt_async_finish(struct gp_async *a)
{
	gp_async_finish(a, RTT_WAIT_MS);
}

/* A FIFO kthread that wakes every few ms on one CPU, preempting whatever runs there. */
static int rtt_preempt_fn(void *unused)
{
	while (!kthread_should_stop())
		msleep(3);
	return 0;
}

/* --- the cases ------------------------------------------------------------------------ */

/*
 * A spinner preempted again and again (never a voluntary switch) holds the
 * grace period, which lists no idle task meanwhile.
 */
static void rcu_tasks_waits_for_preempted(void)
{
	static struct rtt_spinner s;
	static struct gp_async gp;
	struct sched_param sp = { .sched_priority = 1 };
	unsigned int cpu = ktest_last_online_cpu(), c;
	struct task_struct *pre;
	u64 nv0, niv0, t_stop;

	if (!rtt_spinner_start(&s, cpu, false))
		return;
	pre = ktest_kthread(rtt_preempt_fn, NULL, cpu, "rtt_preempt/%u");
	if (pre) {
		sched_setscheduler_nocheck(pre, SCHED_FIFO, &sp);
		wake_up_process(pre);
	}
	nv0 = READ_ONCE(s.t->nvcsw);
	niv0 = READ_ONCE(s.t->nivcsw);
	if (rtt_async_start(&gp, synchronize_rcu_tasks, "rtt_gp") && rtt_wait_holdout(s.t)) {
		msleep(RTT_HOLD_MS);
		KTAP_EXPECT_MSG(!READ_ONCE(gp.finished),
				"synchronize_rcu_tasks() returned while P%d spun", s.t->pid);
		KTAP_EXPECT_MSG(READ_ONCE(s.t->nvcsw) == nv0, "the spinner switched voluntarily");
		KTAP_EXPECT_MSG(!pre || READ_ONCE(s.t->nivcsw) > niv0,
				"the spinner was never preempted (nivcsw %llu)", s.t->nivcsw);
		/* Idle tasks are never listed: no idle CPU holds the grace period up. */
		for_each_online_cpu(c)
			KTAP_EXPECT_MSG(!READ_ONCE(idle_task(c)->rcu_tasks_holdout),
					"CPU %u's idle task is a holdout", c);
		ktap_diag("spinner P%d on CPU %u preempted %llu times while holding the grace period",
			  s.t->pid, cpu, READ_ONCE(s.t->nivcsw) - niv0);
	}
	if (pre)
		ktest_stop(pre, RTT_WAIT_MS, NULL);
	t_stop = local_clock();
	if (rtt_spinner_stop(&s) && gp.t &&
	    KTAP_EXPECT_MSG(ktest_wait(&gp.done, RTT_WAIT_MS),
			    "the grace period did not end after the spinner slept"))
		ktap_diag("grace period ended %llu ms after the spinner was told to stop",
			  (gp.end_ns - t_stop) / NSEC_PER_MSEC);
	rtt_async_finish(&gp);
	ktest_stop_if(s.t, READ_ONCE(s.left), RTT_WAIT_MS);
}

struct rtt_blocker {
	struct completion blocked_on;	/* never completed until the case ends */
	struct completion done;
};

static int rtt_block_fn(void *arg)
{
	struct rtt_blocker *b = arg;

	wait_for_completion(&b->blocked_on);
	complete(&b->done);
	ktest_wait_stop();
	return 0;
}

static int rtt_sync_fn(void *unused)
{
	synchronize_rcu_tasks();
	return 0;
}

/* A task blocked for the whole grace period is not waited for (nor are idle CPUs). */
static void rcu_tasks_ignores_blocked(void)
{
	static struct rtt_blocker b;
	unsigned long deadline = jiffies + msecs_to_jiffies(RTT_WAIT_MS);
	struct task_struct *t;
	u64 ns = 0;

	init_completion(&b.blocked_on);
	init_completion(&b.done);
	t = ktest_kthread(rtt_block_fn, &b, -1, "rtt_block");
	if (!t)
		return;
	wake_up_process(t);
	while ((READ_ONCE(t->on_rq) || task_is_running(t)) && time_before(jiffies, deadline))
		msleep(5);
	if (KTAP_EXPECT_MSG(!READ_ONCE(t->on_rq), "the blocker never blocked")) {
		if (KTAP_EXPECT_MSG(ktest_call_timeout("rtt_sync", -1, rtt_sync_fn, NULL, RTT_WAIT_MS,
						       NULL, &ns),
				    "synchronize_rcu_tasks() waited for blocked P%d", t->pid))
			ktap_diag("synchronize_rcu_tasks() took %llu ms with P%d blocked, %u CPUs",
				  ns / NSEC_PER_MSEC, t->pid, num_online_cpus());
		KTAP_EXPECT_MSG(!completion_done(&b.done), "the blocker woke up meanwhile");
		KTAP_EXPECT(!READ_ONCE(t->rcu_tasks_holdout));
	}
	complete(&b.blocked_on);
	ktest_stop_if(t, ktest_wait(&b.done, RTT_WAIT_MS), RTT_WAIT_MS);
}

/*
 * A reader preempted in a sleeping state (between set_current_state() and
 * schedule(), as any waiter may be) while CPU hotplug moves it: Tasks RCU
 * must still wait for it. The spinner, bound to the CPU going down, is a
 * holdout when cpu_down() starts; the dying CPU's stopper preempts it and
 * moves it, and CONFIG_SCHED_MOVE_DELAY holds that move open 500 ms
 * (several holdout rescans: 100 ms apart at first). The scan once took a
 * task off every runqueue and not TASK_RUNNING for a blocked one, and the
 * grace period ended with the reader still in its loop.
 */
#define RTT_MOVE_DELAY_US	500000

static void rcu_tasks_waits_for_moved_reader(void)
{
	static struct rtt_spinner s;
	static struct gp_async gp;
	unsigned int cpu = ktest_last_online_cpu();
	int down;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || !IS_ENABLED(CONFIG_SCHED_MOVE_DELAY)) {
		ktap_skip("needs CONFIG_HOTPLUG_CPU and CONFIG_SCHED_MOVE_DELAY");
		return;
	}
	if (num_online_cpus() < 2 || cpu == 0) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	s.dstate = true;
	if (!rtt_spinner_start(&s, cpu, false))
		return;
	if (rtt_async_start(&gp, synchronize_rcu_tasks, "rtt_gp") && rtt_wait_holdout(s.t)) {
		KTAP_EXPECT_MSG(task_state(s.t) == TASK_UNINTERRUPTIBLE,
				"the reader is not in TASK_UNINTERRUPTIBLE (state %ld)",
				task_state(s.t));
		sched_set_move_delay_task(s.t, RTT_MOVE_DELAY_US);
		down = cpu_down(cpu);
		sched_set_move_delay_task(NULL, 0);
		if (KTAP_EXPECT_MSG(!down, "cpu_down(%u): %d", cpu, down)) {
			msleep(RTT_HOLD_MS);
			KTAP_EXPECT_MSG(task_cpu(s.t) != cpu, "the reader stayed on CPU %u", cpu);
			KTAP_EXPECT_MSG(!READ_ONCE(gp.finished),
					"synchronize_rcu_tasks() returned while P%d, moved off CPU %u in state D, was in its reader",
					s.t->pid, cpu);
			KTAP_EXPECT_MSG(READ_ONCE(s.t->rcu_tasks_holdout),
					"P%d is no longer a holdout, still in its reader", s.t->pid);
			ktap_diag("reader P%d in state D moved CPU %u -> CPU %u while a holdout; grace period %s %u ms later",
				  s.t->pid, cpu, task_cpu(s.t),
				  READ_ONCE(gp.finished) ? "over" : "still waiting", RTT_HOLD_MS);
		}
	}
	if (rtt_spinner_stop(&s) && gp.t)
		KTAP_EXPECT_MSG(ktest_wait(&gp.done, RTT_WAIT_MS),
				"the grace period did not end after the reader slept");
	rtt_async_finish(&gp);
	ktest_stop_if(s.t, READ_ONCE(s.left), RTT_WAIT_MS);
	if (!cpu_online(cpu))
		KTAP_EXPECT_MSG(!cpu_up(cpu), "CPU %u did not come back", cpu);
}

struct rtt_cb {
	struct rcu_head rh;
	int invoked;
	unsigned long gp_queued;	/* Tasks RCU grace periods completed when queued ... */
	unsigned long gp_invoked;	/* ... and when invoked */
};

static void rtt_cb_fn(struct rcu_head *rh)
{
	struct rtt_cb *cb = container_of(rh, struct rtt_cb, rh);

	cb->gp_invoked = rcu_tasks_gp_completed();
	WRITE_ONCE(cb->invoked, cb->invoked + 1);
}

static void rtt_queue(struct rtt_cb *cb)
{
	cb->invoked = 0;
	cb->gp_queued = rcu_tasks_gp_completed();
	call_rcu_tasks(&cb->rh, rtt_cb_fn);
}

static int rtt_barrier_fn(void *unused)
{
	rcu_barrier_tasks();
	return 0;
}

/* Every callback runs exactly once, after a grace period that ended since it was queued. */
static void rcu_tasks_callbacks_once(void)
{
	static struct rtt_cb cbs[RTT_NCBS];
	unsigned long flags;
	int i, bad_count = 0, bad_gp = 0;

	for (i = 0; i < RTT_NCBS; i++) {
		if (i & 1) {
			local_irq_save(flags);	/* as from an interrupt handler */
			rtt_queue(&cbs[i]);
			local_irq_restore(flags);
		} else {
			rtt_queue(&cbs[i]);
		}
	}
	if (!KTAP_EXPECT_MSG(ktest_call_timeout("rtt_barrier", -1, rtt_barrier_fn, NULL,
						RTT_WAIT_MS, NULL, NULL),
			     "rcu_barrier_tasks() did not return"))
		return;
	/* One more grace period: nothing may run twice. */
	KTAP_EXPECT(ktest_call_timeout("rtt_sync", -1, rtt_sync_fn, NULL, RTT_WAIT_MS, NULL, NULL));
	for (i = 0; i < RTT_NCBS; i++) {
		if (READ_ONCE(cbs[i].invoked) != 1)
			bad_count++;
		else if (cbs[i].gp_invoked <= cbs[i].gp_queued)
			bad_gp++;
	}
	KTAP_EXPECT_MSG(!bad_count, "%d of %d callbacks not invoked exactly once", bad_count,
			RTT_NCBS);
	KTAP_EXPECT_MSG(!bad_gp, "%d callbacks invoked before a grace period ended", bad_gp);
}

/* rcu_barrier_tasks() waits for a callback a holdout delays, and returns once it ran. */
static void rcu_tasks_barrier_waits(void)
{
	static struct rtt_spinner s;
	static struct gp_async bar;
	static struct rtt_cb cb;

	if (!rtt_spinner_start(&s, ktest_last_online_cpu(), false))
		return;
	rtt_queue(&cb);
	if (rtt_async_start(&bar, rcu_barrier_tasks, "rtt_barrier") && rtt_wait_holdout(s.t)) {
		msleep(RTT_HOLD_MS);
		KTAP_EXPECT_MSG(!READ_ONCE(bar.finished), "rcu_barrier_tasks() returned early");
		KTAP_EXPECT_MSG(READ_ONCE(cb.invoked) == 0, "callback invoked while P%d spun",
				s.t->pid);
	}
	if (rtt_spinner_stop(&s) && bar.t &&
	    KTAP_EXPECT_MSG(ktest_wait(&bar.done, RTT_WAIT_MS), "rcu_barrier_tasks() never returned"))
		KTAP_EXPECT_MSG(READ_ONCE(cb.invoked) == 1,
				"rcu_barrier_tasks() returned with the callback invoked %d times",
				READ_ONCE(cb.invoked));
	rtt_async_finish(&bar);
	ktest_stop_if(s.t, READ_ONCE(s.left), RTT_WAIT_MS);
}

/* A holdout that exits: the grace period ends, and drops its reference to the task. */
static void rcu_tasks_holdout_exits(void)
{
	static struct rtt_spinner s;
	static struct gp_async gp;
	unsigned long deadline;
	struct task_struct *t;

	if (!rtt_spinner_start(&s, ktest_last_online_cpu(), true))
		return;
	t = s.t;
	/* Our own reference: t must stay readable after it exits. */
	if (!KTAP_EXPECT(get_task_struct_unless_zero(t)))
		return;
	if (rtt_async_start(&gp, synchronize_rcu_tasks, "rtt_gp") && rtt_wait_holdout(t)) {
		msleep(RTT_HOLD_MS);
		KTAP_EXPECT_MSG(!READ_ONCE(gp.finished), "grace period ended while P%d spun",
				t->pid);
	}
	if (rtt_spinner_stop(&s)) {
		deadline = jiffies + msecs_to_jiffies(RTT_WAIT_MS);
		while (task_state(t) != TASK_DEAD && time_before(jiffies, deadline))
			msleep(5);
		KTAP_EXPECT_MSG(task_state(t) == TASK_DEAD, "P%d did not exit", t->pid);
		if (gp.t && KTAP_EXPECT_MSG(ktest_wait(&gp.done, RTT_WAIT_MS),
					    "the grace period did not end after P%d exited", t->pid)) {
			/* Only ours is left: the holdout list's went when t was dropped from it. */
			KTAP_EXPECT_MSG(__atomic_load_n(&t->usage, __ATOMIC_RELAXED) == 1,
					"P%d has %d references after the grace period", t->pid,
					t->usage);
			KTAP_EXPECT(!READ_ONCE(t->rcu_tasks_holdout));
		}
	}
	rtt_async_finish(&gp);
	put_task_struct(t);
}

/*
 * With rcupdate.rcu_task_stall_timeout at most 5 s, a spinner held that
 * long makes the kthread print the stall warning (tests/boot checks its
 * lines name the spinner), and the grace period still ends after it.
 */
static void rcu_tasks_stall_warning(void)
{
	static struct rtt_spinner s;
	static struct gp_async gp;
	int rtst = rcu_tasks_stall_timeout();
	unsigned long n0 = rcu_tasks_stall_warnings(), deadline;

	if (rtst <= 0 || rtst > 5 * HZ) {
		ktap_skip("needs rcupdate.rcu_task_stall_timeout=1..5 s in jiffies");
		return;
	}
	if (!rtt_spinner_start(&s, ktest_last_online_cpu(), false))
		return;
	ktap_diag("spinner P%d (%s) holds the Tasks RCU grace period for a %d-jiffy stall timeout",
		  s.t->pid, s.t->comm, rtst);
	if (rtt_async_start(&gp, synchronize_rcu_tasks, "rtt_gp")) {
		/* The warning comes at the first rescan past the timeout; rescans are <= 1 s apart. */
		deadline = jiffies + rtst + msecs_to_jiffies(RTT_WAIT_MS);
		while (rcu_tasks_stall_warnings() == n0 && time_before(jiffies, deadline))
			msleep(20);
		KTAP_EXPECT_MSG(rcu_tasks_stall_warnings() > n0, "no stall warning");
		KTAP_EXPECT_MSG(!READ_ONCE(gp.finished), "the grace period ended while P%d spun",
				s.t->pid);
	}
	if (rtt_spinner_stop(&s) && gp.t)
		KTAP_EXPECT_MSG(ktest_wait(&gp.done, RTT_WAIT_MS),
				"the grace period did not end after the stall");
	rtt_async_finish(&gp);
	ktest_stop_if(s.t, READ_ONCE(s.left), RTT_WAIT_MS);
}

/* A CPU-bound task that still sleeps now and then: 2 ms busy, then 1 ms asleep. */
static int rtt_busy_fn(void *arg)
{
	while (!kthread_should_stop()) {
		u64 t0 = local_clock();

		while (local_clock() - t0 < 2 * NSEC_PER_MSEC)
			cpu_relax();
		msleep(1);
	}
	return 0;
}

/* Time RTT_NLAT calls; false if one did not return. */
static bool rtt_time_syncs(const char *what)
{
	u64 ns, sum = 0, max = 0;

	for (int i = 0; i < RTT_NLAT; i++) {
		if (!KTAP_EXPECT_MSG(ktest_call_timeout("rtt_sync", -1, rtt_sync_fn, NULL,
							RTT_WAIT_MS, NULL, &ns),
				     "synchronize_rcu_tasks() did not return (%s)", what))
			return false;
		sum += ns;
		max = ns > max ? ns : max;
	}
	ktap_diag("synchronize_rcu_tasks() %s: mean %llu us, max %llu us over %d calls", what,
		  sum / RTT_NLAT / NSEC_PER_USEC, max / NSEC_PER_USEC, RTT_NLAT);
	return true;
}

/* Figures: latency on an idle system and with one busy (but sleeping) task per CPU. */
static void rcu_tasks_latency(void)
{
	static struct task_struct *busy[NR_CPUS];
	unsigned int cpu;

	if (!rtt_time_syncs("idle"))
		return;
	for_each_online_cpu(cpu) {
		busy[cpu] = ktest_kthread(rtt_busy_fn, NULL, cpu, "rtt_busy/%u");
		if (busy[cpu])
			wake_up_process(busy[cpu]);
	}
	rtt_time_syncs("with a busy task per CPU");
	for_each_online_cpu(cpu)
		if (busy[cpu])
			ktest_stop(busy[cpu], RTT_WAIT_MS, NULL);
}

static const struct ktap_case rcu_tasks_cases[] = {
	KTAP_CASE(rcu_tasks_waits_for_preempted),
	KTAP_CASE(rcu_tasks_ignores_blocked),
	KTAP_CASE(rcu_tasks_waits_for_moved_reader),
	KTAP_CASE(rcu_tasks_callbacks_once),
	KTAP_CASE(rcu_tasks_barrier_waits),
	KTAP_CASE(rcu_tasks_holdout_exits),
	KTAP_CASE(rcu_tasks_stall_warning),
	KTAP_CASE(rcu_tasks_latency),
};
KTAP_SUITE(rcu_tasks, rcu_tasks_cases, &rcu_tasks_selftest);
