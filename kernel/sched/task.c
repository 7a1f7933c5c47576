/*
 * Tasks as objects: allocation, reference counting, the list of every task
 * (for Tasks RCU's holdout scan, the stall dumps and the task table printed
 * at power-off) and the one-line task descriptions those dumps use. The
 * scheduling itself is core.c's.
 */
#include "sched.h"
#include <sched/isolation.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <time/time.h>
#include <kernel/smp.h>
#include <kernel/switch_to.h>
#include <rcu/rcupdate.h>

static atomic_t next_pid = ATOMIC_INIT(0);	/* the first kthread, init, gets pid 1 */
static LIST_HEAD(all_tasks);
static DEFINE_SPINLOCK(all_tasks_lock);

void get_task_struct(struct task_struct *p)
{
	__atomic_fetch_add(&p->usage, 1, __ATOMIC_RELAXED);
}

bool get_task_struct_unless_zero(struct task_struct *p)
{
	int old = __atomic_load_n(&p->usage, __ATOMIC_RELAXED);

	do {
		if (!old)
			return false;	/* put_task_struct() is about to free it */
	} while (!__atomic_compare_exchange_n(&p->usage, &old, old + 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

void put_task_struct(struct task_struct *p)
{
	unsigned long flags;

	if (__atomic_sub_fetch(&p->usage, 1, __ATOMIC_ACQ_REL))
		return;
	spin_lock_irqsave(&all_tasks_lock, flags);
	list_del(&p->tasks);
	spin_unlock_irqrestore(&all_tasks_lock, flags);
	free_kernel_stack(p->stack);
	kfree(p->kthread);
	kfree(p);
}

static void delayed_put_task_struct(struct rcu_head *rhp)
{
	put_task_struct(container_of(rhp, struct task_struct, rcu));
}

/*
 * A dead task's own reference goes a grace period after its final switch,
 * as in Linux. Whoever found the task with interrupts off
 * may still be touching it: try_to_wake_up() releases p->pi_lock after the
 * wakee is queued, and a wakee that runs at once elsewhere can exit and
 * switch out before that unlock. An interrupts-off region holds up every
 * Tree RCU grace period (no tick, no IPI, no context switch can report this
 * CPU's quiescent state; rcu_read_unlock_special() defers with interrupts
 * off), so the task outlives every such region that began before its death.
 */
void put_task_struct_rcu_user(struct task_struct *p)
{
	call_rcu(&p->rcu, delayed_put_task_struct);
}

void task_init_common(struct task_struct *p, const char *name)
{
	unsigned long flags;

	p->usage = 1;
	p->migrate_to = -1;
	p->policy = SCHED_NORMAL;
	p->static_prio = p->normal_prio = p->prio = DEFAULT_PRIO;
	p->time_slice = NORMAL_TIMESLICE;
	spin_lock_init(&p->pi_lock);
	INIT_LIST_HEAD(&p->pi_waiters);
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->rcu_node_entry);
#ifdef CONFIG_TASKS_TRACE_RCU
	p->trc_ipi_to_cpu = -1;
	INIT_LIST_HEAD(&p->trc_blkd_node);
	INIT_LIST_HEAD(&p->trc_holdout_list);
#endif
	strscpy(p->comm, name, sizeof(p->comm));
	spin_lock_irqsave(&all_tasks_lock, flags);
	list_add_tail(&p->tasks, &all_tasks);
	spin_unlock_irqrestore(&all_tasks_lock, flags);
}

#define TASK_STACK_SIZE	(16 * 1024)

struct task_struct *sched_create_task(void (*entry)(void *), void *arg, const char *name)
{
	struct task_struct *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->stack_top = alloc_kernel_stack(TASK_STACK_SIZE, &p->stack);
	if (!p->stack_top) {
		kfree(p);
		return NULL;
	}
	task_init_common(p, name);
	p->pid = atomic_inc_return(&next_pid);
	p->__state = TASK_NEW;
	p->flags = PF_KTHREAD;
	/*
	 * A new task may run on the housekeeping CPUs: every CPU but the
	 * nohz_full ones (<sched/isolation.h>). Per-CPU kthreads and tests
	 * bind themselves where they need to be.
	 */
	cpumask_copy(&p->cpus_mask, housekeeping_cpumask());
	p->cpu = raw_smp_processor_id();
	if (!cpumask_test_cpu(p->cpu, &p->cpus_mask))
		p->cpu = cpumask_first(&p->cpus_mask);
	p->nr_cpus_allowed = cpumask_weight(&p->cpus_mask);
	arch_task_stack_init(p, entry, arg);
	return p;
}

static char task_state_char(struct task_struct *p)
{
	long s = READ_ONCE(p->__state);

	if (s == TASK_RUNNING)
		return 'R';
	if (s & TASK_UNINTERRUPTIBLE)
		return 'D';
	if (s & TASK_INTERRUPTIBLE)
		return 'S';
	if (s & TASK_PARKED)
		return 'P';
	if (s & TASK_DEAD)
		return 'X';
	return 'N';
}

void sched_show_task(struct task_struct *p)
{
	printk(KERN_INFO "task:%-15.15s state:%c pid:%-5d cpu:%u prio:%d flags:0x%08x nvcsw:%llu nivcsw:%llu\n",
	       p->comm, task_state_char(p), p->pid, task_cpu(p), p->prio, p->flags, p->nvcsw,
	       p->nivcsw);
}

void sched_for_each_task(void (*fn)(struct task_struct *p, void *arg), void *arg)
{
	struct task_struct *p;
	unsigned long flags;

	spin_lock_irqsave(&all_tasks_lock, flags);
	list_for_each_entry(p, &all_tasks, tasks)
		fn(p, arg);
	spin_unlock_irqrestore(&all_tasks_lock, flags);
}

void sched_show_tasks(void)
{
	struct task_struct *p;
	unsigned long flags;

	spin_lock_irqsave(&all_tasks_lock, flags);
	printk(KERN_INFO "  task                PID CPU state prio policy   nvcsw  nivcsw\n");
	list_for_each_entry(p, &all_tasks, tasks)
		printk(KERN_INFO "  %-16s %6d %3u   %c   %4d %6u %7llu %7llu\n", p->comm, p->pid,
		       task_cpu(p), task_state_char(p), p->prio, p->policy, p->nvcsw, p->nivcsw);
	spin_unlock_irqrestore(&all_tasks_lock, flags);
}
