/*
 * The scheduler core: per-CPU runqueues with 99 FIFO/RR priority lists
 * above one round-robin list of SCHED_NORMAL tasks, schedule(), wakeups,
 * priority changes (including priority inheritance from rt_mutex) and
 * migration between CPUs.
 *
 * Locking: a task's pi_lock serialises its wakeups and attribute changes;
 * a runqueue's lock guards the queues and the tasks on them. Order:
 * pi_lock, then rq lock; two rq locks in CPU-number order. The running
 * task stays on its queue. A task whose CPU must change while it runs is
 * moved by finish_task_switch() once it is off the CPU.
 */
#include "sched.h"
#include <sched/kthread.h>
#include <locking/mutex.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <time/tick.h>
#include <sched/isolation.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <kernel/irq.h>
#include <rcu/hooks.h>
#include <rcu/tasks.h>
#include <rcu/rcupdate_trace.h>
#include <kernel/switch_to.h>
#include <kernel/barrier.h>
#include <kernel/sched_hooks.h>

DEFINE_PER_CPU(struct rq, runqueues);
DEFINE_PER_CPU(struct task_struct *, current_task);
DEFINE_PER_CPU(int, __preempt_count);
DEFINE_PER_CPU(int, __need_resched);

#define RR_TIMESLICE		msecs_to_jiffies(100)	/* SCHED_RR, as in Linux */

bool sched_ready;	/* runqueues initialised (boot.c) */

/* --- runqueue helpers --------------------------------------------------- */

/*
 * Full dynticks: a nohz_full CPU with two or more runnable tasks needs its
 * tick to share the CPU out (time slices), so TICK_DEP_BIT_SCHED is set
 * while it has them; setting it kicks the CPU, whose tick may be stopped
 * (an enqueue from another CPU, as when a second task wakes there).
 * Caller holds rq->lock.
 */
static void sched_update_tick_dep(struct rq *rq)
{
	if (!tick_nohz_full_cpu(rq->cpu))
		return;
	if (rq->nr_running > 1)
		tick_dep_set_cpu(rq->cpu, TICK_DEP_BIT_SCHED);
	else
		tick_dep_clear_cpu(rq->cpu, TICK_DEP_BIT_SCHED);
}

bool sched_can_stop_tick(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->nr_running) <= 1;
}

/*
 * The queue lists and counts alone, for a task that stays runnable
 * throughout (a requeue, a priority change): p->on_rq is the callers'.
 */
static void __enqueue_task(struct rq *rq, struct task_struct *p, bool head)
{
	struct list_head *q;

	if (rt_prio(p->prio)) {
		q = &rq->rt_queue[p->prio];
		__set_bit(p->prio, rq->rt_bitmap);
	} else {
		q = &rq->fair_queue;
	}
	if (head)
		list_add(&p->run_list, q);
	else
		list_add_tail(&p->run_list, q);
	/* Under rq->lock; WRITE_ONCE for the lockless readers (select_task_rq(), pull_one()). */
	WRITE_ONCE(rq->nr_running, rq->nr_running + 1);
	rq->nr_migratable += p->nr_cpus_allowed > 1;
	sched_note_nr_running(rq);
	sched_update_tick_dep(rq);
}

static void __dequeue_task(struct rq *rq, struct task_struct *p)
{
	list_del_init(&p->run_list);
	if (rt_prio(p->prio) && list_empty(&rq->rt_queue[p->prio]))
		__clear_bit(p->prio, rq->rt_bitmap);
	WRITE_ONCE(rq->nr_running, rq->nr_running - 1);	/* lockless readers: see __enqueue_task() */
	rq->nr_migratable -= p->nr_cpus_allowed > 1;
	sched_note_nr_running(rq);
	sched_update_tick_dep(rq);
}

void enqueue_task(struct rq *rq, struct task_struct *p, bool head)
{
	__enqueue_task(rq, p, head);
	WRITE_ONCE(p->on_rq, TASK_ON_RQ_QUEUED);
}

/*
 * Only for a task that blocks (its own schedule()): on_rq 0 says it will
 * not run again until woken. Anything else that takes a task off a queue
 * keeps it runnable: __enqueue_task()/__dequeue_task() for a requeue,
 * move_task_begin() for a move.
 */
static void dequeue_task(struct rq *rq, struct task_struct *p)
{
	__dequeue_task(rq, p);
	WRITE_ONCE(p->on_rq, 0);
}

