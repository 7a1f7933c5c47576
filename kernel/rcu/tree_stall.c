/*
 * RCU CPU stall warnings. Each grace period gets a deadline when it
 * starts (record_gp_stall_check_time()); every CPU's tick and the
 * grace-period kthread's FQS loop compare the clock against it
 * (rcu_check_cpu_stall()). The first to find it passed claims the report
 * by moving the deadline three timeouts further on, so a stall that goes
 * on is reported again every ~3 timeouts and never twice at once.
 *
 * The report follows Linux's format so that Linux's tools and habits
 * apply (Documentation/RCU/stallwarn.md explains the fields):
 *
 *   rcu: INFO: rcu_sched detected stalls on CPUs/tasks:
 *   rcu: 	1-...?: (3 ticks this GP) idle=379/1/0 softirq=0/0 fqs=548
 *   	(detected by 0, t=21003 jiffies, g=-1199, q=1 ncpus=4)
 *   <NMI backtrace of each stalled CPU>
 *
 * With preemptible RCU, tasks preempted inside readers that block the
 * grace period come first, one line per leaf rcu_node:
 *
 *   rcu: 	Tasks blocked on level-0 rcu_node (CPUs 0-3): P57
 *
 * or, when the stalled CPU notices first, "rcu: INFO: rcu_sched
 * self-detected stall on CPU" with its own line and stack.
 *
 * Holdout CPUs are collected under each leaf's lock and printed after
 * dropping it: printing (and waiting for NMI backtraces) can take long.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/printk.h>
#include <time/time.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <kernel/bug.h>
#include <sched/sched.h>

/* Jiffies the "other CPUs" report waits past the deadline, letting the stalled CPU self-report. */
#define RCU_STALL_RAT_DELAY	2

/* rcu_state.n_force_qs when the current grace period started. */
static unsigned long n_force_qs_gpstart;

/*
 * At grace-period start, before the grace period is visible (rcu_seq_start):
 * a CPU that sees the new gp_seq then sees the new deadline too.
 */
void record_gp_stall_check_time(void)
{
	unsigned long j = jiffies;
	unsigned long j1 = rcu_jiffies_till_stall_check();

	WRITE_ONCE(rcu_state.gp_start, j);
	/* gp_start before jiffies_stall: pairs with the second smp_rmb() in rcu_check_cpu_stall(). */
	smp_mb();
	WRITE_ONCE(rcu_state.jiffies_stall, j + j1);
	WRITE_ONCE(rcu_state.jiffies_resched, j + j1 / 2);
	/* No kthread kick before the FQS loop arms one (the previous GP's deadline has passed). */
	WRITE_ONCE(rcu_state.jiffies_kick_kthreads, j + j1);
	n_force_qs_gpstart = READ_ONCE(rcu_state.n_force_qs);
	/*
	 * The deadlines before the caller's rcu_seq_start() of gp_seq (whose own
	 * barrier comes after its store): pairs with the first smp_rmb() in
	 * rcu_check_cpu_stall(), so a CPU that reads the new gp_seq reads the
	 * new jiffies_stall too.
	 */
	smp_wmb();
}

static const char *const gp_state_names[] = {
	[RCU_GP_IDLE] = "RCU_GP_IDLE",
	[RCU_GP_WAIT_GPS] = "RCU_GP_WAIT_GPS",
	[RCU_GP_INIT] = "RCU_GP_INIT",
	[RCU_GP_WAIT_FQS] = "RCU_GP_WAIT_FQS",
	[RCU_GP_DOING_FQS] = "RCU_GP_DOING_FQS",
	[RCU_GP_CLEANUP] = "RCU_GP_CLEANUP",
	[RCU_GP_CLEANED] = "RCU_GP_CLEANED",
};

/* The name of rcu_state.gp_state as the stall warning prints it (also rcu_show_gp_state()). */
const char *rcu_gp_state_name(int gs)
{
	if (gs < 0 || gs >= (int)ARRAY_SIZE(gp_state_names) || !gp_state_names[gs])
		return "???";
	return gp_state_names[gs];
}

/* Callbacks queued on all CPUs (the report's q=). */
static unsigned long rcu_total_cbs(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu(rcu_data, cpu).cblist.len);
	return n;
}

