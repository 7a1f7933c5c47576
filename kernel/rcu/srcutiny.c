/*
 * Tiny SRCU: SRCU for the Tiny RCU kernel (one CPU, no preemption), after
 * Linux's srcutiny. A grace period takes the queued callbacks, bumps
 * srcu_idx (new readers go to the other counter), waits until the old
 * counter is zero, bumps srcu_idx again and invokes the callbacks. It
 * runs in the srcu_gp kthread (srcu_work.c) without ever sleeping there:
 * when readers remain it returns, and the reader that brings the counter
 * to zero queues it again (srcu_tiny_reader_done()), so one sleeping
 * reader holds up its own domain only.
 */
#define pr_fmt(fmt) "srcu: " fmt

#include "rcu.h"
#include <rcu/srcu.h>
#include <rcu/rcupdate.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/irqflags.h>
#include <sched/completion.h>
#include <time/time.h>

/* Early boot, before srcu_gp runs: microseconds between turns of a self-driven grace period. */
#define SRCU_BOOT_POLL_US	10

int init_srcu_struct(struct srcu_struct *ssp)
{
	ssp->srcu_lock_nesting[0] = 0;
	ssp->srcu_lock_nesting[1] = 0;
	ssp->srcu_idx = 0;
	ssp->srcu_idx_max = 0;
	ssp->srcu_gp_running = false;
	ssp->srcu_gp_waiting = false;
	ssp->srcu_cb_head = NULL;
	ssp->srcu_cb_tail = &ssp->srcu_cb_head;
	ssp->srcu_gp_cbs = NULL;
	ssp->srcu_n_gps = 0;
	srcu_work_init(&ssp->work, srcu_drive_gp);
	ssp->name = "srcu_struct";
	srcu_lockdep_init(ssp);
	return 0;
}

/* What still uses the domain (callbacks and grace periods only with all set), or NULL. */
static const char *srcu_busy_reason(void *dom, bool all)
{
	struct srcu_struct *ssp = dom;

	if (READ_ONCE(ssp->srcu_lock_nesting[0]) || READ_ONCE(ssp->srcu_lock_nesting[1]))
		return "readers";
	if (all && (READ_ONCE(ssp->srcu_gp_running) ||
		    ULONG_CMP_LT(READ_ONCE(ssp->srcu_idx), READ_ONCE(ssp->srcu_idx_max))))
		return "grace period in flight";
	if (all && READ_ONCE(ssp->srcu_cb_head))
		return "callbacks";
	return NULL;
}

/* Refused (WARN, domain left alone and working) while anything uses the domain. */
void cleanup_srcu_struct(struct srcu_struct *ssp)
{
	srcu_work_cleanup(&ssp->work, srcu_busy_reason, ssp, ssp->name);
}

/* The reader that emptied the counter a grace period waits for: let it go on. */
void srcu_tiny_reader_done(struct srcu_struct *ssp)
{
	srcu_queue_work(&ssp->work, 0);
}

/*
 * One turn in srcu_gp: start a grace period if one is needed, end it if
 * the old counter is empty. Callers of call_srcu() may interrupt it (they
 * touch the callback list with interrupts off); readers may interrupt it
 * too, but interrupt readers leave before returning.
 */
void srcu_drive_gp(struct srcu_work *work)
{
	struct srcu_struct *ssp = container_of(work, struct srcu_struct, work);
	struct rcu_head *rhp, *next;
	unsigned long flags;
	int idx;

	if (!ssp->srcu_gp_running) {
		if (!READ_ONCE(ssp->srcu_cb_head) &&
		    ULONG_CMP_GE(ssp->srcu_idx, READ_ONCE(ssp->srcu_idx_max)))
			return;
		local_irq_save(flags);
		ssp->srcu_gp_cbs = ssp->srcu_cb_head;
		ssp->srcu_cb_head = NULL;
		ssp->srcu_cb_tail = &ssp->srcu_cb_head;
		local_irq_restore(flags);
		ssp->srcu_gp_running = true;
		WRITE_ONCE(ssp->srcu_idx, ssp->srcu_idx + 1);	/* new readers: other counter */
	}
	idx = ((ssp->srcu_idx - 1) & 0x2) >> 1;	/* the counter before the bump */
	WRITE_ONCE(ssp->srcu_gp_waiting, true);
	barrier();	/* set the flag before the check: its reader is this CPU's task or irq */
	if (READ_ONCE(ssp->srcu_lock_nesting[idx]))
		return;	/* the last of them queues us (srcu_tiny_reader_done()) */
	WRITE_ONCE(ssp->srcu_gp_waiting, false);
	WRITE_ONCE(ssp->srcu_idx, ssp->srcu_idx + 1);
	WRITE_ONCE(ssp->srcu_n_gps, ssp->srcu_n_gps + 1);
	for (rhp = ssp->srcu_gp_cbs; rhp; rhp = next) {
		next = rhp->next;
		debug_rcu_head_unqueue(rhp);
		rhp->func(rhp);
	}
	ssp->srcu_gp_cbs = NULL;
	ssp->srcu_gp_running = false;
	if (READ_ONCE(ssp->srcu_cb_head) ||
	    ULONG_CMP_LT(ssp->srcu_idx, READ_ONCE(ssp->srcu_idx_max)))
		srcu_queue_work(&ssp->work, 0);
}

