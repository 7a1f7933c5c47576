/*
 * KTAP suite "rcu_gp": Tree RCU grace-period bookkeeping corner cases, run
 * at boot with rcutree.selftest=1 (CONFIG_RCU_SELFTEST), after the "rcu"
 * and "rcu_exp" suites. Each case reproduces a bug of issue 12 in a way
 * that does not depend on how the host schedules the vCPUs:
 *
 *  - gp_poll_exp_phase: a polling cookie taken while an expedited grace
 *    period holds the polled phase open completes on an idle system;
 *  - gp_rcuc_idle_credit: a CPU credited as idle, then woken to queue a
 *    callback, does not wake its rcuc kthread on every tick;
 *  - gp_seq_wrap_idle: a CPU whose gp_seq went stale by a quarter of the
 *    counter space is flagged (gpwrap) and resynchronises when it wakes;
 *  - gp_full_cookie_init: a full-state cookie taken while a grace period
 *    has started in rcu_state.gp_seq but not yet in the root rcu_node is
 *    not complete (rcutorture's Cookie check 5 caught it);
 *  - gp_sched_qs_delay: when a CPU looping in the kernel is asked for a
 *    quiescent state (rcutree.jiffies_till_sched_qs; gp_sched_qs.c);
 *  - gp_sync_kthread_local: synchronize_rcu() from a CPU running nothing
 *    else brings the grace-period kthread to that CPU (gp_sync_local.c).
 *  - gp_batch_backlog: a CPU holding thousands of callbacks (under
 *    qhimark) invokes more than blimit per pass (rcutree.rcu_divisor;
 *    gp_batch.c).
 *  - gp_wake_count: the grace-period kthread's wakeup count, kept by every
 *    CPU, is not a data race under KCSAN (gp_wake_count.c).
 *  - gp_bulk_number: a callback call_rcu() leaves to bulk numbering
 *    waits for a grace period that started after it, and gets one
 *    (gp_bulk.c).
 *
 * Waits are bounded (a broken grace period fails the case, never hangs it).
 */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <time/delay.h>
#include <kernel/printk.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <kernel/string.h>

/* rcutree.jiffies_till_sched_qs's effect (gp_sched_qs.c). */
void gp_sched_qs_delay(void);
/* synchronize_rcu()'s WF_SYNC wake-up of the grace-period kthread (gp_sync_local.c). */
void gp_sync_kthread_local(void);
/* rcutree.rcu_divisor's backlog share of a batch (gp_batch.c). */
void gp_batch_backlog(void);
/* The grace-period kthread's wake-up counter under KCSAN (gp_wake_count.c). */
void gp_wake_count(void);
/* call_rcu()'s bulk numbering: never early, never forgotten (gp_bulk.c). */
void gp_bulk_number(void);

/* api.c's rcutree.selftest gates this suite too. */
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

/*
 * The two-CPU cases: skip on one CPU; else return the GP kthread's CPU and,
 * in *other, the first online CPU that is not it (a CPU kept busy there
 * would keep the kthread from running the grace periods the case needs).
 */
static bool gst_two_cpus(unsigned int *gp_cpu, unsigned int *other)
{
	unsigned int cpu;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return false;
	}
	*gp_cpu = task_cpu(READ_ONCE(rcu_state.gp_kthread));
	*other = nr_cpu_ids;
	for_each_online_cpu(cpu) {
		if (cpu != *gp_cpu) {
			*other = cpu;
			break;
		}
	}
	return true;
}

/*
 * Once no normal grace period runs, start fn in a kthread on cpu and wait
 * for it to complete done. False (reported) if either could not be had.
 */
static bool gst_run_driver(int (*fn)(void *), unsigned int cpu, struct completion *done)
{
	struct task_struct *p;

	if (!KTAP_EXPECT_MSG(gst_wait_until(!rcu_gp_in_progress(), GST_GP_MS, 1),
			     "a normal grace period still ran after %u ms", GST_GP_MS))
		return false;
	p = kthread_create_on_cpu(fn, NULL, cpu, "rcu_gp_st/%u");
	if (!KTAP_EXPECT_MSG(p != NULL, "cannot create the driver on CPU %u", cpu))
		return false;
	wake_up_process(p);
	wait_for_completion(done);
	return true;
}

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

/* --- rcuc wake-ups after an idle credit ---------------------------------------------------- */

