/*
 * KTAP suite "rcu_nohz": RCU_FAST_NO_HZ measured, run at boot with
 * rcutree.nohz_selftest=1 (CONFIG_RCU_NOHZ_SELFTEST: RCU_SELFTEST on a
 * RCU_FAST_NO_HZ kernel), on 2 or more CPUs.
 *
 * The last online CPU is kept idle except for the callbacks the cases
 * give it (the test thread and the grace-period kthread are moved to CPU
 * 0 meanwhile), and its interrupts (irq_stat: timer, reschedule and
 * function-call) are counted while it holds them, once with the acceleration switched off
 * (rcu_nohz_set_active(false): the tick is kept, as in a kernel without
 * the option) and once on, in the same boot:
 *  - nohz_ordinary_wakeups: a callback that queues itself again, so the
 *    CPU always holds one ordinary callback, for a second each way: the
 *    wakeups per second must drop to under half, the chain must keep
 *    going, and its call_rcu()-to-invocation latency is the cost printed;
 *  - nohz_lazy_wakeups: a lazy callback (rns_call_rcu_lazy()) every 10 ms from a cross call: the
 *    CPU's wakeups other than those cross calls must fall to a quarter
 *    and to at most HZ/50 a second (off, every grace period's end kicks
 *    rcuc/N, or the tick runs), and all are freed after rcu_barrier();
 *  - nohz_ordinary_drip: the same with call_rcu(), for the figures (no
 *    gain expected at that rate) and no callback lost;
 *  - nohz_ordinary_after_lazy: a CPU holding lazy callbacks must still
 *    hold them half a second later (asleep, their grace period long
 *    over, its wakeup 3 * cpu jiffies before a whole second: the
 *    round_jiffies() skew); then it gets an ordinary one, which must be invoked within
 *    the ordinary delay's reach (not the lazy one's), the lazy ones
 *    before it;
 *  - nohz_sync_latency: synchronize_rcu() from a task on the measured CPU,
 *    off and on: its latency is the cost (figures), bounded by the
 *    ordinary delay's reach.
 * Waits are bounded: a broken grace period fails a case, never hangs it.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <mm/slab.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <sched/kthread.h>

static bool rcu_nohz_selftest;
KPARAM_BOOL("rcutree.nohz_selftest", rcu_nohz_selftest,
	    "run the RCU_FAST_NO_HZ self-tests (KTAP suite \"rcu_nohz\") at boot");

#define RNS_WINDOW_MS	1000	/* each measurement */
#define RNS_WAIT_MS	10000	/* a barrier or a chain's end, on a sane kernel far less */
#define RNS_DRIP_MS	10	/* a drip's interval */
#define RNS_NDRIP	(RNS_WINDOW_MS / RNS_DRIP_MS + 10)	/* objects for one window of drip */
#define RNS_NLAZY	64	/* lazy callbacks (rns_call_rcu_lazy()) held in nohz_ordinary_after_lazy */
/*
 * A lazy callback as RCU_FAST_NO_HZ knows it: call_rcu() with the offset
 * of the rcu_head for function, which rcu_do_invoke() frees. Tree RCU's
 * kfree_rcu() no longer queues such callbacks (it batches, kvfree.c), so
 * the suite queues them itself.
 */
#define rns_call_rcu_lazy(o)							\
	call_rcu(&(o)->rh, (rcu_callback_t)(unsigned long)offsetof(struct rns_obj, rh))
#define RNS_NSYNC	20	/* synchronize_rcu() calls timed per figure */
#define RNS_LAZY_HOLD_MS	500	/* lazy callbacks must still be held after this long */
#define RNS_ORD_MS	300	/* an ordinary callback on an idle CPU: a GP plus 2 delays */
/*
 * Timer interrupts per second allowed while holding only lazy callbacks:
 * the jiffies-duty CPU's once-a-second wakeup and a stray timer, against
 * HZ with the tick kept.
 */
#define RNS_LAZY_MAX_RATE	(HZ / 50)

struct rns_obj {
	struct rcu_head rh;
	long pad[3];
};

/* The CPU measured, the controller's saved affinity, the GP kthread's. */
static unsigned int rns_cpu;
static struct cpumask rns_saved, rns_gp_saved;

