/*
 * rcu_sync: a switch between a fast path and a slow path for readers, as
 * Linux's <linux/rcu_sync.h> (percpu-rwsem and friends use it). Readers
 * in an RCU read-side section ask rcu_sync_is_idle(): true means no
 * updater is active or has been within the last grace period, so the
 * fast path (say, a per-CPU counter) is safe. An updater calls
 * rcu_sync_enter(), which returns only once a grace period has passed
 * since it made rcu_sync_is_idle() false, so every reader that might
 * still take the fast path has finished; rcu_sync_exit() lets readers
 * back onto the fast path a grace period later, from a callback, without
 * blocking. Enter/exit pairs nest and overlap (a count); a burst of them
 * costs one grace period at each end, not one per pair.
 *
 * The states (->gp_state), in Linux's order:
 *   GP_IDLE    readers take the fast path
 *   GP_ENTER   an updater has arrived; its grace period is in flight
 *   GP_PASSED  a grace period has passed since GP_ENTER: updaters proceed
 *   GP_EXIT    the last updater left; a callback is waiting out a grace period
 *   GP_REPLAY  another enter/exit came and went meanwhile: one more grace period
 */
#ifndef _RCU_RCU_SYNC_H
#define _RCU_RCU_SYNC_H

#include <rcu/rcupdate.h>
#include <sched/wait.h>

struct rcu_sync {
	int gp_state;			/* written under gp_wait.lock, read locklessly */
	int gp_count;			/* updaters between enter and exit; gp_wait.lock */
	struct wait_queue_head gp_wait;	/* its lock guards both; enter waits for GP_PASSED */
	struct rcu_head cb_head;	/* the one callback in flight (ENTER or EXIT) */
};

enum { GP_IDLE = 0, GP_ENTER, GP_PASSED, GP_EXIT, GP_REPLAY };

#define __RCU_SYNC_INITIALIZER(name) {						\
	.gp_state = GP_IDLE,							\
	.gp_wait = __WAIT_QUEUE_HEAD_INITIALIZER(name.gp_wait),			\
}
#define DEFINE_RCU_SYNC(name)	struct rcu_sync name = __RCU_SYNC_INITIALIZER(name)

/*
 * True while readers may take the fast path. Must be called inside an RCU
 * read-side section of some kind (lockdep-RCU checks it): that is what
 * rcu_sync_enter()'s grace period waits for.
 */
static inline bool rcu_sync_is_idle(struct rcu_sync *rsp)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(), "suspicious rcu_sync_is_idle() usage");
	return !READ_ONCE(rsp->gp_state);	/* GP_IDLE */
}

void rcu_sync_init(struct rcu_sync *rsp);
void rcu_sync_enter(struct rcu_sync *rsp);
void rcu_sync_exit(struct rcu_sync *rsp);
/* Before freeing rsp: wait for its exit callback, leaving it GP_IDLE. */
void rcu_sync_dtor(struct rcu_sync *rsp);

#endif