/*
 * Issue 12, bug 2. CPU t notices grace period G (core_needs_qs, cpu_no_qs),
 * goes idle before passing a quiescent state, and the FQS scan credits it
 * (its bit leaves the leaf's qsmask). An interrupt then wakes it to queue a
 * call_rcu(): it keeps ticking for the callback, and each tick from idle is
 * a quiescent state that rcu_qs() tries to report. Before the fix the report
 * found the bit gone and returned with core_needs_qs still set and cpu_no_qs
 * clear, so rcu_pending() woke rcuc/t on every tick until a new grace period.
 *
 * The driver kthread holds G open with a reader on its own CPU (not the GP
 * kthread's). The order "noticed, then credited" is a race a test cannot
 * win on demand, so the interrupt that queues the callback also puts back
 * what noticing G before the credit leaves (under the leaf's lock, only if
 * t is credited and up to date with G); then rcuc/t's runs are counted over
 * GST_WINDOW_J jiffies of ticking.
 */
#define GST_WINDOW_J	60

static struct gst_rcuc {
	unsigned int t;			/* the target CPU */
	struct rcu_head head;
	int cb_ran;
	bool faked;			/* the handler set up the post-credit state */
	bool credited;			/* t's bit left the qsmask before the interrupt */
	unsigned long runs, ticks;	/* rcuc/t's rcu_core() runs over this many jiffies */
	const char *err;
	struct completion done;
} gst_rc;

static void gst_rcuc_cb(struct rcu_head *head)
{
	WRITE_ONCE(gst_rc.cb_ran, 1);
}

/* On CPU t, woken from idle by this interrupt. */
static void gst_rcuc_irq(void *unused)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;
	bool needwake;

	call_rcu(&gst_rc.head, gst_rcuc_cb);
	raw_spin_lock_irqsave_rcu_node(rnp, flags);
	/*
	 * call_rcu() catches t up with the grace period only if its trylock
	 * of the leaf succeeded (else it leaves that to rcuc/t); with 255
	 * CPUs on one host thread the leaf is often busy. Catch up here as
	 * call_rcu() would have, so the post-credit state is the same.
	 */
	needwake = __note_gp_changes(rnp, rdp);
	if (rcu_seq_state(rnp->gp_seq) && rdp->gp_seq == rnp->gp_seq &&
	    !(rnp->qsmask & rdp->grpmask)) {
		rdp->core_needs_qs = true;
		rdp->cpu_no_qs = true;
		gst_rc.faked = true;
	}
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
	if (needwake)
		rcu_gp_kthread_wake();
}

/*
 * Has t's leaf started the grace period, and t's bit left its qsmask?
 * The leaf's own gp_seq, not rcu_state.gp_seq: rcu_gp_init() starts the
 * latter first and sets each leaf's qsmask, then its gp_seq, later; in
 * between, the previous grace period's empty qsmask read as "credited"
 * (the handler then found t's bit set, or the leaf not yet started, and
 * the case failed with "post-credit state not set up", slowly enough
 * under KCSAN). The acquire pairs with the order of those two stores
 * (WRITE_ONCE()s under the leaf's lock, qsmask first: x86 keeps stores in
 * order); the handler checks the state again under the lock anyway.
 */
static bool gst_rcuc_credited(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long s = smp_load_acquire(&rnp->gp_seq);

	return rcu_seq_state(s) && s == READ_ONCE(rcu_state.gp_seq) &&
	       !(READ_ONCE(rnp->qsmask) & rdp->grpmask);
}

static int gst_rcuc_driver(void *unused)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, gst_rc.t);
	u64 end = local_clock() + (u64)GST_GP_MS * NSEC_PER_MSEC;
	unsigned long j0, runs0;

	preempt_disable();
	rcu_read_lock();		/* holds G open until the count is over */
	(void)start_poll_synchronize_rcu();
	while (!gst_rcuc_credited(rdp) && local_clock() < end)
		cpu_relax();
	gst_rc.credited = gst_rcuc_credited(rdp);
	if (!gst_rc.credited) {
		gst_rc.err = "CPU t was not credited in time";
		goto out;
	}
	smp_call_function_single(gst_rc.t, gst_rcuc_irq, NULL, 1);
	runs0 = READ_ONCE(rdp->n_rcu_core);
	j0 = jiffies;
	end = local_clock() + (u64)GST_GP_MS * NSEC_PER_MSEC;
	while (time_before(jiffies, j0 + GST_WINDOW_J) && local_clock() < end)
		cpu_relax();
	gst_rc.runs = READ_ONCE(rdp->n_rcu_core) - runs0;
	gst_rc.ticks = jiffies - j0;
