/*
 * Tree RCU's extended quiescent states (EQS): the per-CPU dynticks counter
 * that idle entry and exit, user-mode entry and exit, and interrupts and
 * NMIs taken from an EQS move, so that force-quiescent-state scans and
 * expedited grace periods (tree_gp.c, tree_exp.c) credit an idle or
 * user-mode CPU from a snapshot of its counter without waking it. Called
 * through context tracking (kernel/context_tracking.c, <rcu/hooks.h>).
 */
#include "tree.h"
#include <rcu/rcupdate.h>
#include <rcu/tasks.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>

DEFINE_PER_CPU(struct rcu_dynticks, rcu_dynticks) = {
	.nesting = 1,
	.dynticks = ATOMIC_INIT(1),
};

/* ===== dyntick-idle: extended quiescent states ============================= */

/*
 * The per-CPU dynticks counter is incremented on every entry to and exit
 * from an extended quiescent state (EQS): even means "in EQS". Each
 * increment is fully ordered, so a remote CPU that reads an even value (or
 * a changed value) knows the CPU's earlier read-side critical sections
 * have ended.
 */
static void rcu_dynticks_eqs_flip(void)
{
	/*
	 * Both pair with the two smp_mb() in rcu_dynticks_snap() (tree.c,
	 * read by force_qs_rnp() and tree_exp.c:rcu_exp_select_cpus()).
	 * Before: entering EQS, this CPU's readers are over before a remote
	 * CPU can see the even value and credit a quiescent state.
	 */
	smp_mb();
	atomic_inc(this_cpu_ptr(&rcu_dynticks.dynticks));
	/*
	 * After: leaving EQS, a reader that starts from here on is ordered
	 * after the odd value, so either the scan sees it odd (and waits) or
	 * the reader sees everything the grace period's start published.
	 */
	smp_mb();
}

bool rcu_dynticks_in_eqs(int snap)
{
	return !(snap & 1);
}

/*
 * Fully ordered read of another CPU's counter, as the scans need: barriers
 * on both sides rather than a value-returning atomic, so that a scan does
 * not pull the cache line of an idle CPU's counter away from it.
 */
int rcu_dynticks_snap(int cpu)
{
	int snap;

	/*
	 * Pairs with the smp_mb() after the increment in rcu_dynticks_eqs_flip():
	 * the caller's prior stores (the grace period's start, the leaf's mask)
	 * come before this read, so a CPU leaving EQS that this read missed
	 * sees them (store buffering: one of the two sides must see the other).
	 */
	smp_mb();
	snap = atomic_read(&per_cpu(rcu_dynticks, cpu).dynticks);
	/*
	 * Pairs with the smp_mb() before the increment in rcu_dynticks_eqs_flip():
	 * what the caller does with an even or changed value (report the CPU,
	 * and so let the grace period end and callbacks free memory) comes
	 * after the read, so it cannot overtake the end of the CPU's readers.
	 */
	smp_mb();
	return snap;
}

/*
 * This CPU's own counter: no ordering needed against itself, but
 * preemption off from the address to the read. A task preempted in between
 * and moved to another CPU would read the CPU it left, which may idle in
 * an EQS by then: a false "not watching" (the "rcu_watching" suite).
 * preempt_disable() suits every caller: in interrupts and NMIs (including
 * rcu_nmi_enter() below, from an EQS) the count is already raised, and in
 * idle RCU is not watching only with interrupts off, where preempt_enable()
 * never schedules (preempt_schedule() returns).
 */
bool rcu_is_watching(void)
{
	atomic_t *dynticks;
	bool ret;

	preempt_disable();
	dynticks = this_cpu_ptr(&rcu_dynticks.dynticks);
	rcu_watching_window();		/* test kernels: the "rcu_watching" suite's hook */
	ret = atomic_read(dynticks) & 1;
	preempt_enable();
	return ret;
}

void rcu_idle_enter(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	if (!rcu_eqs_debug_idle_enter(rdt->nesting, rdt->nmi_nesting))
		rdt->nmi_nesting = 0;	/* RCU_EQS_DEBUG: an irq enter missed its exit */
	rcu_prepare_for_idle();		/* RCU_FAST_NO_HZ (tree_nohz.c), while RCU still watches */
	rdt->nesting = 0;
	rcu_dynticks_eqs_flip();
}

void rcu_idle_exit(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	rcu_eqs_debug_idle_exit(rdt->nesting, rdt->nmi_nesting);	/* RCU_EQS_DEBUG */
	rcu_dynticks_eqs_flip();
	rdt->nesting = 1;
	rcu_cleanup_after_idle();	/* RCU_FAST_NO_HZ: run callbacks whose GP ended meanwhile */
}

/*
 * User mode: an extended quiescent state like idle (nesting 0, counter
 * even): the task holds no reader (it cannot return to user mode inside
 * one), so FQS scans credit the CPU from its counter without disturbing
 * it, and an interrupt from user mode leaves the EQS first (ct_user_exit()),
 * so nesting is back to 1 before irq_enter(). Unlike idle, no
 * RCU_FAST_NO_HZ preparation: a CPU running user code is not idle (and a
 * nohz_full CPU's callbacks are offloaded). Tasks RCU counts it as a
 * quiescent state of the task. Interrupts are off: context tracking
 * (ct_user_enter()/ct_user_exit()) turns them off for its callers.
 */
void rcu_user_enter(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	if (!rcu_eqs_debug_user_enter(rdt->nesting, rdt->nmi_nesting))
		rdt->nmi_nesting = 0;	/* RCU_EQS_DEBUG: an irq enter missed its exit */
	rcu_tasks_user_enter(current);
	rdt->n_user_eqs++;
	rdt->nesting = 0;
	rcu_dynticks_eqs_flip();
}

void rcu_user_exit(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	rcu_eqs_debug_idle_exit(rdt->nesting, rdt->nmi_nesting);	/* RCU_EQS_DEBUG */
	rcu_dynticks_eqs_flip();
	rdt->nesting = 1;
	rcu_tasks_user_exit(current);
}

/* Interrupts and NMIs: entering from EQS makes RCU watch until the matching exit. */
void rcu_nmi_enter(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	if (!rcu_is_watching()) {
		rcu_dynticks_eqs_flip();
		WRITE_ONCE(rdt->nmi_nesting, 1);	/* "entered from EQS" */
	} else {
		WRITE_ONCE(rdt->nmi_nesting, rdt->nmi_nesting + 2);
	}
}

void rcu_nmi_exit(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	if (!rcu_eqs_debug_irq_exit(rdt->nmi_nesting))
		return;		/* RCU_EQS_DEBUG: an exit without its enter, reported */
	if (rdt->nmi_nesting != 1) {
		WRITE_ONCE(rdt->nmi_nesting, rdt->nmi_nesting - 2);
		return;
	}
	WRITE_ONCE(rdt->nmi_nesting, 0);
	rcu_dynticks_eqs_flip();
}

void rcu_irq_enter(void) { rcu_nmi_enter(); }
void rcu_irq_exit(void) { rcu_nmi_exit(); }

/* Interrupted the idle loop itself (not a nested interrupt, not a task)? Also tree_exp.c. */
bool rcu_is_cpu_rrupt_from_idle(void)
{
	struct rcu_dynticks *rdt = this_cpu_ptr(&rcu_dynticks);

	return rdt->nesting == 0 && rdt->nmi_nesting <= 1;
}
