/*
 * struct task_struct: one schedulable thread: a kthread, or a user
 * process (uproc set, kernel/user/), which is a kthread that entered
 * user mode. Fields are grouped by who guards
 * them; `current` is this CPU's running task.
 */
#ifndef _SCHED_TASK_H
#define _SCHED_TASK_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <locking/spinlock.h>
#include <kernel/cpumask.h>
#include <kernel/percpu.h>
#include <kernel/barrier.h>
#include <rcu/types.h>

#define TASK_COMM_LEN		16

/* Task states (p->__state). */
#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001	/* no signals here: same as UNINTERRUPTIBLE but not a "D" state */
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_PARKED		0x0040
#define TASK_DEAD		0x0080
#define TASK_NEW		0x0800
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

/* Policies, with Linux's numbers. */
#define SCHED_NORMAL		0
#define SCHED_FIFO		1
#define SCHED_RR		2
#define SCHED_IDLE		5

/*
 * Priorities as in Linux's kernel-internal scale: 0..98 are real-time
 * (prio = 99 - rt_priority, so FIFO 99 is prio 0), 100..139 normal (nice
 * -20..19, default 120), 140 the idle task. Lower number = more important.
 */
#define MAX_RT_PRIO		100
#define DEFAULT_PRIO		120
#define IDLE_PRIO		140
#define MAX_PRIO		141
#define NICE_TO_PRIO(n)		(DEFAULT_PRIO + (n))
static inline bool rt_prio(int prio) { return prio < MAX_RT_PRIO; }

/*
 * p->on_rq, as in Linux: 0 once the task has blocked (dequeued by its own
 * schedule()); TASK_ON_RQ_QUEUED while it is runnable and on a runqueue
 * (running included); TASK_ON_RQ_MIGRATING while the scheduler moves it
 * between CPUs, off every queue but still runnable (kernel/sched/core.c's
 * move_task_begin()). A lockless reader that asks "may this task still
 * run?" tests on_rq for non-zero and so sees a moving task as queued.
 */
#define TASK_ON_RQ_QUEUED	1
#define TASK_ON_RQ_MIGRATING	2

struct rt_mutex_waiter;
struct user_process;

/* Architecture-saved context of a switched-out task. */
struct thread_struct {
	unsigned long sp;	/* saved stack pointer (callee-saved registers on the stack) */
	u64 uspace;		/* user address space (arch handle, the PML4's address); 0: none */
	void *fpu;		/* a process's FPU/SSE/AVX save area (arch format); NULL: none (kthreads) */
};

struct task_struct {
	/* --- scheduler: guarded by the task's runqueue lock --- */
	volatile long __state;
	int on_rq;			/* 0, TASK_ON_RQ_QUEUED or TASK_ON_RQ_MIGRATING */
	int on_cpu;			/* running, or being switched out, on p->cpu */
	unsigned int cpu;		/* CPU of the runqueue the task belongs to */
	struct list_head run_list;	/* runqueue entry */
	int prio;			/* effective (possibly PI-boosted) priority */
	int normal_prio;		/* priority from policy alone */
	int static_prio;		/* from nice, for SCHED_NORMAL */
	unsigned int policy;
	unsigned int rt_priority;	/* 1..99 for FIFO/RR */
	int time_slice;			/* ticks left (RR and NORMAL) */
	struct cpumask cpus_mask;	/* where the task may run */
	unsigned int nr_cpus_allowed;
	int migrate_to;			/* -1, or a CPU to move to once switched out */

	/* --- identity --- */
	int pid;
	char comm[TASK_COMM_LEN];
	unsigned int flags;		/* PF_* */
	int usage;			/* references; freed at zero (atomic) */
	struct rcu_head rcu;		/* drops the task's own reference a grace period after its death */

	/* --- guarded by pi_lock: wakeups and priority inheritance --- */
	spinlock_t pi_lock;
	struct list_head pi_waiters;	/* rt_mutex waiters on locks this task owns, by prio */
	struct rt_mutex_waiter *pi_blocked_on;

	/* --- stack and arch context --- */
	void *stack;			/* lowest usable address (guard page below) */
	void *stack_top;
	struct thread_struct thread;

