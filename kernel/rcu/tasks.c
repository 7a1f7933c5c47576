/*
 * Tasks RCU (CONFIG_TASKS_RCU): grace periods that wait for every task
 * runnable at their start to do a voluntary context switch, block, or
 * exit; idle tasks are never waited for. Readers are any code that does
 * not switch voluntarily, so nothing marks them. One kthread,
 * rcu_tasks_kthread, takes every queued callback, runs a grace period
 * and invokes them in order, as Linux's (kernel/rcu/tasks.h).
 *
 * A grace period: synchronize_rcu(); list the runnable tasks (holdouts),
 * each with a reference and a snapshot of its voluntary-switch count;
 * rescan them with a growing sleep (HZ/10 up to HZ), dropping those that
 * switched voluntarily since (flag cleared by rcu_tasks_qs() in the
 * scheduler, or nvcsw changed), blocked, or exited; print Linux's
 * informational line after rcupdate.rcu_task_stall_info jiffies and at
 * growing gaps after, until a stall warning, printed each
 * rcupdate.rcu_task_stall_timeout jiffies (tasks_params.c, shared by
 * every Tasks flavor); then synchronize_rcu() again before the callbacks
 * run. No "rcu: " prefix on the stall and boot lines: Linux prints them
 * from update.c, which has none.
 */
#include <sched/isolation.h>
#include <rcu/tasks.h>
#include "tasks_cbs.h"
#include "tasks_params.h"
#include <rcu/rcupdate.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <sched/wait.h>
#include <locking/spinlock.h>
#include <kernel/printk.h>
#include <kernel/init.h>
#include <kernel/list.h>
#include <kernel/barrier.h>
#include <kernel/bug.h>
#include <time/time.h>

/* Holdout rescans sleep HZ/fract, fract going from this down to 1 (100 ms to 1 s). */
#define RCU_TASKS_INIT_FRACT	10

static struct rcu_tasks {
	struct rcu_tasks_cbs cbs;	/* callbacks queued, not yet taken by the kthread */
	struct task_struct *kthread;	/* set once, at early_initcall time */

	/* Written by the kthread only; read locklessly for tests and statistics. */
	unsigned long n_gps;		/* grace periods completed */
	u64 gp_ns_total, gp_ns_max;	/* their durations */
	unsigned long n_holdouts_max;	/* most tasks one grace period listed */
	unsigned long n_scans;		/* holdout-list rescans, all grace periods */
	unsigned long n_stalls;		/* stall warnings printed */
} rcu_tasks = {
	.cbs = RCU_TASKS_CBS_INIT(rcu_tasks.cbs),
};

unsigned long rcu_tasks_gp_completed(void)
{
	return READ_ONCE(rcu_tasks.n_gps);
}

unsigned long rcu_tasks_stall_warnings(void)
{
	return READ_ONCE(rcu_tasks.n_stalls);
}

/* --- the update-side API ------------------------------------------------------- */

/* Any context, interrupts included: the queue lock disables them. */
void call_rcu_tasks(struct rcu_head *rhp, rcu_callback_t func)
{
	rcu_tasks_cbs_queue(&rcu_tasks.cbs, rhp, func);
}

void synchronize_rcu_tasks(void)
{
	/* Before the kthread exists nothing would ever end the wait (Linux warns too). */
	if (WARN_ONCE(!READ_ONCE(rcu_tasks.kthread), "synchronize_rcu_tasks called too soon"))
		return;
	wait_rcu_gp(call_rcu_tasks);
}

/*
 * One queue, invoked in order by one kthread: once a callback queued now
 * has run, so has every callback queued before it.
 */
void rcu_barrier_tasks(void)
{
	synchronize_rcu_tasks();
}

/* --- one grace period ------------------------------------------------------------ */

/*
 * Runnable: running, preempted, queued, or being moved between CPUs, as
 * Linux's on_rq test. on_rq is 0 only once the task's own schedule() has
 * dequeued it to block, a voluntary switch; a task the scheduler moves is
 * TASK_ON_RQ_MIGRATING throughout (kernel/sched/core.c's
 * move_task_begin()), whatever its state. The state is no guide: a
 * reader preempted between set_current_state() and schedule() is not
 * TASK_RUNNING, and was once dropped here while CPU hotplug moved it
 * (rcu_tasks_waits_for_moved_reader).
 */
