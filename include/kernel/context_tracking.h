/*
 * Context tracking: the idle loop and every interrupt/NMI entry and exit
 * report here, so RCU knows when a CPU is in an extended quiescent state
 * (idle, not in an interrupt). RCU's dyntick-idle code implements the
 * rcu_* side; nesting of interrupts (and NMIs) inside idle is allowed.
 */
#ifndef _KERNEL_CONTEXT_TRACKING_H
#define _KERNEL_CONTEXT_TRACKING_H

void ct_idle_enter(void);
void ct_idle_exit(void);
void ct_irq_enter(void);
void ct_irq_exit(void);
void ct_nmi_enter(void);
void ct_nmi_exit(void);

#endif
