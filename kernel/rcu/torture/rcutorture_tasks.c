/*
 * rcutorture: the "tasks" flavor, Tasks RCU (<rcu/tasks.h>). A reader is
 * any code that does not switch voluntarily, so the read lock is empty
 * and readers may be preempted (rcu_read_delay() preempts them now and
 * then); the delay never sleeps. In a non-preemptible kernel the API is
 * plain RCU's, and so is what this tests there, unless
 * CONFIG_FORCE_TASKS_RCU builds the real one (Linux's TASKS02): then
 * readers are never preempted, and the grace periods end at their
 * voluntary switches (stutter_wait()'s cond_resched_tasks_rcu_qs()).
 *
 * Our own addition: now and then a reader in task context spins a little
 * in a sleeping state, as a waiter between set_current_state() and
 * schedule() does, and is preempted there. It is still a reader, whatever
 * its state: a grace period must wait for it, also while CPU hotplug or
 * load balancing moves it (TASKS04, with sched.move_delay_us). A wakeup
 * meanwhile only makes it TASK_RUNNING early, which it becomes anyway.
 */
#include "rcutorture.h"
#include <rcu/tasks.h>
#include <time/time.h>

static int tasks_torture_read_lock(void)
{
	return 0;
}

static void tasks_torture_read_unlock(int idx)
{
}

static void rcu_tasks_torture_deferred_free(struct rcu_torture *p)
{
	call_rcu_tasks(&p->rtort_rcu, rcu_torture_cb);
}

/* Without CONFIG_TASKS_RCU the flavor is plain RCU's API: no Tasks stall timeout of its own. */
static int tasks_torture_stall_dur(void)
{
	return IS_ENABLED(CONFIG_TASKS_RCU) ? rcu_tasks_stall_timeout() : 0;
}

static void tasks_torture_read_delay(struct torture_random_state *rrsp, struct rt_read_seg *rtrsp)
{
	const unsigned long spin_us = 50;

	rcu_read_delay(rrsp, rtrsp);
	if (!IS_ENABLED(CONFIG_PREEMPTION) || in_interrupt() || preempt_count() || irqs_disabled() ||
	    torture_random(rrsp) % (rtp->nrealreaders * 200))
		return;
	set_current_state(torture_random(rrsp) & 1 ? TASK_UNINTERRUPTIBLE : TASK_INTERRUPTIBLE);
	/* A real preemption in that state: need_resched, then the preempt_enable() check. */
	preempt_disable();
	set_tsk_need_resched(current);
	preempt_enable();
	udelay(spin_us);
	__set_current_state(TASK_RUNNING);
}

struct rcu_torture_ops tasks_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= tasks_torture_read_lock,
	.read_delay	= tasks_torture_read_delay,
	.readunlock	= tasks_torture_read_unlock,
	.get_gp_seq	= rcu_tasks_gp_completed,
	.deferred_free	= rcu_tasks_torture_deferred_free,
	.sync		= synchronize_rcu_tasks,
	.exp_sync	= synchronize_rcu_tasks,	/* no expedited Tasks RCU, as in Linux */
	.call		= call_rcu_tasks,
	.cb_barrier	= rcu_barrier_tasks,
	.stall_dur	= tasks_torture_stall_dur,
	.irq_capable	= 1,	/* an interrupt handler never switches voluntarily: a reader */
	.slow_gps	= 1,
	.name		= "tasks",
};
