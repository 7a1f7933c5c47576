/*
 * KTAP suite "srcu": sleepable RCU from the outside (Tree or Tiny SRCU),
 * run at boot with srcutree.selftest=1 (CONFIG_SRCU_SELFTEST). Every case
 * uses its own domain, so nothing else's grace periods interfere.
 *
 * Cases: a reader sleeping 50 ms holds up synchronize_srcu() until it
 * leaves, while a reader that started after the flip does not; nested
 * readers on both indices; callbacks run once, only after the readers
 * before them; srcu_barrier() waits; polling cookies; cleanup of a busy
 * domain WARNs and refuses; and (Tree SRCU) srcutree.exp_holdoff decides
 * which synchronize_srcu() calls run expedited grace periods, with the
 * latency figures printed as diagnostics; (Tree SRCU) an expedited wait
 * ends its grace period in the caller while srcu_gp is busy. Waits are bounded (a broken
 * grace period fails the case instead of hanging the boot); no case
 * asserts on how long something took beyond what a sleep guarantees.
 * Memory a stuck thread or callback might still touch is leaked, not
 * freed, on failure.
 */
#define pr_fmt(fmt) "srcu: " fmt
#define KPARAM_SUBSYS "srcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "srcu.h"

static bool srcu_selftest;
KPARAM_BOOL("srcutree.selftest", srcu_selftest,
	    "run the SRCU self-tests (KTAP suite \"srcu\") at boot");

/* --- helpers ---------------------------------------------------------------------------- */

struct srcu_struct *sst_new_domain(void)
{
	struct srcu_struct *ssp = kzalloc(sizeof(*ssp), GFP_KERNEL);

	if (!KTAP_EXPECT_MSG(ssp && !init_srcu_struct(ssp), "no memory for a test domain"))
		return NULL;
	return ssp;
}

/* Tear down a domain the case left idle; a refusal fails the case (and leaks it). */
void sst_free_domain(struct srcu_struct *ssp)
{
	unsigned long before = srcu_cleanup_refusals();

	cleanup_srcu_struct(ssp);
	if (KTAP_EXPECT_MSG(srcu_cleanup_refusals() == before,
			    "cleanup_srcu_struct() refused an idle domain"))
		kfree(ssp);
}

static int sst_reader_fn(void *arg)
{
	struct sst_reader *r = arg;
	u64 deadline;

	r->idx = srcu_read_lock(r->ssp);
	r->t_lock = local_clock();
	complete(&r->entered);
	if (r->hold_ms)
		msleep(r->hold_ms);
	deadline = local_clock() + (u64)SST_GP_MS * NSEC_PER_MSEC;
	while (r->wait_release && !READ_ONCE(r->release) && local_clock() < deadline)
		msleep(1);
	WRITE_ONCE(r->leaving, 1);	/* the synchronize side snapshots this */
	srcu_read_unlock(r->ssp, r->idx);
	complete(&r->done);
	ktest_wait_stop();
	return 0;
}

/* A reader kthread inside ssp (entered: true once it counted itself), or NULL. */
struct sst_reader *sst_reader_start(struct srcu_struct *ssp, unsigned int hold_ms,
				    bool wait_release)
{
	struct sst_reader *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!KTAP_EXPECT(r))
		return NULL;
	r->ssp = ssp;
	r->hold_ms = hold_ms;
	r->wait_release = wait_release;
	init_completion(&r->entered);
	init_completion(&r->done);
	r->p = ktest_kthread(sst_reader_fn, r, -1, "srcu_st_reader");
	if (!r->p)
		return NULL;
	wake_up_process(r->p);
	if (!KTAP_EXPECT_MSG(ktest_wait(&r->entered, SST_GP_MS), "reader did not start"))
		return NULL;
	return r;
}