/* The grace-period kthread has not run for over two seconds (Linux's threshold). */
static bool rcu_is_gp_kthread_starving(unsigned long *jp)
{
	unsigned long j = jiffies - READ_ONCE(rcu_state.gp_activity);

	if (jp)
		*jp = j;
	return j > 2 * HZ;
}

/*
 * One holdout CPU:
 *   "\t<cpu>-<O><o><N><w>: (<n> GPs behind | <n> ticks this GP)
 *    idle=<dynticks & 0xfff>/<nesting>/<nmi nesting> softirq=0/0 fqs=<scans this GP>"
 * O = offline, o/N = not in its leaf's qsmaskinit (we keep one mask where
 * Linux has two), '?' = no irq_work probe (as Linux prints without
 * CONFIG_IRQ_WORK). softirq= stays 0/0: callbacks run in rcuc kthreads.
 */
static void print_cpu_stall_info(int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_dynticks *rdt = per_cpu_ptr(&rcu_dynticks, cpu);
	unsigned long ticks_value, qsmaskinit;
	const char *ticks_title;
	bool in_tree, falsepositive;
	int snap = rcu_dynticks_snap(cpu);

	ticks_value = rcu_seq_ctr(READ_ONCE(rcu_state.gp_seq) - READ_ONCE(rdp->gp_seq));
	if (ticks_value) {
		ticks_title = "GPs behind";
	} else {
		ticks_title = "ticks this GP";
		ticks_value = READ_ONCE(rdp->ticks_this_gp);
	}
	qsmaskinit = rdp->mynode ? READ_ONCE(rdp->mynode->qsmaskinit) : 0;
	in_tree = rdp->grpmask & qsmaskinit;
	/* Idle now but still a holdout while the GP kthread starves: the kthread is the problem. */
	falsepositive = rcu_is_gp_kthread_starving(NULL) && rcu_dynticks_in_eqs(snap);
	pr_err("\t%d-%c%c%c%c: (%lu %s) idle=%03x/%ld/%#lx softirq=%u/%u fqs=%ld%s\n",
	       cpu, cpu_online(cpu) ? '.' : 'O', in_tree ? '.' : 'o', in_tree ? '.' : 'N', '?',
	       ticks_value, ticks_title, snap & 0xfff, READ_ONCE(rdt->nesting),
	       (unsigned long)READ_ONCE(rdt->nmi_nesting), 0U, 0U,
	       (long)(READ_ONCE(rcu_state.n_force_qs) - n_force_qs_gpstart),
	       falsepositive ? " (false positive?)" : "");
}

/* Snapshot every leaf's qsmask into *mask; returns the number of holdout CPUs. */
static int rcu_collect_holdouts(struct cpumask *mask)
{
	struct rcu_node *rnp;
	unsigned long flags, qsmask;
	int cpu, n = 0;

	cpumask_clear(mask);
	rcu_for_each_leaf_node(rnp) {
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		qsmask = rnp->qsmask;
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
		if (!qsmask)
			continue;
		for_each_leaf_node_possible_cpu(rnp, cpu)
			if (qsmask & leaf_node_cpu_bit(rnp, cpu)) {
				cpumask_set_cpu(cpu, mask);
				n++;
			}
	}
	return n;
}

static void rcu_dump_cpu_stacks(const struct cpumask *mask)
{
	int cpu;

	for_each_cpu(cpu, mask)
		if (!trigger_single_cpu_backtrace(cpu))
			pr_err("CPU %d: no backtrace (offline, or another backtrace in progress)\n", cpu);
}

/* Report a starved grace-period kthread, and wake it in case a wakeup was lost. */
static void rcu_check_gp_kthread_starvation(void)
{
	struct task_struct *gpk = READ_ONCE(rcu_state.gp_kthread);
	unsigned long j;
	int cpu;

	if (!rcu_is_gp_kthread_starving(&j))
		return;
	cpu = gpk ? (int)task_cpu(gpk) : -1;
	pr_err("%s kthread starved for %ld jiffies! g%ld f%#x %s(%d) ->state=%#lx ->cpu=%d\n",
	       rcu_state.name, (long)j, (long)rcu_seq_current(&rcu_state.gp_seq),
	       READ_ONCE(rcu_state.gp_flags), rcu_gp_state_name(READ_ONCE(rcu_state.gp_state)),
	       READ_ONCE(rcu_state.gp_state), gpk ? (unsigned long)task_state(gpk) : ~0UL, cpu);
	if (!gpk)
		return;
	pr_err("\tUnless %s kthread gets sufficient CPU time, OOM is now expected behavior.\n",
	       rcu_state.name);
	pr_err("RCU grace-period kthread stack dump:\n");
	sched_show_tasks();
	if (cpu >= 0) {
		if (!cpu_online(cpu)) {
			pr_err("RCU GP kthread last ran on offline CPU %d.\n", cpu);
		} else {
			pr_err("Stack dump where RCU GP kthread last ran:\n");
			trigger_single_cpu_backtrace(cpu);
		}
	}
	wake_up_process(gpk);
}

