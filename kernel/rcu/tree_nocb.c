/*
 * Callback offloading (CONFIG_RCU_NOCB_CPU): the CPUs named by rcu_nocbs=
 * never advance or invoke their own RCU callbacks, so that RCU's callback
 * work (and its wakeups) stays off them. Their call_rcu() only enqueues,
 * under the per-CPU nocb lock. The offloaded CPUs are cut into groups of
 * rcutree.rcu_nocb_leader_stride CPU numbers; one rcuog/N kthread per
 * group (N: the group's first offloaded CPU) advances and accelerates the
 * group's lists against the grace-period sequence, asks for the grace
 * periods they need, sleeps until one ends (rcu_gp_cleanup() wakes it),
 * and wakes the per-CPU rcuos/N (rcuop/N under preemptible RCU) kthreads,
 * which invoke the ready callbacks. Both kinds run on the CPUs that are
 * not offloaded, when there are any.
 *
 * Locking: an offloaded rdp's ->cblist is only touched under its
 * ->nocb_lock, interrupts off; the rcu_node lock nests inside it (rcuog
 * advances under both). A leader's ->nocb_gp_sleep is under its
 * ->nocb_gp_lock, which nests inside nothing. The CPUs with rcuo kthreads
 * are fixed at boot; those named by rcu_nocbs= can be switched between
 * offloaded and not at run time (rcu_nocb_cpu_offload() and
 * rcu_nocb_cpu_deoffload(), tree_nocb_toggle.c). The kthreads skip a list
 * that is not offloaded: they look at ->offloaded under ->nocb_lock.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/cpumask.h>
#include <sched/isolation.h>
#include <kernel/bitmap.h>
#include <mm/slab.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <time/time.h>

/* rcu_nocbs=<cpulist>: kept as text, parsed at rcu_init() (Linux's rules, not the parser's). */
static char rcu_nocbs_str[256];
KPARAM_STRING("rcu_nocbs", rcu_nocbs_str,
	      "CPUs whose RCU callbacks are invoked by rcuo kthreads (CPU list)");
static bool rcu_nocb_poll;
KPARAM_BOOL("rcu_nocb_poll", rcu_nocb_poll,
	    "rcuog kthreads poll each jiffy instead of being woken by call_rcu()");
/* -1: sqrt(nr_cpu_ids). The article's name first; Linux's later name as an alias. */
static int rcu_nocb_leader_stride = -1;
KPARAM("rcutree.rcu_nocb_leader_stride", rcu_nocb_leader_stride, KPARAM_INT, 1, NR_CPUS,
       "CPU numbers per rcuog group (default sqrt(nr_cpu_ids))");
static int rcu_nocb_gp_stride = -1;
KPARAM("rcutree.rcu_nocb_gp_stride", rcu_nocb_gp_stride, KPARAM_INT, 1, NR_CPUS,
       "alias of rcutree.rcu_nocb_leader_stride (Linux's later name)");

static struct cpumask rcu_nocb_mask;

static unsigned int rcu_nocb_isqrt(unsigned int n)
{
	unsigned int r = 0;

	while ((r + 1) * (r + 1) <= n)
		r++;
	return r;
}

/*
 * Parse rcu_nocbs= as Linux does: a malformed list offloads every CPU;
 * CPUs that do not exist are dropped with a note. The list is read over
 * more bits than NR_CPUS so that a CPU number merely beyond this machine
 * (or this build) is trimmed, not taken for a malformed list.
 */
#define RCU_NOCB_PARSE_BITS	(NR_CPUS > 1024 ? NR_CPUS : 1024)
static DECLARE_BITMAP(rcu_nocb_parsed, RCU_NOCB_PARSE_BITS);

static void rcu_nocb_parse(void)
{
	unsigned int cpu;

	cpumask_clear(&rcu_nocb_mask);
	if (!rcu_nocbs_str[0])
		return;
	if (bitmap_parselist(rcu_nocbs_str, rcu_nocb_parsed, RCU_NOCB_PARSE_BITS)) {
		pr_warn("rcu_nocbs= bad CPU range, all CPUs set\n");
		cpumask_setall(&rcu_nocb_mask);
		return;
	}
	for_each_possible_cpu(cpu)
		if (test_bit(cpu, rcu_nocb_parsed))
			cpumask_set_cpu(cpu, &rcu_nocb_mask);
	if (bitmap_weight(rcu_nocb_parsed, RCU_NOCB_PARSE_BITS) != cpumask_weight(&rcu_nocb_mask))
		pr_info("\tNote: kernel parameter 'rcu_nocbs=' contains nonexistent CPUs.\n");
}