out:
	rcu_read_unlock();
	preempt_enable();
	complete(&gst_rc.done);
	return 0;
}

static void gp_rcuc_idle_credit(void)
{
	unsigned int gp_cpu, c, cpu;

	/* The reader must not sit on the GP kthread's CPU (it would never start G). */
	if (!gst_two_cpus(&gp_cpu, &c))
		return;
	memset(&gst_rc, 0, sizeof(gst_rc));
	gst_rc.t = nr_cpu_ids;
	for_each_online_cpu(cpu) {
		/* An offloaded CPU's call_rcu() does not catch it up with the GP: not a target. */
		if (cpu == c || rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu)))
			continue;
		if (gst_rc.t == nr_cpu_ids || (gst_rc.t == gp_cpu && cpu != gp_cpu))
			gst_rc.t = cpu;
	}
	if (gst_rc.t == nr_cpu_ids) {
		ktap_skip("no CPU but the reader's is left that is not offloaded");
		return;
	}
	init_completion(&gst_rc.done);
	if (!gst_run_driver(gst_rcuc_driver, c, &gst_rc.done))
		return;
	if (!KTAP_EXPECT_MSG(!gst_rc.err, "%s", gst_rc.err))
		return;
	ktap_diag("reader on CPU %u, target CPU %u: rcuc/%u ran %lu times in %lu jiffies%s",
		  c, gst_rc.t, gst_rc.t, gst_rc.runs, gst_rc.ticks,
		  gst_rc.faked ? "" : " (post-credit state not set up)");
	KTAP_EXPECT_MSG(gst_rc.faked, "CPU %u was not credited and up to date with the GP", gst_rc.t);
	/* A few runs are normal (the callback, the GP's end); one per tick is the bug. */
	KTAP_EXPECT_MSG(gst_rc.runs <= gst_rc.ticks / 4 + 4,
			"rcuc/%u woken %lu times in %lu ticks", gst_rc.t, gst_rc.runs, gst_rc.ticks);
	KTAP_EXPECT_MSG(gst_wait_until(READ_ONCE(gst_rc.cb_ran), GST_GP_MS, 1),
			"the callback queued on CPU %u did not run in %u ms", gst_rc.t, GST_GP_MS);
}

/* --- a CPU idle across a quarter of the counter space ------------------------------------ */

/*
 * Issue 12, bug 3. rcu_state.gp_seq starts 300 grace periods short of the
 * wrap; a CPU idle for 2^62 grace periods cannot be waited for, so the
 * test ages CPU t's rdp->gp_seq by hand (under its leaf's lock, on t):
 *  1. a quarter of the counter space plus GST_OVF_GPS grace periods behind,
 *     while t idles: the next grace period's FQS scan must flag it (gpwrap);
 *  2. half the space and GST_OVF_GPS behind (on the other side of
 *     both the zero wrap and the half point: the wrap-tolerant comparisons
 *     take it for a future number), then t wakes busy: a kthread on t, its
 *     interrupts off, starts grace period G and waits for G's first FQS
 *     scan (t is in G's mask and not idle: not credited), then spins with
 *     interrupts on. t must notice G as new and report its tick's quiescent
 *     state: G ends while t still spins. Without the flag t took G for old
 *     news and never reported: G waited for the spin.
 */
#define GST_OVF_GPS	100UL
#define GST_QUARTER	(ULONG_MAX / 4 + 1)	/* 2^62 on 64 bits: a multiple of 4 */

static struct gst_ovf {
	unsigned int t;
	int phase;			/* 1: G started, spinning; 2: stop; 3: stopped; 4: caught up */
	bool g_ok;			/* G started and had its first scan in time */
	bool kthread_here;		/* the GP kthread was woken on t: try again */
	unsigned long cookie;		/* G's */
	unsigned long gp_seq_seen;	/* t's rdp->gp_seq right after ageing */
} gst_ovf;

/* On t, interrupts off: put its gp_seq lag behind its leaf's, as if it had idled that long. */
static void gst_ovf_age(unsigned long lag, bool forget_qs)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp = rdp->mynode;

	raw_spin_lock_rcu_node(rnp);
	rdp->gp_seq = rnp->gp_seq - lag;
	if (forget_qs) {	/* its last grace period long over, nothing pending */
		rdp->cpu_no_qs = false;
		rdp->core_needs_qs = false;
	}
	gst_ovf.gp_seq_seen = rdp->gp_seq;
	raw_spin_unlock_rcu_node(rnp);
}

