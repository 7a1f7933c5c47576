/*
 * Tasks Trace RCU (CONFIG_TASKS_TRACE_RCU): grace periods for readers
 * marked by rcu_read_lock_trace()/rcu_read_unlock_trace(), which may sleep
 * (include/rcu/rcupdate_trace.h). Linux 6.1's design (kernel/rcu/tasks.h):
 * one kthread, rcu_tasks_trace_kthread, takes every queued callback, runs a
 * grace period, and invokes them in order. A grace period:
 *
 * 1. lists as holdouts the task running on each online CPU, then every
 *    task on the per-CPU blocked-readers lists (readers the scheduler's
 *    hook saw leave a CPU inside a reader), resetting each one's need_qs;
 *    running tasks first, so that a reader switched out after its CPU was
 *    looked at is on a list by the time the lists are (cpu_curr_snapshot());
 * 2. synchronize_rcu(), as Linux (its rcu_tasks_trace_postscan());
 * 3. checks each holdout until none is left: a task not running is
 *    inspected with the scheduler holding it still (task_call_func()):
 *    nesting 0 is a quiescent state, a reader is asked (need_qs) to report
 *    at its outermost unlock; a running task gets an IPI whose handler
 *    does the same check on its own CPU (after rcupdate.rcu_task_ipi_delay
 *    jiffies, tasks_params.c). With CONFIG_TASKS_TRACE_RCU_READ_MB readers run full
 *    barriers and the grace period reads a running task's nesting from
 *    here, sending an IPI only to a task still inside a reader after the
 *    delay (HZ/2 by default then);
 * 4. a full barrier and the wait for any IPI still in flight.
 *
 * The scheduler's "moving" state (TASK_ON_RQ_MIGRATING) needs no case of
 * its own: a task being moved is not running, so it left its CPU through
 * __schedule(), whose hook listed it if it was inside a reader, and
 * task_call_func() holds the locks a move takes (kernel/sched/rq_query.c).
 * Stall warnings, statistics and the boot line: tasks_trace_stall.c.
 */
#include "tasks_trace.h"
#include <rcu/tasks.h>
#include <sched/kthread.h>
#include <sched/wait.h>
#include <kernel/printk.h>
#include <kernel/init.h>
#include <kernel/smp.h>
#include <kernel/cpu.h>
#include <kernel/cmpxchg.h>
#include <kernel/bug.h>
#include <time/time.h>

struct rcu_tasks_trace rcu_tasks_trace = {
	.cbs = RCU_TASKS_CBS_INIT(rcu_tasks_trace.cbs),
};

/* Each CPU's readers that left it inside a reader (rcu_tasks_trace_qs_blkd()). */
struct trc_blkd {
	spinlock_t lock;
	struct list_head tasks;
};
static DEFINE_PER_CPU(struct trc_blkd, trc_blkd);
/* An IPI to this CPU is in flight: send no second one. */
DEFINE_PER_CPU(bool, trc_ipi_to_cpu);

#ifdef CONFIG_PROVE_RCU
struct lockdep_map rcu_trace_lock_map = STATIC_LOCKDEP_MAP_INIT("rcu_read_lock_trace", NULL);

bool rcu_read_lock_trace_held(void)
{
	return !debug_lockdep_rcu_enabled() || lock_is_held(&rcu_trace_lock_map);
}

/* For synchronize_rcu_tasks_trace(): called inside a reader, it could never return. */
static bool trc_sync_in_reader(void)
{
	return debug_lockdep_rcu_enabled() && lock_is_held(&rcu_trace_lock_map);
}
#else
static bool trc_sync_in_reader(void) { return false; }
#endif

/* --- need_qs: one byte of a word the task's own unlock also tests ------------------- */

/*
 * cmpxchg of the whole word, so that trc_reader_special.b.blocked, which
 * the task sets in its context switch and clears in its unlock, is never
 * overwritten; retried while only the other bytes change. A full barrier
 * (cmpxchg()): a task's accesses before it is marked checked come before
 * the grace period that sees the mark ends.
 */
