/*
 * Expedited grace periods: synchronize_rcu_expedited() driven by IPIs
 * instead of by the grace-period kthread's wait for ticks and context
 * switches.
 *
 * One expedited grace period:
 *   1. rcu_state.expedited_sequence goes "in progress" (rcu_seq_start()).
 *   2. Every rcu_node's ->expmask is set from ->expmaskinit, the CPUs ever
 *      online below it (breadth first, so a parent's bits are in place
 *      before a child can report; tree_hotplug.c keeps ->expmaskinit).
 *   3. Each leaf drops at once the bits of CPUs that cannot be in a reader:
 *      offline ones (not in ->qsmaskinitnext), dyntick-idle ones (an even dynticks counter: no IPI is
 *      sent to an idle CPU) and the caller's own CPU (it may sleep, so it
 *      is not in a reader of this non-preemptible flavor).
 *   4. The remaining CPUs get one IPI (smp_call_function_many(), no wait);
 *      one not yet online (on its way up, after rcu_cpu_starting()) gets
 *      it once it is (rcu_exp_retry_ipis()).
 *      The handler reports a quiescent state at once if it interrupted
 *      the idle loop or a task holding no preempt count (every reader of
 *      this flavor holds one); otherwise it marks the CPU (exp_deferred_qs)
 *      and asks for a reschedule, and the next rcu_qs() on that CPU
 *      (context switch, tick outside a reader, cond_resched on request)
 *      reports it.
 *   5. Reports clear the CPU's leaf bit and, as nodes empty, their bits up
 *      the tree; the root emptying wakes the caller on rcu_state.exp_wq.
 *   6. The sequence ends (rcu_seq_end()).
 *
 * Coalescing: a caller snapshots the sequence (rcu_seq_snap()) and returns
 * as soon as a whole expedited grace period has run since (rcu_seq_done()).
 * Callers meet in a funnel over the rcu_node tree, as in Linux: from its
 * CPU's leaf toward the root, a caller records its snapshot in each node's
 * ->exp_seq_rq; a node that already holds that snapshot (or a later one)
 * has a caller ahead going up for it, so this caller sleeps on the node's
 * ->exp_wq and is woken when it is served. Only callers that reach the root
 * take rcu_state.exp_mutex (one grace period at a time) and run a grace
 * period if theirs is still not done. Contention is thus spread over the
 * leaves: per sequence number, at most one caller per node goes on up.
 * The driver then releases exp_mutex (the next grace period may start)
 * and, under exp_wake_mutex, wakes every node's queue for its number.
 *
 * Preemptible RCU (CONFIG_PREEMPT_RCU, tree_plugin.c) adds tasks preempted
 * inside readers: at the start each leaf's already-queued tasks block the
 * grace period (->exp_tasks, rcu_preempt_exp_start_node()), a leaf is done
 * only when its ->expmask is empty and no such task is left, and the IPI
 * defers the report of a CPU running a reader to its rcu_read_unlock()
 * (rcu_preempt_exp_defer()).
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <time/time.h>
#include <kernel/irqflags.h>
#include <kernel/string.h>
#include <sched/sched.h>

/* Expedited grace periods completed so far. */
unsigned long rcu_exp_gp_completed(void)
{
	return READ_ONCE(rcu_state.n_exp_gps);
}

/*
 * The root's last bit is going, its lock held: when, for the driver's
 * wake-up latency (rcu_exp_lat_gp() reads it under the same lock).
 */
void rcu_exp_root_done(void)
{
	WRITE_ONCE(rcu_state.exp_done_ns, local_clock());
}

/* Nothing (no CPU, no child, no preempted reader) holds up the expedited GP here. */
static bool rcu_exp_node_done(struct rcu_node *rnp)
{
	return !READ_ONCE(rnp->expmask) && !rcu_preempt_exp_blocked(rnp);
}

/*
 * Clear mask in rnp's ->expmask and, as nodes empty, their bits up the
 * tree; the root emptying wakes the grace period's driver. A leaf whose
 * preempted readers still block it stops the walk (tree_plugin.c goes on
 * when the last leaves). rnp->lock held with interrupts saved in flags;
 * released.
 */