/* Round robin: p (queued, maybe running) goes to the back of its list. */
static void requeue_task(struct rq *rq, struct task_struct *p)
{
	__dequeue_task(rq, p);
	__enqueue_task(rq, p, false);
}

static struct task_struct *pick_next_task(struct rq *rq)
{
	unsigned int prio = find_first_bit(rq->rt_bitmap, MAX_RT_PRIO);

	if (prio < MAX_RT_PRIO)
		return list_first_entry(&rq->rt_queue[prio], struct task_struct, run_list);
	if (!list_empty(&rq->fair_queue))
		return list_first_entry(&rq->fair_queue, struct task_struct, run_list);
	return rq->idle;
}

/* Lock the runqueue p belongs to; p->cpu can change until we hold it. */
static struct rq *task_rq_lock(struct task_struct *p)
{
	for (;;) {
		struct rq *rq = cpu_rq(task_cpu(p));

		do_raw_spin_lock(&rq->lock, __THIS_PC);
		if (rq == cpu_rq(task_cpu(p)))
			return rq;
		do_raw_spin_unlock(&rq->lock);
	}
}

static void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a == b) {
		do_raw_spin_lock(&a->lock, __THIS_PC);
	} else if (a->cpu < b->cpu) {
		do_raw_spin_lock(&a->lock, __THIS_PC);
		do_raw_spin_lock(&b->lock, __THIS_PC);
	} else {
		do_raw_spin_lock(&b->lock, __THIS_PC);
		do_raw_spin_lock(&a->lock, __THIS_PC);
	}
}

static void double_rq_unlock(struct rq *a, struct rq *b)
{
	do_raw_spin_unlock(&a->lock);
	if (a != b)
		do_raw_spin_unlock(&b->lock);
}

/* Ask rq's CPU to reschedule; the IPI wakes it from idle or interrupts its task. */
void resched_curr(struct rq *rq)
{
	int cpu = rq->cpu;

	if (READ_ONCE(per_cpu(__need_resched, cpu)))
		return;
	WRITE_ONCE(per_cpu(__need_resched, cpu), 1);
	/* An offline CPU (hotplug.c) runs nothing more: no IPI, Linux warns on one. */
	if (cpu != (int)raw_smp_processor_id() && cpu_online(cpu))
		smp_send_reschedule(cpu);
}

void resched_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	local_irq_save(flags);
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	resched_curr(rq);
	do_raw_spin_unlock(&rq->lock);
	local_irq_restore(flags);
}

void set_tsk_need_resched(struct task_struct *p)
{
	resched_cpu(task_cpu(p));
}

void check_preempt_curr(struct rq *rq, struct task_struct *p)
{
	if (p->prio < rq->curr->prio)
		resched_curr(rq);
}

/*
 * A SCHED_NORMAL task woken from sleep (not a new one) goes ahead of a
 * SCHED_NORMAL task that has run for WAKEUP_GRAN_NS since it was last
 * switched in: the CPU switches at its next cond_resched() (PREEMPT_NONE)
 * or at once (PREEMPT). Without it a sleeper waited for every CPU-bound
 * task queued before it to use up its slice: a grace-period kthread woken
 * for its FQS scan on a CPU running CPU-bound kthreads waited 4-8 ms or
 * more (rcutree.rcu_kick_kthreads caught it). CFS gets the same effect
 * from a sleeper's small vruntime and bounds it with its wakeup
 * granularity, as WAKEUP_GRAN_NS does here: however often tasks wake, the
 * CPU-bound task runs that long each time it gets the CPU. It keeps the
 * rest of its slice; a woken task that turns CPU-bound goes to the back
 * when its own slice ends, as any other.
 */
#define WAKEUP_GRAN_NS	(NSEC_PER_MSEC / 2)

static void check_preempt_wakeup(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	if (curr != rq->idle && !rt_prio(p->prio) && p->prio == curr->prio &&
	    list_first_entry(&rq->fair_queue, struct task_struct, run_list)->prio >= p->prio &&
	    local_clock() - curr->last_ran_ns >= WAKEUP_GRAN_NS) {
		list_del(&p->run_list);
		list_add(&p->run_list, &rq->fair_queue);
		resched_curr(rq);
		return;
	}
	check_preempt_curr(rq, p);
}

