/*
 * rcu_sync (<rcu/rcu_sync.h>): readers' fast/slow path switch, with Linux
 * 6.1's state machine. The lock is the wait queue's own (as in Linux), so
 * the callback can wake rcu_sync_enter() waiters with wake_up_locked().
 *
 * Ordering: rcu_sync_enter() returns after a full grace period that began
 * after gp_state left GP_IDLE (synchronize_rcu(), or the callback that
 * set GP_PASSED, whose waiter reads gp_state under the wait queue's lock),
 * so every reader that saw GP_IDLE has ended and the updater's later
 * accesses come after them. On the way out, GP_IDLE is stored by a
 * callback a grace period after the last rcu_sync_exit(), so a reader
 * that sees GP_IDLE again began after the updater's accesses. These are
 * RCU's grace-period guarantee, not barriers of this file
 * (Documentation/RCU/ordering.md, "rcu_sync").
 */
#include <rcu/rcu_sync.h>
#include <rcu/rcupdate.h>
#include <sched/wait.h>
#include <kernel/bug.h>

void rcu_sync_init(struct rcu_sync *rsp)
{
	rsp->gp_state = GP_IDLE;
	rsp->gp_count = 0;
	init_waitqueue_head(&rsp->gp_wait);
}

static void rcu_sync_func(struct rcu_head *rhp);

static void rcu_sync_call(struct rcu_sync *rsp)
{
	call_rcu(&rsp->cb_head, rcu_sync_func);
}

/*
 * A grace period after an ENTER or EXIT transition (or the synchronous
 * equivalent in rcu_sync_enter()). Updaters present: they may proceed
 * (GP_PASSED). Otherwise the last one left: back to GP_IDLE, unless another
 * exit came while this grace period ran (GP_REPLAY), whose own accesses
 * readers must not miss, so one more grace period first.
 */
static void rcu_sync_func(struct rcu_head *rhp)
{
	struct rcu_sync *rsp = container_of(rhp, struct rcu_sync, cb_head);
	unsigned long flags;

	WARN_ON_ONCE(READ_ONCE(rsp->gp_state) == GP_IDLE);
	WARN_ON_ONCE(READ_ONCE(rsp->gp_state) == GP_PASSED);
	spin_lock_irqsave(&rsp->gp_wait.lock, flags);
	if (rsp->gp_count) {
		WRITE_ONCE(rsp->gp_state, GP_PASSED);
		wake_up_locked(&rsp->gp_wait);
	} else if (rsp->gp_state == GP_REPLAY) {
		WRITE_ONCE(rsp->gp_state, GP_EXIT);
		rcu_sync_call(rsp);
	} else {
		WRITE_ONCE(rsp->gp_state, GP_IDLE);
	}
	spin_unlock_irqrestore(&rsp->gp_wait.lock, flags);
}

/*
 * Force readers onto the slow path and wait until they are all on it.
 * The first updater from GP_IDLE waits out a grace period itself
 * (synchronize_rcu(), which rcu_expedited or a one-CPU system make cheap)
 * and does the callback's work; later ones wait for GP_PASSED, or find it
 * already (an exit callback still pending counts: the updaters' grace
 * period has passed). May sleep.
 */
void rcu_sync_enter(struct rcu_sync *rsp)
{
	int gp_state;

	spin_lock_irq(&rsp->gp_wait.lock);
	gp_state = rsp->gp_state;
	if (gp_state == GP_IDLE) {
		WRITE_ONCE(rsp->gp_state, GP_ENTER);
		WARN_ON_ONCE(rsp->gp_count);
	}
	rsp->gp_count++;
	spin_unlock_irq(&rsp->gp_wait.lock);

	if (gp_state == GP_IDLE) {
		synchronize_rcu();
		rcu_sync_func(&rsp->cb_head);	/* GP_ENTER -> GP_PASSED, waking the others */
		return;
	}
	wait_event(rsp->gp_wait, READ_ONCE(rsp->gp_state) >= GP_PASSED);
}

/*
 * An updater leaves. The last one starts the return to GP_IDLE a grace
 * period later (a callback), or, if that return is already under way,
 * asks for one more grace period (GP_REPLAY). Never blocks.
 */
void rcu_sync_exit(struct rcu_sync *rsp)
{
	WARN_ON_ONCE(READ_ONCE(rsp->gp_state) == GP_IDLE);
	WARN_ON_ONCE(READ_ONCE(rsp->gp_count) == 0);

	spin_lock_irq(&rsp->gp_wait.lock);
	if (!--rsp->gp_count) {
		if (rsp->gp_state == GP_PASSED) {
			WRITE_ONCE(rsp->gp_state, GP_EXIT);
			rcu_sync_call(rsp);
		} else if (rsp->gp_state == GP_EXIT) {
			WRITE_ONCE(rsp->gp_state, GP_REPLAY);
		}
	}
	spin_unlock_irq(&rsp->gp_wait.lock);
}

/*
 * No updater may be inside. A pending REPLAY becomes a plain EXIT (its
 * callback is about to be waited for anyway), then rcu_barrier() waits
 * for the callback, which leaves rsp GP_IDLE.
 */
void rcu_sync_dtor(struct rcu_sync *rsp)
{
	int gp_state;

	WARN_ON_ONCE(READ_ONCE(rsp->gp_count));
	WARN_ON_ONCE(READ_ONCE(rsp->gp_state) == GP_PASSED);

	spin_lock_irq(&rsp->gp_wait.lock);
	if (rsp->gp_state == GP_REPLAY)
		WRITE_ONCE(rsp->gp_state, GP_EXIT);
	gp_state = rsp->gp_state;
	spin_unlock_irq(&rsp->gp_wait.lock);

	if (gp_state != GP_IDLE) {
		rcu_barrier();
		WARN_ON_ONCE(rsp->gp_state != GP_IDLE);
	}
}
