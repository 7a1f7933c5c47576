/*
 * KTAP suite "rcu_gp": Tree RCU grace-period bookkeeping corner cases, run
 * at boot with rcutree.selftest=1 (CONFIG_RCU_SELFTEST), after the "rcu"
 * and "rcu_exp" suites. Each case reproduces a bug of issue 12 in a way
 * that does not depend on how the host schedules the vCPUs:
 *
 *  - gp_poll_exp_phase: a polling cookie taken while an expedited grace
 *    period holds the polled phase open completes on an idle system.
 *
 * Waits are bounded (a broken grace period fails the case, never hangs it).
 */
#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/delay.h>
#include <kernel/printk.h>
#include <sched/kthread.h>
#include <sched/sched.h>

/* selftest.c's rcutree.selftest gates this suite too. */
extern bool rcu_selftest;

#define GST_GP_MS	2000	/* a grace period on an idle guest takes milliseconds */

/* Wait (sleeping step_ms at a time) until cond holds, at most ms: true if it did. */
#define gst_wait_until(cond, ms, step_ms) ({					\
	u64 __end = local_clock() + (u64)(ms) * NSEC_PER_MSEC;			\
	bool __ok;								\
	while (!(__ok = !!(cond)) && local_clock() < __end)			\
		msleep(step_ms);						\
	__ok;									\
})

/* --- polled cookies and expedited grace periods ---------------------------------------- */

/*
 * The race of issue 12, bug 1, made deterministic. An expedited grace
 * period opens a polled phase (rcu_exp_poll_start(), under exp_mutex as
 * rcu_exp_gp() runs it, so no real expedited GP interleaves); a task then
 * takes a cookie, which needs the phase after the open one, and requests
 * the next normal grace period; that one joins the open phase. Whichever of
 * the two ends first closes the phase, the other leaves it: the cookie
 * needs one more phase, and on an idle system nothing else asks for one.
 * end_exp_first picks the order: the expedited GP ends while the normal
 * one runs (it may already be over: either order must work), or after it.
 */
static void gst_poll_exp_phase(bool end_exp_first)
{
	unsigned long snap, cookie, started;
	bool done;

	/* Start from no normal grace period in progress (an idle guest). */
	if (!KTAP_EXPECT_MSG(gst_wait_until(!rcu_gp_in_progress(), GST_GP_MS, 1),
			     "a normal grace period still ran after %u ms", GST_GP_MS))
		return;
	mutex_lock(&rcu_state.exp_mutex);
	started = READ_ONCE(rcu_state.n_gp_started);
	snap = rcu_exp_poll_start();			/* (a) the expedited GP opens P+1 */
	cookie = start_poll_synchronize_rcu();		/* (b) cookie P+8, normal GP N requested */
	/* (c) N starts and joins the open phase. */
	KTAP_EXPECT_MSG(gst_wait_until(READ_ONCE(rcu_state.n_gp_started) != started, GST_GP_MS, 1),
			"the requested normal grace period did not start in %u ms", GST_GP_MS);
	if (!end_exp_first)				/* (d) N ends first ... */
		KTAP_EXPECT_MSG(gst_wait_until(!rcu_gp_in_progress(), GST_GP_MS, 1),
				"the normal grace period did not end in %u ms", GST_GP_MS);
	rcu_exp_poll_end(snap);				/* ... or the expedited one does */
	mutex_unlock(&rcu_state.exp_mutex);
	/* (e) The cookie must complete without anyone else asking for a grace period. */
	done = gst_wait_until(poll_state_synchronize_rcu(cookie), GST_GP_MS, 1);
	KTAP_EXPECT_MSG(done, "cookie %#lx not done after %u ms: gp_seq_polled %#lx, gp_seq %#lx, %s",
			cookie, GST_GP_MS, READ_ONCE(rcu_state.gp_seq_polled),
			rcu_get_gp_seq(), rcu_gp_in_progress() ? "a GP in progress" : "no GP in progress");
	if (!done)	/* leave a sane state for the cases that follow */
		synchronize_rcu();
}

static void gp_poll_exp_phase(void)
{
	gst_poll_exp_phase(false);
	gst_poll_exp_phase(true);
}

static const struct ktap_case rcu_gp_cases[] = {
	KTAP_CASE(gp_poll_exp_phase),
};
KTAP_SUITE(rcu_gp, rcu_gp_cases, &rcu_selftest);
