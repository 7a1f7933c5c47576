/*
 * Questions asked about the runqueues from outside the scheduler's core
 * (Tiny RCU's idle-task check, the Tasks RCU stall report, load
 * balancing's search for an idle CPU, the tests), answered without the
 * runqueue lock: each answer is a snapshot that may already be stale,
 * which every caller accepts.
 */
#include "sched.h"

struct task_struct *idle_task(int cpu)
{
	return cpu_rq(cpu)->idle;
}

bool idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	return READ_ONCE(rq->curr) == rq->idle && !READ_ONCE(rq->nr_running);
}

unsigned int sched_nr_running(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->nr_running);
}

/* Has cpu switched to a task that is not real-time? (Tree RCU's rcu_accelerate_cbs() holdoff) */
u64 sched_nr_nonrt_switches(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->nr_nonrt_switches);
}

unsigned long nr_context_switches(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(cpu_rq(cpu)->nr_switches);
	return sum;
}

/*
 * The task running on cpu now (Linux's cpu_curr_snapshot()), for Tasks
 * Trace RCU's scan of running readers. The smp_mb() orders this read
 * before the caller's later reads (the blocked-readers lists): a task
 * seen switched out here was put on such a list by __schedule()'s hook
 * before its CPU stored the next task in rq->curr (that store comes
 * after the hook's list-lock release, which orders it), so the caller
 * finds it there. Valid while the caller holds rcu_read_lock(): a dying
 * task is freed a grace period after its final switch.
 */
struct task_struct *cpu_curr_snapshot(int cpu)
{
	struct task_struct *t = READ_ONCE(cpu_rq(cpu)->curr);

	smp_mb();	/* pairs with the list-lock release in rcu_tasks_trace_qs_blkd() */
	return t;
}

/* Is p running (or being switched out) on some CPU now? A snapshot. */
bool task_curr(const struct task_struct *p)
{
	return READ_ONCE(cpu_rq(task_cpu(p))->curr) == p;
}

/*
 * Call func(p, arg) with p held still: it neither starts nor stops
 * running meanwhile, nor moves (Linux's task_call_func()). p->pi_lock
 * keeps wakeups and the second half of a move away (migrate_after_switch()
 * holds it), the runqueue lock of p's CPU keeps __schedule() from
 * switching p in or out and move_queued_task() from moving it. func runs
 * with interrupts off and must not sleep; if it finds p running it must
 * only read what p itself may change (Tasks Trace RCU declines then).
 */
int task_call_func(struct task_struct *p, int (*func)(struct task_struct *p, void *arg), void *arg)
{
	unsigned long flags;
	struct rq *rq;
	int ret;

	spin_lock_irqsave(&p->pi_lock, flags);
	for (;;) {
		rq = cpu_rq(task_cpu(p));
		do_raw_spin_lock(&rq->lock, __THIS_PC);
		if (rq == cpu_rq(task_cpu(p)))
			break;
		do_raw_spin_unlock(&rq->lock);
	}
	ret = func(p, arg);
	do_raw_spin_unlock(&rq->lock);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	return ret;
}
