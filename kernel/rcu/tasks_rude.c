/*
 * Tasks Rude RCU (CONFIG_TASKS_RUDE_RCU): a grace period ends once every
 * online CPU has done a context switch since it began. Any region that
 * runs with preemption or interrupts disabled is therefore a reader,
 * including the idle loop and the entry code RCU does not watch, which
 * no other flavor can wait for. Linux queues a no-op work item on every
 * CPU (schedule_on_each_cpu()) and waits for them all; this kernel has no
 * workqueues, so each CPU has a helper kthread of its own, rcu_rude/N,
 * bound to it, which a grace period wakes and waits for: once the helper
 * runs, its CPU has switched tasks, so whatever non-preemptible region it
 * was in when the grace period began has ended. The grace period wakes
 * every helper it needs at once and sleeps until the last has run, so an
 * idle machine pays one round of parallel cross-CPU wake-ups, not one
 * after the other as when the kthread itself moved from CPU to CPU. The
 * kthread still moves itself when a grace period has only one CPU to
 * visit (one wake-up there, where a helper costs one there and one back)
 * and when a helper cannot be created. One
 * kthread, rcu_tasks_rude_kthread, takes every queued callback, runs one
 * grace period, and invokes them in order, as Linux's rcu_tasks_kthread()
 * does for this flavor.
 *
 * A preemptible kernel can spare some visits: the grace period asks each
 * busy CPU at once, by an asynchronous cross call, whether it is in such
 * a region right now: the handler runs only with interrupts on, and the
 * preempt count then says whether the code it interrupted had preemption
 * off (or was itself an interrupt handler). A CPU that answers "no" is at
 * a point where it could have switched tasks, which is all a switch would
 * prove; the CPUs that answer "yes", or not within RUDE_IPI_WAIT, are
 * visited. Idle CPUs (Linux's idle loop runs with preemption off) are
 * visited without asking, while the busy ones are asked; a
 * non-preemptible kernel asks nothing, every answer being "yes" there.
 *
 * CPU hotplug: the grace period holds cpus_read_lock(), as Linux's
 * schedule_on_each_cpu() does, so no CPU joins or leaves while CPUs are
 * visited; a CPU going offline waits for the grace period (and a CPU that
 * is still in a reader cannot run the hotplug stopper anyway). A helper
 * is parked while its CPU is offline (rcu_tasks_rude_offline_cpu(), as
 * rcuc/N is), so the hotplug code never moves it off its CPU. One CPU
 * online: nothing to wait for (the caller runs, so no other region is in
 * progress), Linux 6.1's fast path.
 *
 * Stall warnings: Linux 6.1 has none for this flavor (a CPU that never
 * switches leaves its work item waiting silently); here a timer armed for
 * the grace period prints one each rcupdate.rcu_task_stall_timeout
 * jiffies (shared by every Tasks flavor, tasks_params.c), in the words of
 * the Tasks family, naming each CPU that has not switched and asking it
 * for a backtrace. Before the first, the same timer prints the
 * informational lines of rcupdate.rcu_task_stall_info(_mult), as the
 * other flavors' rescans do. No "rcu: " prefix on the stall and boot
 * lines: Linux prints them from update.c, which has none.
 */
#include <rcu/tasks_rude.h>
#include <rcu/tasks.h>
#include "tasks_cbs.h"
#include "tasks_params.h"
#include <rcu/rcupdate.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <sched/wait.h>
#include <locking/spinlock.h>
#include <kernel/cpu.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <kernel/atomic.h>
#include <kernel/cmpxchg.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/init.h>
#include <kernel/barrier.h>
#include <kernel/bug.h>
#include <time/time.h>
#include <time/timer.h>

/* How long the cross-call round may wait for answers before the silent CPUs are visited. */
#define RUDE_IPI_WAIT	(HZ / 20 ?: 1)

/* The kthread's state, in Linux's names (show_rcu_tasks_rude_gp_kthread()). */
enum { RTGS_WAIT_CBS, RTGS_WAIT_GP, RTGS_INVOKE_CBS };
static const char *const rude_gp_state_names[] = {
	[RTGS_WAIT_CBS] = "RTGS_WAIT_CBS",
	[RTGS_WAIT_GP] = "RTGS_WAIT_GP",
	[RTGS_INVOKE_CBS] = "RTGS_INVOKE_CBS",
};