/*
 * The measured CPU's wakeups: its timer, reschedule and function-call
 * interrupts (an idle CPU wakes for nothing else here).
 */
static unsigned int rns_loc(void)
{
	struct irq_stat *st = per_cpu_ptr(&irq_stat, rns_cpu);

	return READ_ONCE(st->local_timer) + READ_ONCE(st->resched) + READ_ONCE(st->call_function);
}

static struct rcu_data *rns_rdp(void)
{
	return per_cpu_ptr(&rcu_data, rns_cpu);
}

static int rns_barrier_fn(void *unused)
{
	rcu_barrier();
	return 0;
}

/* rcu_barrier(), bounded; true if it returned. */
static bool rns_barrier(void)
{
	return KTAP_EXPECT_MSG(ktest_call_timeout("rns_barrier", -1, rns_barrier_fn, NULL,
						  RNS_WAIT_MS, NULL, NULL),
			       "rcu_barrier() not done after %u ms", RNS_WAIT_MS);
}

/*
 * Keep the measured CPU to its own callbacks: the controller and the
 * grace-period kthread run on CPU 0 until rns_end(). False (skipped) on
 * one CPU.
 */
static bool rns_begin(void)
{
	struct cpumask m;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return false;
	}
	rns_cpu = ktest_last_online_cpu();
	ktest_pin_current(0, &rns_saved);
	cpumask_copy(&rns_gp_saved, &rcu_state.gp_kthread->cpus_mask);
	cpumask_clear(&m);
	cpumask_set_cpu(0, &m);
	set_cpus_allowed_ptr(rcu_state.gp_kthread, &m);
	return true;
}

static void rns_end(void)
{
	rcu_nohz_set_active(true);
	set_cpus_allowed_ptr(rcu_state.gp_kthread, &rns_gp_saved);
	ktest_unpin_current(&rns_saved);
}

/* Switch the acceleration, drain every callback, let the measured CPU go idle. */
static bool rns_settle(bool on)
{
	rcu_nohz_set_active(on);
	if (!rns_barrier())
		return false;
	msleep(50);
	return true;
}

/* --- ordinary callbacks: a chain that keeps one queued ---------------------------------- */

struct rns_chain {
	struct rcu_head rh;
	bool stop;
	unsigned long n;		/* invocations */
	u64 posted_ns;			/* when the queued one was posted */
	u64 lat_ns;			/* sum of call_rcu()-to-invocation latencies */
	struct completion done;
};

static struct rns_chain rns_chain;

/* In rcuc/N on the measured CPU: count, then queue itself again there. */
static void rns_chain_cb(struct rcu_head *rh)
{
	struct rns_chain *c = container_of(rh, struct rns_chain, rh);
	u64 now = local_clock();

	WRITE_ONCE(c->lat_ns, c->lat_ns + (now - c->posted_ns));
	WRITE_ONCE(c->n, c->n + 1);
	if (READ_ONCE(c->stop)) {
		complete(&c->done);
		return;
	}
	c->posted_ns = now;
	call_rcu(&c->rh, rns_chain_cb);
}

/* Cross call on the measured CPU: the chain's first link. */
static void rns_chain_start(void *arg)
{
	struct rns_chain *c = arg;

	c->posted_ns = local_clock();
	call_rcu(&c->rh, rns_chain_cb);
}

struct rns_figures {
	unsigned int loc;		/* timer interrupts of the measured CPU */
	u64 ns;				/* over this long */
	unsigned long n;		/* callbacks invoked meanwhile */
	u64 lat_ns;			/* their latencies, summed */
	unsigned long rcu_wakeups;	/* RCU's own timer wakeups (n_nohz_timer_wakeups) */
	unsigned int timer, resched;	/* of loc: timer and reschedule interrupts */
};

static unsigned int rns_timer(void)
{
	return READ_ONCE(per_cpu(irq_stat, rns_cpu).local_timer);
}

static unsigned int rns_resched(void)
{
	return READ_ONCE(per_cpu(irq_stat, rns_cpu).resched);
}

static unsigned long rns_per_sec(unsigned long count, u64 ns)
{
	return ns ? (unsigned long)((u64)count * NSEC_PER_SEC / ns) : 0;
}

