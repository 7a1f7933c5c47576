/*
 * Planted extended-quiescent-state bugs for CONFIG_RCU_EQS_DEBUG (linked only
 * with the option), a group of the planted-bug dispatcher (planted_bugs.c):
 * rcu_debug_test=NAME, or the group's own alias rcutree.eqs_debug_test=
 *   irq_exit        an irq exit without its enter (ct_irq_exit() from a task)
 *   irq_enter       an irq enter without its exit, found at the next idle entry
 *   idle_in_reader  idle entry (ct_idle_enter()) inside rcu_read_lock()
 * once the boot is done (late_initcall). Each must give its "rcu: ..."
 * WARNING (kernel/rcu/eqs_debug.c), after which the CPU's counters are
 * sane again: a line "rcu: eqs_debug_test: NAME: ... survived" follows a
 * grace period that completed. Empty (the default): nothing.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include <rcu/rcupdate.h>
#include <kernel/context_tracking.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/irqflags.h>
#include <kernel/smp.h>
#include <time/delay.h>
#include "planted_bugs.h"

static char eqs_debug_test[24];
KPARAM_STRING("rcutree.eqs_debug_test", eqs_debug_test,
	      "test: plant an idle/irq bookkeeping bug; an alias of rcu_debug_test= for this group");

static void eqs_irq_exit(void)
{
	unsigned long flags;

	local_irq_save(flags);
	ct_irq_exit();			/* the bug: no ct_irq_enter() before */
	local_irq_restore(flags);
}

static void eqs_irq_enter(void)
{
	unsigned long flags;

	local_irq_save(flags);
	ct_irq_enter();			/* the bug: no ct_irq_exit() after */
	local_irq_restore(flags);
	msleep(100);			/* let this CPU go idle: the check is there */
}

static void eqs_idle_in_reader(void)
{
	unsigned long flags;

	local_irq_save(flags);
	rcu_read_lock();
	ct_idle_enter();		/* the bug: RCU stops watching a reader */
	ct_idle_exit();
	rcu_read_unlock();
	local_irq_restore(flags);
}

static const struct rcu_planted_bug eqs_tests[] = {
	{ "irq_exit", eqs_irq_exit },
	{ "irq_enter", eqs_irq_enter },
	{ "idle_in_reader", eqs_idle_in_reader },
};

/* Inline, from the dispatcher's late_initcall, then a grace period must still end. */
static void eqs_plant(const struct rcu_planted_bug *bug)
{
	pr_info("eqs_debug_test: %s: planting the bug on CPU %d\n", bug->name,
		raw_smp_processor_id());
	bug->run();
	synchronize_rcu();
	pr_info("eqs_debug_test: %s: RCU watching this CPU: %d, a grace period completed: survived\n",
		bug->name, rcu_is_watching());
}

const struct rcu_planted_group rcu_eqs_debug_bugs = {
	.alias = "rcutree.eqs_debug_test",
	.alias_value = eqs_debug_test,
	.bugs = eqs_tests,
	.nr = ARRAY_SIZE(eqs_tests),
	.plant = eqs_plant,
};
