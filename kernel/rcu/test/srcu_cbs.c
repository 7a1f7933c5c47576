/*
 * KTAP suite "srcu", second part (the case list is in srcu.c):
 * call_srcu() callbacks, srcu_barrier(), the polling API, cleanup of a
 * busy domain, and srcutree.exp_holdoff with the synchronize_srcu()
 * latency figures (idle and busy domain, auto-expediting on and off).
 */
#define pr_fmt(fmt) "srcu: " fmt

#include "srcu.h"

/* --- callbacks ---------------------------------------------------------------------------- */

#define SST_NCBS	8	/* callbacks queued per CPU */

struct sst_cb {
	struct rcu_head rh;
	atomic_t runs;
};

struct sst_queuer {
	struct srcu_struct *ssp;
	struct sst_cb *cbs;		/* SST_NCBS of them */
	struct completion done;
	struct task_struct *p;
};

static void sst_cb_fn(struct rcu_head *rh)
{
	atomic_inc(&container_of(rh, struct sst_cb, rh)->runs);
}

static int sst_queuer_fn(void *arg)
{
	struct sst_queuer *q = arg;

	for (int i = 0; i < SST_NCBS; i++)
		call_srcu(q->ssp, &q->cbs[i].rh, sst_cb_fn);
	complete(&q->done);
	ktest_wait_stop();
	return 0;
}

/* Callbacks that ran n times, among the first count. */
static int sst_cbs_with_runs(struct sst_cb *cbs, int count, int n)
{
	int k = 0;

	for (int i = 0; i < count; i++)
		k += atomic_read(&cbs[i].runs) == n;
	return k;
}

/*
 * SST_NCBS callbacks queued on every online CPU while a reader is inside:
 * none may run while it stays; after it leaves, srcu_barrier() returns
 * with each run exactly once, and none runs again later.
 */
void srcu_callbacks_once(void)
{
	struct srcu_struct *ssp = sst_new_domain();
	unsigned int ncpus = num_online_cpus(), k = 0;
	struct sst_queuer *q;
	struct sst_cb *cbs;
	bool ok = true;
	int cpu, idx, total;

	if (!ssp)
		return;
	total = ncpus * SST_NCBS;
	q = kcalloc(ncpus, sizeof(*q), GFP_KERNEL);
	cbs = kcalloc(total, sizeof(*cbs), GFP_KERNEL);
	if (!KTAP_EXPECT(q && cbs))
		return;
	idx = srcu_read_lock(ssp);
	for_each_online_cpu(cpu) {
		q[k].ssp = ssp;
		q[k].cbs = &cbs[k * SST_NCBS];
		init_completion(&q[k].done);
		q[k].p = ktest_kthread(sst_queuer_fn, &q[k], cpu, "srcu_st_q/%u");
		if (q[k].p)
			wake_up_process(q[k].p);
		k++;
	}
	for (unsigned int i = 0; i < k; i++) {
		bool done = q[i].p && ktest_wait(&q[i].done, SST_GP_MS);

		ok &= KTAP_EXPECT_MSG(done, "queueing kthread %u stuck", i);
		if (q[i].p)
			ktest_stop_if(q[i].p, done, SST_STOP_MS);
	}
	msleep(SST_SETTLE_MS);
	KTAP_EXPECT_MSG(sst_cbs_with_runs(cbs, total, 0) == total,
			"%d of %d callbacks ran while a reader from before them was inside",
			total - sst_cbs_with_runs(cbs, total, 0), total);
	srcu_read_unlock(ssp, idx);
	if (!ok || !sst_call(ssp, SST_BARRIER))
		return;
	KTAP_EXPECT_MSG(sst_cbs_with_runs(cbs, total, 1) == total,
			"after srcu_barrier(): %d of %d callbacks ran exactly once",
			sst_cbs_with_runs(cbs, total, 1), total);
	msleep(SST_SETTLE_MS);
	KTAP_EXPECT_MSG(sst_cbs_with_runs(cbs, total, 1) == total, "a callback ran again later");
	ktap_diag("%d callbacks on %u CPUs", total, ncpus);
	kfree(q);
	kfree(cbs);
	sst_free_domain(ssp);
}

/*
 * srcu_barrier() does not return while a callback waits for a reader;
 * it returns once the reader has left and the callback has run. With
 * nothing queued it returns at once.
 */