static void rcu_report_exp_rnp(struct rcu_node *rnp, unsigned long mask, unsigned long flags)
{
	for (;;) {
		if (!(rnp->expmask & mask)) {
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
			return;
		}
		WRITE_ONCE(rnp->expmask, rnp->expmask & ~mask);
		if (!rcu_exp_node_done(rnp)) {
			/*
			 * Only tasks preempted in readers hold the leaf up now:
			 * boost them at once (RCU_BOOST; Linux does the same),
			 * no normal grace period's FQS scan may come to do it.
			 */
			if (!rnp->expmask)
				rcu_initiate_boost(rnp, flags);	/* releases the lock */
			else
				raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
			return;
		}
		if (!rnp->parent)
			break;
		mask = rnp->grpmask;
		raw_spin_unlock_rcu_node(rnp);
		rnp = rnp->parent;
		raw_spin_lock_rcu_node(rnp);
	}
	rcu_exp_root_done();
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	wake_up(&rcu_state.exp_wq);
}

/* This CPU is in a quiescent state now: report it to the running expedited GP, if it waits for us. */
static void rcu_report_exp_rdp(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;

	/*
	 * This CPU's finished readers before the report: the lock wrapper's
	 * smp_mb__after_unlock_lock() (tree.h) makes its acquisition a full
	 * barrier, which the root-ward lock chain carries to rcu_exp_gp().
	 */
	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	if (READ_ONCE(rdp->exp_deferred_qs)) {
		/* rcu_exp_latency(): how long the handler's deferral lasted, on this CPU's clock. */
		rdp->n_exp_deferred_reports++;
		if (in_hardirq())
			rdp->n_exp_deferred_irq++;
		if (rdp->exp_ipi_seq == READ_ONCE(rcu_state.expedited_sequence)) {
			u64 d = local_clock() - rdp->exp_ipi_ns;

			rdp->exp_defer_sum_ns += d;
			if (d > rdp->exp_defer_max_ns)
				rdp->exp_defer_max_ns = d;
		}
	}
	WRITE_ONCE(rdp->exp_deferred_qs, false);
	rcu_report_exp_rnp(rnp, rdp->grpmask, flags);
}

void rcu_exp_report_deferred(struct rcu_data *rdp)
{
	rcu_report_exp_rdp(rdp);
}

/*
 * The expedited IPI, in hard-interrupt context with interrupts off.
 * preempt_count() == HARDIRQ_OFFSET: this interrupt is the only thing
 * holding a count, so the interrupted task was in no reader (readers here
 * are preempt_disable() sections) and is in a quiescent state. The same
 * test as the tick's in rcu_sched_clock_irq(). Without CONFIG_PREEMPT_COUNT
 * a busy CPU cannot be told from a reader: it reports at its next
 * cond_resched() or context switch, as in Linux's PREEMPT_NONE.
 */
static void rcu_exp_handler(void *unused)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	rdp->n_exp_ipis++;
	if (!(READ_ONCE(rdp->mynode->expmask) & rdp->grpmask))
		return;		/* already reported (e.g. went idle since the scan) */
	/* For rcu_exp_latency(); the report below (or the deferred one) orders these for the driver. */
	rdp->exp_ipi_ns = local_clock();
	rdp->exp_ipi_seq = READ_ONCE(rcu_state.expedited_sequence);
	if (rcu_is_cpu_rrupt_from_idle()) {
		rcu_report_exp_rdp(rdp);
		return;
	}
	/* Preemptible RCU: a task in rcu_read_lock() reports at its rcu_read_unlock(). */
	if (rcu_preempt_exp_defer(rdp)) {
		rdp->n_exp_deferred++;
		return;
	}
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT) && preempt_count() == HARDIRQ_OFFSET) {
		rcu_report_exp_rdp(rdp);
		return;
	}
	/* In a reader: its end comes with a reschedule (or a tick) that calls rcu_qs(). */
	rdp->n_exp_deferred++;
	WRITE_ONCE(rdp->exp_deferred_qs, true);
	set_tsk_need_resched(current);
}

