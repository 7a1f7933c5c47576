/*
 * Cases of the KTAP suite "rcu" (listed in api.c) for Linux 6.1's
 * additions to the polling API: full-state cookies (struct
 * rcu_gp_oldstate), the expedited polled and conditional waits, and the
 * always-complete cookie. Tree and Tiny RCU; every wait is bounded
 * (rst_call(), rst_poll_until()), so a broken grace period fails a case
 * instead of hanging the boot.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "common.h"
#include <kernel/ktap.h>

/* Blocking calls, for rst_call()'s helper kthread. */
static int rps_do_sync(void *unused) { synchronize_rcu(); return 0; }
static int rps_do_sync_exp(void *unused) { synchronize_rcu_expedited(); return 0; }

/* Poll a full-state cookie every step_ms for at most ms: true once it is complete. */
static bool rps_poll_full_until(struct rcu_gp_oldstate *rgosp, unsigned int ms, unsigned int step_ms)
{
	u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;

	while (!poll_state_synchronize_rcu_full(rgosp)) {
		if (local_clock() > end)
			return false;
		msleep(step_ms);
	}
	return true;
}

/*
 * Take a full-state cookie (start_poll if start, else get_state) inside a
 * reader: it must not be complete before that reader ends, whatever the
 * other CPUs do meanwhile.
 */
static void rps_full_in_reader(struct rcu_gp_oldstate *rgosp, bool start, const char *what)
{
	bool early;

	rcu_read_lock();
	if (start)
		start_poll_synchronize_rcu_full(rgosp);
	else
		get_state_synchronize_rcu_full(rgosp);
	udelay(100);	/* give the other CPUs' grace-period machinery a chance to err */
	early = poll_state_synchronize_rcu_full(rgosp);
	rcu_read_unlock();
	KTAP_EXPECT_MSG(!early, "%s cookie complete inside the reader that took it", what);
}

/*
 * A full-state cookie taken in a reader, then the wait fn (what): complete
 * once it has returned. False if the wait did not return in time.
 */
static bool rps_full_before(int (*fn)(void *), const char *what)
{
	struct rcu_gp_oldstate b;

	rps_full_in_reader(&b, false, "get_state_synchronize_rcu_full()");
	if (!rst_call(fn, NULL, RST_GP_MS, what, NULL))
		return false;
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu_full(&b),
			"full cookie from before %s not complete after it (%u CPUs)", what,
			num_online_cpus());
	return true;
}

/*
 * Full-state cookies:
 *  - one taken inside a reader is not complete before the reader ends;
 *  - start_poll_synchronize_rcu_full() alone gets its grace period done;
 *  - one taken (in a reader) before synchronize_rcu() or
 *    synchronize_rcu_expedited() is complete once that returns (on one
 *    CPU too, where the wait is over on entry);
 *  - cond_synchronize_rcu_full() on a fresh cookie leaves it complete.
 */
void rcu_poll_full_api(void)
{
	struct rcu_gp_oldstate a, b;

	rps_full_in_reader(&a, true, "start_poll_synchronize_rcu_full()");
	KTAP_EXPECT_MSG(rps_poll_full_until(&a, RST_GP_MS, 1),
			"start_poll_synchronize_rcu_full() cookie not complete after %u ms (gp_seq %#lx)",
			RST_GP_MS, rcu_get_gp_seq());

	if (!rps_full_before(rps_do_sync, "synchronize_rcu()") ||
	    !rps_full_before(rps_do_sync_exp, "synchronize_rcu_expedited()"))
		return;

	get_state_synchronize_rcu_full(&b);
	if (!rst_call(rst_do_cond, &(struct rst_cond){ .cond_full = cond_synchronize_rcu_full,
						       .rgosp = &b },
		      RST_GP_MS, "cond_synchronize_rcu_full(fresh)", NULL))
		return;
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu_full(&b),
			"full cookie not complete after cond_synchronize_rcu_full() on it");
}

/* Tree RCU's expedited sequence, 0 under Tiny (which has none). */
static unsigned long rps_exp_seq(void)
{
	return rcu_exp_batches_completed();
}

/*
 * A cookie may complete (by a normal grace period) while the rcu_exp_poll
 * kthread is still inside the expedited grace period run for it: wait
 * until the kthread is idle, so that grace period does not end during a
 * later case that counts expedited grace periods (rst_cond_at_once()).
 */
static void rps_exp_poll_settle(void)
{
	u64 end = local_clock() + RST_GP_MS * NSEC_PER_MSEC;

	while (!rcu_exp_poll_idle() && local_clock() < end)
		schedule_timeout_uninterruptible(1);
	KTAP_EXPECT_MSG(rcu_exp_poll_idle(),
			"the rcu_exp_poll kthread still busy %u ms after its cookie completed",
			RST_GP_MS);
}

/*
 * start_poll_synchronize_rcu_expedited(): its cookie, taken inside a
 * reader, is not complete there, and completes with nothing else done by
 * the caller. With Tree RCU on more than one CPU (and without
 * rcupdate.rcu_normal) it must ask for an expedited grace period: the
 * reader is held until the rcu_exp_poll kthread's grace period has
 * started, and that grace period must then complete (rcu_exp_gp_completed()
 * moves). Which kind completes the cookie is a race: a normal grace period
 * that began while the reader was held (exiting kthreads queue callbacks)
 * may end before the expedited one, which at 255 CPUs has 254 IPIs to
 * wait for. On one CPU, or under Tiny RCU, completion alone is checked. Then
 * cond_synchronize_rcu_expedited() on a fresh cookie leaves it complete,
 * and so does start_poll_synchronize_rcu_expedited_full() for its own;
 * the case ends once the rcu_exp_poll kthread is idle again.
 */