/* nohz_full= CPUs are offloaded too, as in Linux: their callbacks need no tick of theirs. */
static void rcu_nocb_add_nohz_full(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (tick_nohz_full_cpu(cpu))
			cpumask_set_cpu(cpu, &rcu_nocb_mask);
}

/* Leaders: the first offloaded CPU of each stride-aligned block of CPU numbers. */
static void rcu_nocb_form_groups(int stride)
{
	struct rcu_data *leader = NULL, *prev = NULL;
	unsigned int cpu, next_leader = 0;

	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		if (!cpumask_test_cpu(cpu, &rcu_nocb_mask))
			continue;
		if (cpu >= next_leader) {
			leader = rdp;
			prev = NULL;
			next_leader = (cpu / stride + 1) * stride;
			spin_lock_init(&rdp->nocb_gp_lock);
			init_waitqueue_head(&rdp->nocb_gp_wq);
			rdp->nocb_gp_sleep = false;	/* first pass scans at once */
		}
		rdp->nocb_gp_rdp = leader;
		if (prev)
			prev->nocb_next_rdp = rdp;
		prev = rdp;
		spin_lock_init(&rdp->nocb_lock);
		rcu_lazy_init_rdp(rdp);
		init_waitqueue_head(&rdp->nocb_cb_wq);
		rdp->nocb_cb_sleep = true;
		/*
		 * Published before any call_rcu() on this CPU can look: rcu_init()
		 * runs on the boot CPU before the others come up, and bringing a
		 * CPU up orders everything before it.
		 */
		WRITE_ONCE(rdp->offloaded, true);
	}
}

void rcu_nocb_init(void)
{
	int stride;

	rcu_nocb_parse();
	rcu_nocb_add_nohz_full();
	stride = rcu_nocb_leader_stride > 0 ? rcu_nocb_leader_stride :
		 rcu_nocb_gp_stride > 0 ? rcu_nocb_gp_stride : (int)rcu_nocb_isqrt(nr_cpu_ids);
	if (stride < 1)
		stride = 1;
	rcu_nocb_leader_stride = stride;
	if (cpumask_empty(&rcu_nocb_mask))
		pr_info("\tOffload RCU callbacks from CPUs: (none).\n");
	else
		pr_info("\tOffload RCU callbacks from CPUs: %*pbl.\n", NR_CPUS, rcu_nocb_mask.bits);
	if (rcu_nocb_poll)
		pr_info("\tPoll for callbacks from no-CBs CPUs.\n");
	rcu_nocb_form_groups(stride);
}

/* Wake rdp's rcuog if it sleeps; true if this call woke it. Any context. */
bool rcu_nocb_wake_gp(struct rcu_data *rdp)
{
	struct rcu_data *leader = rdp->nocb_gp_rdp;
	unsigned long flags;
	bool wake;

	spin_lock_irqsave(&leader->nocb_gp_lock, flags);
	wake = leader->nocb_gp_sleep;
	leader->nocb_gp_sleep = false;
	spin_unlock_irqrestore(&leader->nocb_gp_lock, flags);
	if (wake)
		wake_up(&leader->nocb_gp_wq);
	return wake;
}