static void gst_ovf_age_irq(void *unused)
{
	gst_ovf_age(GST_QUARTER + 4 * GST_OVF_GPS, true);
}

static int gst_ovf_spinner(void *unused)
{
	u64 end = local_clock() + NSEC_PER_SEC / 2;	/* interrupts off: keep it short */
	unsigned long started, scans;

	local_irq_disable();
	gst_ovf_age(2 * GST_QUARTER + 4 * GST_OVF_GPS, false);	/* idle past half the space ... */
	started = READ_ONCE(rcu_state.n_gp_started);
	scans = READ_ONCE(rcu_state.n_force_qs);
	gst_ovf.cookie = start_poll_synchronize_rcu();
	/*
	 * The kthread goes to an idle CPU when its own is busy; if none was
	 * idle it waits here, behind us: let it run, and the driver retries.
	 */
	if (task_cpu(READ_ONCE(rcu_state.gp_kthread)) == raw_smp_processor_id()) {
		gst_ovf.kthread_here = true;
		WRITE_ONCE(gst_ovf.phase, 3);
		local_irq_enable();
		return 0;
	}
	while (!(READ_ONCE(rcu_state.n_gp_started) != started &&
		 READ_ONCE(rcu_state.n_force_qs) != scans) && local_clock() < end)
		cpu_relax();
	gst_ovf.g_ok = local_clock() < end;
	if (!gst_ovf.g_ok) {		/* a starved host vCPU: no test, try again */
		WRITE_ONCE(gst_ovf.phase, 3);
		local_irq_enable();
		return 0;
	}
	WRITE_ONCE(gst_ovf.phase, 1);
	local_irq_enable();			/* ... now awake, ticking, busy */
	end = local_clock() + 3ULL * NSEC_PER_SEC;
	/*
	 * Busy outside any reader: the tick reports that (CONFIG_PREEMPT_COUNT);
	 * without the count only cond_resched() can, as a Linux PREEMPT_NONE
	 * kernel loop must call it.
	 */
	while (READ_ONCE(gst_ovf.phase) < 2 && local_clock() < end) {
		cpu_relax();
		if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
			cond_resched();
	}
	WRITE_ONCE(gst_ovf.phase, 3);
	return 0;
}

/* t's view is at most one grace period behind its leaf's, and not flagged. */
static bool gst_ovf_in_sync(struct rcu_data *rdp)
{
	return !READ_ONCE(rdp->gpwrap) &&
	       !ULONG_CMP_LT(READ_ONCE(rdp->gp_seq) + 4, READ_ONCE(rdp->mynode->gp_seq));
}

/* On t, interrupts on: busy until a tick's rcu_pending() has brought t up to date (1 s at most). */
static int gst_ovf_catch_up(void *arg)
{
	struct rcu_data *rdp = arg;
	u64 end = local_clock() + NSEC_PER_SEC;

	while (!gst_ovf_in_sync(rdp) && local_clock() < end) {
		cpu_relax();
		if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
			cond_resched();
	}
	WRITE_ONCE(gst_ovf.phase, 4);
	return 0;
}

