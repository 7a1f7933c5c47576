/*
 * The user-mode spinner test helper (user_spin.h): kthreads that stand
 * for user programs spinning on nohz_full CPUs.
 */
#include "user_spin.h"
#include <kernel/context_tracking.h>
#include <kernel/ktest.h>
#include <kernel/preempt.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <time/delay.h>

#define USER_SPIN_START_MS	5000
#define USER_SPIN_STOP_MS	5000

/*
 * One round of "user" computation: a 64-bit LCG step (Knuth's MMIX
 * constants), which no compiler folds away because the value is kept.
 */
static inline u64 user_spin_compute(u64 x)
{
	return x * 6364136223846793005ULL + 1442695040888963407ULL;
}

/*
 * Preemption stays off while "in user mode": an interrupt return must not
 * preempt the task inside the EQS (a real ring-3 interrupt leaves user
 * mode on entry, ct_user_exit(), before anything can schedule). The
 * scheduler gets the CPU the way a return to user mode gives it: the
 * spinner leaves user mode when need_resched is set and calls
 * cond_resched().
 */
static int user_spin_fn(void *arg)
{
	struct user_spin *us = arg;
	unsigned long n = 0;
	u64 x = (u64)us->cpu + 1;

	preempt_disable();
	WRITE_ONCE(us->started, true);
	ct_user_enter();
	while (!READ_ONCE(us->stop)) {
		x = user_spin_compute(x);
		if (++n & 1023)
			continue;
		WRITE_ONCE(us->iters, n);
		if (need_resched()) {
			ct_user_exit();
			preempt_enable();
			cond_resched();
			preempt_disable();
			us->kernel_visits++;
			ct_user_enter();
		}
	}
	ct_user_exit();
	preempt_enable();
	WRITE_ONCE(us->iters, n + (x == 0));	/* keeps x live */
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

bool user_spin_start(struct user_spin *us, int cpu)
{
	us->cpu = cpu;
	us->stop = false;
	us->started = false;
	us->iters = 0;
	us->kernel_visits = 0;
	us->task = ktest_kthread(user_spin_fn, us, cpu, "user_spin/%u");
	if (!us->task)
		return false;
	wake_up_process(us->task);
	return true;
}

bool user_spin_wait_started(struct user_spin *us)
{
	for (unsigned int ms = 0; ms < USER_SPIN_START_MS; ms++) {
		if (READ_ONCE(us->started) && READ_ONCE(us->iters))
			return true;
		msleep(1);
	}
	return false;
}

bool user_spin_stop(struct user_spin *us)
{
	if (!us->task)
		return true;
	WRITE_ONCE(us->stop, true);
	if (!ktest_stop(us->task, USER_SPIN_STOP_MS, NULL))
		return false;
	us->task = NULL;
	return true;
}
