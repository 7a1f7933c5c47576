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
 * Busy CPUs balance too, periodically (every sched.balance_ms, each CPU
 * on its own deadline): a CPU running N tasks takes a waiting one from a CPU
 * running N + 2 or more. That evens out what idle balancing leaves, e.g.
 * eight CPU-bound tasks woken on CPU 0 of four: idle pulls give 5/1/1/1,
 * periodic pulls then 2/2/2/2. Simple by design: task counts only, no
 * load weights, no domains (not CFS).
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
#include <sched/isolation.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/param.h>
#include <time/time.h>

/*
 * On by default; sched.idle_balance=0 leaves tasks where wake-up placement
 * put them. (It was off for a while because of a 255-CPU test failure
 * that turned out to be the test's own: see kernel/rcu/test/rculist.c.)
 */
bool sched_idle_balance_on = true;
KPARAM_BOOL("sched.idle_balance", sched_idle_balance_on,
	    "idle CPUs take tasks waiting behind other CPUs' current ones (kernel/sched/balance.c)");

/* Periodic balancing's interval in milliseconds; 0: only idle CPUs pull. */
static int sched_balance_ms = 8;
KPARAM_CLAMP("sched.balance_ms", sched_balance_ms, KPARAM_INT, 0, 1000,
	     "ms between a busy CPU's pulls from CPUs running 2+ more tasks (0: off)");

int sched_get_balance_ms(void)
{
	return READ_ONCE(sched_balance_ms);
}

void sched_set_balance_ms(int ms)
{
	WRITE_ONCE(sched_balance_ms, ms);
}

static struct cpumask sched_overloaded;	/* a task waits, and some may move */
static struct cpumask sched_idle_cpus;	/* running their idle task */

/*
 * "Overloaded": a task waits here and some queued task may move (one of
 * the queued tasks, maybe the running one, is allowed elsewhere). CPUs
 * whose queues hold only bound kthreads (rcuc/N behind a bound worker,
 * say) are not worth a look. Caller holds rq->lock.
 */
static bool rq_overloaded(struct rq *rq)
{
	return rq->nr_running >= 2 && rq->nr_migratable;
}

/*
 * The two hooks below run on every enqueue, dequeue and switch: while
 * balancing is off they touch no shared line. sched_set_idle_balance()
 * rebuilds the masks when it is turned on.
 */
void sched_note_nr_running(struct rq *rq)
{
	if (READ_ONCE(sched_idle_balance_on))
		cpumask_assign_cpu(rq->cpu, &sched_overloaded, rq_overloaded(rq));
}

void sched_note_idle(struct rq *rq, bool idle)
{
	if (READ_ONCE(sched_idle_balance_on))
		cpumask_assign_cpu(rq->cpu, &sched_idle_cpus, idle);
}

/*
 * Turn balancing on or off at run time (the boot parameter sets the flag
 * before any runqueue exists). On: the flag first, so that every
 * transition from here on updates the masks, then each CPU's bits from
 * its runqueue under its lock; a transition racing with that rebuild
 * either runs before it (the rebuild reads its result) or after (and
 * writes its own).
 */
void sched_set_idle_balance(bool on)
{
	unsigned long flags;
	unsigned int cpu;

	WRITE_ONCE(sched_idle_balance_on, on);
	if (!on)
		return;
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		local_irq_save(flags);
		do_raw_spin_lock(&rq->lock, __THIS_PC);
		cpumask_assign_cpu(cpu, &sched_overloaded, rq_overloaded(rq));
		cpumask_assign_cpu(cpu, &sched_idle_cpus, rq->curr == rq->idle);
		do_raw_spin_unlock(&rq->lock);
		local_irq_restore(flags);
	}
}

/*
 * Full dynticks: a nohz_full CPU takes by balancing only a task that asked
 * for nohz_full CPUs alone (no housekeeping CPU in its mask); a task that
 * may run on a housekeeping CPU stays off the nohz_full ones, which are
 * meant to run the one task placed there without a tick.
 */
static bool balance_may_take(struct task_struct *p, unsigned int dst)
{
	struct cpumask hk;

	if (!tick_nohz_full_cpu(dst))
		return true;
	return !cpumask_and(&hk, &p->cpus_mask, housekeeping_cpumask());
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
	/* isolcpus=: in no domain, neither a source nor a destination of balancing. */
	if (sched_cpu_isolated(dst) || sched_cpu_isolated(src->cpu))
		return false;
	return p != src->curr && !READ_ONCE(p->on_cpu) && p->migrate_to < 0 &&
	       p->nr_cpus_allowed > 1 && !(p->flags & PF_IDLE) && cpu_allowed(p, dst) &&
	       balance_may_take(p, dst);
}

/*
 * The most important task queued on rq that ok() accepts, or NULL: RT
 * queues from the highest priority down, then the fair queue. Caller
 * holds rq->lock.
 */
