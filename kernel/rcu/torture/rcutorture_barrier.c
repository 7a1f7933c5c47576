/*
 * rcutorture: the rcu_barrier() tester (n_barrier_cbs): callbacks queued
 * on each CPU must all have run when rcu_barrier() returns.
 */
#include "rcutorture.h"

static struct task_struct **barrier_cbs_tasks;
static struct task_struct *barrier_task;

/* ===== rcu_barrier() ================================================================================= */

static atomic_t barrier_cbs_count;	/* callbacks still to be queued this phase */
static bool barrier_phase;
static atomic_t barrier_cbs_invoked;
static struct wait_queue_head *barrier_cbs_wq;
static DECLARE_WAIT_QUEUE_HEAD(barrier_wq);

static void rcu_torture_barrier_cbf(struct rcu_head *rcu)
{
	atomic_inc(&barrier_cbs_invoked);
}

/* Cross call: queue the callback on the target CPU itself. */
static void rcu_torture_barrier1cb(void *rcu_void)
{
	cur_ops->call(rcu_void, rcu_torture_barrier_cbf);
}

/* One per CPU number: queue one callback on "its" CPU at each phase. */
static int rcu_torture_barrier_cbs(void *arg)
{
	long myid = (long)arg;
	bool lastphase = false, newphase;
	struct rcu_head rcu;

	VERBOSE_TOROUT_STRING("rcu_torture_barrier_cbs task started");
	init_rcu_head_on_stack(&rcu);	/* DEBUG_OBJECTS_RCU_HEAD, as Linux */
	set_user_nice(current, 19);
	do {
		wait_event(barrier_cbs_wq[myid],
			   (newphase = smp_load_acquire(&barrier_phase)) != lastphase ||
			   torture_must_stop());
		lastphase = newphase;
		if (torture_must_stop())
			break;
		if (smp_call_function_single(myid, rcu_torture_barrier1cb, &rcu, 1))
			cur_ops->call(&rcu, rcu_torture_barrier_cbf);	/* no such CPU: here */
		if (atomic_dec_and_test(&barrier_cbs_count))
			wake_up(&barrier_wq);
	} while (!torture_must_stop());
	if (cur_ops->cb_barrier)
		cur_ops->cb_barrier();	/* our rcu_head is on the stack */
	destroy_rcu_head_on_stack(&rcu);
	torture_kthread_stopping("rcu_torture_barrier_cbs");
	return 0;
}

/* Each phase: all callbacks queued, then rcu_barrier() must find every one invoked. */
static int rcu_torture_barrier(void *arg)
{
	int i;

	VERBOSE_TOROUT_STRING("rcu_torture_barrier task starting");
	do {
		atomic_set(&barrier_cbs_invoked, 0);
		atomic_set(&barrier_cbs_count, rtp->n_barrier_cbs);
		smp_store_release(&barrier_phase, !barrier_phase);
		for (i = 0; i < rtp->n_barrier_cbs; i++)
			wake_up(&barrier_cbs_wq[i]);
		wait_event(barrier_wq, atomic_read(&barrier_cbs_count) == 0 || torture_must_stop());
		if (torture_must_stop())
			break;
		rcu_torture_counters.barrier_attempts++;
		cur_ops->cb_barrier();
		if (atomic_read(&barrier_cbs_invoked) != rtp->n_barrier_cbs) {
			rcu_torture_counters.barrier_error++;
			pr_err("barrier_cbs_invoked = %d, n_barrier_cbs = %d\n",
			       atomic_read(&barrier_cbs_invoked), rtp->n_barrier_cbs);
			WARN_ON(1);
			/* Wait by hand for the stragglers before the next phase reuses the heads. */
			i = 0;
			do {
				if (WARN_ON(i++ > HZ))
					i = -(int)(~0U >> 1);	/* warn once */
				schedule_timeout_interruptible(1);
				cur_ops->cb_barrier();
			} while (atomic_read(&barrier_cbs_invoked) != rtp->n_barrier_cbs &&
				 !torture_must_stop());
			smp_mb();
			if (!torture_must_stop())
				pr_err("Recovered: barrier_cbs_invoked = %d\n",
				       atomic_read(&barrier_cbs_invoked));
		} else {
			rcu_torture_counters.barrier_successes++;
		}
		schedule_timeout_interruptible(HZ / 10);
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_barrier");
	return 0;
}

int rcu_torture_barrier_init(void)
{
	int i, ret;

	if (rtp->n_barrier_cbs <= 0)
		return 0;
	if (!cur_ops->call || !cur_ops->cb_barrier) {
		pr_alert("%s" TORTURE_FLAG " Call or barrier ops missing for %s,\n",
			 rtp->torture_type, cur_ops->name);
		pr_alert("%s" TORTURE_FLAG " RCU barrier testing omitted from run.\n", rtp->torture_type);
		return 0;
	}
	atomic_set(&barrier_cbs_count, 0);
	atomic_set(&barrier_cbs_invoked, 0);
	barrier_cbs_tasks = kcalloc(rtp->n_barrier_cbs, sizeof(barrier_cbs_tasks[0]), GFP_KERNEL);
	barrier_cbs_wq = kcalloc(rtp->n_barrier_cbs, sizeof(barrier_cbs_wq[0]), GFP_KERNEL);
	if (!barrier_cbs_tasks || !barrier_cbs_wq)
		return -ENOMEM;
	for (i = 0; i < rtp->n_barrier_cbs; i++) {
		init_waitqueue_head(&barrier_cbs_wq[i]);
		ret = torture_create_kthread(rcu_torture_barrier_cbs, (void *)(long)i,
					     barrier_cbs_tasks[i]);
		if (ret)
			return ret;
	}
	return torture_create_kthread(rcu_torture_barrier, NULL, barrier_task);
}

void rcu_torture_barrier_cleanup(void)
{
	torture_stop_kthread(rcu_torture_barrier, barrier_task);
	if (barrier_cbs_tasks) {
		for (int i = 0; i < rtp->n_barrier_cbs; i++)
			torture_stop_kthread(rcu_torture_barrier_cbs, barrier_cbs_tasks[i]);
		kfree(barrier_cbs_tasks);
		barrier_cbs_tasks = NULL;
	}
	kfree(barrier_cbs_wq);
	barrier_cbs_wq = NULL;
}
