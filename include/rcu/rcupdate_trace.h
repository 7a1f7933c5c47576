/*
 * Tasks Trace RCU (CONFIG_TASKS_TRACE_RCU), Linux's flavor for tracing and
 * BPF hooks whose readers may sleep: rcu_read_lock_trace() and
 * rcu_read_unlock_trace() mark a reader with a per-task nesting count; a
 * grace period (kernel/rcu/tasks_trace.c) waits for every reader that was
 * running or blocked when it started. The read side is cheap: the common
 * unlock is a decrement and one test of trc_reader_special, whose bits
 * send the outermost unlock to a slow path when the grace period asked for
 * a report (need_qs) or the reader blocked (it is on a per-CPU list).
 * rcu_tasks_trace_qs() is the scheduler's hook, called for every task
 * leaving a CPU. Without CONFIG_TASKS_TRACE_RCU nothing here is declared:
 * as in Linux, users select the option.
 */
#ifndef _RCU_RCUPDATE_TRACE_H
#define _RCU_RCUPDATE_TRACE_H

#include <rcu/rcupdate.h>
#include <sched/task.h>
#include <kernel/compiler.h>

/* trc_reader_special.b.need_qs, as Linux's: 0 not yet checked this grace period. */
#define TRC_NEED_QS		0x1	/* the reader must report at its outermost unlock */
#define TRC_NEED_QS_CHECKED	0x2	/* the grace period has looked at this task */

#ifdef CONFIG_TASKS_TRACE_RCU

#ifdef CONFIG_PROVE_RCU
extern struct lockdep_map rcu_trace_lock_map;
/* Inside rcu_read_lock_trace() (lockdep's view); true when the checks are off. */
bool rcu_read_lock_trace_held(void);
#else
static inline bool rcu_read_lock_trace_held(void) { return true; }
#endif

void call_rcu_tasks_trace(struct rcu_head *rhp, rcu_callback_t func);
void synchronize_rcu_tasks_trace(void);
void rcu_barrier_tasks_trace(void);
/* Grace periods completed so far (tests, rcutorture). */
unsigned long rcu_tasks_trace_gp_completed(void);
/* Stall warnings printed so far (tests). */
unsigned long rcu_tasks_trace_stall_warnings(void);
/* Jiffies a grace period waits before a stall warning (0: none): rcupdate.rcu_task_stall_timeout. */
int rcu_tasks_trace_stall_timeout(void);
/* IPIs sent to check running tasks (tests, rcuperf). */
unsigned long rcu_tasks_trace_ipis(void);
/* Readers an IPI handler found inside their section and asked to report (tests). */
unsigned long rcu_tasks_trace_ipi_readers(void);
/* Statistics line at shutdown (from rcu_show_stats()). */
void rcu_tasks_trace_show_stats(void);
/* The boot banner's line (update.c's oddness list). */
void rcu_tasks_trace_bootup_oddness(void);

/* The slow paths, kernel/rcu/tasks_trace.c. */
void rcu_read_unlock_trace_special(struct task_struct *t);
void rcu_tasks_trace_qs_blkd(struct task_struct *t);
/* kthread_exit(): end a reader the exiting task wrongly left open (warns). */
void exit_tasks_rcu_finish_trace(struct task_struct *t);
/* cmpxchg of need_qs from old to new, other bytes kept; returns the old need_qs. */
u8 rcu_trc_cmpxchg_need_qs(struct task_struct *t, u8 old, u8 new);

/*
 * Enter a reader; nests. The reader may sleep, block on a lock or be
 * preempted. With CONFIG_TASKS_TRACE_RCU_READ_MB the grace period reads a
 * running task's nesting from another CPU instead of interrupting it, so
 * the store of the count must be ordered before the reader's loads:
 * smp_mb(), pairing with the smp_mb() before the grace period's read in
 * kernel/rcu/tasks_trace.c:trc_read_running_mb(). Otherwise barrier()
 * suffices: the IPI handler and the scheduler's hook run on this CPU.
 */
