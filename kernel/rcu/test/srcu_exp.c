/*
 * KTAP suite "srcu", third part (the case list is in srcu.c): Tree
 * SRCU's expedited wait runs the grace period in the waiting task when
 * srcu_gp is not running the domain (srcutree.c: srcu_drive_gp()).
 *
 * The case makes srcu_gp busy for up to SST_GP_MS in a callback of
 * another domain, then times synchronize_srcu_expedited() on an idle
 * domain with one call_srcu() callback queued. Before the change, that
 * grace period could only run in srcu_gp, so the call returned after the
 * busy callback; now it returns while srcu_gp is still busy. The
 * callback queued on the domain is still invoked by srcu_gp (never by
 * the waiting task), after the busy one. Needs two CPUs: srcu_gp spins
 * on one.
 */
#define pr_fmt(fmt) "srcu: " fmt

#include "srcu.h"
#include <kernel/string.h>

#ifdef CONFIG_TREE_SRCU
struct sst_busy {
	struct rcu_head rh;
	int started;		/* srcu_gp is inside the callback */
	int release;		/* the case lets it return */
	int finished;		/* it returned (the synchronize side snapshots this) */
};

/* Keep srcu_gp busy until released (at most SST_GP_MS: a broken case must not hang srcu_gp). */
static void sst_busy_fn(struct rcu_head *rh)
{
	struct sst_busy *b = container_of(rh, struct sst_busy, rh);
	u64 deadline = local_clock() + (u64)SST_GP_MS * NSEC_PER_MSEC;

	WRITE_ONCE(b->started, 1);
	while (!READ_ONCE(b->release) && local_clock() < deadline)
		udelay(100);
	WRITE_ONCE(b->finished, 1);
}

struct sst_where {
	struct rcu_head rh;
	int ran;
	char comm[TASK_COMM_LEN];	/* the task that invoked it */
};

static void sst_where_fn(struct rcu_head *rh)
{
	struct sst_where *w = container_of(rh, struct sst_where, rh);

	memcpy(w->comm, current->comm, TASK_COMM_LEN);
	WRITE_ONCE(w->ran, 1);
}

void srcu_exp_wait_in_caller(void)
{
	struct srcu_struct *busy_ssp = sst_new_domain(), *ssp = sst_new_domain();
	unsigned long deadline;
	struct sst_busy *b;
	struct sst_where *w;
	struct sst_async *a;
	bool ok;

	if (rcu_gp_is_normal()) {
		ktap_skip("rcupdate.rcu_normal: no expedited grace periods");
		return;
	}
	if (num_online_cpus() < 2) {
		ktap_skip("one CPU: the busy srcu_gp would hold the caller off it");
		return;
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!busy_ssp || !ssp || !KTAP_EXPECT(b && w))
		return;
	call_srcu(busy_ssp, &b->rh, sst_busy_fn);
	deadline = jiffies + msecs_to_jiffies(SST_GP_MS);
	while (!READ_ONCE(b->started) && time_before(jiffies, deadline))
		msleep(1);
	if (!KTAP_EXPECT_MSG(READ_ONCE(b->started), "srcu_gp never invoked the busy callback"))
		return;
	call_srcu(ssp, &w->rh, sst_where_fn);
	a = sst_async_start(ssp, SST_SYNC_EXP, &b->finished);
	ok = a && sst_async_wait(a, 2 * SST_GP_MS);
	WRITE_ONCE(b->release, 1);
	if (!KTAP_EXPECT_MSG(ok, "synchronize_srcu_expedited() did not return"))
		return;
	KTAP_EXPECT_MSG(a->flag_at_end == 0,
			"synchronize_srcu_expedited() on an idle domain returned only after srcu_gp "
			"was free (%llu us): its grace period ran in srcu_gp",
			(unsigned long long)((a->t_end - a->t_start) / 1000));
	ktap_diag("synchronize_srcu_expedited() while srcu_gp was busy took %llu us",
		  (unsigned long long)((a->t_end - a->t_start) / 1000));
	kfree(a);
	if (!sst_call(busy_ssp, SST_BARRIER) || !sst_call(ssp, SST_BARRIER))
		return;
	if (!KTAP_EXPECT_MSG(READ_ONCE(w->ran), "the domain's callback never ran"))
		return;
	KTAP_EXPECT_MSG(!strcmp(w->comm, "srcu_gp"), "the domain's callback ran in %s, not srcu_gp",
			w->comm);
	sst_free_domain(busy_ssp);
	sst_free_domain(ssp);
	kfree(b);
	kfree(w);
}
#else
void srcu_exp_wait_in_caller(void)
{
	ktap_skip("Tiny SRCU has no expedited grace periods");
}
#endif