static int gst_ovf_driver(void *arg)
{
	struct completion *done = arg;
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, gst_ovf.t);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long cookie;
	struct task_struct *p;
	bool flagged, ok;

	if (!KTAP_EXPECT_MSG(gst_wait_until(!rcu_gp_in_progress(), GST_GP_MS, 1),
			     "a normal grace period still ran after %u ms", GST_GP_MS))
		goto out;
	/* 1. t idle, a quarter and GST_OVF_GPS grace periods stale: one grace period. */
	smp_call_function_single(gst_ovf.t, gst_ovf_age_irq, NULL, 1);
	ktap_diag("CPU %u: gp_seq aged to %#lx, leaf at %#lx", gst_ovf.t, gst_ovf.gp_seq_seen,
		  READ_ONCE(rnp->gp_seq));
	cookie = start_poll_synchronize_rcu();
	KTAP_EXPECT_MSG(gst_wait_until(poll_state_synchronize_rcu(cookie), GST_GP_MS, 1),
			"a grace period with CPU %u idle did not end in %u ms", gst_ovf.t, GST_GP_MS);
	flagged = READ_ONCE(rdp->gpwrap);
	ktap_diag("CPU %u after the idle grace period: gp_seq %#lx, leaf %#lx, gpwrap %d",
		  gst_ovf.t, READ_ONCE(rdp->gp_seq), READ_ONCE(rnp->gp_seq), flagged);
	/*
	 * Resynchronised: t's number is within a grace period of its leaf's,
	 * no longer the aged one a quarter away. Not equal: a t that caught up
	 * before the scan (an interrupt, its tick) idles through the grace
	 * period, is credited, and notes its end only when it next runs, which
	 * KCSAN's delays or a starved host vCPU can put after this check.
	 */
	KTAP_EXPECT_MSG(flagged || gst_ovf_in_sync(rdp),
			"CPU %u's gp_seq %#lx (leaf %#lx) neither flagged nor resynchronised",
			gst_ovf.t, rdp->gp_seq, READ_ONCE(rnp->gp_seq));
	/* 2. Another quarter; t wakes busy inside grace period G. */
	for (int try = 0; ; try++) {
		WRITE_ONCE(gst_ovf.phase, 0);
		gst_ovf.kthread_here = false;
		gst_ovf.g_ok = false;
		p = kthread_create_on_cpu(gst_ovf_spinner, NULL, gst_ovf.t, "rcu_gp_spin/%u");
		if (!KTAP_EXPECT_MSG(p != NULL, "cannot create the spinner on CPU %u", gst_ovf.t))
			goto out;
		wake_up_process(p);
		if (!KTAP_EXPECT_MSG(gst_wait_until(READ_ONCE(gst_ovf.phase) >= 1, GST_GP_MS, 1),
				     "the spinner on CPU %u did not start", gst_ovf.t))
			goto out;
		if (!gst_ovf.kthread_here && gst_ovf.g_ok)
			break;
		ktap_diag("try %d: %s", try, gst_ovf.kthread_here ?
			  "the GP kthread was woken on the spinner's CPU" :
			  "grace period G did not start and scan within 500 ms");
		synchronize_rcu();	/* G ends, the kthread free to run again */
		if (try == 2) {
			ktap_skip("grace period G could not be started under the spinner");
			goto out;
		}
	}
	cookie = gst_ovf.cookie;
	ok = gst_wait_until(poll_state_synchronize_rcu(cookie), GST_GP_MS, 1);
	ktap_diag("CPU %u: %s after the idle grace period; G %s while it spun (gp_seq %#lx, leaf %#lx)",
		  gst_ovf.t, flagged ? "gpwrap set" : "gpwrap not set (woken and resynchronised before the scan)",
		  ok ? "ended" : "did not end",
		  rdp->gp_seq, READ_ONCE(rnp->gp_seq));
	KTAP_EXPECT_MSG(ok && READ_ONCE(gst_ovf.phase) == 1,
			"grace period G waited for CPU %u's spin (it missed G's start)", gst_ovf.t);
	WRITE_ONCE(gst_ovf.phase, 2);
	KTAP_EXPECT_MSG(gst_wait_until(READ_ONCE(gst_ovf.phase) == 3, 4000, 1),
			"the spinner on CPU %u did not stop", gst_ovf.t);
	KTAP_EXPECT_MSG(gst_wait_until(poll_state_synchronize_rcu(cookie), GST_GP_MS, 1),
			"grace period G did not end after the spin");
	synchronize_rcu();
	/*
	 * An idle t notes no grace period (Linux's too): it may have slept
	 * through the last ones since the spinner exited. Resynchronised
	 * means it catches up as soon as it runs: keep it busy until its
	 * tick has (gst_ovf_catch_up()), then judge.
	 */
	WRITE_ONCE(gst_ovf.phase, 0);
	p = kthread_create_on_cpu(gst_ovf_catch_up, rdp, gst_ovf.t, "rcu_gp_sync/%u");
	if (!KTAP_EXPECT_MSG(p != NULL, "cannot create the catch-up thread on CPU %u", gst_ovf.t))
		goto out;
	wake_up_process(p);
	KTAP_EXPECT_MSG(gst_wait_until(READ_ONCE(gst_ovf.phase) == 4, 4000, 1),
			"the catch-up thread on CPU %u did not finish", gst_ovf.t);
	KTAP_EXPECT_MSG(gst_ovf_in_sync(rdp),
			"CPU %u did not resynchronise: gp_seq %#lx, leaf %#lx, gpwrap %d",
			gst_ovf.t, rdp->gp_seq, READ_ONCE(rdp->mynode->gp_seq), READ_ONCE(rdp->gpwrap));
out:
	complete(done);
	return 0;
}

