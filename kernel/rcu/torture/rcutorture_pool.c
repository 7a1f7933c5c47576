/*
 * rcutorture: the pool of elements the writer publishes: taking one from
 * the freelist, giving it back once its grace periods are over, and the
 * check after a stutter pause that none went missing.
 */
#include "rcutorture.h"

static struct rcu_torture rcu_tortures[10 * RCU_TORTURE_PIPE_LEN];
static DEFINE_SPINLOCK(rcu_torture_lock);

/* At start: every element free, none current. */
void rcu_torture_pool_init(void)
{
	int i;

	INIT_LIST_HEAD(&rcu_torture_freelist);
	for (i = 0; i < (int)ARRAY_SIZE(rcu_tortures); i++) {
		rcu_tortures[i].rtort_mbtest = 0;
		rcu_tortures[i].rtort_chkp = NULL;
		list_add_tail(&rcu_tortures[i].rtort_free, &rcu_torture_freelist);
	}
	RCU_INIT_POINTER(rcu_torture_current, NULL);
	rcu_torture_current_version = 0;
}

struct rcu_torture *rcu_torture_alloc(void)
{
	struct list_head *p;
	unsigned long flags;

	spin_lock_irqsave(&rcu_torture_lock, flags);
	if (list_empty(&rcu_torture_freelist)) {
		atomic_inc(&rcu_torture_counters.alloc_fail);
		spin_unlock_irqrestore(&rcu_torture_lock, flags);
		return NULL;
	}
	atomic_inc(&rcu_torture_counters.alloc);
	p = rcu_torture_freelist.next;
	list_del_init(p);
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
	return container_of(p, struct rcu_torture, rtort_free);
}

void rcu_torture_free(struct rcu_torture *p)
{
	unsigned long flags;

	atomic_inc(&rcu_torture_counters.free);
	spin_lock_irqsave(&rcu_torture_lock, flags);
	list_add_tail(&p->rtort_free, &rcu_torture_freelist);
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
}

/* Elements neither free nor current; *pipe gets the first one's pipeline count. */
static int rcu_torture_count_missing(int *pipe)
{
	struct rcu_torture *cur = rcu_access_pointer(rcu_torture_current);
	unsigned long flags;
	int i, n = 0;

	spin_lock_irqsave(&rcu_torture_lock, flags);
	for (i = 0; i < (int)ARRAY_SIZE(rcu_tortures); i++) {
		if (list_empty(&rcu_tortures[i].rtort_free) && &rcu_tortures[i] != cur) {
			if (!n)
				*pipe = READ_ONCE(rcu_tortures[i].rtort_pipe_count);
			n++;
		}
	}
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
	return n;
}

/*
 * After a stutter pause every element but the current one must be back on
 * the free list (Linux's check in rcu_torture_writer()): one that is not
 * had its callback lost, or never invoked. Elements still on the writer's
 * rcu_torture_removed list (waiting for synchronous grace periods) are on a
 * list and do not count, as in Linux.
 *
 * Linux checks once, trusting the pause to have been long enough for the
 * pipeline to drain (up to RCU_TORTURE_PIPE_LEN grace periods per element).
 * On an overloaded host one grace period took 3.8 s (TREE01, campaign
 * under jitter) and the check failed with nothing lost. So a failed first
 * look is followed by rcu_barrier()s, one per pipeline stage: each waits
 * for every callback queued before it, including the ones the previous
 * stage's callbacks requeued, and the writer (the only one who puts
 * elements in flight) is not queueing any. What is still missing after
 * that was really lost. Returns how many are missing; WARNs then.
 */
int rcu_torture_check_freelist(void)
{
	int i, n, pipe = 0;

	n = rcu_torture_count_missing(&pipe);
	if (n && cur_ops->cb_barrier) {
		atomic_inc(&rcu_torture_counters.freelist_waits);
		for (i = 0; i <= RCU_TORTURE_PIPE_LEN && n && !torture_must_stop(); i++) {
			cur_ops->cb_barrier();
			n = rcu_torture_count_missing(&pipe);
		}
		if (torture_must_stop())
			return 0;	/* the test is ending: it cleans up itself */
	}
	if (n) {
		atomic_add(n, &rcu_torture_counters.lost);
		pr_alert("%s" TORTURE_FLAG " !!! %d element(s) neither free nor current after a stutter pause\n",
			 rtp->torture_type, n);
		WARN(1, "%s: rtort_pipe_count: %d\n", "rcu_torture_writer", pipe);
	}
	return n;
}