/* One second of the chain on the measured CPU, with the acceleration on or off. */
static bool rns_chain_measure(bool on, struct rns_figures *f)
{
	struct rns_chain *c = &rns_chain;
	unsigned long n0, w0;
	unsigned int loc0;
	u64 t0, lat0;

	if (!rns_settle(on))
		return false;
	c->stop = false;
	c->n = 0;
	c->lat_ns = 0;
	init_completion(&c->done);
	smp_call_function_single(rns_cpu, rns_chain_start, c, 1);
	msleep(20);		/* the chain gets going */
	n0 = READ_ONCE(c->n);
	lat0 = READ_ONCE(c->lat_ns);
	w0 = READ_ONCE(rns_rdp()->n_nohz_timer_wakeups);
	loc0 = rns_loc();
	t0 = local_clock();
	msleep(RNS_WINDOW_MS);
	f->loc = rns_loc() - loc0;
	f->ns = local_clock() - t0;
	f->n = READ_ONCE(c->n) - n0;
	f->lat_ns = READ_ONCE(c->lat_ns) - lat0;
	f->rcu_wakeups = READ_ONCE(rns_rdp()->n_nohz_timer_wakeups) - w0;
	WRITE_ONCE(c->stop, true);
	return KTAP_EXPECT_MSG(ktest_wait(&c->done, RNS_WAIT_MS), "the callback chain never ended");
}

static void nohz_ordinary_wakeups(void)
{
	struct rns_figures off = { 0 }, on = { 0 };
	unsigned long off_rate, on_rate;

	if (!rns_begin())
		return;
	if (!rns_chain_measure(false, &off) || !rns_chain_measure(true, &on))
		goto out;
	off_rate = rns_per_sec(off.loc, off.ns);
	on_rate = rns_per_sec(on.loc, on.ns);
	ktap_diag("CPU %u holding ordinary callbacks: off %lu wakeups/s, %lu cbs, latency mean %llu us; on %lu wakeups/s (%lu RCU timer), %lu cbs, latency mean %llu us",
		  rns_cpu, off_rate, off.n, off.n ? off.lat_ns / off.n / NSEC_PER_USEC : 0ULL,
		  on_rate, on.rcu_wakeups, on.n, on.n ? on.lat_ns / on.n / NSEC_PER_USEC : 0ULL);
	/* Off, the tick is kept: wakeups near HZ show the measurement sees them. */
	KTAP_EXPECT_MSG(off_rate >= HZ / 4, "off: only %lu wakeups/s with the tick kept", off_rate);
	KTAP_EXPECT_MSG(on_rate * 2 < off_rate, "on: %lu wakeups/s, off %lu", on_rate, off_rate);
	KTAP_EXPECT_MSG(on.rcu_wakeups > 0, "on: RCU's timer never woke CPU %u", rns_cpu);
	KTAP_EXPECT_MSG(on.n >= 10 && off.n >= 10, "chain too slow: %lu on, %lu off", on.n, off.n);
out:
	rns_end();
}

/* --- a drip of callbacks: one every RNS_DRIP_MS, from an interrupt ------------------ */

/*
 * Callbacks on an idle CPU arrive from interrupts. Here a cross call
 * queues one every RNS_DRIP_MS, a lazy callback or a counted
 * call_rcu() (ordinary), for RNS_WINDOW_MS. Those cross calls wake the
 * CPU with the option on or off; the wakeups that count are the others,
 * caused by RCU: the tick kept while callbacks are held, the grace
 * period's end kicking rcuc/N, RCU's own one-shot.
 */
static struct rns_obj *rns_objs[RNS_NDRIP];
static int rns_drip_next;		/* next object to queue (cross calls run one at a time) */
static unsigned long rns_drip_invoked;	/* ordinary drip callbacks invoked */

/* Cross call on the measured CPU: queue the next object's lazy callback. */
static void rns_drip_lazy(void *unused)
{
	struct rns_obj *o = rns_objs[rns_drip_next];

	rns_objs[rns_drip_next++] = NULL;
	rns_call_rcu_lazy(o);
}

static void rns_drip_cb(struct rcu_head *rh)
{
	WRITE_ONCE(rns_drip_invoked, rns_drip_invoked + 1);
}