static bool rcu_tasks_runnable(struct task_struct *t)
{
	/* No barrier: see the final synchronize_rcu() in rcu_tasks_wait_gp(). */
	return READ_ONCE(t->on_rq);
}

struct rcu_tasks_scan {
	struct list_head *holdouts;
	unsigned long n;
};

/* sched_for_each_task() callback: list t if this grace period must wait for it. */
static void rcu_tasks_pertask(struct task_struct *t, void *arg)
{
	struct rcu_tasks_scan *scan = arg;

	if (t == current || (t->flags & PF_IDLE) || !rcu_tasks_runnable(t))
		return;
	if (!get_task_struct_unless_zero(t))
		return;		/* being freed: it made its final switch already */
	/*
	 * Snapshot first, flag second: a voluntary switch between the two
	 * leaves the flag set but moves nvcsw past the snapshot, and the
	 * rescan sees that. Both are read before any rescan (same thread).
	 */
	t->rcu_tasks_nvcsw = READ_ONCE(t->nvcsw);
	WRITE_ONCE(t->rcu_tasks_holdout, true);
	list_add_tail(&t->rcu_tasks_holdout_list, scan->holdouts);
	scan->n++;
}

/* Print one holdout in Linux's format, then its state. */
static void rcu_tasks_report_holdout(struct task_struct *t, bool *firstreport)
{
	unsigned int cpu = task_cpu(t);

	if (*firstreport) {
		pr_err("INFO: rcu_tasks detected stalls on tasks:\n");
		*firstreport = false;
	}
	/* 'I' idle task (never listed), 'N' on a nohz_full CPU, else '.'. */
	pr_alert("%p: %c%c nvcsw: %llu/%llu holdout: %d idle_cpu: %d/%d\n", t,
		 ".I"[!!(t->flags & PF_IDLE)], ".N"[tick_nohz_full_cpu(cpu)], t->rcu_tasks_nvcsw, READ_ONCE(t->nvcsw),
		 READ_ONCE(t->rcu_tasks_holdout), idle_cpu(cpu), cpu);
	sched_show_task(t);
}

/*
 * Drop t from the holdout list if it switched voluntarily, blocked or
 * exited since it was listed; else report it if a warning is due.
 */
static void rcu_tasks_check_holdout(struct task_struct *t, bool needreport, bool *firstreport)
{
	/*
	 * Acquire: a task seen done through its flag made its read-side
	 * accesses visible first; pairs with the release in
	 * include/rcu/tasks.h:rcu_tasks_qs() and rcu_tasks_user_enter() (a
	 * task in user mode: its kernel accesses are over; a task leaving it
	 * clears the flag and then runs smp_mb() in rcu_tasks_user_exit(),
	 * so one seen still in user mode has not started new kernel accesses
	 * this grace period must wait for). nvcsw and on_rq have no such
	 * pair (plain stores in kernel/sched/core.c:__schedule()): the final
	 * synchronize_rcu() of rcu_tasks_wait_gp() orders them.
	 */
	if (!smp_load_acquire(&t->rcu_tasks_holdout) || smp_load_acquire(&t->rcu_tasks_in_user) ||
	    t->rcu_tasks_nvcsw != READ_ONCE(t->nvcsw) || !rcu_tasks_runnable(t)) {
		WRITE_ONCE(t->rcu_tasks_holdout, false);
		list_del_init(&t->rcu_tasks_holdout_list);
		put_task_struct(t);
		return;
	}
	if (needreport)
		rcu_tasks_report_holdout(t, firstreport);
}