static struct rcu_tasks_rude {
	struct rcu_tasks_cbs cbs;	/* callbacks queued, not yet taken by the kthread */
	struct task_struct *kthread;	/* set once, at early_initcall time */

	/* Written by the kthread (and the stall timer); read locklessly. */
	int gp_state;			/* RTGS_* */
	unsigned long gp_jiffies;	/* when gp_state last changed */
	unsigned long n_gps;		/* grace periods completed */
	unsigned long n_fast;		/* of which with one CPU online (no visit) */
	unsigned long n_visits;		/* visits asked for (a CPU's helper woken, or the kthread moved there) */
	unsigned long n_ipis;		/* CPUs asked by cross call, Linux's n_ipis */
	unsigned long n_ipi_qs;		/* of which answered "quiescent" in time */
	u64 gp_ns_total, gp_ns_max;	/* grace-period durations */
	unsigned long n_stalls;		/* stall warnings printed */
	struct timer_list stall_timer;	/* armed for each grace period when warnings are on */
	/* This grace period's warnings, set before the timer is armed, then the timer's. */
	unsigned long stall_due;	/* jiffies of the next stall warning, if stall_on */
	bool stall_on, reported;	/* rcu_task_stall_timeout > 0; a warning was printed */
	struct rcu_tasks_info info;	/* the informational messages before the first warning */
} rude = {
	.cbs = RCU_TASKS_CBS_INIT(rude.cbs),
};

/* Per CPU, this grace period's cross-call answer: 0 none yet, 1 quiescent, 2 in a region. */
static int rude_ipi_state[NR_CPUS];
/* Answers still due; the last one wakes the kthread. */
static atomic_t rude_ipi_pending;
static DECLARE_WAIT_QUEUE_HEAD(rude_ipi_wq);

/*
 * The visits. Per CPU: its helper kthread, rcu_rude/N (created at the
 * first grace period that visits N, bound to N, parked while N is
 * offline); whether the grace period waits for a visit to N (set by the
 * kthread, cleared by the visit), and since when. Visits still due: the
 * last one wakes the kthread (the kthread's own count of one, dropped
 * once every visit is asked for, keeps it from reaching zero early).
 */
static struct task_struct *rude_helper[NR_CPUS];
static int rude_visit_due[NR_CPUS];
static unsigned long rude_visit_jiffies[NR_CPUS];
static atomic_t rude_visits_pending;
static DECLARE_WAIT_QUEUE_HEAD(rude_visit_wq);

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
	rcu_tasks_cbs_queue(&rude.cbs, rhp, func);
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

/* Arm the timer for the earlier of the next stall warning and the next informational message. */
static void rude_arm_stall_timer(void)
{
	unsigned long when, info;
	bool armed = rude.stall_on;

	when = rude.stall_due;
	/* One jiffy past the message's due time: it is printed only once that has passed. */
	if (rcu_tasks_info_due(&rude.info, &info) && !rude.reported &&
	    (!armed || time_before(info + 1, when))) {
		when = info + 1;
		armed = true;
	}
	if (armed)
		mod_timer(&rude.stall_timer, when);
}

/*
 * Timer: the grace period has waited a whole stall timeout, or until an
 * informational message is due (tasks_params.c, Linux's words; none once
 * a warning was printed). For a warning, each CPU whose visit is still
 * due has not switched tasks since it was asked to: name it and ask it
 * for a backtrace (an NMI, so it comes even with interrupts off).
 */
