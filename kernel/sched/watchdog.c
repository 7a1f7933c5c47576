/*
 * The soft-lockup detector (CONFIG_SOFTLOCKUP_DETECTOR, Linux's name),
 * from each CPU's scheduling-clock tick: a CPU on which SCHED_NORMAL tasks
 * wait and none has run for 2 * watchdog_thresh seconds gets a report
 * naming the task it runs, with a backtrace. Two shapes:
 *
 *   watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [name:pid]
 *       Linux's line: the CPU has not switched tasks at all (a loop with
 *       preemption off, or a task that never reaches cond_resched()).
 *   watchdog: BUG: RT starvation - CPU#0 ran no SCHED_NORMAL task for 22s! [name:pid]
 *       Ours, in the same shape: the CPU switches, but only among
 *       SCHED_FIFO/SCHED_RR tasks. Linux bounds this with RT throttling
 *       (95% of each second, "sched: RT throttling activated"), which this
 *       scheduler does not have; TREE03's hang was this (rcuc/0 and the
 *       grace-period kthread, both FIFO, on the last online CPU). A second
 *       line says how many tasks waited and how many switches there were.
 *
 * Linux's detector wakes a per-CPU stopper that the timer checks on; here
 * the scheduler says when a SCHED_NORMAL (or idle) task was last switched
 * in and the tick compares, which costs one store per switch. A report is
 * repeated every further 2 * watchdog_thresh seconds while it lasts, as
 * Linux's is. watchdog_thresh=0 turns the detector off.
 */
#define KPARAM_SUBSYS "watchdog"
#include "sched.h"
#include <sched/watchdog.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <kernel/sprintf.h>
#include <kernel/preempt.h>
#include <kernel/irq.h>

static int watchdog_thresh = 10;
KPARAM("watchdog_thresh", watchdog_thresh, KPARAM_INT, 0, 60,
       "soft-lockup report after 2 * this many seconds without a SCHED_NORMAL task (0: off)");

struct watchdog_cpu {
	u64 fair_ns;		/* local_clock() when a non-RT task last ran here */
	u64 fair_switches;	/* rq->nr_switches then */
	u64 switch_ns;		/* ... when this CPU last switched tasks */
	u64 nr_switches;	/* rq->nr_switches at switch_ns */
	u64 wait_ns;		/* since when (tick) some task has waited here, or 0 */
	u64 fair_wait_ns;	/* ... some SCHED_NORMAL task, or 0 */
	u64 reported_ns;	/* the last report of this episode, or 0 */
};
static DEFINE_PER_CPU(struct watchdog_cpu, watchdog_cpu);

/* For the self-test: reports so far and the pid of the last task named. */
static unsigned long watchdog_nr_reports;
static int watchdog_last_pid;

unsigned long watchdog_reports(int *last_pid)
{
	if (last_pid)
		*last_pid = READ_ONCE(watchdog_last_pid);
	return READ_ONCE(watchdog_nr_reports);
}

int watchdog_get_thresh(void)
{
	return watchdog_thresh;
}

/* From __schedule(), rq->lock held: a SCHED_NORMAL or idle task is about to run here. */
void sched_watchdog_fair_switch(struct rq *rq, u64 now)
{
	struct watchdog_cpu *wd = this_cpu_ptr(&watchdog_cpu);

	wd->fair_ns = now;
	wd->fair_switches = rq->nr_switches;
}

/*
 * Linux's touch_softlockup_watchdog(): the caller keeps this CPU busy on
 * purpose (rcutorture.stall_no_softlockup): count from now, as if it had
 * just switched tasks. Called with preemption off, so "this CPU" holds;
 * the tick may interrupt between the stores, which only moves the start
 * of the count.
 */
void touch_softlockup_watchdog(void)
{
	struct watchdog_cpu *wd = this_cpu_ptr(&watchdog_cpu);
	u64 now = local_clock();

	WRITE_ONCE(wd->switch_ns, now);
	WRITE_ONCE(wd->fair_ns, now);
}

/* One line naming the first few tasks queued behind the running one. */
static void watchdog_show_waiting(struct rq *rq)
{
	char buf[160];
	struct task_struct *p;
	unsigned int len = 0, n = 0;
	int prio;

	buf[0] = 0;
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	for (prio = 0; prio <= MAX_RT_PRIO; prio++) {
		struct list_head *q = prio < MAX_RT_PRIO ? &rq->rt_queue[prio] : &rq->fair_queue;

		list_for_each_entry(p, q, run_list) {
			if (p == rq->curr || len >= sizeof(buf) - 40)
				continue;
			len += snprintf(buf + len, sizeof(buf) - len, " %s:%d", p->comm, p->pid);
			n++;
		}
	}
	do_raw_spin_unlock(&rq->lock);
	printk(KERN_EMERG "watchdog: CPU#%u: %u queued behind it:%s\n", rq->cpu, n, buf);
}

