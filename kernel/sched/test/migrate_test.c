/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/selftest.c):
 * migration of sleeping, running and self-migrating tasks between
 * CPUs (set_cpus_allowed_ptr()), and of a running task that has set a
 * sleeping state but not yet called schedule() (CONFIG_PREEMPT).
 */
#include "sched_test.h"

/* --- migration ----------------------------------------------------------------------- */

static struct {
	struct completion started, go, done;
	int cpu_before, cpu_after;
	unsigned int target;
	bool self_move, about_to_sleep;
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
	__set_current_state(TASK_RUNNING);
	st_mig.cpu_after = smp_processor_id();
	complete(&st_mig.done);
	ktest_wait_stop();
	return 0;
}

static const char *const st_mig_what[] = { "sleeping", "running", "self-moving",
					    "about-to-sleep" };

/* how: 0 asleep, 1 running, 2 moves itself, 3 running in a sleeping state. */
static void st_migrate(int how)
{
	unsigned int from = cpumask_first(cpu_online_mask), to = ktest_last_online_cpu();
	struct task_struct *p;
	struct cpumask m;
	bool done;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	if (how == 3 && !IS_ENABLED(CONFIG_PREEMPTION)) {
		ktap_skip("needs CONFIG_PREEMPT (preemption between set_current_state() and schedule())");
		return;
	}
	memset(&st_mig, 0, sizeof(st_mig));
	init_completion(&st_mig.started);
	init_completion(&st_mig.go);
	init_completion(&st_mig.done);
	st_mig.target = to;
	st_mig.self_move = how == 2;
	st_mig.about_to_sleep = how == 3;
	p = ktest_kthread(how == 1 || how == 3 ? st_mig_spinner : st_mig_sleeper, NULL, -1, "st_migrate");
	if (!p)
		return;
	st_cpumask_one(&m, from);
	KTAP_EXPECT(set_cpus_allowed_ptr(p, &m) == 0);
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
		st_cpumask_one(&m, to);
		KTAP_EXPECT(set_cpus_allowed_ptr(p, &m) == 0);
		if (how == 0) {
			KTAP_EXPECT(task_cpu(p) == to);
			complete(&st_mig.go);
		}
	}
	done = ktest_wait(&st_mig.done, 3000);
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
