/*
 * A test-only delay knob (CONFIG_SCHED_MOVE_DELAY, test kernels): widen
 * the window in which the scheduler moves a task between CPUs. Every
 * mover leaves the old runqueue with p->on_rq == TASK_ON_RQ_MIGRATING
 * (core.c's move_task_begin()) and calls sched_move_delay() before it
 * is queued on the new one (move_task_end(), before it locks that
 * runqueue; move_queued_task(), with both runqueue locks held), so a
 * lockless reader that runs meanwhile meets a task on no queue. Tasks RCU's holdout scan once
 * dropped such a task as blocked (issue 28, item 2); the rcu_tasks
 * self-test rcu_tasks_waits_for_moved_reader and the TASKS04 rcutorture
 * scenario sit readers in that window.
 *
 * sched.move_delay_us delays every such move (torture runs); a
 * self-test names one task with a longer delay
 * (sched_set_move_delay_task()) so that nothing else slows down. The
 * delay is a busy-wait with interrupts off: move_task_end()'s callers
 * hold the moving task's pi_lock there, move_queued_task()'s both
 * runqueue locks (so keep the per-task delay to a few ms for moves that
 * go that way: balancing, an affinity change of a queued task).
 */
#define KPARAM_SUBSYS "sched"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "sched.h"
#include <kernel/param.h>
#include <time/time.h>

static unsigned int sched_move_delay_us;
KPARAM_CLAMP("sched.move_delay_us", sched_move_delay_us, KPARAM_UINT, 0, 10000,
	     "test kernels: busy-wait this many us inside every move of a task between CPUs");

static struct task_struct *move_delay_task;
static unsigned int move_delay_task_us;

void sched_set_move_delay_task(struct task_struct *p, unsigned int us)
{
	WRITE_ONCE(move_delay_task_us, us);
	WRITE_ONCE(move_delay_task, p);
}

void sched_move_delay(struct task_struct *p)
{
	unsigned int us = READ_ONCE(sched_move_delay_us);

	if (p == READ_ONCE(move_delay_task))
		us = max(us, READ_ONCE(move_delay_task_us));
	if (us)
		udelay(us);
}
