/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * migration of sleeping, running and self-migrating tasks between
 * CPUs (set_cpus_allowed_ptr()), and of a running task that has set a
 * sleeping state but not yet called schedule() (CONFIG_PREEMPT), once
 * more with its move held open (CONFIG_SCHED_MOVE_DELAY) and a thread on
 * the other CPU watching its on_rq, which must never read 0.
 */
#include "suite.h"

/* --- migration ----------------------------------------------------------------------- */

static struct {
	struct completion started, go, done;
	int cpu_before, cpu_after;
	unsigned int target;
	bool self_move, about_to_sleep;
	bool left;		/* the spinner left its loop (and may block from then on) */
} st_mig;

/* Sleeps in `go` until moved (sleeping case), or moves itself. */
static int st_mig_sleeper(void *data)
{
	st_mig.cpu_before = smp_processor_id();
	if (st_mig.self_move) {
		struct cpumask m;

		st_cpumask_one(&m, st_mig.target);
		set_cpus_allowed_ptr(current, &m);
	} else {
		complete(&st_mig.started);
		ktest_wait(&st_mig.go, 5000);
	}
	st_mig.cpu_after = smp_processor_id();
	complete(&st_mig.done);
	ktest_wait_stop();
	return 0;
}

/* Busy until it finds itself on another CPU (bounded). */
static int st_mig_spinner(void *data)
{
	u64 start = local_clock();

	st_mig.cpu_before = smp_processor_id();
	complete(&st_mig.started);
	/*
	 * As a waiter between prepare_to_wait() and schedule(): preempted
	 * there, it must stay runnable, and the move must carry it along.
	 */
	if (st_mig.about_to_sleep)
		set_current_state(TASK_INTERRUPTIBLE);
	while (smp_processor_id() == st_mig.cpu_before && local_clock() - start < ST_SPIN_NS) {
		cpu_relax();
		if (!IS_ENABLED(CONFIG_PREEMPTION))
			cond_resched();
	}
	WRITE_ONCE(st_mig.left, true);
	__set_current_state(TASK_RUNNING);
	st_mig.cpu_after = smp_processor_id();
	complete(&st_mig.done);
	ktest_wait_stop();
	return 0;
}

static const char *const st_mig_what[] = { "sleeping", "running", "self-moving",
					    "about-to-sleep", "about-to-sleep, watched" };

/*
 * Reads the moving thread's on_rq as fast as it can until told to stop.
 * Until the thread leaves its loop it never blocks, so 0 is wrong then;
 * TASK_ON_RQ_MIGRATING shows the watch saw the move's window. on_rq
 * first, st_mig.left second (smp_rmb()): a 0 stored by the thread's later
 * sleep in ktest_wait_stop(), after it set left, then comes with left set.
 */
static struct {
	struct task_struct *p;
	struct completion started, done;
	bool stop;
	unsigned long zero, migrating;
} st_watch;

static int st_watch_fn(void *data)
{
	complete(&st_watch.started);
	while (!READ_ONCE(st_watch.stop)) {
		int on_rq = READ_ONCE(st_watch.p->on_rq);

		smp_rmb();	/* pairs with the unlock in the thread's complete() */
		if (!on_rq && !READ_ONCE(st_mig.left))
			st_watch.zero++;
		else if (on_rq == TASK_ON_RQ_MIGRATING)
			st_watch.migrating++;
		cpu_relax();
	}
	complete(&st_watch.done);
	ktest_wait_stop();
	return 0;
}

/*
 * The watched move's window: long enough that a vCPU the host deschedules
 * for a while (MTTCG on a loaded host) still sees it.
 */
#define ST_MOVE_DELAY_US	100000

/* Start the watcher on cpu and hold p's moves open; NULL if it could not start. */
static struct task_struct *st_watch_start(struct task_struct *p, unsigned int cpu)
{
	struct task_struct *w;

	memset(&st_watch, 0, sizeof(st_watch));
	init_completion(&st_watch.started);
	init_completion(&st_watch.done);
	st_watch.p = p;
	w = ktest_kthread(st_watch_fn, NULL, cpu, "st_watch/%u");
	if (!w)
		return NULL;
	wake_up_process(w);
	if (!KTAP_EXPECT_MSG(ktest_wait(&st_watch.started, ST_START_MS), "watcher never started"))
		return NULL;	/* left alone: its state is static */
	sched_set_move_delay_task(p, ST_MOVE_DELAY_US);
	return w;
}