static void gp_seq_wrap_idle(void)
{
	unsigned int gp_cpu, t;
	struct completion done;
	struct task_struct *p;

	/* The spinner must not sit on the GP kthread's CPU; the driver does (it sleeps). */
	if (!gst_two_cpus(&gp_cpu, &t))
		return;
	memset(&gst_ovf, 0, sizeof(gst_ovf));
	gst_ovf.t = t;
	init_completion(&done);
	p = kthread_create_on_cpu(gst_ovf_driver, &done, gp_cpu, "rcu_gp_st/%u");
	if (!KTAP_EXPECT_MSG(p != NULL, "cannot create the driver on CPU %u", gp_cpu))
		return;
	wake_up_process(p);
	wait_for_completion(&done);
}

/* --- a full-state cookie at a grace period's start -------------------------------------- */

/*
 * rcu_gp_init() starts rcu_state.gp_seq, then folds CPU hotplug into the
 * masks under rcu_state.ofl_lock, and only then sets the root rcu_node's
 * ->gp_seq. A full-state cookie takes its normal word from the former and
 * is checked against the latter, which then trails it by the start step:
 * the cookie is a grace period and a start step ahead of the root. Holding
 * ofl_lock stops the GP kthread inside that window; a cookie taken there
 * and polled at once must not be complete (no grace period of either kind
 * can end meanwhile: expedited ones fold hotplug under ofl_lock too).
 * Before rcu_seq_done_exact() allowed for the lag it read as complete.
 */
static struct gst_full {
	bool started;			/* the GP kthread reached the window in time */
	bool early;			/* the cookie polled complete at once */
	unsigned long state_seq, root_seq, norm;
	struct completion done;
} gst_full;

static int gst_full_driver(void *unused)
{
	u64 end = local_clock() + NSEC_PER_SEC / 2;	/* interrupts off: keep it short */
	struct rcu_gp_oldstate c;
	unsigned long flags;

	raw_spin_lock_irqsave(&rcu_state.ofl_lock, flags);
	(void)start_poll_synchronize_rcu();
	while (!rcu_seq_state(READ_ONCE(rcu_state.gp_seq)) && local_clock() < end)
		cpu_relax();
	gst_full.started = rcu_seq_state(READ_ONCE(rcu_state.gp_seq));
	if (gst_full.started) {
		get_state_synchronize_rcu_full(&c);
		gst_full.early = poll_state_synchronize_rcu_full(&c);
		gst_full.state_seq = READ_ONCE(rcu_state.gp_seq);
		gst_full.root_seq = READ_ONCE(rcu_get_root()->gp_seq);
		gst_full.norm = c.rgos_norm;
	}
	raw_spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
	complete(&gst_full.done);
	return 0;
}

static void gp_full_cookie_init(void)
{
	unsigned int gp_cpu, c;

	/* The driver must not sit on the GP kthread's CPU: it keeps interrupts off. */
	if (!gst_two_cpus(&gp_cpu, &c))
		return;
	for (int try = 0; ; try++) {
		memset(&gst_full, 0, sizeof(gst_full));
		init_completion(&gst_full.done);
		if (!gst_run_driver(gst_full_driver, c, &gst_full.done))
			return;
		if (gst_full.started)
			break;
		ktap_diag("try %d: the grace period did not start within 500 ms", try);
		if (try == 2) {
			ktap_skip("the GP kthread could not start a grace period beside the driver");
			return;
		}
	}
	ktap_diag("rcu_state.gp_seq %#lx, root ->gp_seq %#lx, cookie's normal word %#lx",
		  gst_full.state_seq, gst_full.root_seq, gst_full.norm);
	KTAP_EXPECT_MSG(!gst_full.early,
			"full cookie %#lx complete at once (rcu_state.gp_seq %#lx, root %#lx)",
			gst_full.norm, gst_full.state_seq, gst_full.root_seq);
	KTAP_EXPECT_MSG(gst_wait_until(!rcu_gp_in_progress(), GST_GP_MS, 1),
			"the grace period did not end in %u ms", GST_GP_MS);
}

static const struct ktap_case rcu_gp_cases[] = {
	KTAP_CASE(gp_poll_exp_phase),
	KTAP_CASE(gp_rcuc_idle_credit),
	KTAP_CASE(gp_seq_wrap_idle),
	KTAP_CASE(gp_full_cookie_init),
	KTAP_CASE(gp_sched_qs_delay),
	KTAP_CASE(gp_sync_kthread_local),
	KTAP_CASE(gp_batch_backlog),
	KTAP_CASE(gp_wake_count),
	KTAP_CASE(gp_bulk_number),
};
KTAP_SUITE(rcu_gp, rcu_gp_cases, &rcu_selftest);
