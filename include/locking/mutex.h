/*
 * Sleeping locks. struct mutex: FIFO waiters; a running locker may take a
 * just-released mutex until the first waiter has woken once and asked for a
 * direct handoff (Linux's rule: fast, and no starvation). No priority
 * inheritance.
 * struct rt_mutex: priority inheritance — a blocked waiter lends its
 * priority to the owner (transitively along a chain of owners blocked on
 * other rt_mutexes) until the owner unlocks. RCU priority boosting uses the
 * proxy-lock pair, locking an rt_mutex on behalf of a preempted reader.
 */
#ifndef _LOCKING_MUTEX_H
#define _LOCKING_MUTEX_H

#include <sched/task.h>
#include <kernel/list.h>
#include <locking/spinlock.h>

struct mutex {
	struct task_struct *owner;	/* guarded by wait_lock */
	spinlock_t wait_lock;
	struct list_head wait_list;	/* FIFO */
	bool handoff;			/* first waiter asked: next unlock hands it over */
	const char *name;
#ifdef CONFIG_LOCKDEP
	struct lockdep_map dep_map;	/* lock-order checking (<locking/lockdep.h>) */
#endif
};

#ifdef CONFIG_LOCKDEP
#define __MUTEX_DEP_MAP_INIT(m)	, .dep_map = STATIC_LOCKDEP_MAP_INIT(#m, NULL)
#else
#define __MUTEX_DEP_MAP_INIT(m)
#endif
#define __MUTEX_INITIALIZER(m) \
	{ .owner = NULL, .wait_lock = __SPIN_LOCK_UNLOCKED(m.wait_lock), \
	  .wait_list = LIST_HEAD_INIT(m.wait_list), .name = #m __MUTEX_DEP_MAP_INIT(m) }
#define DEFINE_MUTEX(m)	struct mutex m = __MUTEX_INITIALIZER(m)

/* mutex_init(lock): named after its argument, for the BUG messages; one lock class per call site. */
void __mutex_init(struct mutex *lock, const char *name);
#ifdef CONFIG_LOCKDEP
#define mutex_init(lock)							\
	do {									\
		__mutex_init((lock), #lock);					\
		lockdep_init_site(&(lock)->dep_map, #lock);			\
	} while (0)
#else
#define mutex_init(lock)	__mutex_init((lock), #lock)
#endif
/* Task context only. Recursive locking and unlock by a non-owner are BUGs. */
void mutex_lock(struct mutex *lock);
bool mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
bool mutex_is_locked(struct mutex *lock);
/* No signals here: these are mutex_lock() under Linux's names. */
static inline int mutex_lock_interruptible(struct mutex *lock) { mutex_lock(lock); return 0; }
#define mutex_lock_killable		mutex_lock_interruptible
#define mutex_lock_nested(lock, subclass) mutex_lock(lock)
static inline void mutex_destroy(struct mutex *lock) { }

struct rt_mutex {
	spinlock_t wait_lock;
	struct task_struct *owner;	/* guarded by wait_lock */
	struct list_head waiters;	/* rt_mutex_waiter, most important first */
};

struct rt_mutex_waiter {
	struct list_head list_entry;	/* in lock->waiters */
	struct list_head pi_entry;	/* in owner->pi_waiters (top waiter only) */
	struct task_struct *task;
	struct rt_mutex *lock;
	int prio;			/* order in lock->waiters; under lock->wait_lock */
	int pi_prio;			/* order in owner->pi_waiters; under owner->pi_lock */
};

#define __RT_MUTEX_INITIALIZER(m) \
	{ .wait_lock = __SPIN_LOCK_UNLOCKED(m.wait_lock), .owner = NULL, \
	  .waiters = LIST_HEAD_INIT(m.waiters) }
#define DEFINE_RT_MUTEX(m)	struct rt_mutex m = __RT_MUTEX_INITIALIZER(m)

void rt_mutex_init(struct rt_mutex *lock);
void rt_mutex_lock(struct rt_mutex *lock);
bool rt_mutex_trylock(struct rt_mutex *lock);
void rt_mutex_unlock(struct rt_mutex *lock);
bool rt_mutex_is_locked(struct rt_mutex *lock);
struct task_struct *rt_mutex_owner(struct rt_mutex *lock);
/* Make `proxy_owner` the owner of an unlocked lock (RCU boost), without it running. */
void rt_mutex_init_proxy_locked(struct rt_mutex *lock, struct task_struct *proxy_owner);
/* Release a lock on behalf of its (proxy) owner; called by that owner. */
void rt_mutex_proxy_unlock(struct rt_mutex *lock);

/*
 * For the scheduler. rt_mutex_top_waiter_prio(): priority of the most
 * important waiter on any rt_mutex p owns, MAX_PRIO if none; the caller
 * holds p->pi_lock. rt_mutex_adjust_pi(): p's priority changed (e.g. by
 * sched_setscheduler()) while it may be blocked on an rt_mutex: requeue
 * it and re-propagate along the chain. Call with no locks held.
 */
int rt_mutex_top_waiter_prio(struct task_struct *p);
void rt_mutex_adjust_pi(struct task_struct *p);
/* Longest chain of blocked owners followed when boosting (Linux: 1024). */
extern int max_lock_depth;

#endif
