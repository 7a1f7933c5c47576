/*
 * rcutorture: the flavors under test (struct rcu_torture_ops): "rcu", the
 * flavor this kernel is built with, and "busted", whose grace periods do not
 * wait, which the test must catch; "trivial", Linux's toy RCU whose grace
 * period is a visit to every CPU; "tasks" lives in rcutorture_tasks.c, the
 * SRCU flavors ("srcu", "srcud", "busted_srcud") in rcutorture_srcu.c.
 */
#include "rcutorture.h"

/* ===== the flavors under test ========================================================== */

static int rcu_torture_read_lock(void)
{
	rcu_read_lock();
	return 0;
}

static void rcu_torture_read_unlock(int idx)
{
	rcu_read_unlock();
}

/*
 * Linger inside the reader: a short delay sometimes, so readers overlap
 * grace-period boundaries, and a long one rarely (shorter in interrupt
 * context), so that forced quiescent-state scans and the stall machinery
 * see readers that take a while. In a preemptible kernel, sometimes get
 * preempted, which sends the reader through the blocked-tasks lists.
 */
void rcu_read_delay(struct torture_random_state *rrsp, struct rt_read_seg *rtrsp)
{
	const unsigned long shortdelay_us = 200;
	unsigned long longdelay_ms = 300;

	if (!atomic_read(&rcu_fwd_cb_nodelay) &&
	    !(torture_random(rrsp) % (rtp->nrealreaders * 2000 * longdelay_ms))) {
		if (in_interrupt())
			longdelay_ms = 5;
		mdelay(longdelay_ms);
		rtrsp->rt_delay_ms = longdelay_ms;
	}
	if (!(torture_random(rrsp) % (rtp->nrealreaders * 2 * shortdelay_us))) {
		udelay(shortdelay_us);
		rtrsp->rt_delay_us = shortdelay_us;
	}
	if (IS_ENABLED(CONFIG_PREEMPT_RCU) && !in_interrupt() && !preempt_count() &&
	    !irqs_disabled() && !(torture_random(rrsp) % (rtp->nrealreaders * 500))) {
		/* A real preemption: need_resched, then the preempt_enable() check. */
		preempt_disable();
		set_tsk_need_resched(current);
		preempt_enable();
		rtrsp->rt_preempted = true;
	}
}

/* One more grace period for rp; true once it has been through the whole pipeline. */
static bool rcu_torture_pipe_update_one(struct rcu_torture *rp)
{
	struct rcu_torture_reader_check *rtrcp = READ_ONCE(rp->rtort_chkp);
	int i;

	if (rtrcp) {
		WRITE_ONCE(rp->rtort_chkp, NULL);
		smp_store_release(&rtrcp->rtc_ready, 1);
	}
	i = READ_ONCE(rp->rtort_pipe_count);
	if (i > RCU_TORTURE_PIPE_LEN)
		i = RCU_TORTURE_PIPE_LEN;
	atomic_inc(&rcu_torture_counters.wcount[i]);
	WRITE_ONCE(rp->rtort_pipe_count, i + 1);
	if (i + 1 >= RCU_TORTURE_PIPE_LEN) {
		rp->rtort_mbtest = 0;
		return true;
	}
	return false;
}

/* After a synchronous grace period: age every element waiting on the writer's list. */
void rcu_torture_pipe_update(struct rcu_torture *old_rp)
{
	struct rcu_torture *rp, *rp1;

	if (old_rp)
		list_add(&old_rp->rtort_free, &rcu_torture_removed);
	list_for_each_entry_safe(rp, rp1, &rcu_torture_removed, rtort_free) {
		if (rcu_torture_pipe_update_one(rp)) {
			list_del(&rp->rtort_free);
			rcu_torture_free(rp);
		}
	}
}

/* call_rcu() callback: one more grace period, then requeue until the end of the pipe. */
void rcu_torture_cb(struct rcu_head *p)
{
	struct rcu_torture *rp = container_of(p, struct rcu_torture, rtort_rcu);

	if (torture_must_stop_irq())
		return;	/* the test is over: the next start rebuilds the freelist */
	if (rcu_torture_pipe_update_one(rp))
		rcu_torture_free(rp);
	else
		cur_ops->deferred_free(rp);
}

static void rcu_torture_deferred_free(struct rcu_torture *p)
{
	call_rcu(&p->rtort_rcu, rcu_torture_cb);
}

void rcu_sync_torture_init(void)
{
	INIT_LIST_HEAD(&rcu_torture_removed);
}

/* The flavor's (Tree or Tiny) grace-period flags and sequence number. */
static void rcu_torture_gp_data(int *flags, unsigned long *gp_seq)
{
	rcutorture_get_gp_data(flags, gp_seq);
}

static int rcu_torture_stall_dur(void)
{
	return (int)rcu_jiffies_till_stall_check();
}

