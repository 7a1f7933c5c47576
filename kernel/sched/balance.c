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
 *
 * Two CPU masks keep that cheap on big machines (a 255-CPU guest on one
 * host thread lost its test deadlines when every idle entry and every busy
 * tick scanned all runqueues): the CPUs with a task waiting that may move
 * (at least two queued, one of them allowed elsewhere: Linux's root-domain
 * "overload" flag, with its RT "migratory" count) and the CPUs running
 * their idle task. Both are hints, updated on transitions under the
 * runqueue lock and read without it; the pull itself rechecks under the
 * source runqueue's lock, and tries a few runqueues at most.
 */
#define KPARAM_SUBSYS "sched"
#include "sched.h"
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/param.h>

/*
 * Off by default for now: with it on, one 255-CPU single-thread-TCG boot
 * in three (rcu-selftest-smp255) had a CPU report no quiescent state for
 * 21 s in rcu_list_readers, cause not yet found. The self-tests that
 * need it turn it on (sched_idle_pull_* for their run, the provoked-stall
 * torture test with sched.idle_balance=1).
 */
bool sched_idle_balance_on;
KPARAM_BOOL("sched.idle_balance", sched_idle_balance_on,
	    "idle CPUs take tasks waiting behind other CPUs' current ones (kernel/sched/balance.c)");

static struct cpumask sched_overloaded;	/* a task waits, and some may move */
static struct cpumask sched_idle_cpus;	/* running their idle task */

/*
 * "Overloaded": a task waits here and some queued task may move (one of
 * the queued tasks, maybe the running one, is allowed elsewhere). CPUs
 * whose queues hold only bound kthreads (rcuc/N behind a bound worker,
 * say) are not worth a look.
 */
void sched_note_nr_running(struct rq *rq)
{
	bool over = rq->nr_running >= 2 && rq->nr_migratable;

	if (over != cpumask_test_cpu(rq->cpu, &sched_overloaded)) {
		if (over)
			cpumask_set_cpu(rq->cpu, &sched_overloaded);
		else
			cpumask_clear_cpu(rq->cpu, &sched_overloaded);
	}
}

void sched_note_idle(struct rq *rq, bool idle)
{
	if (idle != cpumask_test_cpu(rq->cpu, &sched_idle_cpus)) {
		if (idle)
			cpumask_set_cpu(rq->cpu, &sched_idle_cpus);
		else
			cpumask_clear_cpu(rq->cpu, &sched_idle_cpus);
	}
}

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

/*
 * At most this many runqueues are tried per attempt: the caller holds its
 * own runqueue lock meanwhile, and a long hold (a vCPU descheduled while
 * scanning 254 queues under single-threaded TCG) stalled every CPU that
 * wanted to wake a task onto it.
 */
#define PULL_MAX_TRIES	8

bool sched_pull_task(struct rq *rq)
{
	unsigned int cpu, pass, tries = 0;

	if (!READ_ONCE(sched_idle_balance_on))
		return false;

	/*
	 * Only CPUs with a task waiting; start after ourselves so that idle
	 * CPUs do not all raid the same queue.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (cpu = pass ? cpumask_first(&sched_overloaded) :
				  cpumask_next(rq->cpu, &sched_overloaded);
		     cpu < nr_cpu_ids; cpu = cpumask_next(cpu, &sched_overloaded)) {
			struct rq *src = cpu_rq(cpu);
			struct task_struct *p;

			if (pass && cpu > rq->cpu)
				break;		/* the first pass saw these */
			if (cpu == rq->cpu || !cpu_online(cpu) || READ_ONCE(src->nr_running) < 2)
				continue;
			if (++tries > PULL_MAX_TRIES)
				return false;
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
	}
	return false;
}

bool sched_idle_balance(void)
{
	struct rq *rq = cpu_rq(raw_smp_processor_id());
	bool pulled = false;

	if (!READ_ONCE(sched_idle_balance_on) || cpumask_empty(&sched_overloaded))
		return false;
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	if (!rq->nr_running && sched_pull_task(rq)) {
		resched_curr(rq);	/* our own CPU: sets need_resched, no IPI */
		pulled = true;
	}
	do_raw_spin_unlock(&rq->lock);
	return pulled;
}

/* An idle CPU, not rq's, that p may run on; nr_cpu_ids if none. */
static unsigned int idle_cpu_for(struct rq *rq, struct task_struct *p)
{
	unsigned int cpu;

	for_each_cpu(cpu, &sched_idle_cpus)
		if (cpu != rq->cpu && cpu_allowed(p, cpu) && idle_cpu(cpu))
			return cpu;
	return nr_cpu_ids;
}

void sched_balance_tick(struct rq *rq)
{
	unsigned int kick = nr_cpu_ids;
	struct task_struct *p;
	unsigned long flags;
	unsigned int prio;

	if (!READ_ONCE(sched_idle_balance_on) || !cpumask_test_cpu(rq->cpu, &sched_overloaded) ||
	    cpumask_empty(&sched_idle_cpus))
		return;
	local_irq_save(flags);
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	/* The most important waiting task that some idle CPU may take. */
	for_each_set_bit(prio, rq->rt_bitmap, MAX_RT_PRIO) {
		list_for_each_entry(p, &rq->rt_queue[prio], run_list)
			if (can_pull(rq, p, rq->cpu) && (kick = idle_cpu_for(rq, p)) < nr_cpu_ids)
				goto found;
	}
	list_for_each_entry(p, &rq->fair_queue, run_list)
		if (can_pull(rq, p, rq->cpu) && (kick = idle_cpu_for(rq, p)) < nr_cpu_ids)
			goto found;
found:
	if (kick < nr_cpu_ids)
		rq->nr_balance_kicks++;
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
