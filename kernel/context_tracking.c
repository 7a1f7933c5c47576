/*
 * Context tracking: forwards idle and interrupt/NMI transitions to RCU's
 * dyntick-idle bookkeeping. Until RCU provides them, the rcu_* hooks are
 * empty weak functions.
 */
#include <kernel/context_tracking.h>
#include <kernel/compiler.h>

__weak void rcu_idle_enter(void) { }
__weak void rcu_idle_exit(void) { }
__weak void rcu_irq_enter(void) { }
__weak void rcu_irq_exit(void) { }
__weak void rcu_nmi_enter(void) { }
__weak void rcu_nmi_exit(void) { }

void ct_idle_enter(void) { rcu_idle_enter(); }
void ct_idle_exit(void) { rcu_idle_exit(); }
void ct_irq_enter(void) { rcu_irq_enter(); }
void ct_irq_exit(void) { rcu_irq_exit(); }
void ct_nmi_enter(void) { rcu_nmi_enter(); }
void ct_nmi_exit(void) { rcu_nmi_exit(); }
