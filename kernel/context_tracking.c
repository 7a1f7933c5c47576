/*
 * Context tracking: forwards idle, user-mode and interrupt/NMI transitions to RCU's
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
#include <kernel/irqflags.h>

static DEFINE_PER_CPU(bool, ct_in_user);
static DEFINE_PER_CPU(unsigned long, ct_user_enters);

void ct_idle_enter(void) { rcu_idle_enter(); }
void ct_idle_exit(void) { rcu_idle_exit(); }
void ct_irq_enter(void) { rcu_irq_enter(); }
void ct_irq_exit(void) { rcu_irq_exit(); }
void ct_nmi_enter(void) { rcu_nmi_enter(); }
void ct_nmi_exit(void) { rcu_nmi_exit(); }

/*
 * Entry code calls these with interrupts off; nohz_full's test spinner
 * (kernel/rcu/test/user_spin.c) with them on, so they turn them off: the
 * CPU must not take an interrupt between the flag and RCU's counter.
 */
void ct_user_enter(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (!WARN_ON_ONCE(this_cpu_read(ct_in_user))) {
		this_cpu_write(ct_in_user, true);
		this_cpu_inc(ct_user_enters);
		rcu_user_enter();
	}
	local_irq_restore(flags);
}

void ct_user_exit(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (this_cpu_read(ct_in_user)) {
		rcu_user_exit();
		this_cpu_write(ct_in_user, false);
	}
	local_irq_restore(flags);
}

unsigned long ct_user_enter_count(int cpu)
{
	return READ_ONCE(per_cpu(ct_user_enters, cpu));
}
