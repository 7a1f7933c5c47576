/*
 * rcutorture: the read-then-exit tester (read_exit_*): bursts of kthreads
 * that each do one read and exit.
 */
#include "rcutorture.h"

static struct task_struct *read_exit_task;

/* ===== read-then-exit ================================================================================= */

static bool read_exit_child_stop;
static bool read_exit_child_stopped;
static DECLARE_WAIT_QUEUE_HEAD(read_exit_wq);

/* A kthread that does one read on its way out (readers racing with task exit). */
static int rcu_torture_read_exit_child(void *trsp_in)
{
	set_user_nice(current, 19);
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	(void)rcu_torture_one_read(trsp_in, -1);
	return 0;
}

static int rcu_torture_read_exit(void *unused)
{
	DEFINE_TORTURE_RANDOM(trs);
	struct task_struct *tsp;
	int count = 0;

	set_user_nice(current, 19);
	VERBOSE_TOROUT_STRING("rcu_torture_read_exit: Start of test");
	do {
		if (++count > rtp->read_exit_burst) {
			VERBOSE_TOROUT_STRING("rcu_torture_read_exit: End of episode");
			rcu_barrier();
			for (int i = 0; i < rtp->read_exit_delay; i++) {
				schedule_timeout_uninterruptible(HZ);
				if (READ_ONCE(read_exit_child_stop))
					break;
			}
			if (!READ_ONCE(read_exit_child_stop))
				VERBOSE_TOROUT_STRING("rcu_torture_read_exit: Start of episode");
			count = 0;
		}
		if (READ_ONCE(read_exit_child_stop))
			break;
		tsp = kthread_run(rcu_torture_read_exit_child, &trs, "rcu_torture_read_exit_child");
		if (!tsp) {
			VERBOSE_TOROUT_ERRSTRING("out of memory");
			break;
		}
		cond_resched();
		kthread_stop(tsp);
		WRITE_ONCE(rcu_torture_counters.read_exits, rcu_torture_counters.read_exits + 1);
		stutter_wait("rcu_torture_read_exit");
	} while (!READ_ONCE(read_exit_child_stop));
	smp_store_release(&read_exit_child_stopped, true);
	wake_up(&read_exit_wq);
	while (!torture_must_stop())
		schedule_timeout_uninterruptible(1);
	torture_kthread_stopping("rcu_torture_read_exit");
	return 0;
}

int rcu_torture_read_exit_init(void)
{
	if (rtp->read_exit_burst <= 0)
		return 0;
	read_exit_child_stop = false;
	read_exit_child_stopped = false;
	return torture_create_kthread(rcu_torture_read_exit, NULL, read_exit_task);
}

void rcu_torture_read_exit_cleanup(void)
{
	if (!read_exit_task)
		return;
	WRITE_ONCE(read_exit_child_stop, true);
	smp_mb();
	wait_event(read_exit_wq, smp_load_acquire(&read_exit_child_stopped));
	torture_stop_kthread(rcu_torture_read_exit, read_exit_task);
}