void srcu_barrier_waits(void)
{
	struct srcu_struct *ssp = sst_new_domain();
	struct sst_cb *cb = kzalloc(sizeof(*cb), GFP_KERNEL);
	struct sst_async *a;
	int idx;

	if (!ssp || !KTAP_EXPECT(cb))
		return;
	KTAP_EXPECT(sst_call(ssp, SST_BARRIER));
	idx = srcu_read_lock(ssp);
	call_srcu(ssp, &cb->rh, sst_cb_fn);
	a = sst_async_start(ssp, SST_BARRIER, NULL);
	if (!a) {
		srcu_read_unlock(ssp, idx);
		return;
	}
	msleep(2 * SST_SETTLE_MS);
	KTAP_EXPECT_MSG(!completion_done(&a->done),
			"srcu_barrier() returned while its callback waited for a reader");
	KTAP_EXPECT_MSG(atomic_read(&cb->runs) == 0, "callback ran with the reader inside");
	srcu_read_unlock(ssp, idx);
	if (!KTAP_EXPECT_MSG(sst_async_wait(a, SST_GP_MS), "srcu_barrier() stuck"))
		return;
	KTAP_EXPECT_MSG(atomic_read(&cb->runs) == 1, "callback ran %d times by the barrier's return",
			atomic_read(&cb->runs));
	kfree(a);
	kfree(cb);
	sst_free_domain(ssp);
}

/* --- polling --------------------------------------------------------------------------------- */

/*
 * get_state_synchronize_srcu() starts nothing: on an otherwise unused
 * domain its cookie stays incomplete until a grace period is asked for.
 * start_poll_synchronize_srcu() completes on its own, but not while a
 * reader from before it is inside. SRCU_GET_STATE_COMPLETED always is.
 */
void srcu_polling(void)
{
	struct srcu_struct *ssp = sst_new_domain();
	unsigned long c0, c1, c2;
	int idx;

	if (!ssp)
		return;
	KTAP_EXPECT(poll_state_synchronize_srcu(ssp, SRCU_GET_STATE_COMPLETED));
	c0 = get_state_synchronize_srcu(ssp);
	msleep(SST_SETTLE_MS);
	KTAP_EXPECT_MSG(!poll_state_synchronize_srcu(ssp, c0),
			"cookie %#lx complete with no grace period asked for", c0);
	if (!sst_call(ssp, SST_SYNC))
		return;
	KTAP_EXPECT_MSG(poll_state_synchronize_srcu(ssp, c0),
			"cookie %#lx not complete after synchronize_srcu()", c0);
	c1 = start_poll_synchronize_srcu(ssp);
	KTAP_EXPECT_MSG(sst_wait_cookie(ssp, c1),
			"start_poll_synchronize_srcu() cookie %#lx never completed", c1);
	idx = srcu_read_lock(ssp);
	c2 = start_poll_synchronize_srcu(ssp);
	msleep(SST_SETTLE_MS);
	KTAP_EXPECT_MSG(!poll_state_synchronize_srcu(ssp, c2),
			"cookie %#lx taken inside a reader completed before it left", c2);
	srcu_read_unlock(ssp, idx);
	if (KTAP_EXPECT_MSG(sst_wait_cookie(ssp, c2), "cookie %#lx never completed", c2))
		sst_free_domain(ssp);
}

/* --- cleanup ---------------------------------------------------------------------------------- */

/*
 * cleanup_srcu_struct() with a reader inside WARNs (one "WARNING:" splat
 * on the console is expected here) and leaves the domain working; once
 * the reader has left, it succeeds.
 */
void srcu_cleanup_busy_refused(void)
{
	struct srcu_struct *ssp = sst_new_domain();
	unsigned long before;
	int idx;

	if (!ssp)
		return;
	idx = srcu_read_lock(ssp);
	before = srcu_cleanup_refusals();
	ktap_diag("cleanup_srcu_struct() of a domain with a reader inside: a WARNING follows");
	cleanup_srcu_struct(ssp);
	KTAP_EXPECT_MSG(srcu_cleanup_refusals() == before + 1,
			"cleanup_srcu_struct() did not refuse a domain with a reader inside");
	KTAP_EXPECT_MSG(sst_domain_has_data(ssp), "the refused domain's per-CPU data was freed");
	srcu_read_unlock(ssp, idx);
	if (!sst_call(ssp, SST_SYNC))
		return;
	before = srcu_cleanup_refusals();
	cleanup_srcu_struct(ssp);
	KTAP_EXPECT_MSG(srcu_cleanup_refusals() == before, "cleanup_srcu_struct() refused an idle domain");
	if (IS_ENABLED(CONFIG_TREE_SRCU))
		KTAP_EXPECT_MSG(!sst_domain_has_data(ssp), "the idle domain's per-CPU data was not freed");
	kfree(ssp);
}

/* --- srcutree.exp_holdoff and the latency figures ------------------------------------------- */

#ifdef CONFIG_TREE_SRCU
#define SST_LAT_N	20	/* synchronize_srcu() calls per figure */

struct sst_lat {
	struct srcu_struct *ssp;
	bool pause;		/* sleep 2 ms before each call: the domain goes idle */
	u64 sum, max;
};