/* Steps 2 and 3 above; returns the CPUs that need an IPI. */
static void rcu_exp_select_cpus(struct cpumask *ipi)
{
	unsigned int me = raw_smp_processor_id();
	struct rcu_node *rnp;
	unsigned long flags;
	int cpu;

	cpumask_clear(ipi);
	rcu_hotplug_exp_init();		/* CPUs online since the last one: into ->expmaskinit */
	rcu_for_each_node_breadth_first(rnp) {
		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		WRITE_ONCE(rnp->expmask, rnp->expmaskinit);
		raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	}
	rcu_for_each_leaf_node(rnp) {
		unsigned long mask_qs = 0;

		raw_spin_lock_irqsave_rcu_node(rnp, flags);
		rcu_preempt_exp_start_node(rnp);	/* tasks preempted in readers block it */
		for_each_leaf_node_possible_cpu(rnp, cpu) {
			unsigned long bit = leaf_node_cpu_bit(rnp, cpu);

			if (!(rnp->expmask & bit))
				continue;
			/* Offline: left ->qsmaskinitnext in rcu_report_dead(), no reader left. */
			if ((unsigned int)cpu == me || !(rnp->qsmaskinitnext & bit)) {
				mask_qs |= bit;
			} else if (rcu_dynticks_in_eqs(rcu_dynticks_snap(cpu))) {
				mask_qs |= bit;
				rcu_state.n_exp_idle_skips++;
			} else {
				cpumask_set_cpu(cpu, ipi);
			}
		}
		if (mask_qs)
			rcu_report_exp_rnp(rnp, mask_qs, flags);	/* releases the lock */
		else
			raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	}
}

#ifdef CONFIG_PREEMPT_RCU
/*
 * The stall warning's " P<pid>" for each task preempted in a reader that
 * blocks the expedited grace period on leaf rnp (from ->exp_tasks to the
 * tail of ->blkd_tasks); returns how many.
 */
static int rcu_exp_print_tasks(struct rcu_node *rnp)
{
	int pids[32], n = 0, total = 0;
	struct list_head *e;
	unsigned long flags;

	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	for (e = rnp->exp_tasks; e && e != &rnp->blkd_tasks; e = e->next, total++)
		if (n < (int)ARRAY_SIZE(pids))
			pids[n++] = list_entry(e, struct task_struct, rcu_node_entry)->pid;
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	for (int i = 0; i < n; i++)
		pr_cont(" P%d", pids[i]);
	if (total > n)
		pr_cont(" (+%d more)", total - n);
	return total;
}
#else
static int rcu_exp_print_tasks(struct rcu_node *rnp) { return 0; }
#endif

/*
 * The expedited stall warning, in Linux's format; returns the CPUs and
 * tasks listed. Each CPU's four flags print a letter when the condition
 * is false and '.' when true, as Linux: O online, o / N in the leaf's
 * ->expmaskinit (at the grace period's start) / ->qsmaskinitnext (now),
 * D the IPI has been handled and the CPU's report is deferred (a 'D'
 * means the IPI is still pending: interrupts are off there).
 */