static struct task_struct *first_queued(struct rq *rq,
					bool (*ok)(struct rq *rq, struct task_struct *p, void *arg),
					void *arg)
{
	struct task_struct *p;
	unsigned int prio;

	for_each_set_bit(prio, rq->rt_bitmap, MAX_RT_PRIO)
		list_for_each_entry(p, &rq->rt_queue[prio], run_list)
			if (ok(rq, p, arg))
				return p;
	list_for_each_entry(p, &rq->fair_queue, run_list)
		if (ok(rq, p, arg))
			return p;
	return NULL;
}

/* first_queued() test of a pull: may the CPU *arg take p off src? */
static bool pullable_by(struct rq *src, struct task_struct *p, void *arg)
{
	return can_pull(src, p, *(unsigned int *)arg);
}

/*
 * At most this many runqueues are tried per attempt: the caller holds its
 * own runqueue lock meanwhile, and a long hold (a vCPU descheduled while
 * scanning 254 queues under single-threaded TCG) stalled every CPU that
 * wanted to wake a task onto it.
 */
#define PULL_MAX_TRIES	8

/*
 * Take one task that may move from a CPU running at least two more tasks
 * than rq (for an idle rq: any CPU with a task waiting). Returns it, now
 * queued on rq, or NULL.
 */
static struct task_struct *pull_one(struct rq *rq)
{
	unsigned int cpu, dst = rq->cpu, tries = 0;

	/* Only CPUs with a task waiting, from the one after us round, so that idle CPUs spread out. */
	for_each_cpu_wrap(cpu, &sched_overloaded, dst + 1) {
		struct rq *src = cpu_rq(cpu);
		struct task_struct *p;

		if (cpu == dst || !cpu_online(cpu) || READ_ONCE(src->nr_running) < rq->nr_running + 2)
			continue;
		if (++tries > PULL_MAX_TRIES)
			return NULL;
		/* We hold rq->lock: a trylock keeps out of any lock-order cycle. */
		if (!do_raw_spin_trylock(&src->lock, __THIS_PC))
			continue;
		p = first_queued(src, pullable_by, &dst);
		if (p) {
			move_queued_task(src, rq, p);
			src->nr_pushed++;
			rq->nr_pulled++;
		}
		do_raw_spin_unlock(&src->lock);
		if (p)
			return p;
	}
	return NULL;
}

bool sched_pull_task(struct rq *rq)
{
	return READ_ONCE(sched_idle_balance_on) && pull_one(rq);
}

bool sched_idle_balance(void)
{
	struct rq *rq = cpu_rq(raw_smp_processor_id());
	bool pulled = false;

	if (!READ_ONCE(sched_idle_balance_on) || cpumask_empty(&sched_overloaded))
		return false;
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	if (!rq->nr_running && pull_one(rq)) {
		resched_curr(rq);	/* our own CPU: sets need_resched, no IPI */
		pulled = true;
	}
	do_raw_spin_unlock(&rq->lock);
	return pulled;
}

/*
 * first_queued() test of the tick: may p move, and is some idle CPU other
 * than rq's allowed to run it? That CPU goes to *arg.
 */
static bool has_idle_taker(struct rq *rq, struct task_struct *p, void *arg)
{
	unsigned int *kick = arg, cpu;

	if (!can_pull(rq, p, rq->cpu))	/* everything but the destination */
		return false;
	for_each_cpu(cpu, &sched_idle_cpus)
		if (cpu != rq->cpu && cpu_allowed(p, cpu) && idle_cpu(cpu) &&
		    !sched_cpu_isolated(cpu)) {
			*kick = cpu;
			return true;
		}
	return false;
}

/*
 * Periodic balancing, from the tick: once per sched_balance_ms on each CPU
 * (its own deadline, rq->next_balance, so CPUs drift apart rather than all
 * scanning on one jiffy, and a CPU whose ticks come late, such as a vCPU
 * the host runs seldom, still balances at its next one), take a task from
 * a CPU running two or more tasks more than this one.
 */
static void sched_balance_periodic(struct rq *rq)
{
	unsigned long ms = READ_ONCE(sched_balance_ms), period, flags, now = jiffies;
	struct task_struct *p;

	if (!ms || time_before(now, rq->next_balance))
		return;
	period = ms * HZ / 1000 ? ms * HZ / 1000 : 1;
	rq->next_balance = now + period;
	if (cpumask_empty(&sched_overloaded))
		return;
	local_irq_save(flags);
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	p = pull_one(rq);
	if (p) {
		rq->nr_periodic_pulls++;
		check_preempt_curr(rq, p);	/* as any task enqueued here */
	}
	do_raw_spin_unlock(&rq->lock);
	local_irq_restore(flags);
}

void sched_balance_tick(struct rq *rq)
{
	unsigned int kick = nr_cpu_ids;
	unsigned long flags;

	if (!READ_ONCE(sched_idle_balance_on))
		return;
	sched_balance_periodic(rq);
	if (!cpumask_test_cpu(rq->cpu, &sched_overloaded) || cpumask_empty(&sched_idle_cpus))
		return;
	local_irq_save(flags);
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	/* The most important waiting task that some idle CPU may take. */
	if (first_queued(rq, has_idle_taker, &kick))
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
