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
	unsigned int nr_migratable;		/* of which allowed on more than one CPU */
	DECLARE_BITMAP(rt_bitmap, MAX_RT_PRIO);	/* non-empty rt_queue[] lists */
	struct list_head rt_queue[MAX_RT_PRIO];
	struct list_head fair_queue;		/* SCHED_NORMAL, round robin */
	u64 nr_switches;
	u64 nr_nonrt_switches;	/* of which to a SCHED_NORMAL or the idle task (Tree RCU asks) */
	unsigned long nr_pulled;		/* tasks this CPU took from others (balance.c) */
	unsigned long nr_pushed;		/* tasks others took from this CPU */
	unsigned long nr_periodic_pulls;	/* of nr_pulled, by periodic balancing */
	unsigned long next_balance;		/* jiffies: this CPU's next periodic balance */
	unsigned long nr_balance_kicks;		/* idle CPUs this CPU's tick woke to take one */
	unsigned int cpu;
	/*
	 * CPU hotplug (hotplug.c): set under ->lock by the dying CPU once it
	 * is out of the online mask and has emptied this queue; cleared when
	 * it comes back. Nothing is enqueued here while it is set.
	 */
	bool offline;
};

DECLARE_PER_CPU(struct rq, runqueues);
#define cpu_rq(cpu)	(&per_cpu(runqueues, (cpu)))

/* A SCHED_NORMAL task's slice (round robin among equals; SCHED_RR's is core.c's). */
#define NORMAL_TIMESLICE	msecs_to_jiffies(4)

/* p->on_rq's states (<sched/task.h>); callers hold p's runqueue lock or p->pi_lock. */
static inline bool task_on_rq_queued(struct task_struct *p)
{
	return READ_ONCE(p->on_rq) == TASK_ON_RQ_QUEUED;
}

static inline bool task_on_rq_migrating(struct task_struct *p)
{
	return READ_ONCE(p->on_rq) == TASK_ON_RQ_MIGRATING;
}

/* Runqueue primitives of core.c; callers hold rq->lock. */
void enqueue_task(struct rq *rq, struct task_struct *p, bool head);
void resched_curr(struct rq *rq);

/*
 * Moving a queued task to another CPU (core.c), the one rule for every
 * mover (hotplug.c, balance.c, finish_task_switch(), affinity changes):
 * from move_task_begin() until it is queued on its new CPU, p->on_rq is
 * TASK_ON_RQ_MIGRATING, never 0, so that no lockless reader (Tasks RCU's
 * holdout scan, kthread_park()) takes the moving task for a blocked one,
 * and every locked reader leaves its queue state to the mover: a wakeup
 * only makes it TASK_RUNNING, a priority change only sets its priority,
 * an affinity change only updates what the mover reads.
 *
 * move_queued_task(): both runqueues locked; p, queued on src and not
 * running, ends queued on dst (no preemption check: the caller's).
 * move_task_begin(): src locked, p queued there (maybe prev in
 * __schedule()); then move_task_end() with p->pi_lock held, no runqueue
 * lock, interrupts off: p is queued on dest if it may run there, else
 * where select_task_rq() says (breaking its affinity if no CPU of it is
 * online, as Linux's select_fallback_rq()).
 */
void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p);
void move_task_begin(struct rq *src, struct task_struct *p);
void move_task_end(struct task_struct *p, int dest);

/*
 * Test kernels (CONFIG_SCHED_MOVE_DELAY, move_delay.c): busy-wait inside
 * the move window (move_task_end(), move_queued_task()),
 * sched.move_delay_us for every move and longer for one task a self-test
 * names, so that tests and torture runs meet a task in the middle of a move.
 */
#ifdef CONFIG_SCHED_MOVE_DELAY
void sched_move_delay(struct task_struct *p);
#else
static inline void sched_move_delay(struct task_struct *p) { }
#endif
/* A task just queued on rq: reschedule rq's CPU if p outranks what it runs. Caller holds rq->lock. */
void check_preempt_curr(struct rq *rq, struct task_struct *p);
bool cpu_allowed(struct task_struct *p, unsigned int cpu);
/* Where p is to be queued, WF_SYNC or 0 (select.c); a hint read without the runqueues' locks. */
unsigned int select_task_rq(struct task_struct *p, int wake_flags);

/*
 * Idle load balancing (balance.c). sched_pull_task(): rq has nothing to run
 * (its lock held, interrupts off): take one task waiting on another CPU's
 * queue; true if it did. sched_idle_balance(): the idle loop's check before
 * it halts (interrupts off). sched_balance_tick(): from the tick, rq's lock
 * not held: a CPU with tasks waiting behind its current one wakes an idle
 * CPU that may take one, and every sched.balance_ms pulls from a CPU
 * running two or more tasks more than rq's.
 */
extern bool sched_idle_balance_on;	/* sched.idle_balance= (default on) */
/* Turn it on or off at run time (the self-tests): on rebuilds the masks. */
void sched_set_idle_balance(bool on);
/* Periodic balancing's interval, ms (sched.balance_ms; 0: off), read and set by the tests. */
int sched_get_balance_ms(void);
void sched_set_balance_ms(int ms);
bool sched_pull_task(struct rq *rq);
/* Keep balance.c's masks current: rq->nr_running changed; rq's CPU (stops) running idle. */
void sched_note_nr_running(struct rq *rq);
void sched_note_idle(struct rq *rq, bool idle);
bool sched_idle_balance(void);
void sched_balance_tick(struct rq *rq);

/*
 * The soft-lockup detector (watchdog.c, CONFIG_SOFTLOCKUP_DETECTOR):
 * __schedule() says when it switches to a SCHED_NORMAL or idle task (rq->lock held), the tick checks.
 */
#ifdef CONFIG_SOFTLOCKUP_DETECTOR
void sched_watchdog_fair_switch(struct rq *rq, u64 now);
void sched_watchdog_tick(struct rq *rq);
#else
static inline void sched_watchdog_fair_switch(struct rq *rq, u64 now) { }
static inline void sched_watchdog_tick(struct rq *rq) { }
#endif

/* The runqueues and swapper/0 exist (sched_init(), boot.c): scheduling may start. */
extern bool sched_ready;

/* Task reference counting: a task is freed when the last reference goes. */
void get_task_struct(struct task_struct *p);
/* put_task_struct() and get_task_struct_unless_zero() are public: <sched/sched.h>. */
/* Drop a dead task's own reference after a grace period (its final switch). */
void put_task_struct_rcu_user(struct task_struct *p);
/* Fill the fields every task, idle ones included, starts with; list it. */
void task_init_common(struct task_struct *p, const char *name);
/* Allocate a task with a guarded stack, ready to run entry(arg) once woken. */
struct task_struct *sched_create_task(void (*entry)(void *), void *arg, const char *name);
/* The idle loop body of each CPU's idle task. */
__noreturn void do_idle_loop(void);

#endif