void call_srcu(struct srcu_struct *ssp, struct rcu_head *rhp, rcu_callback_t func)
{
	unsigned long flags;

	if (debug_rcu_head_queue(rhp, func))
		return;		/* DEBUG_OBJECTS_RCU_HEAD: queued already; reported, left alone */
	rhp->func = func;
	rhp->next = NULL;
	local_irq_save(flags);
	*ssp->srcu_cb_tail = rhp;
	ssp->srcu_cb_tail = &rhp->next;
	local_irq_restore(flags);
	srcu_queue_work(&ssp->work, 0);
}

struct srcu_sync {
	struct rcu_head head;
	struct completion done;
};

static void srcu_sync_cb(struct rcu_head *rhp)
{
	complete(&container_of(rhp, struct srcu_sync, head)->done);
}

/*
 * Wait for a grace period. Callbacks are invoked in order, so the same
 * wait is srcu_barrier(). Before srcu_gp runs, drive the domain from here.
 */
void synchronize_srcu(struct srcu_struct *ssp)
{
	struct srcu_sync ss;

	init_completion(&ss.done);
	init_rcu_head_on_stack(&ss.head);	/* DEBUG_OBJECTS_RCU_HEAD: a stack head, on purpose */
	call_srcu(ssp, &ss.head, srcu_sync_cb);
	while (!srcu_work_ready() && !completion_done(&ss.done)) {
		srcu_run_work_now(&ssp->work);
		udelay(SRCU_BOOT_POLL_US);
	}
	wait_for_completion(&ss.done);
	destroy_rcu_head_on_stack(&ss.head);
}

/* One CPU and no preemption: every grace period is as quick as it gets. */
void synchronize_srcu_expedited(struct srcu_struct *ssp)
{
	synchronize_srcu(ssp);
}

void srcu_barrier(struct srcu_struct *ssp)
{
	synchronize_srcu(ssp);
}

/* The srcu_idx at which a grace period that starts after now has ended. */
unsigned long get_state_synchronize_srcu(struct srcu_struct *ssp)
{
	barrier();	/* one CPU: the caller's updates before the read */
	return (READ_ONCE(ssp->srcu_idx) + 3) & ~0x1UL;
}

unsigned long start_poll_synchronize_srcu(struct srcu_struct *ssp)
{
	unsigned long cookie = get_state_synchronize_srcu(ssp);
	unsigned long flags;
	bool need;

	local_irq_save(flags);
	need = ULONG_CMP_LT(ssp->srcu_idx_max, cookie);
	if (need)
		ssp->srcu_idx_max = cookie;
	local_irq_restore(flags);
	if (need)
		srcu_queue_work(&ssp->work, 0);
	return cookie;
}

bool poll_state_synchronize_srcu(struct srcu_struct *ssp, unsigned long cookie)
{
	bool done = cookie == SRCU_GET_STATE_COMPLETED ||
		    ULONG_CMP_GE(READ_ONCE(ssp->srcu_idx), cookie);

	barrier();	/* one CPU: the caller's later accesses after the check */
	return done;
}

unsigned long srcu_batches_completed(struct srcu_struct *ssp)
{
	return READ_ONCE(ssp->srcu_idx) >> 1;
}

void srcu_get_gp_counts(struct srcu_struct *ssp, unsigned long *normal, unsigned long *exp)
{
	*normal = READ_ONCE(ssp->srcu_n_gps);
	*exp = 0;
}

/* Linux's Tiny SRCU line: the counters, srcu_idx and the furthest polled request. */
void srcu_torture_stats_print(struct srcu_struct *ssp, const char *tt, const char *tf)
{
	int idx = ((READ_ONCE(ssp->srcu_idx) + 1) & 0x2) >> 1;

	printk(KERN_ALERT "%s%s Tiny SRCU per-CPU(idx=%d): (%d,%d) gp: %lu->%lu\n", tt, tf, idx,
	       READ_ONCE(ssp->srcu_lock_nesting[!idx]), READ_ONCE(ssp->srcu_lock_nesting[idx]),
	       READ_ONCE(ssp->srcu_idx), READ_ONCE(ssp->srcu_idx_max));
	printk(KERN_ALERT "%s%s srcu: %lu normal, 0 expedited grace periods\n", tt, tf,
	       READ_ONCE(ssp->srcu_n_gps));
}
