/*
 * Tree RCU's side of the torture-test interface (<rcu/torture.h>): the
 * grace-period state, forced quiescent-state scans on demand, and what the
 * boost test asks (the grace-period kthread's priority, whether boosting
 * is to blame for a long grace period, readers boosted so far), and what
 * the in-kernel tests read of a CPU's rcu_data.
 */
#include "tree.h"
#include <rcu/torture.h>

void rcutorture_get_gp_data(int *flags, unsigned long *gp_seq)
{
	*flags = READ_ONCE(rcu_state.gp_flags);
	*gp_seq = READ_ONCE(rcu_state.gp_seq);
}

unsigned long rcu_exp_batches_completed(void)
{
	return READ_ONCE(rcu_state.expedited_sequence);
}

/* The in-kernel tests' view of one CPU's rcu_data (see <rcu/torture.h>). */
bool rcu_cpu_is_offloaded(int cpu)
{
	return rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu));
}

unsigned long rcu_cpu_dynticks_credits(int cpu)
{
	return READ_ONCE(per_cpu(rcu_data, cpu).n_dynticks_credit);
}

/* rcutorture's boost test: the grace-period kthread's SCHED_FIFO priority (0: SCHED_NORMAL). */
int rcu_get_gp_kthreads_prio(void)
{
	return rcu_params.kthread_prio;
}

/*
 * rcutorture's boost test, when a grace period outlived its window: can
 * boosting be blamed? As Linux: not while some CPU has yet to report a
 * quiescent state (boosting cannot help that one; its number goes to
 * *cpup, -1 if none), only when a preempted reader (->gp_tasks) is all
 * that is left. cpup NULL: a quick lockless look that says "false"
 * whenever a CPU still holds the grace period up.
 */
bool rcu_check_boost_fail(unsigned long gp_state, int *cpup)
{
	bool blocked_by_task = false;
	struct rcu_node *rnp;
	unsigned long flags;
	int cpu;

	(void)gp_state;
	if (cpup)
		*cpup = -1;
	rcu_for_each_leaf_node(rnp) {
		if (!cpup) {
			if (READ_ONCE(rnp->qsmask))
				return false;
			if (rcu_preempt_blocked_readers_cgp(rnp))
				blocked_by_task = true;
			continue;
		}
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		if (rcu_preempt_blocked_readers_cgp(rnp))
			blocked_by_task = true;
		for_each_leaf_node_possible_cpu(rnp, cpu) {
			if (rnp->qsmask & leaf_node_cpu_bit(rnp, cpu)) {
				raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
				*cpup = cpu;
				return false;
			}
		}
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	}
	return blocked_by_task;
}

/* Readers boosted by the rcub kthreads since boot, all leaves (0 without RCU_BOOST). */
unsigned long rcu_get_n_boosts(void)
{
	unsigned long n = 0;
#ifdef CONFIG_RCU_BOOST
	struct rcu_node *rnp;

	rcu_for_each_leaf_node(rnp)
		n += READ_ONCE(rnp->n_boosts);
#endif
	return n;
}

/*
 * Ask the grace-period kthread for a forced quiescent-state scan now
 * rather than at its next timeout (rcutorture's fqs kthread uses this to
 * hit the races around the scan). Nothing to do without a grace period.
 */
void rcu_force_quiescent_state(void)
{
	struct rcu_node *root = rcu_get_root();
	unsigned long flags;
	bool wake = false;

	raw_spin_lock_irqsave_rcu_node(root, flags);
	if (rcu_gp_in_progress() && !(READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS)) {
		WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_FQS);
		wake = true;
	}
	raw_spin_unlock_irqrestore_rcu_node(root, flags);
	if (wake)
		rcu_gp_kthread_wake();
}
