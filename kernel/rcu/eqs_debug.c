/*
 * CONFIG_RCU_EQS_DEBUG: the checks on idle and irq/NMI transitions (see
 * eqs_debug.h). What they catch, and why each matters to RCU:
 *  - idle entry inside a reader (rcu_read_lock(), or preemption or
 *    softirqs disabled): in idle RCU ignores the CPU, so the reader's
 *    grace period may end under it. Linux's wording: "Illegal idle entry
 *    in RCU read-side critical section."
 *  - an irq/NMI exit without its enter: the nesting goes negative and the
 *    next idle entry would leave RCU watching (or not) at random;
 *  - an irq/NMI enter without its exit, found at the next idle entry:
 *    RCU would keep watching an idle CPU, and never credit it;
 *  - idle entry or exit out of step (entering twice, exiting twice).
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "eqs_debug.h"
#include <rcu/rcupdate.h>
#include <kernel/bug.h>
#include <kernel/preempt.h>
#include <kernel/smp.h>

bool rcu_eqs_debug_idle_enter(long nesting, long irq_nesting)
{
	int depth = rcu_preempt_depth();
	unsigned int pc = preempt_count() & (PREEMPT_MASK | SOFTIRQ_MASK);

	/* The idle loop runs with a zero preempt count: anything above it is a reader. */
	WARN_ONCE(depth > 0 || pc,
		  "rcu: Illegal idle entry in RCU read-side critical section. (CPU %d, rcu_read_lock() nesting %d, preempt_count %#x)\n",
		  raw_smp_processor_id(), depth, pc);
	WARN_ONCE(nesting != 1,
		  "rcu: Idle entry with process-level nesting %ld, expected 1 (CPU %d)\n",
		  nesting, raw_smp_processor_id());
	if (irq_nesting == 0)
		return true;
	WARN_ONCE(1, "rcu: Unbalanced irq/NMI enter: idle entry with irq/NMI nesting %ld, expected 0 (CPU %d); closing it\n",
		  irq_nesting, raw_smp_processor_id());
	return false;
}

bool rcu_eqs_debug_user_enter(long nesting, long irq_nesting)
{
	WARN_ONCE(rcu_preempt_depth() > 0,
		  "rcu: Illegal user-mode entry in RCU read-side critical section. (CPU %d, rcu_read_lock() nesting %d)\n",
		  raw_smp_processor_id(), rcu_preempt_depth());
	WARN_ONCE(nesting != 1,
		  "rcu: User-mode entry with process-level nesting %ld, expected 1 (CPU %d)\n",
		  nesting, raw_smp_processor_id());
	if (irq_nesting == 0)
		return true;
	WARN_ONCE(1, "rcu: Unbalanced irq/NMI enter: user-mode entry with irq/NMI nesting %ld, expected 0 (CPU %d); closing it\n",
		  irq_nesting, raw_smp_processor_id());
	return false;
}

void rcu_eqs_debug_idle_exit(long nesting, long irq_nesting)
{
	WARN_ONCE(nesting != 0 || irq_nesting != 0,
		  "rcu: Idle exit with process-level nesting %ld, irq/NMI nesting %ld, expected 0 and 0 (CPU %d)\n",
		  nesting, irq_nesting, raw_smp_processor_id());
}

bool rcu_eqs_debug_irq_exit(long irq_nesting)
{
	if (irq_nesting > 0)
		return true;
	WARN_ONCE(1, "rcu: Unbalanced irq/NMI exit: no matching enter (irq/NMI nesting %ld, CPU %d); exit ignored\n",
		  irq_nesting, raw_smp_processor_id());
	return false;
}
