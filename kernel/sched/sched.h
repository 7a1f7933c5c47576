/*
 * Scheduler-internal definitions shared by core.c, kthread.c and idle.c:
 * the per-CPU runqueue and its locking helpers.
 */
#ifndef _KERNEL_SCHED_INTERNAL_H
#define _KERNEL_SCHED_INTERNAL_H

#include <sched/sched.h>
#include <kernel/bitmap.h>

struct rq {
	spinlock_t lock;
	struct task_struct *curr;
	struct task_struct *idle;
	unsigned int nr_running;		/* queued tasks, not counting idle */
	DECLARE_BITMAP(rt_bitmap, MAX_RT_PRIO);	/* non-empty rt_queue[] lists */
	struct list_head rt_queue[MAX_RT_PRIO];
	struct list_head fair_queue;		/* SCHED_NORMAL, round robin */
	u64 nr_switches;
	unsigned int cpu;
};

DECLARE_PER_CPU(struct rq, runqueues);
#define cpu_rq(cpu)	(&per_cpu(runqueues, (cpu)))

/* Task reference counting: a task is freed when the last reference goes. */
void get_task_struct(struct task_struct *p);
/* put_task_struct() and get_task_struct_unless_zero() are public: <sched/sched.h>. */
/* Allocate a task with a guarded stack, ready to run entry(arg) once woken. */
struct task_struct *sched_create_task(void (*entry)(void *), void *arg, const char *name);
/* The idle loop body of each CPU's idle task. */
__noreturn void do_idle_loop(void);

#endif
