/*
 * Tasks Rude RCU (CONFIG_TASKS_RUDE_RCU): a grace period ends once every
 * online CPU has done a context switch since it began. Any region that
 * runs with preemption or interrupts disabled is therefore a reader,
 * including the idle loop and the entry code RCU does not watch, which
 * no other flavor can wait for. Linux queues a no-op work item on every
 * CPU (schedule_on_each_cpu()) and waits for them all; this kernel has no
 * workqueues, so the grace-period kthread itself moves onto each online
 * CPU in turn (set_cpus_allowed_ptr()): once it runs on a CPU, that CPU
 * has switched tasks, so whatever non-preemptible region it was in when
 * the grace period began has ended. One kthread, rcu_tasks_rude_kthread,
 * takes every queued callback, runs one grace period, and invokes them in
 * order, as Linux's rcu_tasks_kthread() does for this flavor.
 *
 * CPU hotplug: the grace period holds cpus_read_lock(), as Linux's
 * schedule_on_each_cpu() does, so no CPU joins or leaves while CPUs are
 * visited; a CPU going offline waits for the grace period (and a CPU that
 * is still in a reader cannot run the hotplug stopper anyway). One CPU
 * online: nothing to wait for (the caller runs, so no other region is in
 * progress), Linux 6.1's fast path.
 *
 * Stall warnings: Linux 6.1 has none for this flavor (a CPU that never
 * switches leaves its work item waiting silently); here a timer armed for
 * the grace period prints one each rcupdate.rcu_task_stall_timeout
 * jiffies (the Tasks RCU parameter, so only with CONFIG_TASKS_RCU), in
 * the words of the Tasks family, naming the CPU that has not switched and
 * asking it for a backtrace. No "rcu: " prefix on the stall and boot
 * lines: Linux prints them from update.c, which has none.
 */
#include <rcu/tasks_rude.h>
#include <rcu/tasks.h>
#include <rcu/rcupdate.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <sched/wait.h>
#include <locking/spinlock.h>
#include <kernel/cpu.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/init.h>
#include <kernel/barrier.h>
#include <kernel/bug.h>
#include <time/time.h>
#include <time/timer.h>

/* The kthread's state, in Linux's names (show_rcu_tasks_rude_gp_kthread()). */
enum { RTGS_WAIT_CBS, RTGS_WAIT_GP, RTGS_INVOKE_CBS };
static const char *const rude_gp_state_names[] = {
	[RTGS_WAIT_CBS] = "RTGS_WAIT_CBS",
	[RTGS_WAIT_GP] = "RTGS_WAIT_GP",
	[RTGS_INVOKE_CBS] = "RTGS_INVOKE_CBS",
};

static struct rcu_tasks_rude {
	/* Callbacks queued and not yet taken by the kthread: guarded by cbs_lock. */
	spinlock_t cbs_lock;
	struct rcu_head *cbs_head;
	struct rcu_head **cbs_tail;
	struct task_struct *kthread;	/* set once, at early_initcall time */

	/* Written by the kthread (and the stall timer); read locklessly. */
	int gp_state;			/* RTGS_* */
	unsigned long gp_jiffies;	/* when gp_state last changed */
	int visiting;			/* the CPU the kthread is moving to, -1 between visits */
	unsigned long visit_jiffies;	/* when that move began */
	unsigned long n_gps;		/* grace periods completed */
	unsigned long n_fast;		/* of which with one CPU online (no visit) */
	unsigned long n_visits;		/* CPUs visited, Linux's n_ipis */
	u64 gp_ns_total, gp_ns_max;	/* grace-period durations */
	unsigned long n_stalls;		/* stall warnings printed */
	unsigned long n_cbs_invoked;
	struct timer_list stall_timer;	/* armed for each grace period when warnings are on */
} rude = {
	.cbs_lock = __SPIN_LOCK_UNLOCKED(rude.cbs_lock),
	.cbs_tail = &rude.cbs_head,
	.visiting = -1,
};
/* The kthread waits here for callbacks. */
static DECLARE_WAIT_QUEUE_HEAD(rude_cbs_wq);

unsigned long rcu_tasks_rude_gp_completed(void)
{
	return READ_ONCE(rude.n_gps);
}

unsigned long rcu_tasks_rude_stall_warnings(void)
{
	return READ_ONCE(rude.n_stalls);
}

static void rude_set_state(int state)
{
	WRITE_ONCE(rude.gp_state, state);
	WRITE_ONCE(rude.gp_jiffies, jiffies);
}