/*
 * A woken SCHED_NORMAL task goes ahead of the queued ones with a larger
 * nice value: the fair queue is otherwise round robin, and a nice-0
 * rcutorture writer woken on an idle CPU ran only after a nice-19 reader
 * queued there had used up its slice (2.6 ms on average, -smp 2). CFS
 * gets this from a sleeper's vruntime. Only a wakeup jumps the queue: a
 * slice's end still sends any task to the back, so tasks that stay
 * runnable share the CPU round robin whatever their nice values.
 */
static void enqueue_woken(struct rq *rq, struct task_struct *p)
{
	struct task_struct *q, *before = NULL;

	if (!rt_prio(p->prio))
		list_for_each_entry(q, &rq->fair_queue, run_list)
			if (q->prio > p->prio) {
				before = q;
				break;
			}
	enqueue_task(rq, p, false);
	if (before)
		list_move_tail(&p->run_list, &before->run_list);
}

/* Requeue p after a priority or policy change, keeping its place if it runs. */
static void change_prio_locked(struct rq *rq, struct task_struct *p, int prio)
{
	/* A moving task is on no list: its mover queues it with the new priority. */
	bool queued = task_on_rq_queued(p), running = rq->curr == p;
	int old = p->prio;

	if (queued)
		__dequeue_task(rq, p);
	p->prio = prio;
	if (queued)
		__enqueue_task(rq, p, running);
	if (running) {
		if (prio > old)		/* got less important: let others in */
			resched_curr(rq);
	} else if (queued) {
		check_preempt_curr(rq, p);
	}
}

/* --- wakeups -------------------------------------------------------------- */

/*
 * Lock the runqueue of cpu (chosen by select_task_rq()) for enqueueing p,
 * which is on no queue, its pi_lock held: a CPU that has gone offline
 * meanwhile (its queue already emptied by hotplug.c) is swapped for
 * another. Sets p->cpu; returns the locked runqueue.
 */
static struct rq *lock_online_rq(struct task_struct *p, unsigned int cpu)
{
	struct rq *rq;

	for (;;) {
		if (cpu != task_cpu(p)) {
			/* Never move a task whose old CPU is still switching away from it. */
			while (__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE))
				cpu_relax();
			WRITE_ONCE(p->cpu, cpu);
		}
		rq = cpu_rq(cpu);
		do_raw_spin_lock(&rq->lock, __THIS_PC);
		if (likely(!rq->offline))
			return rq;
		do_raw_spin_unlock(&rq->lock);
		cpu = select_task_rq(p, 0);	/* out of the online mask before ->offline is set */
	}
}

/* --- moving a queued task between CPUs (the rule: sched.h) ----------------- */

void move_task_begin(struct rq *src, struct task_struct *p)
{
	__dequeue_task(src, p);
	/*
	 * Never 0 on the way: Tasks RCU's holdout scan reads on_rq without a
	 * lock, and a task preempted in a non-running state (between
	 * set_current_state() and schedule()) read as 0 would pass for one
	 * that blocked, its reader still running.
	 */
	WRITE_ONCE(p->on_rq, TASK_ON_RQ_MIGRATING);
}

void move_task_end(struct task_struct *p, int dest)
{
	struct rq *rq;

	sched_move_delay(p);	/* test kernels: widen the window (move_delay.c) */
	if (dest < 0 || !cpu_allowed(p, dest))
		dest = select_task_rq(p, 0);
	rq = lock_online_rq(p, dest);
	enqueue_task(rq, p, false);
	check_preempt_curr(rq, p);
	do_raw_spin_unlock(&rq->lock);
}

void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p)
{
	move_task_begin(src, p);
	sched_move_delay(p);	/* test kernels: both locks held, lockless readers only */
	WRITE_ONCE(p->cpu, dst->cpu);
	enqueue_task(dst, p, false);
}