static int rcu_exp_print_stall(unsigned long jiffies_start)
{
	struct rcu_node *rnp, *root = rcu_get_root();
	int cpu, ndetected = 0;

	pr_err("INFO: %s detected expedited stalls on CPUs/tasks: {", rcu_state.name);
	rcu_for_each_leaf_node(rnp) {
		ndetected += rcu_exp_print_tasks(rnp);
		for_each_leaf_node_possible_cpu(rnp, cpu) {
			struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
			bool in_init = rdp->grpmask & READ_ONCE(rnp->expmaskinit);
			bool in_next = rdp->grpmask & READ_ONCE(rnp->qsmaskinitnext);

			if (!(READ_ONCE(rnp->expmask) & leaf_node_cpu_bit(rnp, cpu)))
				continue;
			ndetected++;
			pr_cont(" %d-%c%c%c%c", cpu, "O."[!!cpu_online(cpu)], "o."[in_init],
				"N."[in_next], "D."[!!READ_ONCE(rdp->exp_deferred_qs)]);
		}
	}
	/* "0x%lx", not "%#lx": Linux's printk prints 0x0 for zero, ours (as C) a bare 0. */
	pr_cont(" } %lu jiffies s: %lu root: 0x%lx/%c\n", jiffies - jiffies_start,
		READ_ONCE(rcu_state.expedited_sequence), READ_ONCE(root->expmask),
		".T"[rcu_preempt_exp_blocked(root)]);
	if (ndetected) {
		/* The non-root nodes still holding it up: level:CPUs:expmask/tasks. */
		pr_err("blocking rcu_node structures (internal RCU debug):");
		rcu_for_each_node_breadth_first(rnp) {
			if (rnp == root || rcu_exp_node_done(rnp))
				continue;
			pr_cont(" l=%u:%d-%d:0x%lx/%c", rnp->level, rnp->grplo, rnp->grphi,
				READ_ONCE(rnp->expmask), ".T"[rcu_preempt_exp_blocked(rnp)]);
		}
		pr_cont("\n");
	}
	rcu_for_each_leaf_node(rnp)
		for_each_leaf_node_possible_cpu(rnp, cpu)
			if (READ_ONCE(rnp->expmask) & leaf_node_cpu_bit(rnp, cpu))
				trigger_single_cpu_backtrace(cpu);
	return ndetected;
}

/* Step 5: sleep until the root's expmask is empty, warning about stalls as Linux does. */
static void rcu_exp_wait(void)
{
	struct rcu_node *root = rcu_get_root();
	unsigned long jiffies_start = jiffies;
	unsigned long jiffies_stall = rcu_jiffies_till_stall_check();

	for (;;) {
		if (wait_event_timeout(rcu_state.exp_wq, rcu_exp_node_done(root), jiffies_stall))
			return;
		if (rcu_exp_node_done(root))
			return;
		if (!READ_ONCE(rcu_cpu_stall_suppress)) {
			rcu_exp_print_stall(jiffies_start);
			trace_rcu_stall_warning("ExpeditedStall");
			rcu_trace_dump("RCU expedited stall warning");
		}
		jiffies_stall = 3 * rcu_jiffies_till_stall_check() + 3;	/* as Linux */
	}
}

/*
 * rcu_exp_latency()'s driver side, after rcu_exp_wait() and before the
 * sequence ends: how long the IPIs sent at t_sent took to reach their
 * handlers, and how long after the last report this driver runs again.
 * Negative differences (two CPUs' clocks) count as zero.
 */
static void rcu_exp_lat_gp(const struct cpumask *ipi, u64 t_sent)
{
	struct rcu_node *root = rcu_get_root();
	unsigned long seq = rcu_state.expedited_sequence, flags;
	u64 now = local_clock(), done, d;
	unsigned int cpu;

	/* exp_done_ns was written under the root's lock; so are the handlers' stamps ordered (see rcu_report_exp_rdp()). */
	raw_spin_lock_irqsave_rcu_node(root, flags);
	done = rcu_state.exp_done_ns;
	raw_spin_unlock_irqrestore_rcu_node(root, flags);
	d = now > done ? now - done : 0;
	rcu_state.n_exp_lat_gps++;
	rcu_state.exp_wake_sum_ns += d;
	if (d > rcu_state.exp_wake_max_ns)
		rcu_state.exp_wake_max_ns = d;
	for_each_cpu(cpu, ipi) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		u64 t = READ_ONCE(rdp->exp_ipi_ns);

		if (READ_ONCE(rdp->exp_ipi_seq) != seq)
			continue;	/* reported before its handler ran (went idle or offline) */
		d = t > t_sent ? t - t_sent : 0;
		rcu_state.n_exp_lat_ipis++;
		rcu_state.exp_ipi_sum_ns += d;
		if (d > rcu_state.exp_ipi_max_ns)
			rcu_state.exp_ipi_max_ns = d;
	}
}