/*
 * rcutree.rcu_kick_kthreads: the GP kthread should have woken by
 * jiffies_kick_kthreads (tree.c sets it to 3x each FQS wait). If it has
 * not, say so once and wake it; check again a second later.
 */
static void rcu_stall_kick_kthreads(void)
{
	struct task_struct *gpk;
	unsigned long j;

	if (!READ_ONCE(rcu_params.rcu_kick_kthreads))
		return;
	j = READ_ONCE(rcu_state.jiffies_kick_kthreads);
	gpk = READ_ONCE(rcu_state.gp_kthread);
	/* Only a kthread sleeping out an FQS wait has a deadline to miss. */
	if (!time_after(jiffies, j) || !gpk || READ_ONCE(rcu_state.gp_state) != RCU_GP_WAIT_FQS ||
	    (!rcu_gp_in_progress() && !READ_ONCE(rcu_state.gp_flags)))
		return;
	/* The cmpxchg only elects the CPU that kicks; no ordering is relied on. */
	if (cmpxchg(&rcu_state.jiffies_kick_kthreads, j, j + HZ) != j)
		return;		/* another CPU kicks */
	if (WARN_ONCE(1, "Kicking %s grace-period kthread\n", rcu_state.name))
		sched_show_task(gpk);	/* ours: runnable (queued behind what?) or asleep */
	wake_up_process(gpk);
}

/*
 * rcu_cpu_stall_reset(): push the current grace period's stall deadline
 * half the jiffies space away, so it never warns; the next grace period's
 * record_gp_stall_check_time() sets a real one again. A plain store: a
 * racing rcu_check_cpu_stall() may still print the one report it had
 * decided on, as in Linux.
 */
void rcu_cpu_stall_reset(void)
{
	WRITE_ONCE(rcu_state.jiffies_stall, jiffies + ULONG_MAX / 2);
}

/* Push the next report out again if printing took so long that the deadline passed. */
static void rcu_stall_rearm(void)
{
	if (ULONG_CMP_GE(jiffies, READ_ONCE(rcu_state.jiffies_stall)))
		WRITE_ONCE(rcu_state.jiffies_stall, jiffies + 3 * rcu_jiffies_till_stall_check() + 3);
}

static void print_other_cpu_stall(unsigned long gp_seq, unsigned long gps)
{
	struct cpumask holdouts;
	struct rcu_node *rnp;
	unsigned long j, gpa;
	int cpu, ndetected, ntasks = 0;

	pr_err("INFO: %s detected stalls on CPUs/tasks:\n", rcu_state.name);
	/* Preemptible RCU: tasks preempted in readers that block this GP, per leaf. */
	rcu_for_each_leaf_node(rnp)
		ntasks += rcu_print_task_stall(rnp);
	ndetected = rcu_collect_holdouts(&holdouts);
	for_each_cpu(cpu, &holdouts)
		print_cpu_stall_info(cpu);
	pr_cont("\t(detected by %d, t=%ld jiffies, g=%ld, q=%lu ncpus=%d)\n",
		(int)raw_smp_processor_id(), (long)(jiffies - gps),
		(long)rcu_seq_current(&rcu_state.gp_seq), rcu_total_cbs(), (int)num_online_cpus());
	if (ndetected) {
		rcu_dump_cpu_stacks(&holdouts);
	} else if (ntasks) {
		/* Only preempted readers hold it up: their CPUs are fine. */
	} else if (rcu_seq_current(&rcu_state.gp_seq) != gp_seq) {
		pr_err("INFO: Stall ended before state dump start\n");
	} else {
		j = jiffies;
		gpa = READ_ONCE(rcu_state.gp_activity);
		pr_err("All QSes seen, last %s kthread activity %ld (%ld-%ld), jiffies_till_next_fqs=%ld, root ->qsmask %#lx\n",
		       rcu_state.name, (long)(j - gpa), (long)j, (long)gpa,
		       (long)READ_ONCE(rcu_params.jiffies_till_next_fqs),
		       READ_ONCE(rcu_get_root()->qsmask));
	}
	rcu_stall_rearm();
	rcu_check_gp_kthread_starvation();
	rcu_show_stats();
	trace_rcu_stall_warning("StallDetected");
	rcu_trace_dump("RCU CPU stall warning");	/* RCU_TRACE: what led up to it */
}