static void st_watch_finish(struct task_struct *w)
{
	bool done;

	sched_set_move_delay_task(NULL, 0);
	WRITE_ONCE(st_watch.stop, true);
	done = ktest_wait(&st_watch.done, ST_STOP_MS);
	KTAP_EXPECT_MSG(done, "watcher never stopped");
	KTAP_EXPECT_MSG(!st_watch.zero,
			"on_rq read 0 %lu times while the thread, in a sleeping state, was moved",
			st_watch.zero);
	KTAP_EXPECT_MSG(st_watch.migrating, "the watcher never saw the move (TASK_ON_RQ_MIGRATING)");
	ktap_diag("watcher: on_rq 0 read %lu times, TASK_ON_RQ_MIGRATING %lu times", st_watch.zero,
		  st_watch.migrating);
	st_stop_if(w, done);
}

/*
 * how: 0 asleep, 1 running, 2 moves itself, 3 running in a sleeping state,
 * 4 as 3 with the move held open and watched from the destination CPU.
 */
static void st_migrate(int how)
{
	unsigned int from = cpumask_first(cpu_online_mask), to = ktest_last_online_cpu();
	struct task_struct *p, *w = NULL;
	struct cpumask m;
	bool done;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	if (how >= 3 && !IS_ENABLED(CONFIG_PREEMPTION)) {
		ktap_skip("needs CONFIG_PREEMPT (preemption between set_current_state() and schedule())");
		return;
	}
	if (how == 4 && !IS_ENABLED(CONFIG_SCHED_MOVE_DELAY)) {
		ktap_skip("needs CONFIG_SCHED_MOVE_DELAY");
		return;
	}
	memset(&st_mig, 0, sizeof(st_mig));
	init_completion(&st_mig.started);
	init_completion(&st_mig.go);
	init_completion(&st_mig.done);
	st_mig.target = to;
	st_mig.self_move = how == 2;
	st_mig.about_to_sleep = how >= 3;
	p = ktest_kthread(how == 0 || how == 2 ? st_mig_sleeper : st_mig_spinner, NULL, -1,
			  "st_migrate");
	if (!p)
		return;
	st_cpumask_one(&m, from);
	KTAP_EXPECT(set_cpus_allowed_ptr(p, &m) == 0);
	/*
	 * Watched: FIFO, so that it runs on its CPU when its affinity changes
	 * and finish_task_switch() moves it, the delay holding only its
	 * pi_lock; queued there instead, it would be moved under both runqueue
	 * locks, and the watcher's tick, spinning on its own, would stop the
	 * watch for the whole window.
	 */
	if (how == 4)
		KTAP_EXPECT(st_set_fifo(p, 1) == 0);
	wake_up_process(p);
	if (how != 2) {
		bool started = ktest_wait(&st_mig.started, ST_START_MS);

		KTAP_EXPECT_MSG(started, "thread never started");
		if (!started)
			return;
		if (how == 0)
			KTAP_EXPECT_MSG(st_poll(task_state(p) != TASK_RUNNING &&
						!READ_ONCE(p->on_cpu), 1000),
					"thread never went to sleep");
		if (how == 4 && !(w = st_watch_start(p, to)))
			how = 3;	/* reported; the move itself is still checked */
		st_cpumask_one(&m, to);
		KTAP_EXPECT(set_cpus_allowed_ptr(p, &m) == 0);
		if (how == 0) {
			KTAP_EXPECT(task_cpu(p) == to);
			complete(&st_mig.go);
		}
	}
	done = ktest_wait(&st_mig.done, 3000);
	if (w)
		st_watch_finish(w);
	KTAP_EXPECT_MSG(done, "thread never finished");
	KTAP_EXPECT_MSG(st_mig.cpu_before == (int)from, "started on CPU %d, expected %u",
			st_mig.cpu_before, from);
	if (done)
		KTAP_EXPECT_MSG(st_mig.cpu_after == (int)to,
				"%s thread on CPU %d after the move to %u",
				st_mig_what[how], st_mig.cpu_after, to);
	ktap_diag("%s kthread: CPU %d -> CPU %d", st_mig_what[how], st_mig.cpu_before,
		  done ? st_mig.cpu_after : -1);
	st_stop_if(p, done);
}

void sched_migrate_sleeping(void) { st_migrate(0); }
void sched_migrate_running(void) { st_migrate(1); }
void sched_migrate_self(void) { st_migrate(2); }
void sched_migrate_about_to_sleep(void) { st_migrate(3); }
void sched_migrate_keeps_on_rq(void) { st_migrate(4); }
