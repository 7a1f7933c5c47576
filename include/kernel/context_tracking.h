/*
 * Context tracking: the idle loop and every interrupt/NMI entry and exit
 * report here, so RCU knows when a CPU is in an extended quiescent state
 * (idle or user mode, not in an interrupt). RCU's dyntick-idle code
 * implements the rcu_* side; nesting of interrupts (and NMIs) inside idle
 * is allowed. The arch calls ct_user_exit() on every kernel entry from
 * user mode (system call, interrupt, exception) before anything can use
 * RCU, and ct_user_enter() last thing before returning to user mode, with
 * interrupts off.
 */
#ifndef _KERNEL_CONTEXT_TRACKING_H
#define _KERNEL_CONTEXT_TRACKING_H

void ct_idle_enter(void);
void ct_idle_exit(void);
void ct_irq_enter(void);
void ct_irq_exit(void);
void ct_nmi_enter(void);
void ct_nmi_exit(void);
/*
 * The current task enters or leaves user mode (every kernel exit to and
 * entry from user mode). User mode is an extended quiescent state for RCU
 * (<rcu/hooks.h>: rcu_user_enter()), which is what lets a nohz_full CPU
 * running user code go without its tick. Called from task context with
 * preemption disabled (the caller must not be preempted inside).
 */
void ct_user_enter(void);
void ct_user_exit(void);
/* Transitions into user mode on cpu so far (tests and the shutdown report). */
unsigned long ct_user_enter_count(int cpu);

#endif