bool rcu_nocb_try_enqueue(struct rcu_data *rdp, struct rcu_head *head, unsigned long flags,
			  bool lazy)
{
	bool was_empty, flood = false, woke = false;
	long len;

	if (!rcu_rdp_is_offloaded(rdp))
		return false;
	/* Interrupts are off: no preemption point on the way out either. */
	preempt_disable();
	do_raw_spin_lock(&rdp->nocb_lock, __THIS_PC);
	was_empty = rcu_segcblist_empty(&rdp->cblist);
	if (lazy && rcu_lazy_enqueue(rdp, head)) {
		/*
		 * Held (tree_nocb_lazy.c), counted in ->n_cbs_queued only once
		 * in ->cblist (queued = invoked + pending stays exact); up to
		 * rcutree.qhimark of them, as Linux's bypass.
		 */
		if (rcu_lazy_held_len(rdp) >= rcu_params.qhimark)
			flood = rcu_lazy_flush(rdp, RCU_LAZY_SIZE);	/* qhimark at once: a flood */
	} else {
		/* Not lazy: the held ones go first, so that it is not invoked before them. */
		rcu_lazy_flush(rdp, RCU_LAZY_HURRY);
		rcu_segcblist_enqueue(&rdp->cblist, head);
		/* Kept under the lock, so it is right when the CPU takes its list back (tree_nohz.c). */
		rdp->n_lazy_cbs += __is_kfree_rcu_offset(head->func);
		rdp->n_cbs_queued++;
	}
	/* A callback held lazily leaves the list as it was: rcuog needs no wakeup. */
	was_empty = was_empty && !rcu_segcblist_empty(&rdp->cblist);
	len = rcu_segcblist_n_cbs(&rdp->cblist);
	trace_rcu_callback(head, head->func, len);	/* RCU_TRACE, as call_rcu() */
	if (flood || len > rdp->qlen_last_fqs_check + rcu_params.qhimark) {
		/* Flooded: as for other CPUs, push the grace period with an FQS scan. */
		rdp->qlen_last_fqs_check = len;
		rdp->n_nocb_floods++;
		flood = true;
	}
	do_raw_spin_unlock(&rdp->nocb_lock);
	preempt_enable_no_resched();
	/*
	 * Wake rcuog only for a list that was empty: otherwise it already
	 * has work here and will find this callback on its next pass (rcuos
	 * kicks it when callbacks are still pending after a batch). With
	 * rcu_nocb_poll, never: rcuog looks every jiffy.
	 */
	if (!rcu_nocb_poll && (was_empty || flood))
		woke = rcu_nocb_wake_gp(rdp);
	if (flood && rcu_gp_in_progress()) {
		struct rcu_node *root = rcu_get_root();

		raw_spin_lock_rcu_node(root);
		WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_FQS);
		raw_spin_unlock_rcu_node(root);
		rcu_gp_kthread_wake();
		woke = true;
	}
	if (woke)
		rdp->n_nocb_wakeups++;	/* this CPU's own counter, interrupts still off */
	local_irq_restore(flags);
	return true;
}

bool rcu_nocb_barrier_entrain(struct rcu_data *rdp, rcu_callback_t func, atomic_t *count)
{
	unsigned long flags;
	bool queued;

	/* No switch meanwhile: rcu_barrier() and the switches hold barrier_mutex. */
	if (!rcu_rdp_is_offloaded(rdp))
		return false;
	spin_lock_irqsave(&rdp->nocb_lock, flags);
	/* Held lazy callbacks are callbacks rcu_barrier() must wait for: into ->cblist first. */
	rcu_lazy_flush(rdp, RCU_LAZY_BARRIER);
	rdp->barrier_head.func = func;
	/* Counted before it can run: rcuos may invoke it as soon as the lock drops. */
	atomic_inc(count);
	queued = rcu_segcblist_entrain(&rdp->cblist, &rdp->barrier_head);
	if (queued)
		rdp->n_cbs_queued++;
	else
		atomic_dec(count);	/* nothing queued (nor being invoked) here */
	spin_unlock_irqrestore(&rdp->nocb_lock, flags);
	if (queued)
		rcu_nocb_wake_gp(rdp);	/* it may sit in NEXT: rcuog must give it a grace period */
	return true;
}

/* Every leader: each checks whether the grace period it waits for is the one that ended. */
void rcu_nocb_gp_cleanup(void)
{
	unsigned int cpu;

	/*
	 * rcu_seq_end() stored the new gp_seq; pairs with the smp_mb() after
	 * rcuog sets ->nocb_gp_waiting (rcu_nocb_gp_kthread()).
	 */
	smp_mb();
	for_each_cpu(cpu, &rcu_nocb_mask) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		if (rdp->nocb_gp_rdp == rdp && READ_ONCE(rdp->nocb_gp_waiting))
			wake_up(&rdp->nocb_gp_wq);
	}
}