void rcu_exp_latency(struct rcu_exp_latency *st)
{
	unsigned int cpu;

	/*
	 * Plain reads, no lock: SysRq may ask from an interrupt. A grace
	 * period ending meanwhile can leave a sum one sample ahead of its count.
	 */
	memset(st, 0, sizeof(*st));
	st->gps = READ_ONCE(rcu_state.n_exp_lat_gps);
	st->ipis = READ_ONCE(rcu_state.n_exp_lat_ipis);
	st->ipi_sum_ns = READ_ONCE(rcu_state.exp_ipi_sum_ns);
	st->ipi_max_ns = READ_ONCE(rcu_state.exp_ipi_max_ns);
	st->wake_sum_ns = READ_ONCE(rcu_state.exp_wake_sum_ns);
	st->wake_max_ns = READ_ONCE(rcu_state.exp_wake_max_ns);
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		u64 m = READ_ONCE(rdp->exp_defer_max_ns);

		st->deferred += READ_ONCE(rdp->n_exp_deferred_reports);
		st->deferred_irq += READ_ONCE(rdp->n_exp_deferred_irq);
		st->defer_sum_ns += READ_ONCE(rdp->exp_defer_sum_ns);
		if (m > st->defer_max_ns)
			st->defer_max_ns = m;
	}
}

/* Task context: takes exp_mutex (no grace period runs meanwhile) and each leaf's lock. */
void rcu_exp_latency_reset(void)
{
	unsigned int cpu;

	mutex_lock(&rcu_state.exp_mutex);
	rcu_state.n_exp_lat_gps = rcu_state.n_exp_lat_ipis = 0;
	rcu_state.exp_ipi_sum_ns = rcu_state.exp_ipi_max_ns = 0;
	rcu_state.exp_wake_sum_ns = rcu_state.exp_wake_max_ns = 0;
	mutex_unlock(&rcu_state.exp_mutex);
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		unsigned long flags;

		raw_spin_lock_irqsave_rcu_node(rdp->mynode, flags);
		rdp->n_exp_deferred_reports = rdp->n_exp_deferred_irq = 0;
		rdp->exp_defer_sum_ns = rdp->exp_defer_max_ns = 0;
		raw_spin_unlock_irqrestore_rcu_node(rdp->mynode, flags);
	}
}

/*
 * The selected CPUs that were not online when the IPIs went out: between
 * rcu_cpu_starting() and set_cpu_online() a CPU is in ->qsmaskinitnext and
 * not idle, so it was selected, but the cross call skips CPUs not online,
 * and nothing else reports it until it next goes offline. Send each its
 * IPI once it is online, as Linux's sync_rcu_exp_select_node_cpus() retries
 * while the CPU is in ->qsmaskinitnext; stop when its bit leaves the
 * leaf's ->expmask (reported) or ->qsmaskinitnext (rcu_report_dead()
 * reports it). A CPU there is on its way up with interrupts off, a few
 * microseconds from online: one jiffy per look.
 */
static void rcu_exp_retry_ipis(const struct cpumask *late)
{
	unsigned int cpu;

	for_each_cpu(cpu, late) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		struct rcu_node *rnp = rdp->mynode;

		while ((READ_ONCE(rnp->expmask) & rdp->grpmask) &&
		       (READ_ONCE(rnp->qsmaskinitnext) & rdp->grpmask)) {
			if (!smp_call_function_single(cpu, rcu_exp_handler, NULL, 0)) {
				rcu_state.n_exp_ipis_sent++;
				break;
			}
			schedule_timeout_uninterruptible(1);
		}
	}
}