static void rcu_tasks_wait_gp(void)
{
	unsigned long gp_start = jiffies, lastreport, fract = RCU_TASKS_INIT_FRACT;
	u64 start = local_clock(), dur;
	LIST_HEAD(holdouts);
	struct rcu_tasks_scan scan = { .holdouts = &holdouts };
	struct rcu_tasks_info info;
	bool reported = false;

	/*
	 * As Linux: a normal grace period first, so that every task has
	 * passed through the scheduler's hook since the callbacks were
	 * queued and the updater's unlinking is visible to all of them.
	 */
	synchronize_rcu();
	sched_for_each_task(rcu_tasks_pertask, &scan);
	if (scan.n > rcu_tasks.n_holdouts_max)
		rcu_tasks.n_holdouts_max = scan.n;

	/* As Linux: both clocks start once the holdouts are listed. */
	lastreport = jiffies;
	rcu_tasks_info_start(&info);
	while (!list_empty(&holdouts)) {
		struct task_struct *t, *tn;
		bool firstreport = true, needreport;
		int rtst;

		schedule_timeout_interruptible(HZ / fract);
		if (fract > 1)
			fract--;
		rtst = rcu_tasks_stall_timeout();
		needreport = rtst > 0 && time_after(jiffies, lastreport + rtst);
		if (needreport) {
			lastreport = jiffies;
			reported = true;
		}
		rcu_tasks.n_scans++;
		list_for_each_entry_safe(t, tn, &holdouts, rcu_tasks_holdout_list) {
			rcu_tasks_check_holdout(t, needreport, &firstreport);
			cond_resched();
		}
		/*
		 * Counted once the whole warning is out: the stall self-test
		 * lets its spinner go when it sees the count move, and the
		 * holdout's task line must still show it spinning.
		 */
		if (!firstreport)
			WRITE_ONCE(rcu_tasks.n_stalls, rcu_tasks.n_stalls + 1);
		rcu_tasks_info_check(&info, reported, "rcu_tasks", rcu_tasks.n_gps + 1, gp_start);
	}

	/*
	 * As Linux: another normal grace period before the callbacks. A
	 * holdout seen done through nvcsw or on_rq made those stores after
	 * its read-side accesses, and its CPU reports a quiescent state for
	 * this grace period only later in its program order, through the
	 * full barriers of Tree RCU's reporting (kernel/rcu/tree.h's
	 * rcu_node lock wrappers, or the dynticks counter's smp_mb()s for an
	 * idle CPU): so its reads come before the grace period's end, and
	 * that before the callbacks. Linux argues from its __schedule()
	 * running with interrupts off; here the context switch reports its
	 * quiescent state inside that region, before these stores, so that
	 * argument would not hold, but the one above does.
	 */
	synchronize_rcu();
	dur = local_clock() - start;
	rcu_tasks.gp_ns_total += dur;
	if (dur > rcu_tasks.gp_ns_max)
		rcu_tasks.gp_ns_max = dur;
	WRITE_ONCE(rcu_tasks.n_gps, rcu_tasks.n_gps + 1);
}

/* --- the kthread ------------------------------------------------------------------- */

static int rcu_tasks_kthread(void *unused)
{
	for (;;) {
		struct rcu_head *list = rcu_tasks_cbs_wait_take(&rcu_tasks.cbs);

		/* Every callback taken waits for a grace period that starts after it was queued. */
		rcu_tasks_wait_gp();
		rcu_tasks_cbs_invoke(&rcu_tasks.cbs, list);
	}
	return 0;
}

/* Early, so that the first initcall user (a self-test, rcutorture) finds it running. */
static int rcu_spawn_tasks_kthread(void)
{
	struct task_struct *t;

	t = kthread_create(rcu_tasks_kthread, NULL, "rcu_tasks_kthread");
	BUG_ON(!t);
	WRITE_ONCE(rcu_tasks.kthread, t);
	wake_up_process(t);
	return 0;
}
early_initcall(rcu_spawn_tasks_kthread);

/* --- reports ------------------------------------------------------------------------ */

void rcu_tasks_bootup_oddness(void)
{
	pr_info("\tTasks RCU enabled.\n");
}

void rcu_tasks_show_stats(void)
{
	unsigned long n = READ_ONCE(rcu_tasks.n_gps);

	pr_info("rcu_tasks: %lu grace periods, mean %llu ms, longest %llu ms, most holdouts %lu, %lu rescans, %lu stall warnings, %lu callbacks invoked\n",
		n, n ? rcu_tasks.gp_ns_total / n / NSEC_PER_MSEC : 0,
		rcu_tasks.gp_ns_max / NSEC_PER_MSEC, rcu_tasks.n_holdouts_max, rcu_tasks.n_scans,
		rcu_tasks.n_stalls, rcu_tasks.cbs.n_invoked);
}