static void rude_stall_timer_fn(struct timer_list *t)
{
	int rtst = rcu_tasks_stall_timeout();
	bool first = true;
	unsigned int cpu;

	if (READ_ONCE(rude.gp_state) != RTGS_WAIT_GP)
		return;
	if (!rude.stall_on || time_before(jiffies, rude.stall_due)) {
		rcu_tasks_info_check(&rude.info, rude.reported, "rcu_tasks_rude",
				     READ_ONCE(rude.n_gps) + 1, READ_ONCE(rude.gp_jiffies));
		rude_arm_stall_timer();
		return;
	}
	rude.reported = true;
	for_each_online_cpu(cpu) {
		if (!READ_ONCE(rude_visit_due[cpu]))
			continue;
		if (first)
			pr_err("INFO: rcu_tasks_rude detected stalls on tasks:\n");
		first = false;
		pr_alert("rcu_tasks_rude: CPU %u has not switched tasks for %lu jiffies (g%lu, %lu jiffies into the grace period)\n",
			 cpu, jiffies - READ_ONCE(rude_visit_jiffies[cpu]), READ_ONCE(rude.n_gps) + 1,
			 jiffies - READ_ONCE(rude.gp_jiffies));
		if (!trigger_single_cpu_backtrace(cpu))
			pr_alert("rcu_tasks_rude: no backtrace from CPU %u\n", cpu);
	}
	/* Counted once the warning is out: a test lets its spinner go when it moves. */
	if (!first)
		WRITE_ONCE(rude.n_stalls, rude.n_stalls + 1);
	rude.stall_on = rtst > 0;	/* read afresh, as the rescanning flavors do */
	rude.stall_due = jiffies + rtst;
	rude_arm_stall_timer();
}

/* --- one grace period ------------------------------------------------------------ */

/*
 * Cross-call handler, interrupts off, on each CPU asked: is the code this
 * interrupt arrived in outside any region with preemption or interrupts
 * off? Interrupts were on (the call arrived), and the preempt count holds
 * only this interrupt's HARDIRQ_OFFSET exactly when the interrupted code
 * had preemption on and was not an interrupt handler. Only a preemptible
 * kernel counts that way (elsewhere all kernel code is such a region):
 * otherwise always "in a region" (so such a kernel does not ask). The idle task
 * is always "in a region" too: Linux runs its whole loop with preemption
 * off, so code in it, RCU-watching or not, is a reader even where it
 * halts with interrupts on (a function that called into the halt resumes
 * after it); only a switch away from idle ends it. An answer that
 * comes late, in the next grace period, is still true then (it looks at
 * the CPU as it is when it runs); its count only ends that grace
 * period's wait early, and CPUs without an answer are visited.
 */
static void rude_ipi(void *unused)
{
	int cpu = smp_processor_id();
	bool qs = IS_ENABLED(CONFIG_PREEMPTION) && preempt_count() == HARDIRQ_OFFSET &&
		  !is_idle_task(current);

	/*
	 * The interrupted code's accesses (and those of the regions that
	 * ended before it, in this CPU's program order) before the answer;
	 * pairs with the smp_load_acquire() in rude_wait_gp().
	 */
	smp_mb();
	smp_store_release(&rude_ipi_state[cpu], qs ? 1 : 2);
	if (atomic_dec_and_test(&rude_ipi_pending))
		wake_up(&rude_ipi_wq);
}

/*
 * Ask the CPUs in mask at once, by cross call, and wait for their
 * answers, at most RUDE_IPI_WAIT. Caller holds cpus_read_lock().
 */
static void rude_ipi_round(const struct cpumask *mask)
{
	unsigned int cpu, n = cpumask_weight(mask);

	if (!n)
		return;
	for_each_cpu(cpu, mask)
		WRITE_ONCE(rude_ipi_state[cpu], 0);
	atomic_set(&rude_ipi_pending, n);
	rude.n_ipis += n;
	preempt_disable();	/* smp_call_function_many()'s rule */
	smp_call_function_many(mask, rude_ipi, NULL, false);
	preempt_enable();
	wait_event_timeout(rude_ipi_wq, atomic_read(&rude_ipi_pending) <= 0, RUDE_IPI_WAIT);
}

/*
 * The visit itself, on the visited CPU: it has switched tasks to get here,
 * or (a helper still in its loop from the last grace period, which finds
 * the next request) it is a task that has run there since before this
 * grace period began, so no region that began earlier is in progress.
 * Either the CPU's helper or the moved kthread may get here for one
 * request: only the one whose xchg() takes it counts it.
 */