struct rcu_torture_ops rcu_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= rcu_torture_read_unlock,
	.get_gp_seq	= rcu_gp_completed,
	.deferred_free	= rcu_torture_deferred_free,
	.sync		= synchronize_rcu,
	.exp_sync	= synchronize_rcu_expedited,
	.get_gp_state	= get_state_synchronize_rcu,
	.start_gp_poll	= start_poll_synchronize_rcu,
	.poll_gp_state	= poll_state_synchronize_rcu,
	.cond_sync	= cond_synchronize_rcu,
	.get_gp_state_exp	= get_state_synchronize_rcu,
	.start_gp_poll_exp	= start_poll_synchronize_rcu_expedited,
	.poll_gp_state_exp	= poll_state_synchronize_rcu,
	.cond_sync_exp	= cond_synchronize_rcu_expedited,
	.get_gp_state_full	= get_state_synchronize_rcu_full,
	.start_gp_poll_full	= start_poll_synchronize_rcu_full,
	.start_gp_poll_exp_full	= start_poll_synchronize_rcu_expedited_full,
	.poll_gp_state_full	= poll_state_synchronize_rcu_full,
	.cond_sync_full	= cond_synchronize_rcu_full,
	.cond_sync_exp_full	= cond_synchronize_rcu_expedited_full,
	.exp_current	= rcu_expedite_gp,
	.exp_restore	= rcu_unexpedite_gp,
	.call		= call_rcu_hurry,	/* its waits must not be lazy (Linux 6.2) */
	.cb_barrier	= rcu_barrier,
	.fqs		= rcu_force_quiescent_state,
	.gp_data	= rcu_torture_gp_data,
	.stall_dur	= rcu_torture_stall_dur,
	.check_boost_failed = rcu_check_boost_fail,
	.gp_kthread_dbg = rcu_show_gp_state,
	/* Consolidated RCU: interrupts off, preemption off and the _bh/_sched readers protect too. */
	.extendables	= RCUTORTURE_RDR_IRQ | RCUTORTURE_RDR_PREEMPT | RCUTORTURE_RDR_RBH |
			  RCUTORTURE_RDR_SCHED,
	.irq_capable	= 1,
	.can_boost	= IS_ENABLED(CONFIG_RCU_BOOST),
	.name		= "rcu",
};

/*
 * "busted": an RCU whose grace periods do not wait for anything. Never
 * use it for real: it exists so that the test proves it can fail (each
 * run must end with FAILURE, the reader pipeline showing ages above 1).
 */
static void rcu_busted_torture_deferred_free(struct rcu_torture *p)
{
	rcu_torture_cb(&p->rtort_rcu);	/* deliberately no grace period */
}

static void synchronize_rcu_busted(void)
{
	/* deliberately waits for nothing */
}

static void call_rcu_busted(struct rcu_head *head, rcu_callback_t func)
{
	func(head);	/* deliberately invoked at once */
}

static unsigned long rcu_no_completed(void)
{
	return 0;
}

struct rcu_torture_ops rcu_busted_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= rcu_torture_read_unlock,
	.get_gp_seq	= rcu_no_completed,
	.deferred_free	= rcu_busted_torture_deferred_free,
	.sync		= synchronize_rcu_busted,
	.exp_sync	= synchronize_rcu_busted,
	.call		= call_rcu_busted,
	.irq_capable	= 1,
	.name		= "busted",
};

/*
 * "trivial", as Linux's: the textbook RCU. A reader is a region with
 * preemption disabled (preempt_disable() itself, so that it holds in a
 * preemptible kernel too, as Linux's TRIVIAL-PREEMPT); a grace period
 * moves the caller onto every online CPU in turn: once it has run on a
 * CPU, that CPU has switched tasks, so every reader it was running then
 * has ended. No callbacks, no polling, no grace-period counter (the
 * "Reader Batch" line stays at zero): only the writer's synchronous
 * waits and the reader pipeline check it. Not for CPU hotplug or the
 * shuffler (Linux's TRIVIAL scenario turns both off): a CPU that goes
 * offline is skipped, and the caller's affinity is changed under it.
 */
int rcu_torture_read_lock_trivial(void)
{
	preempt_disable();
	return 0;
}

void rcu_torture_read_unlock_trivial(int idx)
{
	preempt_enable();
}

static void synchronize_rcu_trivial(void)
{
	struct cpumask one;
	int cpu;

	for_each_online_cpu(cpu) {
		cpumask_clear(&one);
		cpumask_set_cpu(cpu, &one);
		if (set_cpus_allowed_ptr(current, &one))
			continue;	/* went offline meanwhile: it runs no reader */
		WARN_ON_ONCE(raw_smp_processor_id() != cpu);
	}
	/* Not in Linux: free to run anywhere again rather than stay on the last CPU. */
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

struct rcu_torture_ops trivial_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock_trivial,
	.read_delay	= rcu_read_delay,
	.readunlock	= rcu_torture_read_unlock_trivial,
	.get_gp_seq	= rcu_no_completed,
	.sync		= synchronize_rcu_trivial,
	.exp_sync	= synchronize_rcu_trivial,
	.irq_capable	= 1,
	.name		= "trivial",
};