/* Cross call on the measured CPU: call_rcu() on the next object. */
static void rns_drip_ordinary(void *unused)
{
	call_rcu(&rns_objs[rns_drip_next++]->rh, rns_drip_cb);
}

static bool rns_drip_alloc(void)
{
	for (int i = 0; i < RNS_NDRIP; i++) {
		rns_objs[i] = kmalloc(sizeof(struct rns_obj), GFP_KERNEL);
		if (!KTAP_EXPECT_MSG(rns_objs[i], "kmalloc failed"))
			return false;
	}
	rns_drip_next = 0;
	rns_drip_invoked = 0;
	return true;
}

/* The ordinary drip's objects, once rcu_barrier() says their callbacks ran. */
static void rns_drip_free(void)
{
	for (int i = 0; i < RNS_NDRIP; i++) {
		kfree(rns_objs[i]);
		rns_objs[i] = NULL;
	}
}

/*
 * One window of drip on the measured CPU. f->loc: its wakeups other than
 * the drip's own cross calls; f->n: callbacks queued. Then rcu_barrier():
 * every one must have been invoked.
 */
static bool rns_drip_measure(bool on, bool lazy, struct rns_figures *f)
{
	struct rcu_data *rdp = rns_rdp();
	unsigned long invoked0, w0;
	unsigned int loc0, timer0, resched0;
	u64 t0, end;
	bool ok;

	if (!rns_settle(on) || !rns_drip_alloc())
		return false;
	invoked0 = READ_ONCE(rdp->n_cbs_invoked);
	w0 = READ_ONCE(rdp->n_nohz_timer_wakeups);
	loc0 = rns_loc();
	timer0 = rns_timer();
	resched0 = rns_resched();
	t0 = local_clock();
	end = t0 + (u64)RNS_WINDOW_MS * NSEC_PER_MSEC;
	while (local_clock() < end && rns_drip_next < RNS_NDRIP) {
		smp_call_function_single(rns_cpu, lazy ? rns_drip_lazy : rns_drip_ordinary, NULL, 1);
		msleep(RNS_DRIP_MS);
	}
	f->ns = local_clock() - t0;
	f->n = rns_drip_next;
	f->loc = rns_loc() - loc0 - rns_drip_next;
	f->timer = rns_timer() - timer0;
	f->resched = rns_resched() - resched0;
	f->rcu_wakeups = READ_ONCE(rdp->n_nohz_timer_wakeups) - w0;
	if (!rns_barrier())
		return false;	/* objects leaked: their callbacks may still run */
	ok = KTAP_EXPECT_MSG(READ_ONCE(rdp->n_cbs_invoked) - invoked0 >= f->n,
			     "only %lu of %lu callbacks invoked after rcu_barrier()",
			     READ_ONCE(rdp->n_cbs_invoked) - invoked0, f->n);
	if (lazy)
		ok = ok && KTAP_EXPECT_MSG(READ_ONCE(rdp->n_lazy_cbs) == 0,
					   "%ld lazy callbacks left after rcu_barrier()",
					   READ_ONCE(rdp->n_lazy_cbs));
	else
		ok = ok && KTAP_EXPECT_MSG(rns_drip_invoked == f->n,
					   "%lu of %lu ordinary callbacks invoked",
					   rns_drip_invoked, f->n);
	rns_drip_free();	/* the ordinary drip's, and the objects never queued */
	return ok;
}

static void rns_drip_report(const char *what, const struct rns_figures *off,
			    const struct rns_figures *on)
{
	ktap_diag("CPU %u, one %s callback every %u ms: RCU-caused wakeups off %lu/s (timer %u, resched %u); on %lu/s (timer %u, resched %u; %lu RCU one-shots)",
		  rns_cpu, what, RNS_DRIP_MS, rns_per_sec(off->loc, off->ns), off->timer,
		  off->resched, rns_per_sec(on->loc, on->ns), on->timer, on->resched, on->rcu_wakeups);
}

/*
 * Lazy drip: on, the CPU waits for its lazy one-shot (seconds away) or
 * the drip's next interrupt, so RCU wakes it almost never; off, each
 * grace period's end (or the tick) does.
 */