u8 rcu_trc_cmpxchg_need_qs(struct task_struct *t, u8 old, u8 new)
{
	typeof(t->trc_reader_special) o, n;

	for (;;) {
		o.s = READ_ONCE(t->trc_reader_special.s);
		if (o.b.need_qs != old)
			return o.b.need_qs;
		n = o;
		n.b.need_qs = new;
		if (cmpxchg(&t->trc_reader_special.s, o.s, n.s) == o.s)
			return old;
	}
}

/* Read need_qs after a full barrier, pairing with the cmpxchg()s that set it. */
u8 trc_ld_need_qs(struct task_struct *t)
{
	smp_mb();	/* pairs with the full barrier of rcu_trc_cmpxchg_need_qs() */
	return smp_load_acquire(&t->trc_reader_special.b.need_qs);
}

/* --- the read side's slow paths -------------------------------------------------- */

/*
 * Outermost unlock with trc_reader_special set (current, nesting reads
 * INT_MIN): report to the grace period if it asked, leave the blocked
 * list if on it.
 */
void rcu_read_unlock_trace_special(struct task_struct *t)
{
	struct trc_blkd *b;
	unsigned long flags;

	smp_mb();	/* the reader's accesses, then the report: pairs with trc_ld_need_qs() */
	if (READ_ONCE(t->trc_reader_special.b.need_qs) == (TRC_NEED_QS | TRC_NEED_QS_CHECKED))
		WARN_ON_ONCE(rcu_trc_cmpxchg_need_qs(t, TRC_NEED_QS | TRC_NEED_QS_CHECKED,
						     TRC_NEED_QS_CHECKED) !=
			     (TRC_NEED_QS | TRC_NEED_QS_CHECKED));
	if (READ_ONCE(t->trc_reader_special.b.blocked)) {
		b = per_cpu_ptr(&trc_blkd, t->trc_blkd_cpu);
		spin_lock_irqsave(&b->lock, flags);
		list_del_init(&t->trc_blkd_node);
		WRITE_ONCE(t->trc_reader_special.b.blocked, 0);
		spin_unlock_irqrestore(&b->lock, flags);
	}
	WRITE_ONCE(t->trc_reader_nesting, 0);
}

/*
 * The scheduler's hook found t leaving this CPU inside a reader: list it
 * here until its outermost unlock. Interrupts are off (__schedule()).
 */
void rcu_tasks_trace_qs_blkd(struct task_struct *t)
{
	int cpu = smp_processor_id();
	struct trc_blkd *b = per_cpu_ptr(&trc_blkd, cpu);
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	t->trc_blkd_cpu = cpu;
	list_add(&t->trc_blkd_node, &b->tasks);
	WRITE_ONCE(t->trc_reader_special.b.blocked, 1);
	/* Release: before the CPU's next rq->curr store; pairs with cpu_curr_snapshot(). */
	spin_unlock_irqrestore(&b->lock, flags);
}

/*
 * A task exiting (kthread_exit(), every task's way out): it must not be
 * inside a reader; if it is (a bug, warned about), end that reader so that
 * no blocked-readers list keeps a task about to be freed and no grace
 * period waits for it.
 */
void exit_tasks_rcu_finish_trace(struct task_struct *t)
{
	rcu_trc_cmpxchg_need_qs(t, 0, TRC_NEED_QS_CHECKED);
	if (WARN_ON_ONCE(READ_ONCE(t->trc_reader_nesting)) ||
	    READ_ONCE(t->trc_reader_special.b.blocked) ||
	    (READ_ONCE(t->trc_reader_special.b.need_qs) & TRC_NEED_QS))
		rcu_read_unlock_trace_special(t);
	else
		WRITE_ONCE(t->trc_reader_nesting, 0);
}

/* --- holdouts ----------------------------------------------------------------------- */

static void trc_add_holdout(struct task_struct *t, struct list_head *hop)
{
	if (list_empty(&t->trc_holdout_list) && get_task_struct_unless_zero(t)) {
		list_add(&t->trc_holdout_list, hop);
		rcu_tasks_trace.n_holdouts++;
	}
}

