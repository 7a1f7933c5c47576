/*
 * __might_sleep() (CONFIG_DEBUG_ATOMIC_SLEEP): a function that may sleep was
 * called where sleeping is forbidden. Printed in Linux's words, at most once
 * a second (a bad caller in a loop would flood the console), and unlike the
 * lockdep reports it does not switch lockdep off.
 */
#include <kernel/might_sleep.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <locking/lockdep.h>
#include <rcu/rcupdate.h>
#include <sched/task.h>
#include <time/time.h>

/*
 * Real tasks only: the boot context and the idle tasks (pid 0) run with
 * interrupts off at times and call into sleeping-capable code before the
 * scheduler can switch (Linux skips boot the same way, by system_state).
 */
static bool might_sleep_checked(struct task_struct *p)
{
	return p && p->pid != 0 && !(p->flags & PF_IDLE);
}

void __might_sleep(const char *file, int line)
{
	static unsigned long last_jiffies;
	static bool printed;
	unsigned int pc = preempt_count();
	int rcu_depth = rcu_preempt_depth();
	bool irqs_off = irqs_disabled();
	struct task_struct *p = current;

	if (likely(!pc && !irqs_off && !rcu_depth) || !might_sleep_checked(p))
		return;
	if (printed && time_before(jiffies, last_jiffies + HZ))
		return;
	printed = true;
	last_jiffies = jiffies;
	printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n", file, line);
	printk(KERN_ERR "in_atomic(): %d, irqs_disabled(): %d, non_block: 0, pid: %d, name: %s\n",
	       pc != 0, irqs_off, p->pid, p->comm);
	printk(KERN_ERR "preempt_count: %x, expected: 0\n", pc);
	printk(KERN_ERR "RCU nest depth: %d, expected: 0\n", rcu_depth);
#ifdef CONFIG_LOCKDEP
	if (READ_ONCE(debug_locks))
		lockdep_print_held_locks(p);
#endif
	dump_stack();
}
