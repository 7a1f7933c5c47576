/* Tree RCU's entry points for the rest of the kernel (scheduler, tick, idle, interrupts). */
#ifndef _RCU_RCUTREE_H
#define _RCU_RCUTREE_H

#include <kernel/types.h>

/* A voluntary context switch is a quiescent state (called by schedule()). */
void rcu_note_context_switch(bool preempt);
/* cond_resched()'s hook: reports a quiescent state when RCU asked for help. */
int rcu_cond_resched_hook(void);
/* Scheduling-clock interrupt on this CPU. */
void rcu_sched_clock_irq(int user);
/* Dyntick-idle: may this CPU stop its tick? */
int rcu_needs_cpu(void);
/* Extended-quiescent-state tracking, via <kernel/context_tracking.h>. */
void rcu_idle_enter(void);
void rcu_idle_exit(void);
void rcu_irq_enter(void);
void rcu_irq_exit(void);
void rcu_nmi_enter(void);
void rcu_nmi_exit(void);
/* True if RCU is watching this CPU (not in an extended quiescent state). */
bool rcu_is_watching(void);
/* The statistics report (at shutdown and on stalls). */
void rcu_show_stats(void);
/* Grace periods completed so far (for tests and reports). */
unsigned long rcu_gp_completed(void);
/* Ask for a forced quiescent-state scan of the current grace period now (rcutorture). */
void rcu_force_quiescent_state(void);
/* A CPU coming online (before it is marked online). */
void rcu_cpu_starting(unsigned int cpu);

#endif
