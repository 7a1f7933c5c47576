/*
 * The deferred work that drives SRCU grace periods (kernel/rcu/srcu_work.c):
 * a tiny delayed-work item run by one kthread, "srcu_gp". The kernel has
 * no workqueues; every SRCU domain (Tree or Tiny) embeds one srcu_work and
 * queues it when its grace-period machine has something to do, "delay"
 * jiffies from now. Queueing an item already queued keeps the earlier
 * deadline, so an expedited request can pull a sleeping item forward.
 */
#ifndef _RCU_SRCU_WORK_H
#define _RCU_SRCU_WORK_H

#include <kernel/types.h>
#include <kernel/list.h>

struct srcu_work {
	struct list_head entry;		/* on the pending list while queued */
	unsigned long due;		/* jiffies at which func may run */
	bool queued;			/* on the pending list */
	bool running;			/* func is running in srcu_gp right now */
	void (*func)(struct srcu_work *work);
};

#define SRCU_WORK_INIT(name, fn)					\
	{ .entry = LIST_HEAD_INIT((name).entry), .func = (fn) }

static inline void srcu_work_init(struct srcu_work *w, void (*fn)(struct srcu_work *))
{
	INIT_LIST_HEAD(&w->entry);
	w->due = 0;
	w->queued = false;
	w->running = false;
	w->func = fn;
}

/* Any context (interrupts too): run w->func in srcu_gp no sooner than delay jiffies from now. */
void srcu_queue_work(struct srcu_work *w, unsigned long delay);
/*
 * The same without waking srcu_gp, for a task that will run w itself once
 * it is due (srcu_work_hold()); srcu_gp still runs it if it looks first.
 */
void srcu_queue_work_quiet(struct srcu_work *w, unsigned long delay);
/*
 * Take w off the pending list and wait until its func is not running
 * (task context). The caller must stop whatever could queue it again.
 */
void srcu_cancel_work_sync(struct srcu_work *w);
/* True once the srcu_gp kthread runs (early_initcall); before that work waits on the list. */
bool srcu_work_ready(void);
/*
 * Before srcu_gp exists: run w's func here, now, if w is pending (a
 * synchronous SRCU wait at early boot drives its own grace period).
 */
void srcu_run_work_now(struct srcu_work *w);
/*
 * Running w's steps outside srcu_gp (task context). srcu_work_hold():
 * become w's only runner if nobody runs it (true); srcu_gp then leaves w
 * alone, queued or not, and is not woken for it. srcu_work_take(): the
 * holder takes w off the pending list, true if it was queued (a turn to
 * run). srcu_work_release(): let go, sending srcu_gp to w if queued.
 */
bool srcu_work_hold(struct srcu_work *w);
bool srcu_work_take(struct srcu_work *w);
void srcu_work_release(struct srcu_work *w);
/*
 * cleanup_srcu_struct()'s checks around w (srcu_work.c): busy(dom, all)
 * names what still uses the domain (all: callbacks and grace periods too,
 * asked once srcu_gp has let go), or returns NULL. True if the domain may
 * be torn down; false after one WARN naming name and the reason.
 */
bool srcu_work_cleanup(struct srcu_work *w, const char *(*busy)(void *dom, bool all), void *dom,
		       const char *name);

#endif
