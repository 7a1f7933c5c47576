/*
 * Tree RCU's statistics, printed at power-off and with stall dumps:
 * grace periods, rcu_node lock contention, one line per CPU (with the
 * callback-offloading counters of an offloaded CPU), then the lines of
 * the optional parts (expedited, dyntick-idle acceleration, Tasks RCU).
 * Split from tree.c, read without locks: a slightly stale figure is fine
 * in a report.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include <sched/isolation.h>
#include "tree.h"
#include "kvfree.h"
#include <rcu/rcupdate.h>
#include <rcu/tasks.h>
#include <rcu/rcupdate_trace.h>
#include <rcu/torture.h>
#include <sched/task.h>
#include <kernel/printk.h>
#include <kernel/smp.h>

/*
 * What grace periods have cost so far (gp_bench's scale figures, and the
 * lock line of rcu_show_stats()). The kthread's sum_exec_ns grows at each
 * switch away from it; it sleeps between grace periods, so a snapshot
 * taken while it waits is exact.
 */
void rcu_get_gp_cost(struct rcu_gp_cost *c)
{
	struct rcu_node *rnp, *root = rcu_get_root();
	struct task_struct *t = READ_ONCE(rcu_state.gp_kthread);

	c->gp_kthread_ns = t ? READ_ONCE(t->sum_exec_ns) : 0;
	c->fqs_scans = READ_ONCE(rcu_state.n_force_qs);
	c->leaf_lock_acq = c->leaf_lock_cont = 0;
	rcu_for_each_leaf_node(rnp) {
		c->leaf_lock_acq += READ_ONCE(rnp->n_lock_acquired);
		c->leaf_lock_cont += READ_ONCE(rnp->n_lock_contended);
	}
	c->root_lock_acq = READ_ONCE(root->n_lock_acquired);
	c->root_lock_cont = READ_ONCE(root->n_lock_contended);
	c->levels = rcu_state.geo.levels;
}

/*
 * How often the rcu_node locks were found held (read without the locks: at
 * power-off, or a stall dump, a count that is a little stale is fine).
 */
static void rcu_show_node_lock_stats(void)
{
	struct rcu_gp_cost c;

	rcu_get_gp_cost(&c);
	pr_info("%s: rcu_node locks contended: leaves %lu of %lu acquisitions, root %lu of %lu\n",
		rcu_state.name, c.leaf_lock_cont, c.leaf_lock_acq, c.root_lock_cont, c.root_lock_acq);
}

void rcu_show_stats(void)
{
	unsigned int cpu;

	pr_info("%s: %lu grace periods completed (%lu started), %lu FQS scans, %lu GP kthread wakeups, longest GP %lu jiffies\n",
		rcu_state.name, rcu_state.n_gp_completed, rcu_state.n_gp_started, rcu_state.n_force_qs,
		READ_ONCE(rcu_state.n_gp_kthread_wakeups), rcu_state.gp_max);
	rcu_show_node_lock_stats();
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		pr_info("CPU %u: cbs queued %lu invoked %lu pending %ld max batch %lu, QS reported %lu, dyntick credits %lu, resched IPIs %lu, rcuc wakeups %lu\n",
			cpu, rdp->n_cbs_queued, rdp->n_cbs_invoked, READ_ONCE(rdp->cblist.len),
			rdp->n_max_batch, rdp->n_qs_reported, rdp->n_dynticks_credit, rdp->n_resched_ipis,
			rdp->n_rcu_core);
		rcu_nocb_show_stats_cpu(rdp);
		/* Callbacks requeued from callbacks while only RT tasks ran (tree.c, issue 28). */
		if (rdp->n_gp_req_held)
			pr_info("CPU %u: grace-period requests held to the next tick: %lu\n",
				cpu, rdp->n_gp_req_held);
		/* call_rcu()s that left numbering to the running grace period's end (tree_call.c). */
		if (rdp->n_cbs_bulk)
			pr_info("CPU %u: callbacks numbered in bulk: %lu\n", cpu, rdp->n_cbs_bulk);
		if (per_cpu(rcu_dynticks, cpu).n_user_eqs)
			pr_info("CPU %u: user-mode EQS entries %lu, ticks from user mode %lu, dynticks %d\n",
				cpu, per_cpu(rcu_dynticks, cpu).n_user_eqs,
				per_cpu(rcu_dynticks, cpu).n_user_ticks,
				atomic_read(&per_cpu(rcu_dynticks, cpu).dynticks));
		/* Full dynticks: how often a grace period had to force this CPU's tick on. */
		if (tick_nohz_full_cpu(cpu))
			pr_info("CPU %u: nohz_full: forced ticks (TICK_DEP_BIT_RCU) %lu%s\n", cpu,
				READ_ONCE(rdp->n_forced_ticks),
				READ_ONCE(rdp->rcu_forced_tick) ? ", forced now" : "");
	}
	rcu_exp_show_stats();
	rcu_nohz_show_stats();
	rcu_tasks_show_stats();
	kvfree_rcu_show_stats();
	rcu_tasks_rude_show_stats();
	rcu_tasks_trace_show_stats();
}