static inline void rcu_read_lock_trace(void)
{
	struct task_struct *t = current;

	WRITE_ONCE(t->trc_reader_nesting, READ_ONCE(t->trc_reader_nesting) + 1);
	barrier();
	if (IS_ENABLED(CONFIG_TASKS_TRACE_RCU_READ_MB))
		smp_mb();	/* pairs with trc_read_running_mb()'s first smp_mb() */
	rcu_lock_acquire(&rcu_trace_lock_map);
}

/*
 * The trc_reader_special bits an outermost unlock must act on: on a
 * blocked-readers list, or asked to report (TRC_NEED_QS). Linux tests the
 * whole word, so a task merely checked this grace period (need_qs ==
 * TRC_NEED_QS_CHECKED, as every task becomes at its next context switch)
 * takes the slow path at each outermost unlock there and does nothing in
 * it but a barrier; testing only these bits keeps such unlocks on the fast
 * path. A constant, folded by the compiler.
 */
static __always_inline u32 trc_special_action_mask(void)
{
	typeof(current->trc_reader_special) m = { .b = { .blocked = 0xff, .need_qs = TRC_NEED_QS } };

	return m.s;
}

/*
 * Leave a reader. Before the count reaches its new value it reads
 * INT_MIN + new, so that an IPI handler (or the READ_MB grace period)
 * arriving between our test of trc_reader_special and the final store
 * sees "exiting" and retries later, instead of asking for a report this
 * unlock has already decided not to give.
 */
static inline void rcu_read_unlock_trace(void)
{
	struct task_struct *t = current;
	int nesting;

	rcu_lock_release(&rcu_trace_lock_map);
	nesting = READ_ONCE(t->trc_reader_nesting) - 1;
	barrier();	/* the critical section, then the exiting mark */
	if (IS_ENABLED(CONFIG_TASKS_TRACE_RCU_READ_MB))
		smp_mb();	/* pairs with trc_read_running_mb()'s second smp_mb() */
	/* Wraps for an interrupt's reader inside the outermost unlock (nesting INT_MIN): defined. */
	WRITE_ONCE(t->trc_reader_nesting, (int)((unsigned int)INT_MIN + (unsigned int)nesting));
	barrier();	/* the mark, then the test of trc_reader_special */
	if (likely(!(READ_ONCE(t->trc_reader_special.s) & trc_special_action_mask())) || nesting) {
		WRITE_ONCE(t->trc_reader_nesting, nesting);
		return;
	}
	WARN_ON_ONCE(nesting != 0);
	rcu_read_unlock_trace_special(t);
}

/*
 * The scheduler's hook (kernel/sched/core.c:__schedule(), interrupts off,
 * before the runqueue lock): t, leaving the CPU outside any reader, is in
 * a quiescent state; inside one (and not on its way out of the outermost
 * one) it goes on this CPU's blocked-readers list, which the next grace
 * period scans for readers that are not running.
 */
static inline void rcu_tasks_trace_qs(struct task_struct *t)
{
	int nesting = READ_ONCE(t->trc_reader_nesting);

	if (likely(!READ_ONCE(t->trc_reader_special.b.need_qs)) && likely(!nesting))
		rcu_trc_cmpxchg_need_qs(t, 0, TRC_NEED_QS_CHECKED);
	else if (nesting && nesting != INT_MIN && !READ_ONCE(t->trc_reader_special.b.blocked))
		rcu_tasks_trace_qs_blkd(t);
}

#else /* !CONFIG_TASKS_TRACE_RCU */
static inline void rcu_tasks_trace_qs(struct task_struct *t) { }
static inline void exit_tasks_rcu_finish_trace(struct task_struct *t) { }
static inline void rcu_tasks_trace_show_stats(void) { }
static inline void rcu_tasks_trace_bootup_oddness(void) { }
#endif

#endif