/* Let r go and stop its thread; true if it left in time (then r is freed). */
bool sst_reader_finish(struct sst_reader *r)
{
	bool ok;

	WRITE_ONCE(r->release, 1);
	ok = KTAP_EXPECT_MSG(ktest_wait(&r->done, SST_GP_MS), "reader did not leave");
	ktest_stop_if(r->p, ok, SST_STOP_MS);
	if (ok)
		kfree(r);
	return ok;
}

static int sst_async_fn(void *arg)
{
	struct sst_async *a = arg;

	if (a->kind == SST_SYNC)
		synchronize_srcu(a->ssp);
	else if (a->kind == SST_SYNC_EXP)
		synchronize_srcu_expedited(a->ssp);
	else
		srcu_barrier(a->ssp);
	if (a->flag)
		a->flag_at_end = READ_ONCE(*a->flag);
	a->t_end = local_clock();
	complete(&a->done);
	ktest_wait_stop();
	return 0;
}

/* Start synchronize_srcu() (or _expedited, or srcu_barrier()) in a kthread. */
struct sst_async *sst_async_start(struct srcu_struct *ssp, int kind, int *flag)
{
	struct sst_async *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (!KTAP_EXPECT(a))
		return NULL;
	a->ssp = ssp;
	a->kind = kind;
	a->flag = flag;
	init_completion(&a->done);
	a->t_start = local_clock();
	a->p = ktest_kthread(sst_async_fn, a, -1, "srcu_st_sync");
	if (!a->p)
		return NULL;
	wake_up_process(a->p);
	return a;
}

/* Wait at most ms for a; true if it returned (then the caller frees a with sst_async_free()). */
bool sst_async_wait(struct sst_async *a, unsigned int ms)
{
	bool ok = ktest_wait(&a->done, ms);

	ktest_stop_if(a->p, ok, SST_STOP_MS);
	return ok;
}

/* The call of kind, bounded: true if it returned within SST_GP_MS. */
bool sst_call(struct srcu_struct *ssp, int kind)
{
	struct sst_async *a = sst_async_start(ssp, kind, NULL);
	bool ok = a && sst_async_wait(a, SST_GP_MS);

	KTAP_EXPECT_MSG(ok, "%s did not return within %u ms",
			kind == SST_BARRIER ? "srcu_barrier()" : "synchronize_srcu()", SST_GP_MS);
	if (ok)
		kfree(a);
	return ok;
}

/* Wait (at most SST_GP_MS) until the domain's running grace period has flipped. */
bool sst_wait_flipped(struct srcu_struct *ssp)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(SST_GP_MS);

	while (!sst_gp_flipped(ssp) && time_before(jiffies, deadline))
		msleep(1);
	return KTAP_EXPECT_MSG(sst_gp_flipped(ssp), "the grace period never flipped");
}

/* Poll cookie (at most SST_GP_MS); true once it is complete. */
bool sst_wait_cookie(struct srcu_struct *ssp, unsigned long cookie)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(SST_GP_MS);

	while (!poll_state_synchronize_srcu(ssp, cookie) && time_before(jiffies, deadline))
		msleep(1);
	return poll_state_synchronize_srcu(ssp, cookie);
}

/* --- readers hold up grace periods ----------------------------------------------------------- */

/*
 * A reader that sleeps SST_READER_MS inside its critical section: the
 * synchronize_srcu() started meanwhile returns only after the reader has
 * left, so at least SST_READER_MS after the reader entered (msleep()
 * sleeps at least that long).
 */
static void srcu_sync_waits_for_sleeping_reader(void)
{
	struct srcu_struct *ssp = sst_new_domain();
	struct sst_reader *r;
	struct sst_async *a;
	u64 waited;

	if (!ssp || !(r = sst_reader_start(ssp, SST_READER_MS, false)))
		return;
	a = sst_async_start(ssp, SST_SYNC, &r->leaving);
	if (!a || !KTAP_EXPECT_MSG(sst_async_wait(a, SST_GP_MS), "synchronize_srcu() stuck"))
		return;
	waited = a->t_end - r->t_lock;
	KTAP_EXPECT_MSG(a->flag_at_end == 1, "synchronize_srcu() returned with the reader inside");
	KTAP_EXPECT_MSG(waited >= SST_READER_MS * NSEC_PER_MSEC,
			"synchronize_srcu() returned %llu us after a %u ms reader entered",
			(unsigned long long)(waited / 1000), SST_READER_MS);
	ktap_diag("synchronize_srcu() with a %u ms sleeping reader took %llu us", SST_READER_MS,
		  (unsigned long long)((a->t_end - a->t_start) / 1000));
	kfree(a);
	if (sst_reader_finish(r))
		sst_free_domain(ssp);
}

