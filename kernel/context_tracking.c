/*
 * Context tracking: forwards idle, user-mode and interrupt/NMI transitions to RCU's
 * dyntick-idle bookkeeping (<rcu/hooks.h>; every RCU flavor implements
 * these hooks). The memory ordering each transition needs lives in the
 * hooks (Tree RCU: the fully ordered dynticks increment in
 * kernel/rcu/tree.c:rcu_dynticks_eqs_flip()), not here.
 */
#include <kernel/context_tracking.h>
#include <rcu/hooks.h>

void ct_idle_enter(void) { rcu_idle_enter(); }
void ct_idle_exit(void) { rcu_idle_exit(); }
void ct_irq_enter(void) { rcu_irq_enter(); }
void ct_irq_exit(void) { rcu_irq_exit(); }
void ct_nmi_enter(void) { rcu_nmi_enter(); }
void ct_nmi_exit(void) { rcu_nmi_exit(); }
void ct_user_enter(void) { rcu_user_enter(); }
void ct_user_exit(void) { rcu_user_exit(); }
