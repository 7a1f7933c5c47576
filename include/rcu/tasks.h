/*
 * Tasks RCU, Linux's RCU flavor whose readers are any stretch of code that
 * does not do a voluntary context switch (a trampoline, a stub a tracer
 * patched in): a grace period waits until every task that was runnable
 * when it started has switched voluntarily, gone to sleep, or exited.
 * Idle tasks are never waited for. kernel/rcu/tasks.c implements it with
 * CONFIG_TASKS_RCU (preemptible kernels, or any kernel with
 * CONFIG_FORCE_TASKS_RCU). Otherwise, in a non-preemptible kernel a task
 * can only leave the CPU voluntarily, so any plain RCU grace period is a
 * Tasks RCU one: the API maps onto call_rcu() and friends, as Linux does.
 * The scheduler's hook, rcu_tasks_qs(), is here too, and
 * cond_resched_tasks_rcu_qs() for loops that must not hold Tasks RCU up.
 */
#ifndef _RCU_TASKS_H
#define _RCU_TASKS_H

#include <rcu/rcupdate.h>
#include <sched/task.h>
#include <sched/sched.h>
/* The Rude flavor's API, declared in Linux beside this one (rcupdate.h). */
#include <rcu/tasks_rude.h>

#ifdef CONFIG_TASKS_RCU
void call_rcu_tasks(struct rcu_head *rhp, rcu_callback_t func);
void synchronize_rcu_tasks(void);
void rcu_barrier_tasks(void);
/* Tasks RCU grace periods completed so far (tests, rcutorture). */
unsigned long rcu_tasks_gp_completed(void);
/* Stall warnings printed so far (tests). */
unsigned long rcu_tasks_stall_warnings(void);
/* Statistics line at shutdown (from rcu_show_stats()). */
void rcu_tasks_show_stats(void);
/* The boot banner's Tasks RCU lines (update.c's oddness list). */
void rcu_tasks_bootup_oddness(void);

/*
 * Called by __schedule() for the task leaving the CPU, interrupts off, and
 * by cond_resched_tasks_rcu_qs() for current (nothing here needs
 * interrupts off: one flag, store-release). A voluntary switch ends a Tasks RCU read-side section, so a holdout the
 * grace period is waiting for is released here; the kthread sees the
 * cleared flag at its next scan (the nvcsw snapshot catches switches that
 * happened before the flag was set).
 */
static inline void rcu_tasks_qs(struct task_struct *t, bool preempt)
{
	/*
	 * Release: the task's read-side accesses come before the flag
	 * clears; pairs with smp_load_acquire() in
	 * kernel/rcu/tasks.c:rcu_tasks_check_holdout().
	 */
	if (!preempt && READ_ONCE(t->rcu_tasks_holdout))
		smp_store_release(&t->rcu_tasks_holdout, false);
}

/*
 * User mode is a Tasks RCU quiescent state (rcu_user_enter()/exit(), every
 * flavor, interrupts off): entering it releases a holdout as a voluntary
 * switch does, and a task found in it is not waited for.
 */
static inline void rcu_tasks_user_enter(struct task_struct *t)
{
	/*
	 * Release: the task's kernel-side accesses come before either store;
	 * pairs with smp_load_acquire() in kernel/rcu/tasks.c:rcu_tasks_check_holdout().
	 */
	if (READ_ONCE(t->rcu_tasks_holdout))
		smp_store_release(&t->rcu_tasks_holdout, false);
	smp_store_release(&t->rcu_tasks_in_user, true);
}

static inline void rcu_tasks_user_exit(struct task_struct *t)
{
	WRITE_ONCE(t->rcu_tasks_in_user, false);
	/*
	 * The kernel code that follows must not be seen before the flag
	 * clears, or a scan could credit a task already back in the kernel;
	 * pairs with smp_load_acquire() in rcu_tasks_check_holdout().
	 */
	smp_mb();
}
#else
/* Non-preemptible kernel: every plain RCU grace period is also a Tasks RCU one. */
static inline void call_rcu_tasks(struct rcu_head *rhp, rcu_callback_t func)
{
	call_rcu(rhp, func);
}
static inline void synchronize_rcu_tasks(void) { synchronize_rcu(); }
static inline void rcu_barrier_tasks(void) { rcu_barrier(); }
static inline unsigned long rcu_tasks_gp_completed(void) { return rcu_gp_completed(); }
static inline unsigned long rcu_tasks_stall_warnings(void) { return 0; }
static inline void rcu_tasks_show_stats(void) { }
static inline void rcu_tasks_bootup_oddness(void) { }
static inline void rcu_tasks_qs(struct task_struct *t, bool preempt) { }
static inline void rcu_tasks_user_enter(struct task_struct *t) { }
static inline void rcu_tasks_user_exit(struct task_struct *t) { }
#endif

/*
 * What every Tasks flavor shares (kernel/rcu/tasks_params.c, built with
 * any of them: CONFIG_TASKS_RCU_GENERIC, as Linux's kernel/rcu/tasks.h).
 */
#ifdef CONFIG_TASKS_RCU_GENERIC
/* rcupdate.rcu_task_stall_timeout in jiffies (0: no stall warnings), for every flavor. */
int rcu_tasks_stall_timeout(void);
/* The boot banner's stall-timeout line, before the flavors' own (update.c's oddness list). */
void rcu_tasks_generic_bootup_oddness(void);
#else
static inline int rcu_tasks_stall_timeout(void) { return 0; }
static inline void rcu_tasks_generic_bootup_oddness(void) { }
#endif

/*
 * Linux's cond_resched_tasks_rcu_qs(): a point in a long kernel loop that
 * is a Tasks RCU quiescent state (the loop holds nothing Tasks RCU
 * protects across it) and a reschedule point. cond_resched() alone is a
 * preemption, not a voluntary switch (kernel/sched/core.c:__cond_resched()),
 * so without this a kthread that never sleeps, such as an rcutorture
 * reader in a non-preemptible kernel with CONFIG_FORCE_TASKS_RCU, would
 * hold every Tasks RCU grace period up.
 */
static inline void cond_resched_tasks_rcu_qs(void)
{
	rcu_tasks_qs(current, false);
	cond_resched();
}

#endif