/*
 * Reader A holds the grace period after its flip; reader B enters then,
 * on the other index. Releasing A must let synchronize_srcu() return
 * while B is still inside.
 */
static void srcu_reader_after_flip_not_waited(void)
{
	struct srcu_struct *ssp = sst_new_domain();
	struct sst_reader *ra, *rb;
	struct sst_async *a;

	if (!ssp || !(ra = sst_reader_start(ssp, 0, true)))
		return;
	a = sst_async_start(ssp, SST_SYNC, NULL);
	if (!a || !sst_wait_flipped(ssp) || !(rb = sst_reader_start(ssp, 0, true)))
		return;
	KTAP_EXPECT_MSG(rb->idx != ra->idx, "both readers on index %d", ra->idx);
	if (!sst_reader_finish(ra))
		return;
	if (!KTAP_EXPECT_MSG(sst_async_wait(a, SST_GP_MS),
			     "synchronize_srcu() waited for a reader that started after the flip"))
		return;
	KTAP_EXPECT_MSG(!READ_ONCE(rb->leaving), "the later reader had left already");
	kfree(a);
	if (sst_reader_finish(rb))
		sst_free_domain(ssp);
}

/*
 * Nested readers on both indices, left in entry order: the grace period
 * that started between them waits for the outer one only; the next one
 * waits for the inner one too.
 */
static void srcu_nested_two_indices(void)
{
	struct srcu_struct *ssp = sst_new_domain();
	unsigned long c1, c2;
	int outer, inner;

	if (!ssp)
		return;
	outer = srcu_read_lock(ssp);
	c1 = start_poll_synchronize_srcu(ssp);
	if (!sst_wait_flipped(ssp)) {
		srcu_read_unlock(ssp, outer);
		return;
	}
	inner = srcu_read_lock(ssp);
	KTAP_EXPECT_MSG(inner != outer, "nested reader got the same index %d after a flip", inner);
	msleep(SST_SETTLE_MS);
	KTAP_EXPECT_MSG(!poll_state_synchronize_srcu(ssp, c1),
			"grace period ended with the outer reader inside");
	srcu_read_unlock(ssp, outer);
	KTAP_EXPECT_MSG(sst_wait_cookie(ssp, c1),
			"grace period held up by a reader on the new index");
	c2 = start_poll_synchronize_srcu(ssp);
	msleep(SST_SETTLE_MS);
	KTAP_EXPECT_MSG(!poll_state_synchronize_srcu(ssp, c2),
			"second grace period ended with the inner reader inside");
	srcu_read_unlock(ssp, inner);
	if (KTAP_EXPECT_MSG(sst_wait_cookie(ssp, c2), "second grace period never ended"))
		sst_free_domain(ssp);
}

static const struct ktap_case srcu_cases[] = {
	KTAP_CASE(srcu_sync_waits_for_sleeping_reader),
	KTAP_CASE(srcu_reader_after_flip_not_waited),
	KTAP_CASE(srcu_nested_two_indices),
	KTAP_CASE(srcu_callbacks_once),
	KTAP_CASE(srcu_barrier_waits),
	KTAP_CASE(srcu_polling),
	KTAP_CASE(srcu_cleanup_busy_refused),
	KTAP_CASE(srcu_exp_holdoff_effect),
	KTAP_CASE(srcu_exp_wait_in_caller),
};
KTAP_SUITE(srcu, srcu_cases, &srcu_selftest);
