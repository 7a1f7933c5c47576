/*
 * srcu_gp: the kthread that runs SRCU's deferred work (<rcu/srcu_work.h>)
 * for every domain, Tree or Tiny, in place of Linux's workqueues. Items
 * wait on one list, each with the jiffy it may run at; the kthread runs
 * the first item that is due, then looks again, and sleeps until the
 * earliest deadline or a new item otherwise. An item requeued by its own
 * function goes to the tail, so busy domains take turns.
 *
 * An item's function runs in one place at a time, whoever holds the item
 * (w->running): srcu_gp, or a task that runs its steps itself (early
 * boot; Tree SRCU's synchronous waits, which save the hand-off to srcu_gp
 * and queue the item without waking srcu_gp, srcu_queue_work_quiet()).
 * A held item may be queued again; srcu_gp skips it and is not woken for
 * it until the holder lets go (srcu_work_release()).
 */
#define pr_fmt(fmt) "srcu: " fmt

#include <rcu/srcu_work.h>
#include <rcu/srcu.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <locking/spinlock.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/wait.h>
#include <time/time.h>

static DEFINE_SPINLOCK(srcu_work_lock);		/* guards the list and every item's flags */
static LIST_HEAD(srcu_work_list);
static DECLARE_WAIT_QUEUE_HEAD(srcu_work_wq);
static bool srcu_work_kick;			/* something was queued since srcu_gp looked */
static struct task_struct *srcu_gp_task;

static void __srcu_queue_work(struct srcu_work *w, unsigned long delay, bool quiet)
{
	unsigned long flags, due = jiffies + delay;
	bool wake = false;

	spin_lock_irqsave(&srcu_work_lock, flags);
	if (!w->queued) {
		w->queued = true;
		w->due = due;
		list_add_tail(&w->entry, &srcu_work_list);
		wake = true;
	} else if (time_before(due, w->due)) {
		w->due = due;
		wake = true;
	}
	if (w->running || quiet)
		wake = false;	/* its holder looks at it when letting go; quiet: its caller will */
	if (wake)
		WRITE_ONCE(srcu_work_kick, true);
	spin_unlock_irqrestore(&srcu_work_lock, flags);
	if (wake && READ_ONCE(srcu_gp_task))
		wake_up(&srcu_work_wq);
}

void srcu_queue_work(struct srcu_work *w, unsigned long delay)
{
	__srcu_queue_work(w, delay, false);
}

void srcu_queue_work_quiet(struct srcu_work *w, unsigned long delay)
{
	__srcu_queue_work(w, delay, true);
}

bool srcu_work_hold(struct srcu_work *w)
{
	unsigned long flags;
	bool held = false;

	spin_lock_irqsave(&srcu_work_lock, flags);
	if (!w->running) {
		w->running = true;
		held = true;
	}
	spin_unlock_irqrestore(&srcu_work_lock, flags);
	return held;
}

bool srcu_work_take(struct srcu_work *w)
{
	bool taken = false;
	unsigned long flags;

	spin_lock_irqsave(&srcu_work_lock, flags);
	WARN_ON_ONCE(!w->running);
	if (w->queued) {
		list_del_init(&w->entry);
		w->queued = false;
		taken = true;
	}
	spin_unlock_irqrestore(&srcu_work_lock, flags);
	return taken;
}

/*
 * If w was queued while held, srcu_gp skipped it (and may be asleep with a
 * deadline computed without it): look again. srcu_gp itself, the holder,
 * loops back to the list anyway.
 */
void srcu_work_release(struct srcu_work *w)
{
	unsigned long flags;
	bool requeued;

	spin_lock_irqsave(&srcu_work_lock, flags);
	w->running = false;
	requeued = w->queued;
	if (requeued)
		WRITE_ONCE(srcu_work_kick, true);
	spin_unlock_irqrestore(&srcu_work_lock, flags);
	if (requeued && READ_ONCE(srcu_gp_task) && current != READ_ONCE(srcu_gp_task))
		wake_up(&srcu_work_wq);
}