static void print_cpu_stall(int cpu, unsigned long gps)
{
	struct cpumask holdouts;

	pr_err("INFO: %s self-detected stall on CPU\n", rcu_state.name);
	print_cpu_stall_info(cpu);
	pr_cont("\t(t=%lu jiffies g=%ld q=%lu ncpus=%d)\n",
		jiffies - gps, (long)rcu_seq_current(&rcu_state.gp_seq), rcu_total_cbs(),
		(int)num_online_cpus());
	rcu_check_gp_kthread_starvation();
	/* Every holdout's stack, this CPU's included (it is one). */
	rcu_collect_holdouts(&holdouts);
	cpumask_set_cpu(cpu, &holdouts);
	rcu_dump_cpu_stacks(&holdouts);
	rcu_stall_rearm();
	rcu_show_stats();
	trace_rcu_stall_warning("SelfDetected");
	rcu_trace_dump("RCU CPU stall warning");	/* RCU_TRACE: what led up to it */
	/* Try to get a quiescent state out of this CPU: reschedule at the next chance. */
	set_tsk_need_resched(current);
}

/*
 * rdp: this CPU's rcu_data, from its tick (interrupts off); NULL from the
 * grace-period kthread. A CPU that itself still owes the grace period a
 * quiescent state reports a self-detected stall; otherwise whoever comes
 * RCU_STALL_RAT_DELAY jiffies after the deadline reports the others.
 */
void rcu_check_cpu_stall(struct rcu_data *rdp)
{
	unsigned long gs1, gs2, gps, j, js, jn;

	if (!rcu_gp_in_progress())
		return;
	rcu_stall_kick_kthreads();
	if (READ_ONCE(rcu_cpu_stall_suppress))
		return;
	/*
	 * Read gp_seq, then the deadline, then the start, then gp_seq again
	 * (the writer goes the other way round): if gp_seq did not change,
	 * the deadline and start belong to this grace period.
	 */
	j = jiffies;
	gs1 = READ_ONCE(rcu_state.gp_seq);
	smp_rmb();	/* pairs with the smp_wmb() at the end of record_gp_stall_check_time() */
	js = READ_ONCE(rcu_state.jiffies_stall);
	smp_rmb();	/* pairs with the smp_mb() in record_gp_stall_check_time() */
	gps = READ_ONCE(rcu_state.gp_start);
	/*
	 * Pairs with the next grace period's start: tree_gp.c:rcu_gp_cleanup()'s
	 * rcu_seq_end() under the root's lock, released before rcu_gp_init()
	 * (same lock) writes the next gp_start. A gp_start from a later grace
	 * period therefore comes with a changed gp_seq here.
	 */
	smp_rmb();
	gs2 = READ_ONCE(rcu_state.gp_seq);
	if (gs1 != gs2 || ULONG_CMP_LT(j, js) || ULONG_CMP_GE(gps, js))
		return;		/* not late, or the grace period just ended/started */
	jn = jiffies + 3 * rcu_jiffies_till_stall_check() + 3;
	/* Both cmpxchg()s only elect the one CPU that reports; no ordering is relied on. */
	if (rdp && rdp->mynode && (READ_ONCE(rdp->mynode->qsmask) & rdp->grpmask) &&
	    cmpxchg(&rcu_state.jiffies_stall, js, jn) == js) {
		print_cpu_stall(rdp->cpu, gps);
	} else if (ULONG_CMP_GE(j, js + RCU_STALL_RAT_DELAY) &&
		   cmpxchg(&rcu_state.jiffies_stall, js, jn) == js) {
		print_other_cpu_stall(gs2, gps);
	}
}
