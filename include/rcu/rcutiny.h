/*
 * Tiny RCU's entry points for the rest of the kernel (CONFIG_TINY_RCU: a
 * uniprocessor, non-preemptible kernel). The same hooks as <rcu/rcutree.h>
 * minus the ones only a multi-CPU tree needs (no CPU ever comes online
 * after boot here); kernel/rcu/tiny.c implements them.
 */
#ifndef _RCU_RCUTINY_H
#define _RCU_RCUTINY_H

#include <kernel/types.h>

/* A context switch is a quiescent state, hence a whole grace period (schedule()). */
void rcu_note_context_switch(bool preempt);
/* cond_resched() is never called inside a reader: a quiescent state too. */
int rcu_cond_resched_hook(void);
/* Scheduling-clock interrupt: a quiescent state if it interrupted no reader. */
void rcu_sched_clock_irq(int user);
/* Dyntick-idle: may the tick stop? Not while callbacks are queued. */
int rcu_needs_cpu(void);
/* Idle entry is a quiescent state; the rest track "is RCU watching?". */
void rcu_idle_enter(void);
void rcu_idle_exit(void);
void rcu_irq_enter(void);
void rcu_irq_exit(void);
void rcu_nmi_enter(void);
void rcu_nmi_exit(void);
bool rcu_is_watching(void);
/* The statistics report (at shutdown). */
void rcu_show_stats(void);
/* Grace periods completed so far: every quiescent state ends one. */
unsigned long rcu_gp_completed(void);
/* The grace-period sequence number, in <kernel/rcu/rcu.h>'s encoding (tests, reports). */
unsigned long rcu_get_gp_seq(void);
/* rcutorture's view of the grace-period state (Tiny has no flags: 0). */
void rcutorture_get_gp_data(int *flags, unsigned long *gp_seq);
/* rcutorture's fqs kthread: ask for the next quiescent state now. */
void rcu_force_quiescent_state(void);

#endif