/* One whole expedited grace period; exp_mutex held (the funnel's winner). */
static void rcu_exp_gp(void)
{
	struct cpumask ipi, late;
	unsigned long poll_snap;
	unsigned int cpu;
	u64 t_sent;

	poll_snap = rcu_exp_poll_start();
	/* Its smp_mb() (rcu.h) orders the new sequence before any dynticks snapshot or IPI. */
	rcu_seq_start(&rcu_state.expedited_sequence);
	trace_rcu_exp_grace_period(rcu_state.expedited_sequence, "start");
	preempt_disable();	/* "me" in rcu_exp_select_cpus() stays this CPU */
	rcu_exp_select_cpus(&ipi);
	t_sent = local_clock();
	if (!cpumask_empty(&ipi)) {
		for_each_cpu(cpu, &ipi)
			rcu_state.n_exp_ipis_sent++;
		trace_rcu_exp_grace_period(rcu_state.expedited_sequence, "selectofl");
		/*
		 * Before the cross call: a CPU online here that goes offline
		 * before the IPI reports in rcu_report_dead(); one that comes
		 * online meanwhile may get two IPIs, which is harmless.
		 */
		cpumask_andnot(&late, &ipi, cpu_online_mask);
		smp_call_function_many(&ipi, rcu_exp_handler, NULL, false);
	} else {
		cpumask_clear(&late);
	}
	preempt_enable();
	if (!cpumask_empty(&late))
		rcu_exp_retry_ipis(&late);
	trace_rcu_exp_grace_period(rcu_state.expedited_sequence, "reset");
	rcu_exp_wait();
	rcu_exp_lat_gp(&ipi, t_sent);
	/*
	 * rcu_exp_wait() saw the root's ->expmask empty without its lock;
	 * rcu_seq_end()'s smp_mb() (rcu.h) follows that read, and every report
	 * cleared its bit after a full barrier (the rcu_node lock wrappers,
	 * tree.h): so all reports come before the end of the sequence.
	 */
	trace_rcu_exp_grace_period(rcu_state.expedited_sequence, "end");
	rcu_seq_end(&rcu_state.expedited_sequence);
	WRITE_ONCE(rcu_state.n_exp_gps, rcu_state.n_exp_gps + 1);
	rcu_exp_poll_end(poll_snap);
}

/* How callers left the funnel (rcu_exp_funnel_stats()); each CPU counts its own. */
static DEFINE_PER_CPU(struct rcu_exp_funnel_stats, rcu_exp_funnel_counts);

#define rcu_exp_count(field) do {					\
	preempt_disable();						\
	this_cpu_ptr(&rcu_exp_funnel_counts)->field++;			\
	preempt_enable();						\
} while (0)

void rcu_exp_funnel_stats(struct rcu_exp_funnel_stats *st)
{
	unsigned int cpu;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		struct rcu_exp_funnel_stats *c = per_cpu_ptr(&rcu_exp_funnel_counts, cpu);

		st->reached_root += READ_ONCE(c->reached_root);
		st->ran_gp += READ_ONCE(c->ran_gp);
		st->node_waits += READ_ONCE(c->node_waits);
		st->done_early += READ_ONCE(c->done_early);
	}
}

/* Has a whole expedited grace period run since snapshot s? (Ordered before what follows.) */
static bool rcu_exp_done(unsigned long s)
{
	if (!rcu_seq_done(&rcu_state.expedited_sequence, s))
		return false;
	/* The end before the caller's accesses; pairs with rcu_seq_end()'s smp_mb() in rcu_exp_gp(). */
	smp_mb();
	return true;
}

/* The queue of rnp on which callers needing the grace period that ends at s sleep. */
static struct wait_queue_head *rcu_exp_queue(struct rcu_node *rnp, unsigned long s)
{
	return &rnp->exp_wq[rcu_seq_ctr(s) & 0x3];
}

/*
 * The funnel. Returns true when a grace period someone else ran has served
 * snapshot s (nothing held). Returns false with exp_mutex held and s not
 * yet done: the caller runs the grace period.
 */