bool try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags)
{
	unsigned long flags;
	unsigned int cpu;
	bool sleeper;
	struct rq *rq;

	spin_lock_irqsave(&p->pi_lock, flags);
	smp_mb();	/* pairs with set_current_state(): see the state after the waker's condition store */
	sleeper = !(READ_ONCE(p->__state) & TASK_NEW);
	if (!(READ_ONCE(p->__state) & state)) {
		spin_unlock_irqrestore(&p->pi_lock, flags);
		return false;
	}
	rq = task_rq_lock(p);
	if (p->on_rq) {
		/*
		 * Still on its CPU, between setting its state and schedule(), or
		 * being moved (its mover queues it): just cancel the sleep.
		 */
		WRITE_ONCE(p->__state, TASK_RUNNING);
		do_raw_spin_unlock(&rq->lock);
		spin_unlock_irqrestore(&p->pi_lock, flags);
		return true;
	}
	do_raw_spin_unlock(&rq->lock);

	cpu = select_task_rq(p, wake_flags);
	p->migrate_to = -1;
	rq = lock_online_rq(p, cpu);
	WRITE_ONCE(p->__state, TASK_RUNNING);
	enqueue_woken(rq, p);
	if (sleeper)
		check_preempt_wakeup(rq, p);
	else
		check_preempt_curr(rq, p);
	do_raw_spin_unlock(&rq->lock);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	return true;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL | TASK_NEW, 0);
}

/* --- schedule() ------------------------------------------------------------ */

/*
 * The second half of a move __schedule() began (prev's affinity changed
 * while it ran): p is off its old CPU, on_cpu clear. A wakeup meanwhile
 * only made it TASK_RUNNING, an affinity change only set migrate_to.
 */
static void migrate_after_switch(struct task_struct *p)
{
	unsigned long flags;
	int dest;

	spin_lock_irqsave(&p->pi_lock, flags);
	WARN_ON_ONCE(!task_on_rq_migrating(p));
	dest = p->migrate_to;
	p->migrate_to = -1;
	move_task_end(p, dest);
	spin_unlock_irqrestore(&p->pi_lock, flags);
}

/*
 * Runs on the CPU that just switched, in the new task's context, with the
 * runqueue lock still held by the switch and interrupts off.
 */
static void finish_task_switch(struct task_struct *prev)
{
	struct rq *rq = cpu_rq(raw_smp_processor_id());
	long state = READ_ONCE(prev->__state);
	/*
	 * __schedule() began moving it, whatever its state: a task preempted
	 * between set_current_state() and schedule() must stay runnable.
	 * Nothing else changes on_rq of a migrating task: read under rq->lock.
	 */
	bool migrate = task_on_rq_migrating(prev);
	/*
	 * A dying task preempted (CONFIG_PREEMPT) between setting TASK_DEAD and
	 * its final schedule() will run again: only its final switch, which
	 * dequeued it, may drop its reference.
	 */
	bool dead = state == TASK_DEAD && !prev->on_rq;

	/* Release: prev's stack is no longer in use once on_cpu reads 0. */
	__atomic_store_n(&prev->on_cpu, 0, __ATOMIC_RELEASE);
	do_raw_spin_unlock(&rq->lock);
	if (migrate)
		migrate_after_switch(prev);
	if (unlikely(dead))
		put_task_struct_rcu_user(prev);
}

static void __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	unsigned long flags;
	struct rq *rq;

	local_irq_save(flags);
	rq = cpu_rq(raw_smp_processor_id());
	rcu_note_context_switch(preempt);
	rcu_tasks_qs(prev, preempt);	/* a voluntary switch ends prev's Tasks RCU holdout */
	rcu_tasks_trace_qs(prev);	/* a reader leaving the CPU joins the blocked-readers list */
	do_raw_spin_lock(&rq->lock, __THIS_PC);

	if (!preempt && READ_ONCE(prev->__state) != TASK_RUNNING) {
		if (prev->on_rq)
			dequeue_task(rq, prev);
		prev->nvcsw++;
	} else {
		if (prev->migrate_to >= 0 && task_on_rq_queued(prev) && prev != rq->idle)
			move_task_begin(rq, prev);	/* finish_task_switch() ends the move */
		if (preempt)
			prev->nivcsw++;
		else
			prev->nvcsw++;
	}
	this_cpu_write(__need_resched, 0);
	if (!rq->nr_running)
		sched_pull_task(rq);	/* about to idle: take a task waiting elsewhere */
	next = pick_next_task(rq);
	sched_note_idle(rq, next == rq->idle);
	if (next == prev) {
		do_raw_spin_unlock(&rq->lock);
		local_irq_restore(flags);
		return;
	}
	u64 now = local_clock();
	prev->sum_exec_ns += now - prev->last_ran_ns;
	next->last_ran_ns = now;
	if (!rt_prio(next->prio)) {	/* a SCHED_NORMAL or idle task: the watchdog and RCU ask */
		sched_watchdog_fair_switch(rq, now);	/* reads nr_switches before the ++ */
		WRITE_ONCE(rq->nr_nonrt_switches, rq->nr_nonrt_switches + 1);
	}
	WRITE_ONCE(rq->curr, next);	/* read locklessly by select_task_rq() */
	rq->nr_switches++;
	next->on_cpu = 1;
	this_cpu_write(current_task, next);
	prev = arch_switch_to(prev, next);
	finish_task_switch(prev);
	local_irq_restore(flags);
}

