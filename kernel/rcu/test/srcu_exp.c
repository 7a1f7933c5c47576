/*
 * KTAP suite "srcu", third part (the case list is in srcu.c): Tree
 * SRCU's synchronous waits run the grace period in the waiting task when
 * srcu_gp is not running the domain (srcutree.c: srcu_wait_gp()).
 *
 * The case makes srcu_gp busy for up to SST_GP_MS in a callback of
 * another domain, then times synchronize_srcu_expedited() on an idle
 * domain with one call_srcu() callback queued, then synchronize_srcu()
 * with srcutree.exp_holdoff=0 (a normal grace period). Before the change,
 * those grace periods could only run in srcu_gp, so the calls returned
 * after the busy callback; now they return while srcu_gp is still busy.
 * The callback queued on the domain is still invoked by srcu_gp (never by
 * a waiting task), after the busy one. Needs two CPUs: srcu_gp spins on
 * one.
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

/* One call of kind on ssp while srcu_gp is busy in b's callback: it must return before b. */
static bool sst_call_while_busy(struct srcu_struct *ssp, int kind, struct sst_busy *b)
{
	const char *what = kind == SST_SYNC ? "synchronize_srcu() (normal)" :
					      "synchronize_srcu_expedited()";
	struct sst_async *a = sst_async_start(ssp, kind, &b->finished);
	bool ok = a && sst_async_wait(a, 2 * SST_GP_MS);

	if (!KTAP_EXPECT_MSG(ok, "%s did not return", what))
		return false;
	KTAP_EXPECT_MSG(a->flag_at_end == 0,
			"%s on an idle domain returned only after srcu_gp was free (%llu us): its "
			"grace period ran in srcu_gp", what,
			(unsigned long long)((a->t_end - a->t_start) / 1000));
	ktap_diag("%s while srcu_gp was busy took %llu us", what,
		  (unsigned long long)((a->t_end - a->t_start) / 1000));
	kfree(a);
	return true;
}

void srcu_exp_wait_in_caller(void)
{
	struct srcu_struct *busy_ssp = sst_new_domain(), *ssp = sst_new_domain();
	unsigned long deadline, holdoff = READ_ONCE(srcu_exp_holdoff);
	struct sst_busy *b;
	struct sst_where *w;
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
	ok = sst_call_while_busy(ssp, SST_SYNC_EXP, b);
	if (ok) {
		WRITE_ONCE(srcu_exp_holdoff, 0);	/* a normal grace period */
		ok = sst_call_while_busy(ssp, SST_SYNC, b);
		WRITE_ONCE(srcu_exp_holdoff, holdoff);
	}
	WRITE_ONCE(b->release, 1);
	if (!ok)
		return;
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