static int sst_lat_fn(void *arg)
{
	struct sst_lat *l = arg;

	for (int i = 0; i < SST_LAT_N; i++) {
		u64 t, d;

		if (l->pause)
			msleep(2);
		t = local_clock();
		synchronize_srcu(l->ssp);
		d = local_clock() - t;
		l->sum += d;
		if (d > l->max)
			l->max = d;
	}
	return 0;
}

/* The busy domain's load: a reader now and then asleep inside, and an updater. */
static int sst_load_reader_fn(void *arg)
{
	for (unsigned long i = 0; !kthread_should_stop(); i++) {
		int idx = srcu_read_lock(arg);

		udelay(20);
		if (!(i % 16))
			msleep(1);
		srcu_read_unlock(arg, idx);
		cond_resched();
	}
	return 0;
}

static int sst_load_updater_fn(void *arg)
{
	while (!kthread_should_stop())
		synchronize_srcu(arg);
	return 0;
}

/*
 * SST_LAT_N synchronize_srcu() calls with exp_holdoff set to holdoff, on
 * an idle domain (a pause before each) or a busy one (load kthreads);
 * the grace periods the domain ran meanwhile go to *nexp and *nnorm.
 */
static bool sst_measure(struct srcu_struct *ssp, unsigned long holdoff, bool busy,
			unsigned long *nexp, unsigned long *nnorm)
{
	struct sst_lat l = { .ssp = ssp, .pause = !busy };
	struct task_struct *rd = NULL, *up = NULL;
	unsigned long saved = srcu_exp_holdoff, n0, e0, n1, e1;
	bool ok;

	WRITE_ONCE(srcu_exp_holdoff, holdoff);
	srcu_get_gp_counts(ssp, &n0, &e0);
	if (busy) {
		rd = ktest_kthread(sst_load_reader_fn, ssp, ktest_last_online_cpu(), "srcu_st_rd");
		up = ktest_kthread(sst_load_updater_fn, ssp, -1, "srcu_st_up");
		if (rd)
			wake_up_process(rd);
		if (up)
			wake_up_process(up);
		msleep(SST_SETTLE_MS);
	}
	ok = ktest_call_timeout("srcu_st_lat", 0, sst_lat_fn, &l, 2 * SST_GP_MS, NULL, NULL);
	if (rd)
		ktest_stop(rd, SST_STOP_MS, NULL);
	if (up)
		ktest_stop(up, SST_GP_MS, NULL);
	srcu_get_gp_counts(ssp, &n1, &e1);
	WRITE_ONCE(srcu_exp_holdoff, saved);
	*nexp = e1 - e0;
	*nnorm = n1 - n0;
	if (!KTAP_EXPECT_MSG(ok, "synchronize_srcu() calls did not return"))
		return false;
	ktap_diag("srcu-bench: synchronize_srcu %s exp_holdoff=%lu n=%d mean_us=%llu max_us=%llu "
		  "gps: %lu expedited %lu normal",
		  busy ? "busy" : "idle", holdoff, SST_LAT_N,
		  (unsigned long long)(l.sum / SST_LAT_N / 1000), (unsigned long long)(l.max / 1000),
		  *nexp, *nnorm);
	return true;
}

/*
 * On an idle domain every synchronize_srcu() runs one expedited grace
 * period with the default exp_holdoff (the last one ended 2 ms ago, far
 * more than 25 us) and one normal grace period with exp_holdoff=0. The
 * busy figures are printed only.
 */
void srcu_exp_holdoff_effect(void)
{
	struct srcu_struct *ssp;
	unsigned long e, n;

	if (rcu_gp_is_expedited() || rcu_gp_is_normal()) {
		ktap_skip("rcupdate.rcu_expedited or rcu_normal steers every grace period");
		return;
	}
	ssp = sst_new_domain();
	if (!ssp || !sst_call(ssp, SST_SYNC))
		return;
	if (sst_measure(ssp, 25000, false, &e, &n))
		KTAP_EXPECT_MSG(e == SST_LAT_N && n == 0,
				"idle domain, exp_holdoff=25000: %lu expedited, %lu normal grace periods for %d calls",
				e, n, SST_LAT_N);
	if (sst_measure(ssp, 0, false, &e, &n))
		KTAP_EXPECT_MSG(e == 0 && n == SST_LAT_N,
				"idle domain, exp_holdoff=0: %lu expedited, %lu normal grace periods for %d calls",
				e, n, SST_LAT_N);
	if (!sst_measure(ssp, 25000, true, &e, &n) || !sst_measure(ssp, 0, true, &e, &n))
		return;
	KTAP_EXPECT_MSG(e == 0, "busy domain, exp_holdoff=0: %lu expedited grace periods", e);
	if (sst_call(ssp, SST_BARRIER))
		sst_free_domain(ssp);
}
#else
void srcu_exp_holdoff_effect(void)
{
	ktap_skip("Tiny SRCU has no expedited grace periods (and no srcutree.exp_holdoff)");
}
#endif
