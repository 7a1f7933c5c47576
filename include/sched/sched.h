/*
 * The scheduler's interface: schedule(), wakeups, policies and priorities,
 * affinity, and the cond_resched()/need_resched() pair. Per-CPU runqueues;
 * a higher-priority runnable task always runs before a lower one on the
 * same CPU. Preemption follows the Kconfig model (PREEMPT_NONE or PREEMPT).
 */
#ifndef _SCHED_SCHED_H
#define _SCHED_SCHED_H

#include <sched/task.h>

#define MAX_SCHEDULE_TIMEOUT	((long)(~0UL >> 1))

struct sched_param { int sched_priority; };

void schedule(void);
/* Sleep until woken or `timeout` jiffies pass; returns the jiffies left (0 on timeout). */
long schedule_timeout(long timeout);
long schedule_timeout_uninterruptible(long timeout);
long schedule_timeout_interruptible(long timeout);
/* Called with preemption disabled from an interrupt return or preempt_enable(). */
void preempt_schedule(void);
void preempt_schedule_irq(void);

int wake_up_process(struct task_struct *p);
/*
 * Wake flags, Linux's names and values. WF_SYNC: the waker is about to
 * sleep, so the wakee may take its CPU rather than wake an idle one
 * (select_task_rq(), kernel/sched/core.c).
 */
#define WF_SYNC		0x10
/* Wake p if its state matches `state`; returns true if it was woken. */
bool try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags);
/* Voluntary reschedule point: runs RCU's quiescent-state hook, then yields if needed. */
int __cond_resched(void);
#define cond_resched()	__cond_resched()
void yield(void);

int sched_setscheduler_nocheck(struct task_struct *p, int policy, const struct sched_param *param);
int sched_setscheduler(struct task_struct *p, int policy, const struct sched_param *param);
void set_user_nice(struct task_struct *p, long nice);
int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *mask);
/* Priority-inheritance hook for rt_mutex: set p's effective priority. */
void rt_mutex_setprio(struct task_struct *p, int prio);

/* Mark a CPU as needing to reschedule, sending a reschedule IPI if it is remote. */
void resched_cpu(int cpu);
void set_tsk_need_resched(struct task_struct *p);

/* Boot: make the running context CPU 0's idle task, start per-CPU idle tasks. */
void sched_init(void);
void sched_init_smp(void);
/* Called on each secondary CPU before it idles. */
void sched_init_ap(unsigned int cpu);
/*
 * CPU hotplug (kernel/sched/hotplug.c, CONFIG_HOTPLUG_CPU; kernel/cpu.c
 * calls them): sched_cpu_dying() on the dying CPU, out of the online mask,
 * interrupts off: close its runqueue and move every queued task to an
 * online CPU. sched_cpu_idle_dead(): its idle loop's last step.
 * sched_cpu_dead() on the controlling CPU afterwards: checks it is empty.
 */
void sched_cpu_dying(unsigned int cpu);
void sched_cpu_idle_dead(unsigned int cpu);
void sched_cpu_dead(unsigned int cpu);
/* The tick's scheduler work (time slices). */
void scheduler_tick(void);
/* Print every task's state (a sysrq-t lookalike for stall reports). */
void sched_show_tasks(void);
/* Print one task's state, in the words of Linux's sched_show_task() (stall reports). */
void sched_show_task(struct task_struct *p);
/*
 * Call fn(p, arg) for every task on the task list, with the list lock held
 * and interrupts off: fn must not sleep nor free a task. A task stays on
 * the list until its last reference is dropped, after its final context
 * switch, so a task that can still run is always found. To use p after
 * the walk, fn takes a reference with get_task_struct_unless_zero().
 */
void sched_for_each_task(void (*fn)(struct task_struct *p, void *arg), void *arg);
/* Take a reference unless the task is already being freed; true if taken. */
bool get_task_struct_unless_zero(struct task_struct *p);
/* Drop a reference; the last one frees the task (it must be off every CPU by then). */
void put_task_struct(struct task_struct *p);
struct task_struct *idle_task(int cpu);
bool idle_cpu(int cpu);
/* kernel/sched/rq_query.c: what Tasks Trace RCU asks of the scheduler (Linux's names). */
struct task_struct *cpu_curr_snapshot(int cpu);
bool task_curr(const struct task_struct *p);
int task_call_func(struct task_struct *p, int (*func)(struct task_struct *p, void *arg), void *arg);
/* Is p a CPU's idle task? */
static inline bool is_idle_task(const struct task_struct *p) { return p->flags & PF_IDLE; }
/*
 * Full dynticks: may cpu's tick stop as far as the scheduler is concerned
 * (at most one runnable task)? Lockless, for the CPU itself.
 */
bool sched_can_stop_tick(int cpu);
unsigned long nr_context_switches(void);
/* Runnable tasks on the CPU, not counting its idle task. */
unsigned int sched_nr_running(int cpu);
/* Switches cpu made to a SCHED_NORMAL (or SCHED_IDLE) task or its idle task, ever. */
u64 sched_nr_nonrt_switches(int cpu);

/*
 * Test kernels (CONFIG_SCHED_MOVE_DELAY, kernel/sched/move_delay.c): each
 * move of p between CPUs busy-waits us microseconds inside its move
 * window, between leaving its old runqueue and joining the new one; NULL
 * or 0 ends it. For self-tests that need a task caught mid-move.
 */
#ifdef CONFIG_SCHED_MOVE_DELAY
void sched_set_move_delay_task(struct task_struct *p, unsigned int us);
#else
static inline void sched_set_move_delay_task(struct task_struct *p, unsigned int us) { }
#endif

#endif
