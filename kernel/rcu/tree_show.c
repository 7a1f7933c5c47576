/*
 * Tree RCU's grace-period state on demand (SysRq-y with
 * rcutree.sysrq_rcu=1, the monitor's `rcu` command): what a stall warning shows, without waiting for a stall. One
 * line for rcu_state (grace-period number and phase, requests, flags),
 * one per rcu_node, breadth first (the quiescent-state masks: which CPUs
 * or children the grace period still waits for, and with preemptible RCU
 * whether preempted readers block it), one per CPU (the grace
 * period it has seen, its dyntick-idle state as the stall warning prints
 * it, its callbacks per segment).
 *
 * Everything is read without locks: this runs from interrupt context on
 * a machine that may be wedged with an rcu_node lock held, and a
 * snapshot that is a little torn is still what the person asked for.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/sysrq.h>
#include <kernel/param.h>
#include <kernel/init.h>
#include <time/time.h>

/*
 * With preemptible RCU a leaf also says whether tasks preempted inside
 * readers hold up the current normal or expedited grace period (the stall
 * warning names them; naming them here would take the leaf's lock).
 */
static void show_node(struct rcu_node *rnp)
{
	pr_info("\trcu_node %d:%d level %d ->gp_seq %ld ->gp_seq_needed %ld ->qsmask %#lx ->qsmaskinit %#lx ->qsmaskinitnext %#lx ->expmask %#lx%s%s\n",
		rnp->grplo, rnp->grphi, rnp->level, (long)READ_ONCE(rnp->gp_seq),
		(long)READ_ONCE(rnp->gp_seq_needed), READ_ONCE(rnp->qsmask),
		READ_ONCE(rnp->qsmaskinit), READ_ONCE(rnp->qsmaskinitnext), READ_ONCE(rnp->expmask),
		rcu_preempt_blocked_readers_cgp(rnp) ? " ->gp_tasks (readers block the GP)" : "",
		rcu_preempt_exp_blocked(rnp) ? " ->exp_tasks (readers block the expedited GP)" : "");
}

/*
 * idle= as in the stall warning: the low bits of the dyntick counter (even:
 * in an extended quiescent state), process nesting, interrupt nesting.
 */
static void show_cpu(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_dynticks *rdt = per_cpu_ptr(&rcu_dynticks, cpu);
	struct rcu_segcblist *cbl = &rdp->cblist;
	int snap = rcu_dynticks_snap(cpu);
	unsigned long leafmask = rdp->mynode ? READ_ONCE(rdp->mynode->qsmask) : 0;

	pr_info("\tcpu %u%s ->gp_seq %ld ->gp_seq_needed %ld%s idle=%03x/%ld/%#lx%s cbs=%ld (done %ld wait %ld next_ready %ld next %ld)\n",
		cpu, cpu_online(cpu) ? "" : " (offline)", (long)READ_ONCE(rdp->gp_seq),
		(long)READ_ONCE(rdp->gp_seq_needed), (leafmask & rdp->grpmask) ? " holdout" : "",
		snap & 0xfff, READ_ONCE(rdt->nesting), (unsigned long)READ_ONCE(rdt->nmi_nesting),
		rcu_dynticks_in_eqs(snap) ? " eqs" : "", READ_ONCE(cbl->len),
		READ_ONCE(cbl->seglen[0]), READ_ONCE(cbl->seglen[1]), READ_ONCE(cbl->seglen[2]),
		READ_ONCE(cbl->seglen[3]));
}

void rcu_show_gp_state(void)
{
	unsigned long gp_seq = READ_ONCE(rcu_state.gp_seq);
	int gs = READ_ONCE(rcu_state.gp_state);
	struct rcu_node *rnp;
	unsigned int cpu;

	pr_info("%s: g=%ld (%s) state: %s(%d) ->gp_seq_needed %ld ->gp_flags %#x ->gp_start %ld jiffies ago, %lu grace periods completed\n",
		rcu_state.name, (long)gp_seq, rcu_seq_state(gp_seq) ? "in progress" : "idle",
		rcu_gp_state_name(gs), gs,
		(long)READ_ONCE(rcu_get_root()->gp_seq_needed), READ_ONCE(rcu_state.gp_flags),
		(long)(jiffies - READ_ONCE(rcu_state.gp_start)), READ_ONCE(rcu_state.n_gp_completed));
	rcu_for_each_node_breadth_first(rnp)
		show_node(rnp);
	for_each_possible_cpu(cpu)
		show_cpu(cpu);
}

/*
 * rcutree.sysrq_rcu=1: SysRq 'y' shows the above, as Linux's does (its
 * show_rcu_gp_kthreads()); without it the key is not registered and
 * SysRq 'y' prints the help line, as in Linux.
 */
static bool sysrq_rcu;
KPARAM_BOOL("rcutree.sysrq_rcu", sysrq_rcu, "SysRq 'y' shows RCU's grace-period state");

static void sysrq_show_rcu(u8 key)
{
	rcu_show_gp_state();
}

static const struct sysrq_key_op sysrq_rcudump_op = {
	.handler = sysrq_show_rcu,
	.help_msg = "show-rcu(y)",
	.action_msg = "Show RCU tree",
	.enable_mask = SYSRQ_ENABLE_DUMP,
};

static int rcu_sysrq_init(void)
{
	if (sysrq_rcu)
		return register_sysrq_key('y', &sysrq_rcudump_op);
	return 0;
}
early_initcall(rcu_sysrq_init);