static bool rcu_exp_funnel_lock(unsigned long s)
{
	struct rcu_node *rnp = per_cpu_ptr(&rcu_data, raw_smp_processor_id())->mynode;
	struct rcu_node *root = rcu_get_root();

	/*
	 * Nobody queued for s on this CPU's leaf or at the root, and the
	 * mutex free: no contention, skip the walk. (The leaf is only where
	 * the caller starts: after a migration it is another CPU's, which
	 * costs locality, not correctness.)
	 */
	if (ULONG_CMP_LT(READ_ONCE(rnp->exp_seq_rq), s) &&
	    (rnp == root || ULONG_CMP_LT(READ_ONCE(root->exp_seq_rq), s)) &&
	    mutex_trylock(&rcu_state.exp_mutex)) {
		rcu_exp_count(reached_root);
		goto locked;
	}

	for (; rnp; rnp = rnp->parent) {
		if (rcu_exp_done(s)) {
			rcu_exp_count(done_early);
			return true;
		}
		spin_lock(&rnp->exp_lock);
		if (ULONG_CMP_GE(rnp->exp_seq_rq, s)) {
			/* A caller ahead went up for s (or later): its grace period serves us. */
			spin_unlock(&rnp->exp_lock);
			rcu_exp_count(node_waits);
			wait_event(*rcu_exp_queue(rnp, s), rcu_exp_done(s));
			return true;
		}
		WRITE_ONCE(rnp->exp_seq_rq, s);	/* later callers for s wait here for us */
		spin_unlock(&rnp->exp_lock);
	}
	rcu_exp_count(reached_root);
	mutex_lock(&rcu_state.exp_mutex);
locked:
	/* The grace period that ran while we queued may have been the one we need. */
	if (rcu_exp_done(s)) {
		mutex_unlock(&rcu_state.exp_mutex);
		return true;
	}
	rcu_exp_count(ran_gp);
	return false;
}

/*
 * After the grace period that ended the sequence at e: let the next one
 * start, then wake the callers of every node waiting for e. Raising each
 * node's ->exp_seq_rq to at least e keeps it close to the sequence, so
 * the wrap-safe comparisons stay meaningful however long a node goes
 * unused. exp_wake_mutex keeps one walk at a time: the next driver cannot
 * release exp_mutex before this walk is over, so callers of at most three
 * sequence numbers sleep at once (the one being woken, the running grace
 * period's, the next one's), and four queues per node keep them apart.
 */
static void rcu_exp_funnel_wake(unsigned long e)
{
	struct rcu_node *rnp;

	mutex_lock(&rcu_state.exp_wake_mutex);
	mutex_unlock(&rcu_state.exp_mutex);
	rcu_for_each_node_breadth_first(rnp) {
		if (ULONG_CMP_LT(READ_ONCE(rnp->exp_seq_rq), e)) {
			spin_lock(&rnp->exp_lock);
			if (ULONG_CMP_LT(rnp->exp_seq_rq, e))
				WRITE_ONCE(rnp->exp_seq_rq, e);
			spin_unlock(&rnp->exp_lock);
		}
		/*
		 * The sequence's end (rcu_exp_gp()) before the wake-up looks at
		 * the queue. Pairs with set_current_state()'s barrier in the
		 * waiter's prepare_to_wait() (rcu_exp_funnel_lock()'s wait_event()),
		 * between queueing itself and checking rcu_exp_done(): either the
		 * waiter sees the end or this wake-up sees the waiter. (wake_up_all()
		 * takes the queue's lock, which orders this too; the barrier keeps
		 * it so if the wake-up ever learns to skip an empty queue.)
		 */
		smp_mb();
		wake_up_all(rcu_exp_queue(rnp, e));
	}
	mutex_unlock(&rcu_state.exp_wake_mutex);
}

/*
 * rcu_sync_is_trivial() (tree_sync.c) found the grace period over: no CPU
 * but the caller's in RCU's view (rcu_no_other_cpu_reads(), looked at
 * under rcu_state.ofl_lock, still held here, so no CPU joins meanwhile)
 * and the caller in a quiescent state, every reader that began before the
 * call has ended. Let the expedited sequence record it as one whole
 * expedited grace period, so that full-state cookies (tree_sync.c) see it
 * complete, as the polled phase it also steps shows it to ordinary
 * cookies. The caller holds exp_mutex, which keeps real expedited grace
 * periods off the sequence meanwhile. Not counted in
 * rcu_exp_gp_completed(): no IPI, no scan. rcu_seq_end()'s smp_mb()
 * orders the caller's quiescent state (all it did before) before the
 * end, for those who see the end (pairs with the smp_mb() after
 * rcu_exp_done() and poll_state_synchronize_rcu_full()).
 */
void rcu_exp_trivial_gp(void)
{
	rcu_seq_start(&rcu_state.expedited_sequence);
	rcu_seq_end(&rcu_state.expedited_sequence);
}