/* --- the update-side API ------------------------------------------------------- */

/* Any context, interrupts included: the queue lock disables them. */
void call_rcu_tasks_rude(struct rcu_head *rhp, rcu_callback_t func)
{
	unsigned long flags;
	bool was_empty;

	if (debug_rcu_head_queue(rhp, func))
		return;		/* DEBUG_OBJECTS_RCU_HEAD: queued already; reported, left alone */
	rhp->next = NULL;
	rhp->func = func;
	spin_lock_irqsave(&rude.cbs_lock, flags);
	was_empty = !rude.cbs_head;
	*rude.cbs_tail = rhp;
	rude.cbs_tail = &rhp->next;
	spin_unlock_irqrestore(&rude.cbs_lock, flags);
	/* The kthread sleeps only on an empty queue: the first callback wakes it. */
	if (was_empty)
		wake_up(&rude_cbs_wq);
}

void synchronize_rcu_tasks_rude(void)
{
	/* Before the kthread exists nothing would ever end the wait (Linux warns too). */
	if (WARN_ONCE(!READ_ONCE(rude.kthread), "synchronize_rcu_tasks_rude called too soon"))
		return;
	wait_rcu_gp(call_rcu_tasks_rude);
}

/*
 * One queue, invoked in order by one kthread: once a callback queued now
 * has run, so has every callback queued before it.
 */
void rcu_barrier_tasks_rude(void)
{
	synchronize_rcu_tasks_rude();
}

/* --- stall warnings --------------------------------------------------------------- */

/*
 * Timer: the grace period has been moving onto one CPU for a whole stall
 * timeout. That CPU has not switched tasks since: name it and ask it for
 * a backtrace (an NMI, so it comes even with interrupts off).
 */
static void rude_stall_timer_fn(struct timer_list *t)
{
	int rtst = rcu_tasks_stall_timeout();
	int cpu = READ_ONCE(rude.visiting);

	if (READ_ONCE(rude.gp_state) != RTGS_WAIT_GP || rtst <= 0)
		return;
	if (cpu >= 0) {
		pr_err("INFO: rcu_tasks_rude detected stalls on tasks:\n");
		pr_alert("rcu_tasks_rude: CPU %d has not switched tasks for %lu jiffies (g%lu, %lu jiffies into the grace period)\n",
			 cpu, jiffies - READ_ONCE(rude.visit_jiffies), READ_ONCE(rude.n_gps) + 1,
			 jiffies - READ_ONCE(rude.gp_jiffies));
		if (!trigger_single_cpu_backtrace(cpu))
			pr_alert("rcu_tasks_rude: no backtrace from CPU %d\n", cpu);
		/* Counted once the warning is out: a test lets its spinner go when it moves. */
		WRITE_ONCE(rude.n_stalls, rude.n_stalls + 1);
	}
	mod_timer(&rude.stall_timer, jiffies + rtst);
}

/* --- one grace period ------------------------------------------------------------ */

/* Move the kthread onto cpu: returns once cpu has switched to it. */
static void rude_visit(int cpu)
{
	struct cpumask one;

	WRITE_ONCE(rude.visit_jiffies, jiffies);
	WRITE_ONCE(rude.visiting, cpu);
	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	/* cpus_read_lock() is held: cpu stays online, so the move cannot fail. */
	WARN_ON_ONCE(set_cpus_allowed_ptr(current, &one));
	WARN_ON_ONCE(raw_smp_processor_id() != cpu);
	/*
	 * A reader on this CPU has no barrier of its own: it ended before
	 * this CPU switched to us, in its program order. This barrier makes
	 * its accesses visible before anything the kthread does later on
	 * other CPUs (the next visits, the callbacks); pairs with the
	 * smp_mb() at the start of rude_wait_gp() of the grace period whose
	 * callbacks a later reader on this CPU must not see freed (Documentation/RCU/ordering.md).
	 */
	smp_mb();
	rude.n_visits++;
	WRITE_ONCE(rude.visiting, -1);
}

