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