static void trc_del_holdout(struct task_struct *t)
{
	if (!list_empty(&t->trc_holdout_list)) {
		list_del_init(&t->trc_holdout_list);
		put_task_struct(t);
		rcu_tasks_trace.n_holdouts--;
	}
}

/* A task starts this grace period unchecked; false if it needs no look (current, listed). */
static bool trc_pertask_prep(struct task_struct *t)
{
	if (!t || t == current || !list_empty(&t->trc_holdout_list))
		return false;
	/* A full barrier (cmpxchg()): the reset comes before every later check of t. */
	for (;;) {
		u8 old = READ_ONCE(t->trc_reader_special.b.need_qs);

		if (!old || rcu_trc_cmpxchg_need_qs(t, old, 0) == old)
			break;
	}
	smp_mb();	/* pairs with the full barrier of the hook's and the IPI's cmpxchg() */
	WRITE_ONCE(t->trc_ipi_to_cpu, -1);
	return true;
}

/* Step 1: the running tasks, then the blocked readers. */
static void trc_pregp_step(struct list_head *hop)
{
	struct task_struct *t, *tn;
	unsigned long flags;
	int cpu;

	cpus_read_lock();	/* IPIs need the CPUs listed to stay */
	for_each_online_cpu(cpu) {
		rcu_read_lock();	/* the task is freed a grace period after its death */
		t = cpu_curr_snapshot(cpu);
		if (trc_pertask_prep(t))
			trc_add_holdout(t, hop);
		rcu_read_unlock();
	}
	/*
	 * A task is on a list from its switch inside a reader to its
	 * outermost unlock, and every unlock takes the list's lock: under
	 * it, each listed task is still inside that reader, and cannot be
	 * freed (a task exits outside readers).
	 */
	for_each_possible_cpu(cpu) {
		struct trc_blkd *b = per_cpu_ptr(&trc_blkd, cpu);

		spin_lock_irqsave(&b->lock, flags);
		list_for_each_entry_safe(t, tn, &b->tasks, trc_blkd_node)
			if (trc_pertask_prep(t))
				trc_add_holdout(t, hop);
		spin_unlock_irqrestore(&b->lock, flags);
	}
	cpus_read_unlock();
}

/* The IPI: runs on the CPU the task was seen running on, interrupts off. */
static void trc_read_check_handler(void *arg)
{
	struct task_struct *texp = arg;
	int nesting;

	if (texp != current)
		goto reset;	/* it left the CPU: inspected again at the next scan */
	nesting = READ_ONCE(texp->trc_reader_nesting);
	if (!nesting)
		rcu_trc_cmpxchg_need_qs(texp, 0, TRC_NEED_QS_CHECKED);
	else if (nesting > 0 &&	/* < 0: an unlock under way, retried later */
		 !rcu_trc_cmpxchg_need_qs(texp, 0, TRC_NEED_QS | TRC_NEED_QS_CHECKED))
		WRITE_ONCE(rcu_tasks_trace.n_ipi_readers, rcu_tasks_trace.n_ipi_readers + 1);
reset:
	/* Release: the check above, then "no IPI in flight"; pairs with trc_wait_for_one_reader(). */
	smp_store_release(per_cpu_ptr(&trc_ipi_to_cpu, smp_processor_id()), false);
	smp_store_release(&texp->trc_ipi_to_cpu, -1);
}

/*
 * With READ_MB readers, a running task's nesting read from here is
 * ordered against its accesses by the barriers both sides run (the
 * store-buffering pattern): seen 0, its reader (if any) started after the
 * updater's removal was visible, or ended before now.
 */
static int trc_read_running_mb(struct task_struct *t)
{
	int nesting;

	smp_mb();	/* pairs with rcu_read_lock_trace()'s smp_mb() */
	nesting = READ_ONCE(t->trc_reader_nesting);
	smp_mb();	/* pairs with rcu_read_unlock_trace()'s smp_mb() */
	return nesting;
}

