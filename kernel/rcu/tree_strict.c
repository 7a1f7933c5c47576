/*
 * Strict grace periods (CONFIG_RCU_STRICT_GRACE_PERIOD, as in Linux 5.9+):
 * every grace period as short as RCU can make it, so that a reader that
 * keeps using a pointer after its rcu_read_unlock(), or an updater that
 * frees before a grace period, meets the freed memory within seconds.
 *
 * Where a normal kernel waits, this one hurries:
 *  - Readers. The outermost rcu_read_unlock() outside every other reader
 *    reports this CPU's quiescent state at once (rcu_read_unlock_strict()
 *    for the non-preemptible flavor; for the preemptible one,
 *    rcu_read_lock() sets the task's need_qs so that its unlock takes the
 *    slow path, which calls rcu_qs()), then spins rcutree.rcu_unlock_delay
 *    microseconds so a leaked pointer has time to meet its freed object.
 *  - The grace-period kthread. Its first force-quiescent-state scan is
 *    due at once (rcutree.jiffies_till_first_fqs defaults to 0); at each
 *    grace period's start and end it sends every online CPU an IPI, and
 *    at each later scan the CPUs still holding it up. The IPI reports a
 *    quiescent state when it interrupted idle or a task outside every
 *    reader, and wakes the CPU's rcuc kthread, whose context switch is a
 *    quiescent state too (Linux's rcu_strict_gp_boundary() invokes the RCU
 *    core the same way).
 *  - The tree. The leaf fanout defaults to 2 (Kconfig), so that even a
 *    two-CPU guest reports through more than one rcu_node.
 *
 * The hooks are one line each in rcupdate.h, tree_plugin.c and tree_gp.c;
 * without the option they are empty static inlines (tree.h, rcupdate.h).
 * Only for NR_CPUS <= 4 (Kconfig): it costs an IPI per CPU per grace period.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <kernel/percpu.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <time/delay.h>

/* Linux's rcutree.rcu_unlock_delay: microseconds to spin after each unlock-time report. */
static int rcu_unlock_delay;
KPARAM("rcutree.rcu_unlock_delay", rcu_unlock_delay, KPARAM_INT, 0, 1000,
       "strict grace periods: microseconds of delay after each rcu_read_unlock() report");

/* Strict IPIs taken, per CPU (the strict self-test reads them). */
static DEFINE_PER_CPU(unsigned long, rcu_strict_n_ipis);

unsigned long rcu_strict_ipis(int cpu)
{
	return READ_ONCE(per_cpu(rcu_strict_n_ipis, cpu));
}

void rcu_strict_unlock_delay(void)
{
	if (rcu_unlock_delay)
		udelay(rcu_unlock_delay);
}

/*
 * Before a reader's report (interrupts off): make sure this CPU has noted
 * the grace period now running. rcu_qs() notes it only if the leaf's lock
 * is free (note_gp_changes() tries once), and a report to a grace period
 * the CPU has not noted is dropped; right after a grace period starts the
 * GP kthread holds each leaf's lock in turn (initialisation, the first
 * FQS scan), which is exactly when readers end here. So wait for the lock.
 */
void rcu_strict_note_gp(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp = rdp->mynode;
	bool needwake;

	if (rdp->gp_seq == READ_ONCE(rnp->gp_seq) && !READ_ONCE(rdp->gpwrap))
		return;
	raw_spin_lock_rcu_node(rnp);
	needwake = __note_gp_changes(rnp, rdp);
	raw_spin_unlock_rcu_node(rnp);
	if (needwake)
		rcu_gp_kthread_wake();
}

/*
 * Non-preemptible flavor: rcu_read_unlock() has just re-enabled preemption.
 * With no count left and interrupts on, this task is in no reader of any
 * kind (rcu_read_lock(), _sched, spinlocks and interrupt handlers all hold
 * a count): a quiescent state. rcu_qs() notes a grace period this CPU has
 * not seen yet and reports to it, or does nothing if nothing is owed.
 */
void rcu_read_unlock_strict(void)
{
	unsigned long flags;

	if (irqs_disabled() || preempt_count() || !READ_ONCE(rcu_scheduler_active))
		return;
	local_irq_save(flags);
	rcu_strict_note_gp();
	rcu_qs();
	local_irq_restore(flags);
	rcu_strict_unlock_delay();
}

/*
 * The IPI of a grace-period boundary or an FQS scan, interrupts off. An
 * interrupted idle loop, or a task that holds no count and is in no
 * preemptible reader (the tick's test in rcu_sched_clock_irq()), is in a
 * quiescent state: report it now. A reader reports from its own unlock.
 * Either way the rcuc kthread looks at the new grace period (and at
 * callbacks an ended one made ready) as soon as it can run.
 */
static void rcu_strict_gp_boundary(void *unused)
{
	this_cpu_inc(rcu_strict_n_ipis);
	if (rcu_is_cpu_rrupt_from_idle() ||
	    (preempt_count() == HARDIRQ_OFFSET && rcu_preempt_depth() == 0))
		rcu_qs();
	invoke_rcu_core();
}

/* Grace-period start (after the tree is set up) and end (after cleanup): every online CPU. */
void rcu_strict_gp_boundary_ipi(void)
{
	on_each_cpu(rcu_strict_gp_boundary, NULL, 0);
}

/*
 * A later FQS scan: the CPUs the grace period still waits for. The masks
 * are read without the leaf locks: a CPU that reports meanwhile gets one
 * IPI too many, which only finds nothing owed.
 */
void rcu_strict_fqs_ipi(void)
{
	struct cpumask holdouts;
	struct rcu_node *rnp;
	int cpu;

	cpumask_clear(&holdouts);
	rcu_for_each_leaf_node(rnp) {
		unsigned long qsmask = READ_ONCE(rnp->qsmask);

		for_each_leaf_node_possible_cpu(rnp, cpu)
			if (qsmask & leaf_node_cpu_bit(rnp, cpu))
				cpumask_set_cpu(cpu, &holdouts);
	}
	if (!cpumask_empty(&holdouts))
		smp_call_function_many(&holdouts, rcu_strict_gp_boundary, NULL, false);
}