static void rude_visit_done(unsigned int cpu)
{
	/*
	 * A reader on this CPU has no barrier of its own: it ended before
	 * this CPU switched to the visitor, in its program order. This
	 * barrier carries its accesses before the end of the visit, and so
	 * before the callbacks: pairs with the smp_mb() in rude_wait_gp()
	 * after the visits. It also orders the removals the kthread saw
	 * before asking for the visit (its smp_mb() at the start of
	 * rude_wait_gp(), then this CPU's read of rude_visit_due[]) before
	 * any reader this CPU starts after the visit (Documentation/RCU/ordering.md).
	 */
	smp_mb();
	if (xchg(&rude_visit_due[cpu], 0) && atomic_dec_and_test(&rude_visits_pending))
		wake_up(&rude_visit_wq);
}

/*
 * rcu_rude/N: sleeps until a grace period asks for a visit to its CPU.
 * Running at all means CPU N switched tasks; in Linux this is the no-op
 * work item schedule_on_each_cpu() queues on a per-CPU kworker.
 */
static int rude_helper_fn(void *arg)
{
	unsigned int cpu = (unsigned long)arg;

	for (;;) {
		/* Full barrier: pairs with try_to_wake_up()'s after the kthread set rude_visit_due[]. */
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			kthread_parkme();	/* CPU N goes offline: sleep here until it is back */
			continue;
		}
		if (!READ_ONCE(rude_visit_due[cpu])) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		/* Bound to N, parked while N is away: anywhere else the visit would prove nothing. */
		WARN_ON_ONCE(raw_smp_processor_id() != cpu);
		rude_visit_done(cpu);
	}
	return 0;
}

/*
 * The kthread moves itself onto cpu and back to any CPU: the visit when it
 * is the grace period's only one (one cross-CPU wake-up, where a helper
 * costs two, there and back), and the fallback when no helper can be
 * created for cpu (out of memory). cpus_read_lock() is held, so cpu stays
 * online and the move cannot fail.
 */