/* task_call_func() callback: t neither runs nor stops meanwhile, unless it was running. */
static int trc_inspect_reader(struct task_struct *t, void *arg)
{
	int nesting;

	if (task_curr(t) && cpu_online(task_cpu(t))) {
		if (!IS_ENABLED(CONFIG_TASKS_TRACE_RCU_READ_MB))
			return -EINVAL;		/* running: the IPI asks */
		rcu_tasks_trace.n_heavy_reader_attempts++;
		nesting = trc_read_running_mb(t);
		if (nesting)
			return -EINVAL;		/* may not change a running reader's state from here */
		rcu_tasks_trace.n_heavy_reader_updates++;
	} else {
		/* Not running (or an offline CPU's idle task): its fields hold still. */
		nesting = READ_ONCE(t->trc_reader_nesting);
	}
	if (!nesting) {
		rcu_trc_cmpxchg_need_qs(t, 0, TRC_NEED_QS_CHECKED);
		return 0;
	}
	if (nesting < 0)
		return -EINVAL;		/* an unlock under way: look again later */
	/* Inside a reader that cannot move on until we let go: it will report. */
	rcu_trc_cmpxchg_need_qs(t, 0, TRC_NEED_QS | TRC_NEED_QS_CHECKED);
	return 0;
}

/* Try to settle t's state for this grace period; it stays a holdout meanwhile. */
static void trc_wait_for_one_reader(struct task_struct *t)
{
	int cpu;

	if (smp_load_acquire(&t->trc_ipi_to_cpu) != -1)
		return;		/* an IPI is in flight: let it finish */
	if (t == current) {
		rcu_trc_cmpxchg_need_qs(t, 0, TRC_NEED_QS_CHECKED);
		return;
	}
	if (!task_call_func(t, trc_inspect_reader, NULL))
		return;
	/* Running (or an unlock under way): interrupt it, once the delay has passed. */
	if (!task_curr(t) || time_before(jiffies + 1, rcu_tasks_trace.gp_start +
					 READ_ONCE(rcu_task_ipi_delay)))
		return;
	cpu = task_cpu(t);
	if (per_cpu(trc_ipi_to_cpu, cpu))
		return;
	per_cpu(trc_ipi_to_cpu, cpu) = true;
	WRITE_ONCE(t->trc_ipi_to_cpu, cpu);
	rcu_tasks_trace.n_ipis++;
	if (smp_call_function_single(cpu, trc_read_check_handler, t, 0)) {
		/* Offline meanwhile (cpus_read_lock() is held, so rarely): look again later. */
		rcu_tasks_trace.n_ipis_fails++;
		per_cpu(trc_ipi_to_cpu, cpu) = false;
		WRITE_ONCE(t->trc_ipi_to_cpu, -1);
	}
}

/* Step 3: one scan of the holdouts; those found done leave the list. */
static void trc_check_all_holdouts(struct list_head *hop, bool needreport, bool *firstreport)
{
	struct task_struct *t, *tn;

	cpus_read_lock();
	list_for_each_entry_safe(t, tn, hop, trc_holdout_list) {
		if (READ_ONCE(t->trc_ipi_to_cpu) == -1 && !(trc_ld_need_qs(t) & TRC_NEED_QS_CHECKED))
			trc_wait_for_one_reader(t);
		if (smp_load_acquire(&t->trc_ipi_to_cpu) == -1 &&
		    trc_ld_need_qs(t) == TRC_NEED_QS_CHECKED)
			trc_del_holdout(t);
		else if (needreport)
			trc_show_stalled_task(t, firstreport);
		cond_resched();
	}
	cpus_read_unlock();
	if (needreport)
		trc_show_stalled_ipis(*firstreport);
}

static void trc_empty_fn(void *unused)
{
}

/* Step 4: no IPI handler may still look at a task once the grace period is over. */
static void trc_postgp(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (WARN_ON_ONCE(smp_load_acquire(per_cpu_ptr(&trc_ipi_to_cpu, cpu))))
			smp_call_function_single(cpu, trc_empty_fn, NULL, 1);
	smp_mb();	/* the readers' accesses, then the callbacks: pairs with every barrier above */
}