/*
 * Then, ofl_lock dropped: the funnel wake-up serves anyone queued for this
 * number (a caller from before the other CPUs went offline), and releases
 * exp_mutex. Task context.
 */
void rcu_exp_trivial_gp_wake(void)
{
	rcu_exp_funnel_wake(rcu_seq_current(&rcu_state.expedited_sequence));
}

void synchronize_rcu_expedited(void)
{
	unsigned long s;

	WARN_ONCE(preempt_count() || irqs_disabled() || rcu_preempt_depth(),
		  "Illegal synchronize_rcu_expedited() in RCU read-side critical section or atomic context\n");
	if (rcu_sync_is_trivial())
		return;
	/* rcupdate.rcu_normal (update.c): a normal wait. */
	if (rcu_gp_is_normal()) {
		wait_rcu_gp(call_rcu);
		return;
	}
	/*
	 * The caller's updates before the snapshot. Pairs with rcu_seq_start()'s
	 * smp_mb() (rcu.h) in rcu_exp_gp(): a grace period whose start this
	 * snapshot missed begins its scan after the updates are visible.
	 */
	smp_mb();
	s = rcu_seq_snap(&rcu_state.expedited_sequence);
	if (rcu_exp_funnel_lock(s))
		return;
	rcu_exp_gp();
	/* exp_mutex held: nobody else moves the sequence. */
	rcu_exp_funnel_wake(rcu_seq_current(&rcu_state.expedited_sequence));
	/*
	 * No barrier needed before the caller's later accesses: this task read
	 * the root's ->expmask empty and then ran rcu_seq_end()'s smp_mb()
	 * (rcu_exp_gp()); the other paths return through rcu_exp_done()'s.
	 */
}

void rcu_exp_latency_show(const char *who)
{
	struct rcu_exp_latency st;

	rcu_exp_latency(&st);
	pr_info("%s: expedited latency (us avg/max): IPI %llu/%llu over %lu, deferred report %llu/%llu over %lu (%lu from an interrupt), driver wake-up %llu/%llu over %lu grace periods\n",
		who, st.ipis ? st.ipi_sum_ns / st.ipis / 1000 : 0, st.ipi_max_ns / 1000, st.ipis,
		st.deferred ? st.defer_sum_ns / st.deferred / 1000 : 0, st.defer_max_ns / 1000,
		st.deferred, st.deferred_irq,
		st.gps ? st.wake_sum_ns / st.gps / 1000 : 0, st.wake_max_ns / 1000, st.gps);
}

/* rcu_init_nodes() (tree.c), for each rcu_node. */
void rcu_exp_init_node(struct rcu_node *rnp)
{
	spin_lock_init(&rnp->exp_lock);
	rnp->exp_seq_rq = rcu_seq_current(&rcu_state.expedited_sequence);
	for (int i = 0; i < (int)ARRAY_SIZE(rnp->exp_wq); i++)
		init_waitqueue_head(&rnp->exp_wq[i]);
}

void rcu_exp_init(void)
{
	mutex_init(&rcu_state.exp_mutex);
	mutex_init(&rcu_state.exp_wake_mutex);
	init_waitqueue_head(&rcu_state.exp_wq);
}

void rcu_exp_show_stats(void)
{
	struct rcu_exp_funnel_stats st;
	unsigned int cpu;

	pr_info("%s: %lu expedited grace periods, %lu expedited IPIs, %lu idle CPUs skipped\n",
		rcu_state.name, rcu_state.n_exp_gps, rcu_state.n_exp_ipis_sent,
		rcu_state.n_exp_idle_skips);
	rcu_exp_funnel_stats(&st);
	pr_info("%s: expedited funnel: %lu reached the root (%lu ran a grace period), %lu waited at a node, %lu done early\n",
		rcu_state.name, st.reached_root, st.ran_gp, st.node_waits, st.done_early);
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		pr_info("CPU %u: expedited IPIs %lu, deferred %lu\n",
			cpu, rdp->n_exp_ipis, rdp->n_exp_deferred);
	}
	rcu_exp_latency_show(rcu_state.name);
}