static void rude_wait_gp(void)
{
	int rtst = rcu_tasks_stall_timeout();
	u64 start = local_clock(), dur;
	unsigned int cpu;

	/*
	 * The updaters' removals (before their call_rcu_tasks_rude(), taken
	 * under cbs_lock) come before every visit: a reader that starts on a
	 * CPU after we have left it cannot see what they removed. Pairs with
	 * the smp_mb() in rude_visit() of earlier grace periods.
	 */
	smp_mb();
	rude_set_state(RTGS_WAIT_GP);
	cpus_read_lock();	/* as Linux's schedule_on_each_cpu(): no CPU comes or goes */
	if (num_online_cpus() <= 1) {
		rude.n_fast++;
	} else {
		if (rtst > 0)
			mod_timer(&rude.stall_timer, jiffies + rtst);
		for_each_online_cpu(cpu)
			rude_visit(cpu);
		del_timer_sync(&rude.stall_timer);
		/* Free to run anywhere again, as a kworker-served Linux caller would be. */
		set_cpus_allowed_ptr(current, cpu_possible_mask);
	}
	cpus_read_unlock();
	dur = local_clock() - start;
	rude.gp_ns_total += dur;
	if (dur > rude.gp_ns_max)
		rude.gp_ns_max = dur;
	WRITE_ONCE(rude.n_gps, rude.n_gps + 1);
}

/* --- the kthread ------------------------------------------------------------------- */

static struct rcu_head *rude_take_cbs(void)
{
	struct rcu_head *list;
	unsigned long flags;

	spin_lock_irqsave(&rude.cbs_lock, flags);
	list = rude.cbs_head;
	rude.cbs_head = NULL;
	rude.cbs_tail = &rude.cbs_head;
	spin_unlock_irqrestore(&rude.cbs_lock, flags);
	return list;
}

static int rcu_tasks_rude_kthread(void *unused)
{
	for (;;) {
		struct rcu_head *list, *next;

		rude_set_state(RTGS_WAIT_CBS);
		wait_event_idle(rude_cbs_wq, READ_ONCE(rude.cbs_head));
		list = rude_take_cbs();
		if (!list)
			continue;
		/* Every callback taken waits for a grace period that starts after it was queued. */
		rude_wait_gp();
		rude_set_state(RTGS_INVOKE_CBS);
		for (; list; list = next) {
			next = list->next;
			debug_rcu_head_unqueue(list);
			list->func(list);
			rude.n_cbs_invoked++;
			cond_resched();
		}
	}
	return 0;
}

/* Early, so that the first initcall user (a self-test, rcutorture) finds it running. */
static int rcu_spawn_tasks_rude_kthread(void)
{
	struct task_struct *t;
	unsigned int shift = 0;

	timer_setup(&rude.stall_timer, rude_stall_timer_fn, 0);
	t = kthread_create(rcu_tasks_rude_kthread, NULL, "rcu_tasks_rude_kthread");
	BUG_ON(!t);
	WRITE_ONCE(rude.kthread, t);
	wake_up_process(t);
	/*
	 * Linux's line: one callback queue ("lim") serves every CPU, each CPU
	 * using queue cpu >> shift. We never add queues under contention,
	 * so rcu_task_cb_adjust is 0 (Linux's default is 1).
	 */
	while (((nr_cpu_ids - 1) >> shift) >= 1)
		shift++;
	pr_info("RCU Tasks Rude: Setting shift to %u and lim to 1 rcu_task_cb_adjust=0.\n", shift);
	return 0;
}
early_initcall(rcu_spawn_tasks_rude_kthread);

/* --- reports ------------------------------------------------------------------------ */

void rcu_tasks_rude_bootup_oddness(void)
{
	pr_info("\tRude variant of Tasks RCU enabled.\n");
}

/* Linux's format: state(number) since jiffies, g:grace periods, i:failed/total IPIs, kthread, callbacks. */
void show_rcu_tasks_rude_gp_kthread(void)
{
	int state = READ_ONCE(rude.gp_state);

	pr_info("rcu_tasks_rude: %s(%d) since %lu g:%lu i:%lu/%lu %c%c \n",
		rude_gp_state_names[state], state, jiffies - READ_ONCE(rude.gp_jiffies),
		READ_ONCE(rude.n_gps), 0UL, READ_ONCE(rude.n_visits),
		".k"[!!READ_ONCE(rude.kthread)], ".C"[!!READ_ONCE(rude.cbs_head)]);
}

void rcu_tasks_rude_show_stats(void)
{
	unsigned long n = READ_ONCE(rude.n_gps);

	pr_info("rcu_tasks_rude: %lu grace periods (%lu with one CPU), mean %llu us, longest %llu us, %lu CPU visits, %lu stall warnings, %lu callbacks invoked\n",
		n, rude.n_fast, n ? rude.gp_ns_total / n / NSEC_PER_USEC : 0,
		rude.gp_ns_max / NSEC_PER_USEC, rude.n_visits, rude.n_stalls, rude.n_cbs_invoked);
}