/*
 * One rcuog pass over rdp, interrupts off under its nocb lock: advance
 * against the leaf's gp_seq, give new callbacks a grace period (and ask
 * for it), and report the earliest one still waited for in *wait.
 */
static bool rcu_nocb_gp_scan_one(struct rcu_data *rdp, bool *needwake, unsigned long *wait,
				 bool *waiting)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags, seq;
	bool ready, pend;

	spin_lock_irqsave(&rdp->nocb_lock, flags);
	/* De-offloaded: the list is its CPU's (unlocked) until it is offloaded again. */
	if (!rdp->offloaded) {
		spin_unlock_irqrestore(&rdp->nocb_lock, flags);
		return false;
	}
	rcu_lazy_gp_scan(rdp);	/* held lazy callbacks now due: into ->cblist */
	if (rcu_segcblist_empty(&rdp->cblist)) {
		spin_unlock_irqrestore(&rdp->nocb_lock, flags);
		return false;
	}
	raw_spin_lock_rcu_node(rnp);
	rcu_segcblist_advance(&rdp->cblist, rnp->gp_seq);
	if (rcu_segcblist_pend_cbs(&rdp->cblist)) {
		/*
		 * Pairs with the smp_mb() in rcu_seq_start() (rcu.h), as the one
		 * in get_state_synchronize_rcu() does. The queuing CPU's updates
		 * reach us through the nocb lock; if this read still finds the
		 * old gp_seq, the grace period that started meanwhile sees those
		 * updates in everything it does after its start, so it may serve
		 * these callbacks. (The leaf lock's smp_mb__after_unlock_lock()
		 * would do as well; this keeps the argument local.)
		 */
		smp_mb();
		seq = rcu_seq_snap(&rcu_state.gp_seq);
		if (rcu_segcblist_accelerate(&rdp->cblist, seq))
			*needwake |= rcu_start_this_gp(rnp, seq);
	}
	raw_spin_unlock_rcu_node(rnp);
	pend = rcu_segcblist_nextgp(&rdp->cblist, &seq);
	if (pend && (!*waiting || ULONG_CMP_LT(seq, *wait))) {
		*wait = seq;
		*waiting = true;
	}
	ready = rcu_segcblist_ready_cbs(&rdp->cblist);
	if (ready)
		rdp->nocb_cb_sleep = false;
	spin_unlock_irqrestore(&rdp->nocb_lock, flags);
	if (ready)
		wake_up(&rdp->nocb_cb_wq);
	return true;
}

/* rcuog/N: grace periods for the group led by rdp. */
static int rcu_nocb_gp_kthread(void *arg)
{
	struct rcu_data *leader = arg;

	for (;;) {
		unsigned long flags, wait = 0;
		bool needwake = false, waiting = false;
		struct rcu_data *rdp;

		/*
		 * Going to sleep is announced before the scan, under the lock the
		 * wakers take after their enqueue (rcu_nocb_wake_gp()): a callback
		 * queued after this pass looked at its list finds the flag set and
		 * wakes us. The nocb locks order the two; no barrier needed.
		 */
		spin_lock_irqsave(&leader->nocb_gp_lock, flags);
		leader->nocb_gp_sleep = true;
		spin_unlock_irqrestore(&leader->nocb_gp_lock, flags);
		leader->n_nocb_gp_passes++;
		for (rdp = leader; rdp; rdp = rdp->nocb_next_rdp)
			rcu_nocb_gp_scan_one(rdp, &needwake, &wait, &waiting);
		if (needwake)
			rcu_gp_kthread_wake();
		if (kthread_should_stop())
			break;
		if (rcu_nocb_poll) {
			schedule_timeout_interruptible(1);
			continue;
		}
		/*
		 * nocb_gp_waiting only spares rcu_gp_cleanup() needless wakeups.
		 * The smp_mb() pairs with the one in rcu_nocb_gp_cleanup(): either
		 * the condition below sees the grace period ended, or the cleanup
		 * that ends it sees the flag and wakes us.
		 */
		WRITE_ONCE(leader->nocb_gp_wait_seq, wait);
		WRITE_ONCE(leader->nocb_gp_waiting, waiting);
		smp_mb();
		wait_event_idle(leader->nocb_gp_wq, !READ_ONCE(leader->nocb_gp_sleep) ||
				(waiting && rcu_seq_done(&rcu_state.gp_seq, wait)) ||
				kthread_should_stop());
		WRITE_ONCE(leader->nocb_gp_waiting, false);
	}
	return 0;
}