static void rude_visit_by_moving(unsigned int cpu)
{
	struct cpumask one;

	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	WARN_ON_ONCE(set_cpus_allowed_ptr(current, &one));
	WARN_ON_ONCE(raw_smp_processor_id() != cpu);
	rude_visit_done(cpu);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/*
 * Ask for a visit to each CPU of mask: wake their helpers, all at once;
 * or, when the caller knows these are the grace period's only visits and
 * there is one, move there. Returns the number of visits asked for.
 * Caller holds cpus_read_lock().
 */
static unsigned int rude_ask_visits(const struct cpumask *mask, bool only)
{
	bool move = only && cpumask_weight(mask) == 1;
	unsigned int cpu, n = 0;

	for_each_cpu(cpu, mask) {
		struct task_struct *t = rude_helper[cpu];

		if (!t && !move) {
			t = kthread_create_on_cpu(rude_helper_fn, (void *)(unsigned long)cpu, cpu,
						  "rcu_rude/%u");
			WRITE_ONCE(rude_helper[cpu], t);	/* read by the hotplug hooks, under the same lock */
			WARN_ONCE(!t, "rcu_tasks_rude: no helper for CPU %u, moving there\n", cpu);
		}
		WRITE_ONCE(rude_visit_jiffies[cpu], jiffies);
		atomic_inc(&rude_visits_pending);
		WRITE_ONCE(rude_visit_due[cpu], 1);
		rude.n_visits++;
		n++;
		if (move || !t)
			rude_visit_by_moving(cpu);
		else
			wake_up_process(t);	/* full barrier first: pairs with the helper's set_current_state() */
	}
	return n;
}

static void rude_wait_gp(void)
{
	int rtst = rcu_tasks_stall_timeout();
	u64 start = local_clock(), dur;
	struct cpumask others, busy;
	unsigned int cpu, self, n;

	/*
	 * The updaters' removals (before their call_rcu_tasks_rude(), taken
	 * under the queue lock, tasks_cbs.c) come before every visit: a
	 * reader that starts on a CPU after its visit cannot see what they
	 * removed. Pairs with the smp_mb() in rude_visit_done().
	 */
	smp_mb();
	rude_set_state(RTGS_WAIT_GP);
	cpus_read_lock();	/* as Linux's schedule_on_each_cpu(): no CPU comes or goes */
	if (num_online_cpus() <= 1) {
		rude.n_fast++;
	} else {
		rude.stall_on = rtst > 0;
		rude.stall_due = jiffies + rtst;
		rude.reported = false;
		rcu_tasks_info_start(&rude.info);
		rude_arm_stall_timer();
		/*
		 * This CPU is quiescent: the kthread runs here, so no region is
		 * in progress (if it moved here since the grace period began,
		 * this CPU switched tasks to get it).
		 */
		preempt_disable();
		self = smp_processor_id();
		preempt_enable();
		cpumask_copy(&others, cpu_online_mask);
		cpumask_clear_cpu(self, &others);
		cpumask_clear(&busy);
		rude.n_ipi_qs++;
		atomic_set(&rude_visits_pending, 1);	/* the kthread's own count */
		if (IS_ENABLED(CONFIG_PREEMPTION)) {
			/*
			 * Only a preemptible kernel's answer can spare a visit, and
			 * never an idle CPU's: visit those at once, ask the others
			 * meanwhile. A CPU that goes busy or idle in between is
			 * asked or visited for nothing, never skipped.
			 */
			for_each_cpu(cpu, &others)
				if (!idle_cpu(cpu))
					cpumask_set_cpu(cpu, &busy);
			cpumask_andnot(&others, &others, &busy);
		}
		n = rude_ask_visits(&others, cpumask_empty(&busy));
		rude_ipi_round(&busy);
		for_each_cpu(cpu, &busy) {
			/* Acquire: pairs with the answer's store-release in rude_ipi(). */
			if (smp_load_acquire(&rude_ipi_state[cpu]) == 1) {
				rude.n_ipi_qs++;
				cpumask_clear_cpu(cpu, &busy);
			}
		}
		rude_ask_visits(&busy, !n);
		if (!atomic_dec_and_test(&rude_visits_pending))
			wait_event_idle(rude_visit_wq, atomic_read(&rude_visits_pending) == 0);
		/*
		 * The visited CPUs' and the answers' accesses before the callbacks:
		 * pairs with the smp_mb() in rude_visit_done() and rude_ipi().
		 */
		smp_mb();
		del_timer_sync(&rude.stall_timer);
	}
	cpus_read_unlock();
	dur = local_clock() - start;
	rude.gp_ns_total += dur;
	if (dur > rude.gp_ns_max)
		rude.gp_ns_max = dur;
	WRITE_ONCE(rude.n_gps, rude.n_gps + 1);
}

/* --- CPU hotplug (kernel/cpu.c, under the hotplug lock, so never during a grace period) --- */

/* Linux's smpboot rule, as for rcuc/N: a CPU's helper is parked while the CPU is away. */
void rcu_tasks_rude_offline_cpu(unsigned int cpu)
{
	if (rude_helper[cpu])
		kthread_park(rude_helper[cpu]);
}

void rcu_tasks_rude_online_cpu(unsigned int cpu)
{
	if (rude_helper[cpu])
		kthread_unpark(rude_helper[cpu]);
}

/* --- the kthread ------------------------------------------------------------------- */

static int rcu_tasks_rude_kthread(void *unused)
{
	for (;;) {
		struct rcu_head *list;

		rude_set_state(RTGS_WAIT_CBS);
		list = rcu_tasks_cbs_wait_take(&rude.cbs);
		/* Every callback taken waits for a grace period that starts after it was queued. */
		rude_wait_gp();
		rude_set_state(RTGS_INVOKE_CBS);
		rcu_tasks_cbs_invoke(&rude.cbs, list);
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
		READ_ONCE(rude.n_gps), 0UL, READ_ONCE(rude.n_ipis),
		".k"[!!READ_ONCE(rude.kthread)], ".C"[rcu_tasks_cbs_pending(&rude.cbs)]);
}

void rcu_tasks_rude_show_stats(void)
{
	unsigned long n = READ_ONCE(rude.n_gps);

	pr_info("rcu_tasks_rude: %lu grace periods (%lu with one CPU), mean %llu us, longest %llu us, %lu CPUs asked, %lu CPUs quiescent without a visit (its own included), %lu CPU visits, %lu stall warnings, %lu callbacks invoked\n",
		n, rude.n_fast, n ? rude.gp_ns_total / n / NSEC_PER_USEC : 0,
		rude.gp_ns_max / NSEC_PER_USEC, rude.n_ipis, rude.n_ipi_qs, rude.n_visits,
		rude.n_stalls, rude.cbs.n_invoked);
}