static void watchdog_report(struct rq *rq, struct watchdog_cpu *wd, struct task_struct *curr,
			    bool stuck, u64 now, unsigned int waiting, u64 nsw)
{
	u64 since = (now - (stuck ? max(wd->switch_ns, wd->wait_ns) :
				   max(wd->fair_ns, wd->fair_wait_ns))) / NSEC_PER_SEC;

	WRITE_ONCE(watchdog_last_pid, curr->pid);
	WRITE_ONCE(watchdog_nr_reports, watchdog_nr_reports + 1);
	if (stuck) {
		printk(KERN_EMERG "watchdog: BUG: soft lockup - CPU#%u stuck for %llus! [%s:%d]\n",
		       rq->cpu, (unsigned long long)since, curr->comm, curr->pid);
	} else {
		printk(KERN_EMERG "watchdog: BUG: RT starvation - CPU#%u ran no SCHED_NORMAL task for %llus! [%s:%d]\n",
		       rq->cpu, (unsigned long long)since, curr->comm, curr->pid);
		printk(KERN_EMERG "sched: CPU#%u: %u SCHED_NORMAL task(s) waiting, %llu switches among real-time tasks meanwhile; %s:%d runs %s %u\n",
		       rq->cpu, waiting, (unsigned long long)(nsw - wd->fair_switches),
		       curr->comm, curr->pid, curr->policy == SCHED_RR ? "SCHED_RR" : "SCHED_FIFO",
		       curr->rt_priority);
	}
	watchdog_show_waiting(rq);
	if (!arch_show_irq_regs())	/* the interrupted task's registers and frames, as Linux */
		dump_stack();
}

/* From scheduler_tick(), interrupts off, rq->lock not held. */
void sched_watchdog_tick(struct rq *rq)
{
	struct watchdog_cpu *wd = this_cpu_ptr(&watchdog_cpu);
	u64 now = local_clock(), thresh = (u64)watchdog_thresh * 2 * NSEC_PER_SEC;
	u64 nsw = READ_ONCE(rq->nr_switches);
	struct task_struct *curr, *p;
	unsigned int fair = 0, others;
	bool stuck, starved;

	if (!watchdog_thresh)
		return;
	if (!wd->switch_ns) {		/* first tick here */
		wd->fair_ns = wd->switch_ns = now;
		wd->fair_switches = wd->nr_switches = nsw;
	}
	if (nsw != wd->nr_switches) {
		wd->nr_switches = nsw;
		wd->switch_ns = now;
	}
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	curr = rq->curr;
	/* Tasks queued here other than the one running. */
	others = rq->nr_running - (curr != rq->idle && curr->on_rq);
	list_for_each_entry(p, &rq->fair_queue, run_list)
		fair += p != curr;
	do_raw_spin_unlock(&rq->lock);
	if (!rt_prio(curr->prio) && now - wd->switch_ns < thresh) {
		wd->fair_ns = now;	/* a SCHED_NORMAL task (or idle) runs, and switches happen */
		wd->fair_switches = nsw;
	}
	/*
	 * Waiting all along, not just woken by this tick's timers (an idle
	 * CPU does not switch either): from the first tick that saw it.
	 */
	if (!others)
		wd->wait_ns = 0;
	else if (!wd->wait_ns)
		wd->wait_ns = now;
	if (!fair)
		wd->fair_wait_ns = 0;
	else if (!wd->fair_wait_ns)
		wd->fair_wait_ns = now;
	/*
	 * No switch at all: a soft lockup, unless a real-time task runs with
	 * preemption on (then it is RT starvation, below: the CPU would switch
	 * to a higher priority). The tick's own count is HARDIRQ_OFFSET.
	 */
	stuck = others && now - max(wd->switch_ns, wd->wait_ns) >= thresh &&
		(!rt_prio(curr->prio) || (preempt_count() & ~HARDIRQ_MASK));
	starved = fair && now - max(wd->fair_ns, wd->fair_wait_ns) >= thresh;
	if (!stuck && !starved) {
		wd->reported_ns = 0;	/* over, or never was: the next episode reports at once */
		return;
	}
	if (wd->reported_ns && now - wd->reported_ns < thresh)
		return;		/* reported: again after another period, as Linux */
	wd->reported_ns = now;
	watchdog_report(rq, wd, curr, stuck, now, fair, nsw);
}
