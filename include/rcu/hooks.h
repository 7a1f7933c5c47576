/*
 * The calls the scheduler, the tick, the idle loop, interrupt entry and
 * CPU bring-up make into RCU. Each is declared here once; both flavors
 * (kernel/rcu/tree.c, kernel/rcu/tiny.c) implement every hook below, and
 * a hook only one flavor has a mechanism for is declared by that flavor's
 * header, the other offering a static inline stub (<rcu/rcutree.h>,
 * <rcu/rcutiny.h>, included from here). Callers include this header, not
 * all of <rcu/rcupdate.h>.
 */
#ifndef _RCU_HOOKS_H
#define _RCU_HOOKS_H

#include <kernel/types.h>

/* The scheduler: a voluntary context switch is a quiescent state (called by schedule()). */
void rcu_note_context_switch(bool preempt);
/* cond_resched()'s hook: reports a quiescent state when RCU wants one. */
int rcu_cond_resched_hook(void);

/*
 * The tick: rcu_sched_clock_irq() runs on every scheduling-clock interrupt
 * (user: the tick interrupted user mode, a quiescent state); rcu_needs_cpu()
 * says whether this CPU must keep its tick while idle (dyntick-idle),
 * called at idle entry with interrupts off and basej the current jiffy.
 * When it answers 0, *nextj is the jiffy by which RCU wants the CPU woken
 * (basej + NEXT_TIMER_MAX_DELTA: never): RCU_FAST_NO_HZ lets a CPU that
 * holds callbacks sleep until then.
 */
void rcu_sched_clock_irq(int user);
int rcu_needs_cpu(unsigned long basej, unsigned long *nextj);

/*
 * Extended-quiescent-state tracking, reached through
 * <kernel/context_tracking.h>: idle entry/exit and interrupt/NMI
 * entry/exit, nesting allowed.
 */
void rcu_idle_enter(void);
void rcu_idle_exit(void);
void rcu_irq_enter(void);
void rcu_irq_exit(void);
void rcu_nmi_enter(void);
void rcu_nmi_exit(void);
/*
 * User mode (ct_user_enter()/ct_user_exit()): the CPU runs no kernel code
 * and holds no reader. Tree RCU: an extended quiescent state on the
 * dynticks counter, as idle is; Tasks RCU: a quiescent state for the
 * task; Tiny RCU: a quiescent state. Task context, interrupts off
 * (ct_user_enter()/ct_user_exit() turn them off).
 */
void rcu_user_enter(void);
void rcu_user_exit(void);

/* The flavor's own hooks and stubs (rcu_cpu_starting() for CPU bring-up, ...). */
#ifdef CONFIG_TINY_RCU
#include <rcu/rcutiny.h>
#else
#include <rcu/rcutree.h>
#endif

#endif