static void nohz_lazy_wakeups(void)
{
	struct rns_figures off = { 0 }, on = { 0 };
	unsigned long off_rate, on_rate;

	if (!rns_begin())
		return;
	if (!rns_drip_measure(false, true, &off) || !rns_drip_measure(true, true, &on))
		goto out;
	rns_drip_report("lazy", &off, &on);
	off_rate = rns_per_sec(off.loc, off.ns);
	on_rate = rns_per_sec(on.loc, on.ns);
	KTAP_EXPECT_MSG(on_rate <= RNS_LAZY_MAX_RATE,
			"on: %lu RCU wakeups/s holding lazy callbacks (off: %lu)", on_rate, off_rate);
	KTAP_EXPECT_MSG(on_rate * 4 < off_rate, "on: %lu RCU wakeups/s, off %lu", on_rate, off_rate);
out:
	rns_end();
}

/*
 * Ordinary drip, for the figures: each callback needs a wakeup after its
 * grace period either way (the drip is slower than rcu_idle_gp_delay), so
 * no gain is expected; the case checks that none is lost.
 */
static void nohz_ordinary_drip(void)
{
	struct rns_figures off = { 0 }, on = { 0 };

	if (!rns_begin())
		return;
	if (rns_drip_measure(false, false, &off) && rns_drip_measure(true, false, &on))
		rns_drip_report("ordinary", &off, &on);
	rns_end();
}

/* --- an ordinary callback reaches a CPU asleep on lazy ones ------------------------------ */

/* Cross call on the measured CPU: lazy callbacks for the first RNS_NLAZY objects. */
static void rns_lazy_queue(void *unused)
{
	for (int i = 0; i < RNS_NLAZY; i++) {
		rns_call_rcu_lazy(rns_objs[i]);
		rns_objs[i] = NULL;
	}
}

static struct rcu_head rns_ord_rh;
static struct completion rns_ord_done;
static u64 rns_ord_ns;
static long rns_ord_lazy_left;

static void rns_ord_cb(struct rcu_head *rh)
{
	rns_ord_ns = local_clock();
	rns_ord_lazy_left = this_cpu_ptr(&rcu_data)->n_lazy_cbs;
	complete(&rns_ord_done);
}

static void rns_ord_queue(void *unused)
{
	call_rcu(&rns_ord_rh, rns_ord_cb);
}

/*
 * Asleep on lazy callbacks, the CPU asked to be woken 3 * cpu jiffies
 * before a whole second (round_jiffies()'s skew), so that lazy CPUs do
 * not all wake on one jiffy. Read without locks: the CPU rewrites the
 * same value after any interrupt.
 */
static void rns_check_lazy_skew(void)
{
	struct rcu_data *rdp = rns_rdp();
	unsigned long j = READ_ONCE(rdp->nohz_wake_j);
	unsigned long skew = ((unsigned long)rns_cpu * 3) % HZ;

	if (!READ_ONCE(rdp->nohz_wake_set) || rcu_nohz_lazy_gp_delay() < HZ) {
		ktap_diag("CPU %u not asleep on a whole-second lazy wakeup: skew not checked", rns_cpu);
		return;
	}
	ktap_diag("CPU %u asleep on lazy callbacks until jiffy %lu (%lu into its second)",
		  rns_cpu, j, j % HZ);
	KTAP_EXPECT_MSG((j + skew) % HZ == 0,
			"lazy wakeup at jiffy %lu: not %lu jiffies before a whole second", j, skew);
}

