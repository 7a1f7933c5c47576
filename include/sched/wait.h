/*
 * Wait queues and wait_event*(): sleep until a condition holds, woken by
 * wake_up*() on the same queue. The condition is re-checked after every
 * wakeup, so spurious wakeups are harmless.
 */
#ifndef _SCHED_WAIT_H
#define _SCHED_WAIT_H

#include <sched/sched.h>
#include <kernel/list.h>
#include <locking/spinlock.h>

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry, unsigned mode, int flags, void *key);

#define WQ_FLAG_EXCLUSIVE	0x01

struct wait_queue_entry {
	unsigned int flags;
	void *private;			/* the waiting task */
	wait_queue_func_t func;
	struct list_head entry;
};

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) \
	{ .lock = __SPIN_LOCK_UNLOCKED(name.lock), .head = LIST_HEAD_INIT(name.head) }
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

void init_waitqueue_head(struct wait_queue_head *wq);
int default_wake_function(struct wait_queue_entry *wq_entry, unsigned mode, int flags, void *key);
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned mode, int flags, void *key);
#define DEFINE_WAIT(name) \
	struct wait_queue_entry name = { .private = current, .func = autoremove_wake_function, \
					 .entry = LIST_HEAD_INIT((name).entry) }

#define DECLARE_WAITQUEUE(name, tsk) \
	struct wait_queue_entry name = { .private = (tsk), .func = default_wake_function, \
					 .entry = LIST_HEAD_INIT((name).entry) }
static inline void init_waitqueue_entry(struct wait_queue_entry *e, struct task_struct *p)
{
	e->flags = 0;
	e->private = p;
	e->func = default_wake_function;
	INIT_LIST_HEAD(&e->entry);
}
/* For DEFINE_WAIT-style entries not declared at their point of use. */
static inline void init_wait(struct wait_queue_entry *e)
{
	e->flags = 0;
	e->private = current;
	e->func = autoremove_wake_function;
	INIT_LIST_HEAD(&e->entry);
}

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e);
void add_wait_queue_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *e);
void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e);
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e, int state);
void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *e, int state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e);

/* Wake every non-exclusive waiter and up to nr exclusive ones (0: all). */
void __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr, void *key);
/* The same, for a caller that already holds wq->lock. */
void __wake_up_locked(struct wait_queue_head *wq, unsigned int mode, int nr, void *key);
/* One waiter, WF_SYNC (sched.h): the caller sleeps right after. Linux's __wake_up_sync(). */
void __wake_up_sync(struct wait_queue_head *wq, unsigned int mode);
#define wake_up(wq)		__wake_up(wq, TASK_NORMAL, 1, NULL)
#define wake_up_nr(wq, nr)	__wake_up(wq, TASK_NORMAL, nr, NULL)
#define wake_up_all(wq)		__wake_up(wq, TASK_NORMAL, 0, NULL)
#define wake_up_interruptible(wq) __wake_up(wq, TASK_INTERRUPTIBLE, 1, NULL)
#define wake_up_interruptible_all(wq) __wake_up(wq, TASK_INTERRUPTIBLE, 0, NULL)
#define wake_up_locked(wq)	__wake_up_locked(wq, TASK_NORMAL, 1, NULL)
#define wake_up_all_locked(wq)	__wake_up_locked(wq, TASK_NORMAL, 0, NULL)
/* Lockless peek, with no ordering of its own: see wq_has_sleeper(). */
static inline bool waitqueue_active(struct wait_queue_head *wq) { return !list_empty(&wq->head); }
/* True if anyone waits (lockless peek; callers order it against the condition with smp_mb()). */
static inline bool wq_has_sleeper(struct wait_queue_head *wq) { smp_mb(); return !list_empty(&wq->head); }

/*
 * The wait loop behind every wait_event*(): queue, set the state, test the
 * condition, sleep with `cmd`; repeat. `__ret` (seeded with `ret`) is the
 * macro's value; timeout variants fold their bookkeeping into `condition`.
 */
#define ___wait_event(wq, condition, state, exclusive, ret, cmd) ({		\
	struct wait_queue_entry __wqe = { .private = current,			\
		.func = autoremove_wake_function,				\
		.entry = LIST_HEAD_INIT(__wqe.entry) };				\
	long __ret = ret;							\
	for (;;) {								\
		if (exclusive)							\
			prepare_to_wait_exclusive(&(wq), &__wqe, state);	\
		else								\
			prepare_to_wait(&(wq), &__wqe, state);			\
		if (condition)							\
			break;							\
		cmd;								\
	}									\
	finish_wait(&(wq), &__wqe);						\
	__ret; })

#define wait_event(wq, condition) do {						\
	if (!(condition))							\
		(void)___wait_event(wq, condition, TASK_UNINTERRUPTIBLE, 0, 0, schedule()); \
} while (0)
#define wait_event_idle(wq, condition) do {					\
	if (!(condition))							\
		(void)___wait_event(wq, condition, TASK_INTERRUPTIBLE, 0, 0, schedule()); \
} while (0)
#define wait_event_idle_exclusive(wq, condition) do {				\
	if (!(condition))							\
		(void)___wait_event(wq, condition, TASK_INTERRUPTIBLE, 1, 0, schedule()); \
} while (0)
/* No signals here: the interruptible forms never return -ERESTARTSYS. */
#define wait_event_interruptible(wq, condition) ({ wait_event_idle(wq, condition); 0; })
#define wait_event_interruptible_exclusive(wq, condition) \
	({ wait_event_idle_exclusive(wq, condition); 0; })

/*
 * Timeout forms return 0 if the timeout elapsed with the condition false,
 * else the jiffies left, at least 1 (so a condition found true just as the
 * time ran out still reads as success), as in Linux.
 *
 * ___wait_cond_timeout() is evaluated inside ___wait_event(), where __ret
 * holds the jiffies left: true when the condition holds (then __ret >= 1)
 * or when no time is left (then __ret == 0).
 */
#define ___wait_cond_timeout(condition) ({					\
	bool __cond = (condition);						\
	if (__cond && !__ret)							\
		__ret = 1;							\
	__cond || !__ret; })

#define __wait_event_timeout(wq, condition, state, exclusive, timeout)		\
	___wait_event(wq, ___wait_cond_timeout(condition), state, exclusive,	\
		      timeout, __ret = schedule_timeout(__ret))

/* The inner ___wait_event() declares its own __ret: seed it from __tmo, not __ret. */
#define ___wait_event_timeout(wq, condition, state, exclusive, timeout) ({	\
	long __tmo = (timeout);							\
	long __ret = __tmo;							\
	if (!___wait_cond_timeout(condition))					\
		__ret = __wait_event_timeout(wq, condition, state, exclusive, __tmo); \
	__ret; })

#define wait_event_timeout(wq, condition, timeout) \
	___wait_event_timeout(wq, condition, TASK_UNINTERRUPTIBLE, 0, timeout)
#define wait_event_idle_timeout(wq, condition, timeout) \
	___wait_event_timeout(wq, condition, TASK_INTERRUPTIBLE, 0, timeout)
#define wait_event_idle_exclusive_timeout(wq, condition, timeout) \
	___wait_event_timeout(wq, condition, TASK_INTERRUPTIBLE, 1, timeout)
#define wait_event_interruptible_timeout wait_event_idle_timeout

#endif