	/* --- kthread bookkeeping (kernel/sched/kthread.c) --- */
	struct kthread *kthread;
	/* --- user mode (kernel/user/): the process this task runs, or NULL --- */
	struct user_process *uproc;

	/* --- statistics --- */
	u64 nvcsw, nivcsw;		/* voluntary / involuntary context switches */
	u64 sum_exec_ns, last_ran_ns;

	/* --- RCU (kernel/rcu/): per-task reader state, used by preemptible RCU --- */
	int rcu_read_lock_nesting;
	union {
		struct { u8 blocked, need_qs, exp_hint, need_mb; } b;
		u32 s;
	} rcu_read_unlock_special;
	struct list_head rcu_node_entry;
	void *rcu_blocked_node;
#ifdef CONFIG_TASKS_RCU
	/* --- Tasks RCU (kernel/rcu/tasks.c): holdout state, owned by rcu_tasks_kthread --- */
	u64 rcu_tasks_nvcsw;		/* nvcsw when the grace period listed the task */
	bool rcu_tasks_holdout;		/* set by the kthread, cleared at a voluntary switch */
	bool rcu_tasks_in_user;		/* running in user mode: a quiescent state (rcu_user_enter()) */
	struct list_head rcu_tasks_holdout_list;
#endif
#ifdef CONFIG_TASKS_TRACE_RCU
	/* --- Tasks Trace RCU (kernel/rcu/tasks_trace.c, include/rcu/rcupdate_trace.h) --- */
	int trc_reader_nesting;		/* written by the task only; < 0 while an unlock is under way */
	int trc_ipi_to_cpu;		/* CPU an IPI checking this task is in flight to, else -1 */
	union {
		/* blocked: on trc_blkd_cpu's list; need_qs: TRC_NEED_QS* (cmpxchg on s) */
		struct { u8 blocked, need_qs, need_mb, pad; } b;
		u32 s;
	} trc_reader_special;
	int trc_blkd_cpu;		/* whose blocked-readers list holds trc_blkd_node */
	struct list_head trc_blkd_node;	/* guarded by that CPU's list lock */
	struct list_head trc_holdout_list;	/* the grace-period kthread's only */
#endif

	struct list_head tasks;		/* all tasks, for sched_show_tasks() */
#ifdef CONFIG_KCSAN
	/* --- KCSAN (kernel/kcsan/): data_race()/kcsan_disable_current() nesting; only this task --- */
	int kcsan_disable;
#endif
#ifdef CONFIG_LOCKDEP
	/* --- lockdep (kernel/locking/lockdep.c): held locks; only this task (irqs off) --- */
	struct task_lockdep lockdep;
#endif
};

/* Per-task flags. */
#define PF_IDLE			0x00000002
#define PF_EXITING		0x00000004
#define PF_KTHREAD		0x00200000
#define PF_NO_SETAFFINITY	0x04000000	/* bound per-CPU kthread */

DECLARE_PER_CPU(struct task_struct *, current_task);
/*
 * current is read as a stable value (this_cpu_read_stable()), as Linux's
 * x86 reads it: a task always finds itself there, on any CPU, so a
 * function may read it once and keep it (a reader loop such as
 * rcu_read_lock_trace() + rcu_read_unlock_trace() then touches
 * current_task once, not twice per pass). That holds only while nothing
 * in the same function changes current_task or the per-CPU base between
 * two reads. The three writers are safe: __schedule() (a read before the
 * switch and one after it both see the task whose frame it is), and
 * sched_init() / sched_init_ap(), whose callers (start_kernel_rest(),
 * x86_ap_entry()) read no current of their own. A new writer, or code that
 * reads current around percpu_enter_cpu(), must keep to that.
 */
#define current			(this_cpu_read_stable(current_task))

static inline unsigned int task_cpu(const struct task_struct *p) { return READ_ONCE(p->cpu); }
static inline long task_state(const struct task_struct *p) { return READ_ONCE(p->__state); }
static inline bool task_is_running(const struct task_struct *p) { return task_state(p) == TASK_RUNNING; }
#define set_current_state(s)	do { WRITE_ONCE(current->__state, (s)); smp_mb(); } while (0)
#define __set_current_state(s)	WRITE_ONCE(current->__state, (s))

#endif
