/*
 * A grace-period wait (synchronize_*() or rcu_barrier_*()) run in a
 * background kthread while a test watches it, shared by the Tasks
 * flavors' KTAP suites (tasks_selftest.c, tasks_trace.c). The thread
 * records when the call returned, then waits for kthread_stop() (the
 * ktest shape); a call that never returns leaves the thread stuck, never
 * freed, so its state must be static in the caller.
 */
#ifndef _RCU_TEST_GP_ASYNC_H
#define _RCU_TEST_GP_ASYNC_H

#include <kernel/ktest.h>
#include <sched/kthread.h>
#include <sched/completion.h>
#include <time/time.h>

struct gp_async {
	void (*fn)(void);
	struct task_struct *t;
	struct completion done;
	bool finished;			/* fn returned */
	u64 end_ns;			/* local_clock() when fn returned */
};

static inline int gp_async_fn(void *arg)
{
	struct gp_async *a = arg;

	a->fn();
	a->end_ns = local_clock();
	WRITE_ONCE(a->finished, true);
	complete(&a->done);
	ktest_wait_stop();
	return 0;
}

/* Run fn() in a kthread named name (bound to cpu when cpu >= 0); false (reported) if none. */
static inline bool gp_async_start(struct gp_async *a, void (*fn)(void), int cpu, const char *name)
{
	a->fn = fn;
	a->finished = false;
	init_completion(&a->done);
	a->t = ktest_kthread(gp_async_fn, a, cpu, name);
	if (a->t)
		wake_up_process(a->t);
	return a->t != NULL;
}

/* Stop the thread if fn() returned; leave it (stuck in fn()) otherwise. */
static inline void gp_async_finish(struct gp_async *a, unsigned int ms)
{
	ktest_stop_if(a->t, READ_ONCE(a->finished), ms);
}

#endif