void rcu_poll_exp_api(void)
{
	bool exp_checked = IS_ENABLED(CONFIG_TREE_RCU) && !rcu_gp_is_normal() &&
			   num_online_cpus() > 1;
	unsigned long s, gps, seq;
	struct rcu_gp_oldstate f;
	bool early, started = false;
	u64 end;

	gps = rcu_exp_gp_completed();
	seq = rps_exp_seq();
	rcu_read_lock();
	s = start_poll_synchronize_rcu_expedited();
	end = local_clock() + NSEC_PER_SEC;
	while (exp_checked && !(started = rps_exp_seq() != seq) && local_clock() < end)
		cpu_relax();
	early = poll_state_synchronize_rcu(s);
	rcu_read_unlock();
	KTAP_EXPECT_MSG(!early, "expedited cookie %#lx complete inside the reader that took it", s);
	if (!KTAP_EXPECT_MSG(rst_poll_until(s, RST_GP_MS, 1) == 0,
			     "start_poll_synchronize_rcu_expedited() cookie %#lx not complete after %u ms",
			     s, RST_GP_MS))
		return;
	ktap_diag("expedited cookie %#lx complete: %lu expedited grace periods, sequence %#lx -> %#lx",
		  s, rcu_exp_gp_completed() - gps, seq, rps_exp_seq());
	if (exp_checked) {
		KTAP_EXPECT_MSG(started, "no expedited grace period started within 1 s of the request");
		end = local_clock() + RST_GP_MS * NSEC_PER_MSEC;
		while (rcu_exp_gp_completed() == gps && local_clock() < end)
			schedule_timeout_uninterruptible(1);
		KTAP_EXPECT_MSG(rcu_exp_gp_completed() != gps,
				"the expedited grace period asked for did not complete within %u ms",
				RST_GP_MS);
	}

	s = get_state_synchronize_rcu();
	if (!rst_call(rst_do_cond, &(struct rst_cond){ .cond = cond_synchronize_rcu_expedited,
						       .oldstate = s },
		      RST_GP_MS, "cond_synchronize_rcu_expedited(fresh)", NULL))
		return;
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(s),
			"cookie %#lx not complete after cond_synchronize_rcu_expedited() on it", s);

	rcu_read_lock();
	start_poll_synchronize_rcu_expedited_full(&f);
	early = poll_state_synchronize_rcu_full(&f);
	rcu_read_unlock();
	KTAP_EXPECT_MSG(!early, "expedited full cookie complete inside the reader that took it");
	KTAP_EXPECT_MSG(rps_poll_full_until(&f, RST_GP_MS, 1),
			"start_poll_synchronize_rcu_expedited_full() cookie not complete after %u ms",
			RST_GP_MS);
	rps_exp_poll_settle();
}

/*
 * get_completed_synchronize_rcu() and its full form: complete from the
 * start, so every conditional wait returns at once; same_state*() tells
 * two cookies of the same grace period from others.
 */
void rcu_poll_completed(void)
{
	unsigned long c = get_completed_synchronize_rcu(), g;
	struct rcu_gp_oldstate cf, g1, g2;

	get_completed_synchronize_rcu_full(&cf);
	KTAP_EXPECT_MSG(c == RCU_GET_STATE_COMPLETED, "completed cookie %#lx", c);
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(c), "the completed cookie does not poll complete");
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu_full(&cf),
			"the completed full cookie does not poll complete");
	rst_cond_at_once(&(struct rst_cond){ .cond = cond_synchronize_rcu_expedited, .oldstate = c },
			 "cond_synchronize_rcu_expedited(completed)");
	rst_cond_at_once(&(struct rst_cond){ .cond_full = cond_synchronize_rcu_full, .rgosp = &cf },
			 "cond_synchronize_rcu_full(completed)");
	rst_cond_at_once(&(struct rst_cond){ .cond_full = cond_synchronize_rcu_expedited_full,
					     .rgosp = &cf },
			 "cond_synchronize_rcu_expedited_full(completed)");

	/* Two snapshots in one reader name the same grace periods; the completed one differs. */
	rcu_read_lock();
	g = get_state_synchronize_rcu();
	get_state_synchronize_rcu_full(&g1);
	get_state_synchronize_rcu_full(&g2);
	rcu_read_unlock();
	KTAP_EXPECT_MSG(same_state_synchronize_rcu(g, g) && !same_state_synchronize_rcu(g, c),
			"same_state_synchronize_rcu() on %#lx and %#lx", g, c);
	/* Another CPU could start a grace period between the two: then they may differ. */
	if (num_online_cpus() == 1)
		KTAP_EXPECT_MSG(same_state_synchronize_rcu_full(&g1, &g2),
				"two full snapshots in one reader on one CPU differ");
	KTAP_EXPECT_MSG(!same_state_synchronize_rcu_full(&g1, &cf),
			"a fresh full cookie is the same as the completed one");
}
