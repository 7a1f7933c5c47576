/*
 * Context tracking: forwards idle and interrupt/NMI transitions to RCU's
 * dyntick-idle bookkeeping (<rcu/hooks.h>; every RCU flavor implements
 * these hooks). The memory ordering each transition needs lives in the
 * hooks (Tree RCU: the fully ordered dynticks increment in
 * kernel/rcu/tree.c:rcu_dynticks_eqs_flip()), not here. User mode is
 * tracked per CPU so that a stray ct_user_exit() (an entry path that
 * reports twice) cannot unbalance RCU's counters.
 */
#include <kernel/context_tracking.h>
#include <rcu/hooks.h>
#include <kernel/percpu.h>
#include <kernel/bug.h>

static DEFINE_PER_CPU(bool, ct_in_user);
static DEFINE_PER_CPU(unsigned long, ct_user_enters);

void ct_idle_enter(void) { rcu_idle_enter(); }
void ct_idle_exit(void) { rcu_idle_exit(); }
void ct_irq_enter(void) { rcu_irq_enter(); }
void ct_irq_exit(void) { rcu_irq_exit(); }
void ct_nmi_enter(void) { rcu_nmi_enter(); }
void ct_nmi_exit(void) { rcu_nmi_exit(); }

/* Interrupts are off in both: the CPU must not be preempted between the flag and RCU. */
void ct_user_enter(void)
{
	if (WARN_ON_ONCE(this_cpu_read(ct_in_user)))
		return;
	this_cpu_write(ct_in_user, true);
	this_cpu_inc(ct_user_enters);
	rcu_user_enter();
}

void ct_user_exit(void)
{
	if (!this_cpu_read(ct_in_user))
		return;
	rcu_user_exit();
	this_cpu_write(ct_in_user, false);
}

unsigned long ct_user_enter_count(int cpu)
{
	return READ_ONCE(per_cpu(ct_user_enters, cpu));
}