static void rcu_nocb_invoke(struct rcu_head *rhp)
{
	unsigned long f = (unsigned long)rhp->func;

	debug_rcu_head_unqueue(rhp);	/* DEBUG_OBJECTS_RCU_HEAD, as rcu_invoke_callback() */
	trace_rcu_invoke_callback(rhp, f);	/* RCU_TRACE */
	if (__is_kfree_rcu_offset(f))
		kfree((char *)rhp - f);
	else
		rhp->func(rhp);
}

/*
 * One batch: every ready callback, with a reschedule point after each,
 * as Linux 6.1's rcu_do_batch() does in rcuo kthread context. There its
 * limits (rcutree.blimit, the rcutree.rcu_divisor share of the backlog,
 * rcutree.rcu_resched_ns) bound only batches run in softirq, which an
 * offloaded CPU's never are; so they do not apply here either.
 * (A point only every blimit callbacks, 32 when flooded, kept a task
 * woken on rcuos's CPU waiting for up to that many callbacks.)
 */
static void rcu_nocb_do_batch(struct rcu_data *rdp)
{
	struct rcu_cblist rcl;
	struct rcu_head *rhp;
	unsigned long flags;
	long count = 0, lazy = 0;
	bool ready, pend, kick;

	spin_lock_irqsave(&rdp->nocb_lock, flags);
	/*
	 * Not offloaded, or a de-offload is waiting for us to hold nothing:
	 * start no batch (the switch is in tree_nocb_toggle.c).
	 */
	if (!rdp->offloaded || rdp->nocb_toggle_req == RCU_NOCB_REQ_DEOFFLOAD) {
		spin_unlock_irqrestore(&rdp->nocb_lock, flags);
		return;
	}
	rcu_cblist_init(&rcl);
	rcu_segcblist_extract_done_cbs(&rdp->cblist, &rcl);
	/* Until they are counted out below, the CPU may not take its list back. */
	rdp->nocb_cb_busy = true;
	spin_unlock_irqrestore(&rdp->nocb_lock, flags);

	while ((rhp = rcu_cblist_dequeue(&rcl))) {
		lazy += __is_kfree_rcu_offset((unsigned long)rhp->func);
		rcu_nocb_invoke(rhp);
		count++;
		cond_resched();
	}

	spin_lock_irqsave(&rdp->nocb_lock, flags);
	rcu_segcblist_add_len(&rdp->cblist, -count);	/* only now: rcu_barrier() counts on it */
	rdp->nocb_cb_busy = false;
	kick = rdp->nocb_toggle_req == RCU_NOCB_REQ_DEOFFLOAD;
	rdp->n_lazy_cbs -= lazy;
	rdp->n_nocb_cbs_invoked += count;
	if (count > (long)rdp->n_max_batch)
		rdp->n_max_batch = count;
	rcu_flood_mark_drained(rdp);
	ready = rcu_segcblist_ready_cbs(&rdp->cblist);
	if (ready)
		rdp->nocb_cb_sleep = false;
	pend = rcu_segcblist_pend_cbs(&rdp->cblist);
	spin_unlock_irqrestore(&rdp->nocb_lock, flags);
	if (kick)
		rcu_nocb_toggle_kick(rdp);	/* the de-offload waited for this batch */
	/* Callbacks queued while rcuog slept on a non-empty list (no wakeup sent): its turn. */
	if (pend)
		rcu_nocb_wake_gp(rdp);
}

/* rcuos/N (rcuop/N): invoke CPU N's ready callbacks. */
static int rcu_nocb_cb_kthread(void *arg)
{
	struct rcu_data *rdp = arg;
	unsigned long flags;

	for (;;) {
		wait_event_idle(rdp->nocb_cb_wq, !READ_ONCE(rdp->nocb_cb_sleep) ||
				kthread_should_stop());
		if (kthread_should_stop())
			break;
		/* Under the nocb lock, which rcuog holds when it sets the flag false. */
		spin_lock_irqsave(&rdp->nocb_lock, flags);
		rdp->nocb_cb_sleep = true;
		spin_unlock_irqrestore(&rdp->nocb_lock, flags);
		rcu_nocb_do_batch(rdp);
		cond_resched();
	}
	return 0;
}

