/*
 * Lockdep-RCU (CONFIG_PROVE_RCU): the *_held() questions rcu_dereference*()
 * and RCU_LOCKDEP_WARN() ask, and Linux's "suspicious RCU usage" splat.
 *
 * A reader is what the flavor already counts: the task's nesting with
 * preemptible RCU, the preempt count (rcu_read_lock() disables preemption)
 * or disabled interrupts otherwise, plus the rcu_read_lock pseudo-lock on
 * the lockdep held-lock stack, which is what the reports list.
 */
#include <rcu/rcupdate.h>
#include <rcu/srcu.h>
#include <locking/lockdep.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <sched/task.h>

/* Static, so lockdep keys its class by address: one class, "rcu_read_lock". */
struct lockdep_map rcu_lock_map = STATIC_LOCKDEP_MAP_INIT("rcu_read_lock", NULL);

/*
 * Checking starts once the scheduler runs (early boot is one task with
 * interrupts off: nothing to prove) and stops when lockdep has given up,
 * or inside lockdep itself.
 */
bool debug_lockdep_rcu_enabled(void)
{
	struct task_struct *p;

	if (!READ_ONCE(debug_locks) || !rcu_lockdep_scheduler_state())
		return false;
	p = current;
	return p && !p->lockdep.recursion;
}

bool rcu_read_lock_sched_held(void)
{
	if (!debug_lockdep_rcu_enabled())
		return true;
	if (!rcu_is_watching())
		return false;
	return preempt_count() != 0 || irqs_disabled();
}

bool rcu_read_lock_held(void)
{
	if (!debug_lockdep_rcu_enabled())
		return true;
	if (!rcu_is_watching())
		return false;
	/* Non-preemptible RCU: any preemption-off region is a reader too (one flavor since 4.20). */
	return lock_is_held(&rcu_lock_map) || rcu_preempt_depth() > 0 ||
	       preempt_count() != 0 || irqs_disabled();
}

/* rcu_read_lock_bh() is rcu_read_lock() here; softirq context counts too. */
bool rcu_read_lock_bh_held(void)
{
	return in_softirq() || rcu_read_lock_held();
}

#ifdef CONFIG_SRCU
bool srcu_read_lock_held(const struct srcu_struct *ssp)
{
	if (!debug_lockdep_rcu_enabled())
		return true;
	return lock_is_held(&ssp->dep_map);
}
#endif

void lockdep_rcu_suspicious(const char *file, int line, const char *s)
{
	struct task_struct *p = current;
	int dl = READ_ONCE(debug_locks);

	printk(KERN_WARNING "\n");
	printk(KERN_WARNING "=============================\n");
	printk(KERN_WARNING "WARNING: suspicious RCU usage\n");
	printk(KERN_WARNING "-----------------------------\n");
	printk(KERN_WARNING "%s:%d %s!\n", file, line, s);
	printk(KERN_WARNING "\nother info that might help us debug this:\n\n");
	printk(KERN_WARNING "\nrcu_scheduler_active = %d, debug_locks = %d\n",
	       rcu_lockdep_scheduler_state(), dl);
	if (!dl)
		printk(KERN_WARNING "Possible false positive due to lockdep disabling via debug_locks = 0\n");
	if (!rcu_is_watching())
		printk(KERN_WARNING "RCU used illegally from extended quiescent state!\n");
	lockdep_print_held_locks(p);
	printk(KERN_WARNING "\nstack backtrace:\n");
	dump_stack();
}