static void nohz_ordinary_after_lazy(void)
{
	u64 t0;

	if (!rns_begin())
		return;
	if (!rns_settle(true) || !rns_drip_alloc())
		goto out;
	smp_call_function_single(rns_cpu, rns_lazy_queue, NULL, 1);
	msleep(RNS_LAZY_HOLD_MS);	/* their grace period ends; the CPU sleeps on (lazy delay) */
	KTAP_EXPECT_MSG(READ_ONCE(rns_rdp()->n_lazy_cbs) > 0,
			"lazy callbacks already invoked: the CPU did not sleep on them");
	rns_check_lazy_skew();
	init_completion(&rns_ord_done);
	t0 = local_clock();
	smp_call_function_single(rns_cpu, rns_ord_queue, NULL, 1);
	if (!KTAP_EXPECT_MSG(ktest_wait(&rns_ord_done, RNS_WAIT_MS), "ordinary callback never invoked"))
		goto out;
	ktap_diag("ordinary callback after lazy ones invoked in %llu us",
		  (rns_ord_ns - t0) / NSEC_PER_USEC);
	KTAP_EXPECT_MSG(rns_ord_ns - t0 < (u64)RNS_ORD_MS * NSEC_PER_MSEC,
			"took %llu ms: the lazy sleep was kept", (rns_ord_ns - t0) / NSEC_PER_MSEC);
	KTAP_EXPECT_MSG(rns_ord_lazy_left == 0, "%ld lazy callbacks still queued before it",
			rns_ord_lazy_left);
	rns_barrier();
	rns_drip_free();	/* the objects left after the first RNS_NLAZY */
out:
	rns_end();
}

/* --- synchronize_rcu() from the measured CPU: the latency cost ------------------------- */

struct rns_sync {
	unsigned int n;			/* calls made */
	u64 sum_ns, max_ns;
	struct completion done;
};

/* Bound to the measured CPU: time RNS_NSYNC synchronize_rcu() calls, sleeping between them. */
static int rns_sync_fn(void *arg)
{
	struct rns_sync *r = arg;

	for (r->n = 0; r->n < RNS_NSYNC; r->n++) {
		u64 t0 = local_clock(), d;

		synchronize_rcu();
		d = local_clock() - t0;
		r->sum_ns += d;
		if (d > r->max_ns)
			r->max_ns = d;
		msleep(RNS_DRIP_MS);
	}
	complete(&r->done);
	ktest_wait_stop();
	return 0;
}

static struct rns_sync rns_sync[2];	/* off, on: static, a stuck thread may still write */

static bool rns_sync_measure(bool on, struct rns_sync *r)
{
	struct task_struct *t;
	bool ok;

	if (!rns_settle(on))
		return false;
	r->sum_ns = 0;
	r->max_ns = 0;
	init_completion(&r->done);
	t = ktest_kthread(rns_sync_fn, r, rns_cpu, "rns_sync/%u");
	if (!t)
		return false;
	wake_up_process(t);
	ok = KTAP_EXPECT_MSG(ktest_wait(&r->done, RNS_WAIT_MS), "synchronize_rcu() calls not done");
	ktest_stop_if(t, ok, RNS_WAIT_MS);
	return ok;
}

/*
 * A task that waits in synchronize_rcu() leaves its CPU idle holding the
 * wakeup callback: with the option the CPU sleeps on RCU's one-shot, so
 * the call returns up to 2 * rcu_idle_gp_delay - 1 jiffies later than
 * the grace period's end. The figures are the cost; the bound checks
 * that the ordinary delay, not the lazy one, applies.
 */
static void nohz_sync_latency(void)
{
	struct rns_sync *off = &rns_sync[0], *on = &rns_sync[1];

	if (!rns_begin())
		return;
	if (!rns_sync_measure(false, off) || !rns_sync_measure(true, on))
		goto out;
	ktap_diag("synchronize_rcu() on CPU %u: off mean %llu us max %llu us; on mean %llu us max %llu us (%u calls each)",
		  rns_cpu, off->sum_ns / RNS_NSYNC / NSEC_PER_USEC, off->max_ns / NSEC_PER_USEC,
		  on->sum_ns / RNS_NSYNC / NSEC_PER_USEC, on->max_ns / NSEC_PER_USEC, RNS_NSYNC);
	KTAP_EXPECT_MSG(on->max_ns < (u64)RNS_ORD_MS * NSEC_PER_MSEC,
			"on: a synchronize_rcu() took %llu ms", on->max_ns / NSEC_PER_MSEC);
out:
	rns_end();
}

static const struct ktap_case rcu_nohz_cases[] = {
	KTAP_CASE(nohz_ordinary_wakeups),
	KTAP_CASE(nohz_lazy_wakeups),
	KTAP_CASE(nohz_ordinary_drip),
	KTAP_CASE(nohz_ordinary_after_lazy),
	KTAP_CASE(nohz_sync_latency),
};
KTAP_SUITE(rcu_nohz, rcu_nohz_cases, &rcu_nohz_selftest);
