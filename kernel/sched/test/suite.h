/*
 * What the files of the "sched" KTAP suite share: one suite, printed as
 * one since the start, whose cases live next to the code they test
 * (kernel/sched/test/, kernel/locking/test/ mutexes, kernel/time/test/
 * timers and sleeping); kernel/sched/test/suite.c lists them in order.
 *
 * Every wait is bounded: a case that does not see what it expects within
 * its budget reports a failure and moves on, never hangs the boot. Threads
 * a failed case abandons stay alive (they are leaked, not freed), which is
 * why everything they touch lives in static storage. Thread functions do
 * their work, signal a completion, then ktest_wait_stop() until
 * kthread_stop() (<kernel/ktest.h>).
 */
#ifndef _SCHED_TEST_SUITE_H
#define _SCHED_TEST_SUITE_H

#include "../sched.h"
#include <sched/kthread.h>
#include <sched/completion.h>
#include <locking/mutex.h>
#include <sched/wait.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <time/tick.h>
#include <time/timer.h>
#include <time/delay.h>
#include <kernel/atomic.h>
#include <mm/slab.h>
#include <kernel/errno.h>
#include <kernel/preempt.h>
#include <kernel/string.h>

/* Budgets. Generous: QEMU's TCG runs a guest CPU 10-50x slower than hardware. */
#define ST_START_MS	2000	/* a woken thread reports in */
#define ST_STOP_MS	2000	/* kthread_stop()/kthread_park() return */
#define ST_SPIN_NS	(1000 * NSEC_PER_MSEC)	/* longest busy loop */
#define ST_LATENCY_NS	(10 * NSEC_PER_MSEC)	/* "runs within a few ms" */
#define ST_SLEEP_SLACK_MS 50	/* msleep() may overrun this much under TCG */

static inline int st_set_fifo(struct task_struct *p, int rt_priority)
{
	struct sched_param sp = { .sched_priority = rt_priority };

	return sched_setscheduler_nocheck(p, SCHED_FIFO, &sp);
}

static inline void st_cpumask_one(struct cpumask *m, unsigned int cpu)
{
	cpumask_clear(m);
	cpumask_set_cpu(cpu, m);
}

/* kthread_stop(p) within ST_STOP_MS; false (and reported) if it hangs. */
static inline bool st_stop(struct task_struct *p, int *ret)
{
	return ktest_stop(p, ST_STOP_MS, ret);
}

/* Stop threads that reported done; leave the others running (they are stuck). */
static inline void st_stop_if(struct task_struct *p, bool reported)
{
	ktest_stop_if(p, reported, ST_STOP_MS);
}

/* Poll cond every millisecond for at most ms; true once it holds. */
#define st_poll(cond, ms) ({							\
	u64 __end = local_clock() + (u64)(ms) * NSEC_PER_MSEC;			\
	bool __ok;								\
	while (!(__ok = (cond)) && local_clock() < __end)			\
		msleep(1);							\
	__ok; })

/* The cases, in suite order. */
/* kernel/sched/test/kthread.c */
void sched_kthread_every_cpu(void);
void sched_kthread_park(void);
void sched_kthread_park_again(void);
void sched_kthread_stop_unwoken(void);
void sched_task_freed_after_gp(void);
/* kernel/sched/test/fifo.c */
void sched_fifo_preempt(void);
void sched_fifo_order(void);
/* kernel/sched/test/wait.c */
void sched_wait_event_timeout(void);
void sched_completion_pingpong(void);
/* kernel/sched/test/idle_wakeup.c */
void sched_wakeup_idle_ring(void);
/* kernel/sched/test/migrate.c */
void sched_migrate_sleeping(void);
void sched_migrate_running(void);
void sched_migrate_self(void);
void sched_migrate_about_to_sleep(void);
void sched_migrate_keeps_on_rq(void);
/* kernel/sched/test/balance.c */
void sched_idle_pull_newidle(void);
void sched_idle_pull_kick(void);
void sched_periodic_spread(void);
/* spread.c: n kthreads running fn, all queued on CPU 0 and free to move. */
unsigned int st_start_queued_on_cpu0(struct task_struct **hogs, unsigned int n,
				     int (*fn)(void *), const char *name);
void sched_isolcpus_no_balance(void);
/* kernel/sched/test/hotplug_pull.c */
void sched_pull_not_onto_dying(void);
/* kernel/time/test/sleep.c */
void sched_msleep_accuracy(void);
/* kernel/time/test/timer.c */
void sched_timer_once(void);
void sched_timer_del_sync(void);
void sched_timer_rearm(void);
void sched_timer_idle_cpu(void);
/* kernel/time/test/tick.c */
void sched_tick_skew(void);
/* kernel/locking/test/mutex.c */
void sched_mutex_counter(void);
/* kernel/locking/test/rtmutex.c */
void sched_rt_mutex_pi(void);
void sched_rt_mutex_pi_chain(void);

#endif
