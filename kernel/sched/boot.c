/*
 * Scheduler bring-up: the runqueues and each CPU's idle task (the boot
 * context becomes swapper/0; a secondary CPU's idle task is made as it
 * comes up, and kept across CPU hotplug), and the name and pid of the
 * running task for printk before and after that.
 */
#include "sched.h"
#include <mm/slab.h>
#include <kernel/bug.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <kernel/sched_hooks.h>

int sched_current_pid(void)
{
	return sched_ready && current ? current->pid : 0;
}

const char *sched_current_comm(void)
{
	return sched_ready && current ? current->comm : "swapper";
}

/* --- boot ------------------------------------------------------------------ */

static struct task_struct boot_idle_task;	/* CPU 0's idle: the boot context itself */

static void rq_init(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	memset(rq, 0, sizeof(*rq));
	spin_lock_init(&rq->lock);
	for (int i = 0; i < MAX_RT_PRIO; i++)
		INIT_LIST_HEAD(&rq->rt_queue[i]);
	INIT_LIST_HEAD(&rq->fair_queue);
	rq->cpu = cpu;
}

static void make_idle(struct task_struct *idle, unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	char name[TASK_COMM_LEN];

	snprintf(name, sizeof(name), "swapper/%u", cpu);
	task_init_common(idle, name);
	idle->pid = 0;
	idle->flags = PF_KTHREAD | PF_IDLE | PF_NO_SETAFFINITY;
	idle->cpu = cpu;
	idle->prio = idle->normal_prio = idle->static_prio = IDLE_PRIO;
	idle->policy = SCHED_IDLE;
	idle->__state = TASK_RUNNING;
	idle->on_cpu = 1;
	cpumask_clear(&idle->cpus_mask);
	cpumask_set_cpu(cpu, &idle->cpus_mask);
	idle->nr_cpus_allowed = 1;
	rq->idle = rq->curr = idle;
	sched_note_idle(rq, true);
}

/* On CPU 0, after per-CPU areas exist: the running boot context becomes swapper/0. */
void sched_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		rq_init(cpu);
	make_idle(&boot_idle_task, 0);
	this_cpu_write(current_task, &boot_idle_task);
	WRITE_ONCE(sched_ready, true);
}

/* On each secondary CPU as it comes up, before it enables interrupts. */
void sched_init_ap(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *idle = rq->idle;

	if (idle) {
		/* Back from CPU hotplug (hotplug.c): the same idle task, the queue open again. */
		do_raw_spin_lock(&rq->lock, __THIS_PC);
		idle->on_cpu = 1;
		rq->curr = idle;
		rq->offline = false;
		this_cpu_write(__preempt_count, 0);	/* the idle loop's, as at first boot */
		sched_note_idle(rq, true);
		do_raw_spin_unlock(&rq->lock);
	} else {
		idle = kzalloc(sizeof(*idle), GFP_KERNEL);
		BUG_ON(!idle);
		make_idle(idle, cpu);
	}
	this_cpu_write(current_task, idle);
}

void sched_init_smp(void)
{
}