static void schedule_debug(void)
{
	if (unlikely(preempt_count() != 0)) {
		printk(KERN_ERR "BUG: scheduling while atomic: %s/%d/0x%08x\n",
		       current->comm, current->pid, preempt_count());
		debug_show_held_locks(current);
		dump_stack();
		/* Recover like Linux does: run with a zero count from here. */
		this_cpu_write(__preempt_count, 0);
	}
}

void schedule(void)
{
	schedule_debug();
	/*
	 * The switch path always holds one count (not preempt_disable(), which
	 * may be empty: !CONFIG_PREEMPT_COUNT): a new task drops it in
	 * schedule_tail(), as do cond_resched() and the preemption paths.
	 */
	preempt_count_add(1);
	barrier();
	__schedule(false);
	barrier();
	preempt_count_sub(1);
}

/* A new task's first code: finish the switch that brought it here. */
void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	barrier();
	preempt_count_sub(1);	/* the switch path's count, see schedule() */
	local_irq_enable();
}

void preempt_schedule(void)
{
	if (!IS_ENABLED(CONFIG_PREEMPTION) || preempt_count() || irqs_disabled() || !sched_ready)
		return;
	do {
		preempt_count_add(1);
		__schedule(true);
		preempt_count_sub(1);
	} while (need_resched());
}

/* Interrupt return with CONFIG_PREEMPT: interrupts are off, the count is zero. */
void preempt_schedule_irq(void)
{
	do {
		preempt_count_add(1);
		local_irq_enable();
		__schedule(true);
		local_irq_disable();
		preempt_count_sub(1);
	} while (need_resched());
}

int __cond_resched(void)
{
	rcu_cond_resched_hook();
	if (need_resched() && !preempt_count() && sched_ready) {
		preempt_count_add(1);
		__schedule(true);
		preempt_count_sub(1);
		return 1;
	}
	return 0;
}

void yield(void)
{
	struct rq *rq;
	unsigned long flags;

	local_irq_save(flags);
	rq = cpu_rq(raw_smp_processor_id());
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	if (task_on_rq_queued(current) && current != rq->idle)
		requeue_task(rq, current);
	do_raw_spin_unlock(&rq->lock);
	local_irq_restore(flags);
	schedule();
}

void scheduler_tick(void)
{
	struct rq *rq = cpu_rq(raw_smp_processor_id());
	struct task_struct *p;

	if (!sched_ready)
		return;
	do_raw_spin_lock(&rq->lock, __THIS_PC);
	p = rq->curr;
	if (p != rq->idle && p->policy != SCHED_FIFO && --p->time_slice <= 0) {
		p->time_slice = p->policy == SCHED_RR ? RR_TIMESLICE : NORMAL_TIMESLICE;
		/* Round robin among equals: only if someone of the same priority waits. */
		if (task_on_rq_queued(p) && p->run_list.next != p->run_list.prev) {
			requeue_task(rq, p);
			if (pick_next_task(rq) != p)
				resched_curr(rq);
		}
	}
	do_raw_spin_unlock(&rq->lock);
	sched_balance_tick(rq);
	sched_watchdog_tick(rq);
}

void scheduler_ipi(void)
{
	/* need_resched is already set; the interrupt return or idle loop acts on it. */
}

/* --- priorities, policies, affinity --------------------------------------- */

static int normal_prio(struct task_struct *p)
{
	if (p->policy == SCHED_FIFO || p->policy == SCHED_RR)
		return MAX_RT_PRIO - 1 - p->rt_priority;
	return p->static_prio;
}

static int effective_prio(struct task_struct *p)
{
	return min(p->normal_prio, rt_mutex_top_waiter_prio(p));
}

