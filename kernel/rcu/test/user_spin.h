/*
 * A user-mode spinner for tests, until real user programs exist: a
 * kthread bound to one CPU that brackets pure computation with
 * ct_user_enter()/ct_user_exit(), which is all a user program's time
 * looks like to RCU and the tick (Linux treats KVM guest mode the same
 * way). It touches no kernel state while "in user mode" except its own
 * progress counter and the stop flag (plain memory, as a user program's
 * shared page), and leaves user mode only when the scheduler wants the
 * CPU (need_resched, as the return-to-user path checks it) or it is told
 * to stop. To measure a real user program instead, replace
 * user_spin_start()/user_spin_stop() with starting and killing it.
 */
#ifndef _RCU_TEST_USER_SPIN_H
#define _RCU_TEST_USER_SPIN_H

#include <kernel/types.h>

struct task_struct;

struct user_spin {
	struct task_struct *task;
	int cpu;
	bool stop;			/* set by user_spin_stop() */
	bool started;			/* the spinner entered user mode once */
	unsigned long iters;		/* computation rounds done (published every 1024) */
	unsigned long kernel_visits;	/* left user mode to let the scheduler in */
};

/* Start a spinner on cpu (false, reported in the running KTAP case, if it cannot). */
bool user_spin_start(struct user_spin *us, int cpu);
/* Wait (bounded) until it has entered user mode; false if it never did. */
bool user_spin_wait_started(struct user_spin *us);
/* Stop it and wait for its kthread to exit (bounded); false if it did not. */
bool user_spin_stop(struct user_spin *us);

#endif