static void srcu_work_run(struct srcu_work *w)
{
	w->func(w);
	srcu_work_release(w);
}

void srcu_cancel_work_sync(struct srcu_work *w)
{
	unsigned long flags;
	bool running;

	for (;;) {
		spin_lock_irqsave(&srcu_work_lock, flags);
		if (w->queued) {
			list_del_init(&w->entry);
			w->queued = false;
		}
		running = w->running;
		spin_unlock_irqrestore(&srcu_work_lock, flags);
		if (!running)
			return;
		schedule_timeout_uninterruptible(1);
	}
}

bool srcu_work_ready(void)
{
	return READ_ONCE(srcu_gp_task) != NULL;
}

void srcu_run_work_now(struct srcu_work *w)
{
	if (!srcu_work_hold(w))
		return;
	if (srcu_work_take(w))
		w->func(w);
	srcu_work_release(w);
}

/*
 * Claim the first due item (w->running set), or return NULL with the
 * jiffies until the earliest deadline in *timeout. Finding and claiming
 * under one lock hold: once srcu_cancel_work_sync() has seen an item
 * neither queued nor running, srcu_gp never touches it again. An item
 * a task holds is skipped: srcu_work_release() kicks srcu_gp.
 */
static struct srcu_work *srcu_work_next(long *timeout)
{
	struct srcu_work *w;
	unsigned long flags, now = jiffies;

	*timeout = MAX_SCHEDULE_TIMEOUT;
	spin_lock_irqsave(&srcu_work_lock, flags);
	WRITE_ONCE(srcu_work_kick, false);
	list_for_each_entry(w, &srcu_work_list, entry) {
		if (w->running)
			continue;
		if (time_after_eq(now, w->due)) {
			list_del_init(&w->entry);
			w->queued = false;
			w->running = true;
			spin_unlock_irqrestore(&srcu_work_lock, flags);
			return w;
		}
		if ((long)(w->due - now) < *timeout)
			*timeout = (long)(w->due - now);
	}
	spin_unlock_irqrestore(&srcu_work_lock, flags);
	return NULL;
}

static int srcu_gp_kthread(void *unused)
{
	for (;;) {
		long timeout;
		struct srcu_work *w = srcu_work_next(&timeout);

		if (w) {
			srcu_work_run(w);
			cond_resched();
			continue;
		}
		wait_event_idle_timeout(srcu_work_wq, READ_ONCE(srcu_work_kick), timeout);
	}
	return 0;
}

static unsigned long srcu_n_cleanup_refused;

unsigned long srcu_cleanup_refusals(void)
{
	return READ_ONCE(srcu_n_cleanup_refused);
}

/*
 * cleanup_srcu_struct()'s protocol, both flavors: readers or a grace
 * period in flight refuse at once; otherwise wait for srcu_gp to let go
 * of the domain (it may still be invoking the callback that woke the
 * caller, which counts as queued until it returns), then look again,
 * callbacks included. A refusal WARNs, is counted, and gives the domain
 * its turns back so that it keeps working.
 */
bool srcu_work_cleanup(struct srcu_work *w, const char *(*busy)(void *dom, bool all), void *dom,
		       const char *name)
{
	const char *why = busy(dom, false);

	if (!why) {
		srcu_cancel_work_sync(w);
		why = busy(dom, true);
		if (why)
			srcu_queue_work(w, 0);
	}
	if (!WARN(why, "srcu: cleanup_srcu_struct(%s): %s still active, not freed\n", name, why))
		return true;
	WRITE_ONCE(srcu_n_cleanup_refused, srcu_n_cleanup_refused + 1);
	return false;
}

/* Items queued before now (early-boot call_srcu()) run as soon as it starts. */
static int srcu_gp_kthread_init(void)
{
	struct task_struct *t = kthread_run(srcu_gp_kthread, NULL, "srcu_gp");

	if (WARN_ON(!t))
		return -1;
	WRITE_ONCE(srcu_gp_task, t);
	WRITE_ONCE(srcu_work_kick, true);
	wake_up(&srcu_work_wq);
	return 0;
}
early_initcall(srcu_gp_kthread_init);