void rcu_spawn_nocb_kthreads(void)
{
	struct cpumask hk;
	unsigned int cpu;
	bool bind;

	if (cpumask_empty(&rcu_nocb_mask))
		return;
	/*
	 * Where the kthreads run: the CPUs not offloaded, and never a
	 * nohz_full one. If every housekeeping CPU is offloaded too, they run
	 * on the housekeeping CPUs anyway (without nohz_full=, float).
	 */
	cpumask_andnot(&hk, housekeeping_cpumask(), &rcu_nocb_mask);
	if (cpumask_empty(&hk) && tick_nohz_full_enabled())
		cpumask_copy(&hk, housekeeping_cpumask());
	bind = !cpumask_empty(&hk);
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		struct task_struct *t;

		if (!cpumask_test_cpu(cpu, &rcu_nocb_mask))
			continue;
		if (rdp->nocb_gp_rdp == rdp) {
			t = kthread_create(rcu_nocb_gp_kthread, rdp, "rcuog/%u", cpu);
			BUG_ON(!t);
			if (bind)
				kthread_bind_mask(t, &hk);
			rcu_kthread_set_prio(t);
			rdp->nocb_gp_kthread = t;
			wake_up_process(t);
		}
		t = kthread_create(rcu_nocb_cb_kthread, rdp, "rcuo%c/%u", rcu_state.abbr, cpu);
		BUG_ON(!t);
		if (bind)
			kthread_bind_mask(t, &hk);
		rdp->nocb_cb_kthread = t;
		wake_up_process(t);
	}
}

void rcu_nocb_show_stats_cpu(struct rcu_data *rdp)
{
	if (!cpumask_test_cpu(rdp->cpu, &rcu_nocb_mask))
		return;		/* no rcuo kthreads */
	/* De-offloaded at run time: no line of its own, but its rcuog still serves the group. */
	if (rcu_rdp_is_offloaded(rdp))
		pr_info("CPU %d: offloaded: cbs invoked by rcuo%c %lu, wakeups sent %lu, floods %lu%s\n",
			rdp->cpu, rcu_state.abbr, READ_ONCE(rdp->n_nocb_cbs_invoked),
			READ_ONCE(rdp->n_nocb_wakeups), READ_ONCE(rdp->n_nocb_floods),
			rdp->nocb_gp_rdp == rdp ? ", leads a group" : "");
	rcu_lazy_show_stats_cpu(rdp);
	if (rdp->nocb_gp_rdp != rdp)
		return;
	/* Lockless: printed by stall reports too, whose CPU may hold any lock. */
	if (rcu_nocb_poll)
		pr_info("rcuog/%d: %lu passes, polling\n", rdp->cpu, READ_ONCE(rdp->n_nocb_gp_passes));
	else if (READ_ONCE(rdp->nocb_gp_waiting))
		pr_info("rcuog/%d: %lu passes, waits for g%ld (now g%ld)\n", rdp->cpu,
			READ_ONCE(rdp->n_nocb_gp_passes), (long)READ_ONCE(rdp->nocb_gp_wait_seq),
			(long)rcu_seq_current(&rcu_state.gp_seq));
	else
		pr_info("rcuog/%d: %lu passes, %s\n", rdp->cpu, READ_ONCE(rdp->n_nocb_gp_passes),
			READ_ONCE(rdp->nocb_gp_sleep) ? "idle" : "running");
}

/* For the self-test (kernel/rcu/test/nocb.c). */
bool rcu_nocb_polling(void)
{
	return rcu_nocb_poll;
}

/*
 * Switchable at run time: the CPU has rcuo kthreads (it was offloaded at
 * boot, as Linux 6.1 requires) and is not nohz_full, whose callbacks must
 * stay off it (nohz_full= offloads its CPUs; it has no switch here).
 */
bool rcu_nocb_cpu_toggleable(unsigned int cpu)
{
	return cpu < nr_cpu_ids && cpumask_test_cpu(cpu, &rcu_nocb_mask) && !tick_nohz_full_cpu(cpu);
}
