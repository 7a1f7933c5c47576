/*
 * The expedited polling API of Tree RCU (Linux 6.1):
 * start_poll_synchronize_rcu_expedited() and its full-state form. The
 * caller gets an ordinary cookie at once; if it is not complete yet, one
 * kthread, rcu_exp_poll, runs synchronize_rcu_expedited() until it is.
 *
 * Linux hands this to a workqueue. This kernel has none, and the one
 * deferred-work runner it has, srcu_gp (srcu_work.c), runs one item at a
 * time for every SRCU domain: a synchronous expedited grace period there
 * would hold up all SRCU grace periods for as long as it lasts (seconds,
 * behind a stalled reader). So the expedited polls get a kthread of their
 * own, as Linux's expedited kworker (CONFIG_RCU_EXP_KTHREAD) is one.
 *
 * Requests coalesce: the kthread keeps the latest cookie asked for, and
 * cookies only grow, so the grace periods that complete it complete every
 * earlier one too.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <sched/kthread.h>
#include <sched/wait.h>

static DEFINE_RAW_SPINLOCK(rcu_exp_poll_lock);	/* guards the three fields below */
static unsigned long rcu_exp_poll_rq;		/* the latest cookie asked for ... */
static bool rcu_exp_poll_pending;		/* ... while this is set */
static bool rcu_exp_poll_busy;			/* the kthread works on a taken cookie */
static DECLARE_WAIT_QUEUE_HEAD(rcu_exp_poll_wq);

/* Take the pending request, if any, into *cookie. */
static bool rcu_exp_poll_take(unsigned long *cookie)
{
	unsigned long flags;
	bool pending;

	raw_spin_lock_irqsave(&rcu_exp_poll_lock, flags);
	pending = rcu_exp_poll_pending;
	*cookie = rcu_exp_poll_rq;
	WRITE_ONCE(rcu_exp_poll_pending, false);	/* read locklessly by the kthread's wait */
	rcu_exp_poll_busy = pending;
	raw_spin_unlock_irqrestore(&rcu_exp_poll_lock, flags);
	return pending;
}

/* The taken cookie is complete: the kthread's grace periods have all ended. */
static void rcu_exp_poll_done(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rcu_exp_poll_lock, flags);
	rcu_exp_poll_busy = false;
	raw_spin_unlock_irqrestore(&rcu_exp_poll_lock, flags);
}

bool rcu_exp_poll_idle(void)
{
	unsigned long flags;
	bool idle;

	raw_spin_lock_irqsave(&rcu_exp_poll_lock, flags);
	idle = !rcu_exp_poll_pending && !rcu_exp_poll_busy;
	raw_spin_unlock_irqrestore(&rcu_exp_poll_lock, flags);
	return idle;
}

/*
 * One expedited grace period may fall short of a cookie: it can join a
 * polled phase that a normal grace period opened before the cookie was
 * taken (tree_sync.c). Each synchronize_rcu_expedited() below waits for a
 * grace period that starts after it is called, so the loop ends within
 * two of them (sooner when normal grace periods complete the cookie).
 */
static int rcu_exp_poll_kthread(void *unused)
{
	unsigned long cookie;

	for (;;) {
		wait_event_idle(rcu_exp_poll_wq, READ_ONCE(rcu_exp_poll_pending));
		if (!rcu_exp_poll_take(&cookie))
			continue;
		while (!poll_state_synchronize_rcu(cookie))
			synchronize_rcu_expedited();
		rcu_exp_poll_done();
	}
	return 0;
}

/*
 * Callable from any context that may call wake_up(): task context (also
 * inside an RCU reader, or with preemption or interrupts disabled) and
 * interrupt handlers; never blocks. Not from NMI, nor under the scheduler's
 * or a wait queue's own locks. Before the kthread runs (early_initcall)
 * requests wait for it.
 */
unsigned long start_poll_synchronize_rcu_expedited(void)
{
	unsigned long cookie = get_state_synchronize_rcu();
	unsigned long flags;

	if (poll_state_synchronize_rcu(cookie))
		return cookie;
	raw_spin_lock_irqsave(&rcu_exp_poll_lock, flags);
	if (!rcu_exp_poll_pending || ULONG_CMP_LT(rcu_exp_poll_rq, cookie))
		rcu_exp_poll_rq = cookie;
	WRITE_ONCE(rcu_exp_poll_pending, true);
	raw_spin_unlock_irqrestore(&rcu_exp_poll_lock, flags);
	/*
	 * The lock orders the request before the wake-up's look at the queue;
	 * wake_up() takes the queue's lock, which pairs with the waiter's
	 * prepare_to_wait() in wait_event_idle() (sched/wait.c's lost-wakeup
	 * rule): either the kthread sees the pending flag or it is woken.
	 */
	wake_up(&rcu_exp_poll_wq);
	return cookie;
}

/*
 * A full-state cookie, completed by the expedited grace periods run for
 * the ordinary cookie taken after it (which ends a later or the same
 * grace period of either kind). Same contexts as above.
 */
void start_poll_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	get_state_synchronize_rcu_full(rgosp);
	(void)start_poll_synchronize_rcu_expedited();
}

static int rcu_exp_poll_init(void)
{
	struct task_struct *t = kthread_run(rcu_exp_poll_kthread, NULL, "rcu_exp_poll");

	if (WARN_ON(!t))
		return -1;
	return 0;
}
early_initcall(rcu_exp_poll_init);
