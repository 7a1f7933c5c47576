/*
 * Tasks Rude RCU (CONFIG_TASKS_RUDE_RCU, kernel/rcu/tasks_rude.c), Linux's
 * flavor for code that RCU cannot see: a grace period forces a context
 * switch on every online CPU, so any region that runs with preemption or
 * interrupts disabled is a reader, idle and the entry code that RCU does
 * not watch included. Nothing marks a reader. The API is declared as in
 * Linux, whatever the configuration: a user without the option fails to
 * link (users select TASKS_RUDE_RCU, as Linux's do). The hooks below have
 * stubs, so update.c and the statistics need no #ifdef.
 * Documentation/RCU/tasks-rude.md.
 */
#ifndef _RCU_TASKS_RUDE_H
#define _RCU_TASKS_RUDE_H

#include <rcu/types.h>

void call_rcu_tasks_rude(struct rcu_head *rhp, rcu_callback_t func);
void synchronize_rcu_tasks_rude(void);
void rcu_barrier_tasks_rude(void);
/* Tasks Rude grace periods completed so far (tests, rcutorture, rcuperf). */
unsigned long rcu_tasks_rude_gp_completed(void);
/* Stall warnings printed so far (tests). */
unsigned long rcu_tasks_rude_stall_warnings(void);
/* Linux's one-line state of the grace-period kthread (rcutorture's gp_kthread_dbg). */
void show_rcu_tasks_rude_gp_kthread(void);

#ifdef CONFIG_TASKS_RUDE_RCU
/* The boot banner's line (update.c's oddness list, after Tasks RCU's). */
void rcu_tasks_rude_bootup_oddness(void);
/* Statistics line at shutdown (from rcu_show_stats()). */
void rcu_tasks_rude_show_stats(void);
/*
 * CPU hotplug (kernel/cpu.c, under the hotplug lock): park the CPU's
 * visiting helper, rcu_rude/N, before the CPU goes; unpark it once the
 * CPU is back online.
 */
void rcu_tasks_rude_offline_cpu(unsigned int cpu);
void rcu_tasks_rude_online_cpu(unsigned int cpu);
#else
static inline void rcu_tasks_rude_bootup_oddness(void) { }
static inline void rcu_tasks_rude_show_stats(void) { }
static inline void rcu_tasks_rude_offline_cpu(unsigned int cpu) { }
static inline void rcu_tasks_rude_online_cpu(unsigned int cpu) { }
#endif

#endif