int sched_setscheduler_nocheck(struct task_struct *p, int policy, const struct sched_param *param)
{
	int rtp = param ? param->sched_priority : 0;
	unsigned long flags;
	struct rq *rq;

	if (policy == SCHED_FIFO || policy == SCHED_RR) {
		if (rtp < 1 || rtp > MAX_RT_PRIO - 1)
			return -EINVAL;
	} else if (policy == SCHED_NORMAL || policy == SCHED_IDLE) {
		if (rtp != 0)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	spin_lock_irqsave(&p->pi_lock, flags);
	rq = task_rq_lock(p);
	p->policy = policy;
	p->rt_priority = rtp;
	p->normal_prio = normal_prio(p);
	p->time_slice = policy == SCHED_RR ? RR_TIMESLICE : NORMAL_TIMESLICE;
	change_prio_locked(rq, p, effective_prio(p));
	do_raw_spin_unlock(&rq->lock);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	rt_mutex_adjust_pi(p);	/* blocked on an rt_mutex: its owner's boost follows */
	return 0;
}

int sched_setscheduler(struct task_struct *p, int policy, const struct sched_param *param)
{
	return sched_setscheduler_nocheck(p, policy, param);
}

void set_user_nice(struct task_struct *p, long nice)
{
	unsigned long flags;
	struct rq *rq;

	nice = clamp(nice, -20L, 19L);
	spin_lock_irqsave(&p->pi_lock, flags);
	rq = task_rq_lock(p);
	p->static_prio = NICE_TO_PRIO(nice);
	p->normal_prio = normal_prio(p);
	change_prio_locked(rq, p, effective_prio(p));
	do_raw_spin_unlock(&rq->lock);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	rt_mutex_adjust_pi(p);
}

/* Caller holds p->pi_lock (the rt_mutex code does). */
void rt_mutex_setprio(struct task_struct *p, int prio)
{
	struct rq *rq = task_rq_lock(p);

	prio = min(prio, p->normal_prio);
	if (prio != p->prio)
		change_prio_locked(rq, p, prio);
	do_raw_spin_unlock(&rq->lock);
}

int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *mask)
{
	struct cpumask allowed;
	unsigned long flags;
	struct rq *rq;
	int dest;
	bool self_move = false;

	if (!cpumask_and(&allowed, mask, cpu_online_mask))
		return -EINVAL;
	spin_lock_irqsave(&p->pi_lock, flags);
	rq = task_rq_lock(p);
	cpumask_copy(&p->cpus_mask, mask);
	if (task_on_rq_queued(p)) {	/* keep balance.c's count of queued movable tasks right */
		rq->nr_migratable -= p->nr_cpus_allowed > 1;
		rq->nr_migratable += cpumask_weight(mask) > 1;
		sched_note_nr_running(rq);
	}
	p->nr_cpus_allowed = cpumask_weight(mask);
	if (cpumask_test_cpu(task_cpu(p), &allowed)) {
		do_raw_spin_unlock(&rq->lock);
		spin_unlock_irqrestore(&p->pi_lock, flags);
		return 0;
	}
	dest = cpumask_first(&allowed);
	if (p->on_cpu) {
		/* Running (or switching out): move once it is off its CPU. */
		p->migrate_to = dest;
		if (p == current)
			self_move = true;
		else
			resched_curr(rq);
		do_raw_spin_unlock(&rq->lock);
	} else if (task_on_rq_migrating(p)) {
		/* Its switch-out began a move: migrate_after_switch() reads this under pi_lock. */
		p->migrate_to = dest;
		do_raw_spin_unlock(&rq->lock);
	} else if (p->on_rq) {
		struct rq *to = cpu_rq(dest);

		do_raw_spin_unlock(&rq->lock);
		double_rq_lock(rq, to);
		if (task_on_rq_queued(p) && !p->on_cpu && task_cpu(p) == rq->cpu) {
			if (to->offline) {
				/* to went offline meanwhile (hotplug.c): queue nothing there. */
				move_task_begin(rq, p);
				double_rq_unlock(rq, to);
				move_task_end(p, -1);
			} else {
				move_queued_task(rq, to, p);
				check_preempt_curr(to, p);
				double_rq_unlock(rq, to);
			}
		} else {
			double_rq_unlock(rq, to);
		}
	} else {
		WRITE_ONCE(p->cpu, dest);	/* asleep: the next wakeup enqueues it there */
		do_raw_spin_unlock(&rq->lock);
	}
	spin_unlock_irqrestore(&p->pi_lock, flags);
	if (self_move)
		schedule();	/* we run on an allowed CPU when this returns */
	return 0;
}
