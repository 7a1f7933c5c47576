/*
 * Idle load balancing, the simple kind (not CFS's): a CPU that has nothing
 * to run takes one task that waits, queued but not running, on another
 * CPU's runqueue. Wake-up placement (select_task_rq()) already sends a
 * waking task to an idle CPU; what it cannot fix is a task that was queued
 * while every CPU was busy and then stays behind a CPU hog while another
 * CPU goes idle. Without this, a grace-period kthread queued behind a
 * kthread spinning with preemption off waited for the spin to end, with
 * the other CPU idle (the provoked-stall test saw no grace period start).
 *
 * Three places look for such a task: __schedule() when the CPU is about to
 * run its idle task ("newidle"), the idle loop before it halts, and the
 * tick of a CPU with tasks waiting, which wakes an idle CPU that may take
 * one (the idle CPU's own tick may be stopped).
 */
#include "sched.h"
#include <kernel/smp.h>
#include <kernel/irqflags.h>

/*
 * May dst take p off src? Only a task that is queued and not on its CPU,
 * not about to be moved by finish_task_switch() (migrate_to), allowed on
 * dst and not bound to one CPU (per-CPU kthreads stay where they are).
 * Caller holds src->lock, under which all of these are stable: affinity
 * and migrate_to change under the task's runqueue lock too.
 */
static bool can_pull(struct rq *src, struct task_struct *p, unsigned int dst)
{
	return p != src->curr && !READ_ONCE(p->on_cpu) && p->migrate_to < 0 &&
	       p->nr_cpus_allowed > 1 && !(p->flags & PF_IDLE) && cpu_allowed(p, dst);
}

/* The most important task on src that dst may take, or NULL. */
static struct task_struct *find_pullable(struct rq *src, unsigned int dst)
{
	struct task_struct *p;
	unsigned int prio;

	for_each_set_bit(prio, src->rt_bitmap, MAX_RT_PRIO)
		list_for_each_entry(p, &src->rt_queue[prio], run_list)
			if (can_pull(src, p, dst))
				return p;
	list_for_each_entry(p, &src->fair_queue, run_list)
		if (can_pull(src, p, dst))
			return p;
	return NULL;
}

bool sched_pull_task(struct rq *rq)
{
	unsigned int i, n = nr_cpu_ids;

	/* Start after ourselves so that idle CPUs do not all raid the same queue. */
	for (i = 1; i < n; i++) {
		unsigned int cpu = (rq->cpu + i) % n;
		struct rq *src = cpu_rq(cpu);
		struct task_struct *p;

		/* A waiting task means at least two queued: it and the one running. */
		if (!cpu_online(cpu) || READ_ONCE(src->nr_running) < 2)
			continue;
		/* We hold rq->lock: a trylock keeps out of any lock-order cycle. */
		if (!do_raw_spin_trylock(&src->lock, __THIS_PC))
			continue;
		p = find_pullable(src, rq->cpu);
		if (p) {
			dequeue_task(src, p);
			WRITE_ONCE(p->cpu, rq->cpu);
			enqueue_task(rq, p, false);
			src->nr_pushed++;
			rq->nr_pulled++;
		}
		do_raw_spin_unlock(&src->lock);
		if (p)
			return true;
	}
	return false;
}

bool sched_idle_balance(void)
{
	struct rq *rq = cpu_rq(raw_smp_processor_id());
	bool pulled = false;

	if (num_online_cpus() < 2)
		return false;
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	if (!rq->nr_running && sched_pull_task(rq)) {
		resched_curr(rq);	/* our own CPU: sets need_resched, no IPI */
		pulled = true;
	}
	do_raw_spin_unlock(&rq->lock);
	return pulled;
}

void sched_balance_tick(struct rq *rq)
{
	unsigned int cpu, kick = nr_cpu_ids;
	unsigned long flags;

	if (READ_ONCE(rq->nr_running) < 2)
		return;
	local_irq_save(flags);
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	for_each_online_cpu(cpu) {
		if (cpu != rq->cpu && idle_cpu(cpu) && find_pullable(rq, cpu)) {
			kick = cpu;
			rq->nr_balance_kicks++;
			break;
		}
	}
	do_raw_spin_unlock(&rq->lock);
	local_irq_restore(flags);
	/*
	 * Not under our lock: resched_cpu() takes the idle CPU's. Its idle loop
	 * sees need_resched and calls schedule(), whose newidle pull takes a
	 * waiting task (this one, or another if it was quicker).
	 */
	if (kick < nr_cpu_ids)
		resched_cpu(kick);
}
