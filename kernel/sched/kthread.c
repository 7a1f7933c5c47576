/*
 * Kernel threads. A new kthread sleeps until first woken; its function
 * runs inside kthread_main(), which turns a return into kthread_exit().
 * Stop and park requests are flags the thread polls; kthread_stop() and
 * kthread_park() wait on completions the thread signals.
 */
#include "sched.h"
#include <sched/kthread.h>
#include <rcu/rcupdate_trace.h>
#include <sched/completion.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <kernel/errno.h>
#include <kernel/sprintf.h>
#include <kernel/errno.h>
#include <kernel/bug.h>
#include <time/delay.h>

#define KTHREAD_SHOULD_STOP	0
#define KTHREAD_SHOULD_PARK	1

struct kthread {
	int (*fn)(void *);
	void *data;
	unsigned long flags;
	int result;
	int bound_cpu;			/* -1 unless per-CPU */
	struct completion parked;
	struct completion exited;
};

static struct kthread *to_kthread(struct task_struct *p)
{
	return p->kthread;
}

static __noreturn void kthread_main(void *arg)
{
	struct kthread *k = arg;
	int ret = -EINTR;

	/* Stopped before it ever ran: exit without calling fn, as Linux does. */
	if (!test_bit(KTHREAD_SHOULD_STOP, &k->flags))
		ret = k->fn(k->data);
	kthread_exit(ret);
}

struct task_struct *kthread_create_on_node(int (*fn)(void *), void *data, int node,
					   const char *namefmt, ...)
{
	struct kthread *k = kzalloc(sizeof(*k), GFP_KERNEL);
	struct task_struct *p;
	char name[TASK_COMM_LEN];
	va_list ap;

	if (!k)
		return NULL;
	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	k->fn = fn;
	k->data = data;
	k->bound_cpu = -1;
	init_completion(&k->parked);
	init_completion(&k->exited);
	p = sched_create_task(kthread_main, k, name);
	if (!p) {
		kfree(k);
		return NULL;
	}
	p->kthread = k;
	return p;
}

struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *data, unsigned int cpu,
					  const char *namefmt)
{
	struct task_struct *p = kthread_create(fn, data, namefmt, cpu);

	if (!p)
		return NULL;
	kthread_bind(p, cpu);
	to_kthread(p)->bound_cpu = cpu;
	return p;
}

void kthread_bind_mask(struct task_struct *p, const struct cpumask *mask)
{
	unsigned long flags;

	/* Only for threads that have not run yet: no runqueue to move between. */
	WARN_ON_ONCE(task_state(p) != TASK_NEW && task_state(p) != TASK_PARKED);
	spin_lock_irqsave(&p->pi_lock, flags);
	cpumask_copy(&p->cpus_mask, mask);
	p->nr_cpus_allowed = cpumask_weight(mask);
	p->cpu = cpumask_first(mask);
	p->flags |= PF_NO_SETAFFINITY;
	spin_unlock_irqrestore(&p->pi_lock, flags);
}

void kthread_bind(struct task_struct *p, unsigned int cpu)
{
	struct cpumask m;

	cpumask_clear(&m);
	cpumask_set_cpu(cpu, &m);
	kthread_bind_mask(p, &m);
}

bool kthread_should_stop(void)
{
	struct kthread *k = to_kthread(current);
	return k && test_bit(KTHREAD_SHOULD_STOP, &k->flags);
}

bool kthread_should_park(void)
{
	struct kthread *k = to_kthread(current);
	return k && test_bit(KTHREAD_SHOULD_PARK, &k->flags);
}

bool kthread_should_stop_or_park(void)
{
	return kthread_should_stop() || kthread_should_park();
}

void kthread_parkme(void)
{
	struct kthread *k = to_kthread(current);

	for (;;) {
		set_current_state(TASK_PARKED);
		if (!test_bit(KTHREAD_SHOULD_PARK, &k->flags))
			break;
		/*
		 * Signal every time round: after an unpark and a quick re-park
		 * the parker waits on a fresh completion even though we never
		 * left this loop.
		 */
		complete(&k->parked);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

int kthread_park(struct task_struct *p)
{
	struct kthread *k = to_kthread(p);

	if (WARN_ON_ONCE(!k))
		return -ENOSYS;
	reinit_completion(&k->parked);
	set_bit(KTHREAD_SHOULD_PARK, &k->flags);
	if (p != current) {
		wake_up_process(p);
		wait_for_completion(&k->parked);
		/*
		 * As Linux's wait_task_inactive(): parked means off its CPU. A
		 * thread preempted between complete() and its schedule() is
		 * still queued, and CPU hotplug would move it (breaking its
		 * binding) instead of leaving it parked.
		 */
		while ((READ_ONCE(p->on_rq) || READ_ONCE(p->on_cpu)) &&
		       test_bit(KTHREAD_SHOULD_PARK, &k->flags))
			msleep(1);
	}
	return 0;
}

void kthread_unpark(struct task_struct *p)
{
	struct kthread *k = to_kthread(p);

	clear_bit(KTHREAD_SHOULD_PARK, &k->flags);
	try_to_wake_up(p, TASK_PARKED, 0);
}

int kthread_stop(struct task_struct *p)
{
	struct kthread *k = to_kthread(p);
	int ret;

	get_task_struct(p);
	set_bit(KTHREAD_SHOULD_STOP, &k->flags);
	kthread_unpark(p);
	wake_up_process(p);
	wait_for_completion(&k->exited);
	ret = k->result;
	put_task_struct(p);
	return ret;
}

void kthread_exit(int result)
{
	struct kthread *k = to_kthread(current);

	k->result = result;
	current->flags |= PF_EXITING;
	exit_tasks_rcu_finish_trace(current);	/* no Tasks Trace reader may outlive its task */
	complete(&k->exited);
	/* Its own reference goes a grace period after its final switch (put_task_struct_rcu_user()). */
	preempt_disable();
	set_current_state(TASK_DEAD);
	preempt_enable_no_resched();
	schedule();
	BUG();
}
