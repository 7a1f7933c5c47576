/*
 * The scheduler's part of CPU hotplug (kernel/cpu.c drives it). A dying
 * CPU, already out of the online mask, closes its runqueue (rq->offline:
 * core.c's enqueue paths then choose another CPU) and hands every task
 * still queued on it to an online CPU it may run on. Per-CPU kthreads
 * that follow Linux's smpboot rules (rcuc/N) were parked before; any
 * other task bound to the dying CPU alone loses its affinity, as in Linux
 * ("process N (comm) no longer affine to cpuM"). Tasks asleep with this
 * CPU as their last one are placed elsewhere when they wake.
 */
#include "sched.h"
#include <kernel/cpu.h>
#include <kernel/smp.h>
#include <kernel/bug.h>
#include <kernel/irqflags.h>

/* A task queued on rq that may be moved: not the running one (the stopper), never idle. */
static struct task_struct *first_movable(struct rq *rq)
{
	struct task_struct *p;
	unsigned int prio;

	for_each_set_bit(prio, rq->rt_bitmap, MAX_RT_PRIO)
		list_for_each_entry(p, &rq->rt_queue[prio], run_list)
			if (p != rq->curr && p != rq->idle)
				return p;
	list_for_each_entry(p, &rq->fair_queue, run_list)
		if (p != rq->curr && p != rq->idle)
			return p;
	return NULL;
}

/*
 * On the dying CPU, in its stopper kthread with interrupts off, once the
 * CPU has left the online mask. Lock order: a task's pi_lock before a
 * runqueue lock, so each task is picked under rq->lock, then re-checked
 * with both held.
 */
void sched_cpu_dying(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *p;

	WARN_ON_ONCE(cpu != raw_smp_processor_id() || cpu_online(cpu) || !irqs_disabled());
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	rq->offline = true;	/* lock_online_rq() (core.c) sees it under this lock */
	do_raw_spin_unlock(&rq->lock);
	for (;;) {
		do_raw_spin_lock(&rq->lock, __THIS_PC);
		p = first_movable(rq);
		if (!p) {
			do_raw_spin_unlock(&rq->lock);
			break;
		}
		get_task_struct(p);
		do_raw_spin_unlock(&rq->lock);
		spin_lock(&p->pi_lock);
		do_raw_spin_lock(&rq->lock, __THIS_PC);
		if (task_cpu(p) == cpu && task_on_rq_queued(p) && !p->on_cpu) {
			move_task_begin(rq, p);	/* queued (migrating) throughout, never 0 */
			do_raw_spin_unlock(&rq->lock);
			move_task_end(p, -1);	/* prints "no longer affine" if it must */
		} else {
			do_raw_spin_unlock(&rq->lock);
		}
		spin_unlock(&p->pi_lock);
		put_task_struct(p);
	}
}

/* On the dying CPU, in its idle loop, interrupts off: no longer an idle CPU to balance to. */
void sched_cpu_idle_dead(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	do_raw_spin_lock(&rq->lock, __THIS_PC);
	sched_note_idle(rq, false);
	do_raw_spin_unlock(&rq->lock);
}

/* On the controlling CPU once cpu is dead: nothing may be left on its queue. */
void sched_cpu_dead(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	WARN(READ_ONCE(rq->nr_running), "sched: CPU %u is dead with %u tasks queued\n", cpu,
	     READ_ONCE(rq->nr_running));
}