static void trc_wait_gp(void)
{
	unsigned long lastreport, fract = rcu_tasks_trace.init_fract;
	u64 start = local_clock(), dur;
	LIST_HEAD(holdouts);
	struct rcu_tasks_info info;
	bool reported = false;

	rcu_tasks_trace.gp_start = jiffies;
	lastreport = jiffies;
	trc_pregp_step(&holdouts);
	/* As Linux: lets tasks that exited (outside readers, after the scan) finish doing so. */
	synchronize_rcu();
	rcu_tasks_info_start(&info);	/* as Linux: once the holdouts are listed */
	for (;;) {
		bool firstreport = true, needreport;
		int rtst = rcu_tasks_stall_timeout();

		needreport = rtst > 0 && time_after(jiffies, lastreport + rtst);
		if (needreport) {
			lastreport = jiffies;
			reported = true;
		}
		trc_check_all_holdouts(&holdouts, needreport, &firstreport);
		if (!firstreport)
			WRITE_ONCE(rcu_tasks_trace.n_stalls, rcu_tasks_trace.n_stalls + 1);
		rcu_tasks_info_check(&info, reported, "rcu_tasks_trace", rcu_tasks_trace.n_gps + 1,
				     rcu_tasks_trace.gp_start);
		if (list_empty(&holdouts))
			break;
		rcu_tasks_trace.n_scans++;
		/* Back off slowly: the IPIs and reports usually settle within a few jiffies. */
		schedule_timeout_interruptible(fract);
		if (fract < HZ)
			fract++;
	}
	trc_postgp();
	dur = local_clock() - start;
	rcu_tasks_trace.gp_ns_total += dur;
	if (dur > rcu_tasks_trace.gp_ns_max)
		rcu_tasks_trace.gp_ns_max = dur;
	WRITE_ONCE(rcu_tasks_trace.n_gps, rcu_tasks_trace.n_gps + 1);
}

/* --- the update side and the kthread ------------------------------------------------ */

/* Any context, interrupts included: the queue lock disables them. */
void call_rcu_tasks_trace(struct rcu_head *rhp, rcu_callback_t func)
{
	rcu_tasks_cbs_queue(&rcu_tasks_trace.cbs, rhp, func);
}

void synchronize_rcu_tasks_trace(void)
{
	RCU_LOCKDEP_WARN(trc_sync_in_reader(),
			 "Illegal synchronize_rcu_tasks_trace() in RCU Tasks Trace read-side critical section");
	if (WARN_ONCE(!READ_ONCE(rcu_tasks_trace.kthread), "synchronize_rcu_tasks_trace called too soon"))
		return;
	wait_rcu_gp(call_rcu_tasks_trace);
}

/* One queue, invoked in order by one kthread: a callback queued now runs after all earlier ones. */
void rcu_barrier_tasks_trace(void)
{
	synchronize_rcu_tasks_trace();
}

static int rcu_tasks_trace_kthread(void *unused)
{
	for (;;) {
		struct rcu_head *list = rcu_tasks_cbs_wait_take(&rcu_tasks_trace.cbs);

		/* Every callback taken waits for a grace period that starts after it was queued. */
		trc_wait_gp();
		rcu_tasks_cbs_invoke(&rcu_tasks_trace.cbs, list);
	}
	return 0;
}

static int rcu_spawn_tasks_trace_kthread(void)
{
	struct task_struct *t;
	int cpu;

	for_each_possible_cpu(cpu) {
		spin_lock_init(&per_cpu(trc_blkd, cpu).lock);
		INIT_LIST_HEAD(&per_cpu(trc_blkd, cpu).tasks);
	}
	/* Linux's: HZ/10 with full-barrier readers (no hurry to IPI), else HZ/200, at least 1. */
	rcu_tasks_trace.init_fract = IS_ENABLED(CONFIG_TASKS_TRACE_RCU_READ_MB) ? HZ / 10 : HZ / 200;
	if (!rcu_tasks_trace.init_fract)
		rcu_tasks_trace.init_fract = 1;
	t = kthread_create(rcu_tasks_trace_kthread, NULL, "rcu_tasks_trace_kthread");
	BUG_ON(!t);
	WRITE_ONCE(rcu_tasks_trace.kthread, t);
	wake_up_process(t);
	return 0;
}
early_initcall(rcu_spawn_tasks_trace_kthread);
