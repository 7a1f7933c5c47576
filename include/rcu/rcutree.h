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
/* rcu_state.gp_seq, in <kernel/rcu/rcu.h>'s encoding (tests, reports). */
unsigned long rcu_get_gp_seq(void);
/* rcutorture's view of the grace-period state: rcu_state's gp_flags and gp_seq. */
void rcutorture_get_gp_data(int *flags, unsigned long *gp_seq);
/* rcutorture's boost test: GP kthread priority, is boosting to blame, readers boosted so far. */
int rcu_get_gp_kthreads_prio(void);
bool rcu_check_boost_fail(unsigned long gp_state, int *cpup);
unsigned long rcu_get_n_boosts(void);
/* Ask for a forced quiescent-state scan of the current grace period now (rcutorture). */
void rcu_force_quiescent_state(void);
/* A CPU coming online (before it is marked online). */
void rcu_cpu_starting(unsigned int cpu);

#endif
