/*
 * Wake-up placement: which CPU a waking (or moved) task is queued on.
 * Its last CPU if allowed and idle, else an idle allowed CPU, else its
 * last CPU; for a WF_SYNC wake-up (the waker sleeps right after), the
 * waker's CPU when nothing else is queued there. Split from core.c, which
 * takes the runqueue locks around these choices.
 */
#include "sched.h"
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <sched/isolation.h>

bool cpu_allowed(struct task_struct *p, unsigned int cpu)
{
	return cpumask_test_cpu(cpu, &p->cpus_mask) && cpu_online(cpu);
}

/*
 * None of the CPUs p may run on is online (the last went down): as Linux,
 * it may run anywhere from now on, and the console says so. pi_lock held.
 */
static unsigned int select_fallback_cpu(struct task_struct *p)
{
	unsigned int prev = task_cpu(p);

	if (!(p->flags & PF_EXITING))
		printk(KERN_INFO "process %d (%s) no longer affine to cpu%u\n", p->pid, p->comm, prev);
	cpumask_copy(&p->cpus_mask, cpu_possible_mask);
	p->nr_cpus_allowed = cpumask_weight(&p->cpus_mask);
	return cpumask_first(cpu_online_mask);
}

/*
 * A WF_SYNC wake-up: the waker, a task, sleeps right after it, and nothing
 * else is queued on its CPU, so that CPU is about to idle. The wakee runs
 * there as soon as the waker blocks: no other CPU is woken for it, and the
 * two stay on one CPU for what they pass back and forth (synchronize_rcu()'s
 * waiter and the grace-period kthread: the request, then the callback
 * that wakes the waiter, come back to the same CPU). Waking another idle
 * CPU costs an IPI and that CPU's way out of idle; under QEMU's
 * single-threaded TCG, a pass of its round robin over the vCPUs between
 * the two (Documentation/RCU/performance.md, issue 36). Linux's
 * wake_affine_idle() makes the same test (a sync wake-up onto a CPU
 * running only the waker), though its search for an idle sibling may
 * still pick the wakee's idle last CPU. Not from an interrupt (the interrupted task is
 * not the one going to sleep), not for a CPU the wakee may not use, nor
 * an isolated one. Called with interrupts off (p->pi_lock).
 */
static bool sync_wake_here(struct task_struct *p)
{
	unsigned int me = raw_smp_processor_id();

	return !in_interrupt() && p != current && current != cpu_rq(me)->idle &&
	       READ_ONCE(cpu_rq(me)->nr_running) == 1 && cpu_allowed(p, me) &&
	       !sched_cpu_isolated(me);
}

/*
 * Choose where a waking task runs: its last CPU, unless an allowed CPU is
 * idle. Other CPUs' nr_running and curr are read without their lock (a
 * hint: a stale value only places the task less well), so with READ_ONCE,
 * against the WRITE_ONCE()s under rq->lock (KCSAN: "data-race in
 * __enqueue_task / select_task_rq" on the plain read of nr_running).
 */
unsigned int select_task_rq(struct task_struct *p, int wake_flags)
{
	unsigned int prev = task_cpu(p), cpu;

	if ((wake_flags & WF_SYNC) && sync_wake_here(p))
		return raw_smp_processor_id();
	if (cpu_allowed(p, prev) &&
	    (p->nr_cpus_allowed == 1 || !READ_ONCE(cpu_rq(prev)->nr_running)))
		return prev;
	/* An idle CPU, outside isolcpus= (balancing does not place tasks there). */
	for_each_cpu(cpu, &p->cpus_mask)
		if (cpu_online(cpu) && !READ_ONCE(cpu_rq(cpu)->nr_running) &&
		    READ_ONCE(cpu_rq(cpu)->curr) == cpu_rq(cpu)->idle && !sched_cpu_isolated(cpu))
			return cpu;
	if (cpu_allowed(p, prev))
		return prev;
	for_each_cpu(cpu, &p->cpus_mask)
		if (cpu_online(cpu))
			return cpu;
	return select_fallback_cpu(p);
}
