/*
 * KTAP suite "rcu_lazy": lazy callbacks (CONFIG_RCU_LAZY,
 * kernel/rcu/tree_nocb_lazy.c) on the first online offloaded CPU, run at
 * boot with rcutree.selftest=1 when rcutree.enable_rcu_lazy is on (the
 * NOCB boot of tests/boot/36-rcu-nocb.sh, with a short
 * rcutree.jiffies_lazy_flush); skipped otherwise.
 *  - lazy_held_until_timeout: a call_rcu() on an otherwise quiet CPU is
 *    not invoked at half the timeout, and is invoked after it (skipped
 *    when the timeout is over 3 s, as by default: a boot has no 10 s);
 *  - lazy_flushed_by_hurry: a call_rcu() then a call_rcu_hurry() on that
 *    CPU: both invoked promptly (well within the timeout), in order;
 *  - lazy_flushed_by_barrier: rcu_barrier() after a call_rcu() returns
 *    only once the lazy callback has been invoked, well within the timeout;
 *  - lazy_sync_not_delayed: synchronize_rcu() on that CPU, a lazy callback
 *    held there, returns well within the timeout;
 *  - lazy_flushed_on_memory_pressure: rcu_lazy_flush_all() gets a held
 *    callback invoked within half the timeout;
 *  - lazy_flushed_by_shrinker: so does shrink_all(), what a failed
 *    alloc_pages() calls (mm/shrinker.c): RCU's lazy shrinker.
 * Someone else's call_rcu_hurry() on that CPU during the first case
 * flushes its callback early: the case sees it in the flush counters and
 * tries again (three times at most, then skips). Waits are bounded.
 */
#include "common.h"
#include "../tree.h"	/* a Tree-only suite (test/Kbuild): it reads rcu_data */
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/cpumask.h>
#include <time/time.h>
#include <time/delay.h>
#include <mm/shrinker.h>

extern bool rcu_selftest;

#define RLZ_MAX_TIMEOUT_MS	3000	/* longer: the timeout case skips (a boot's time is short) */
#define RLZ_SLACK_MS	5000	/* a grace period after the flush, on a loaded TCG host */

struct rlz_cb {
	struct rcu_head rh;
	unsigned long when;	/* jiffies at invocation, 0 before */
	int seq;		/* invocation order across the suite */
};

/* Static, one set per case: a callback that never runs keeps its own. */
static struct rlz_cb rlz_timeout, rlz_hurry_a, rlz_hurry_b, rlz_barrier, rlz_sync, rlz_memory;
static struct rlz_cb rlz_shrink;
static atomic_t rlz_seq;

static void rlz_cb_fn(struct rcu_head *rhp)
{
	struct rlz_cb *c = container_of(rhp, struct rlz_cb, rh);

	c->seq = atomic_inc_return(&rlz_seq);
	smp_store_release(&c->when, jiffies ? jiffies : 1);	/* pairs with rlz_invoked() */
}

static bool rlz_invoked(struct rlz_cb *c)
{
	return smp_load_acquire(&c->when);	/* pairs with rlz_cb_fn()'s release */
}

/* Queue a lazily and, if b, b with call_rcu_hurry() right after, from the CPU under test. */
struct rlz_q {
	struct rlz_cb *a, *b;
	bool sync;	/* then synchronize_rcu() from that CPU */
};

static int rlz_queue(void *arg)
{
	struct rlz_q *q = arg;

	q->a->when = 0;
	call_rcu(&q->a->rh, rlz_cb_fn);
	if (q->b) {
		q->b->when = 0;
		call_rcu_hurry(&q->b->rh, rlz_cb_fn);
	}
	if (q->sync)
		synchronize_rcu();
	return 0;
}

static int rlz_cpu = -1;

/* rlz_queue(q) on the CPU under test, bounded; false (reported) if it did not return. */
static bool rlz_queue_on_cpu(struct rlz_q *q, u64 *ns)
{
	if (ktest_call_timeout("rcu_lazy/%u", rlz_cpu, rlz_queue, q, RST_GP_MS, NULL, ns))
		return true;
	KTAP_EXPECT_MSG(false, "call_rcu()%s on CPU %d did not return",
			q->sync ? " then synchronize_rcu()" : "", rlz_cpu);
	return false;
}

static bool rlz_setup(void)
{
	unsigned int cpu;

	if (!rcu_lazy_enabled()) {
		ktap_skip("rcutree.enable_rcu_lazy is off");
		return false;
	}
	for_each_online_cpu(cpu) {
		if (rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu))) {
			rlz_cpu = cpu;
			return true;
		}
	}
	ktap_skip("no online offloaded CPU (rcu_nocbs=)");
	return false;
}

static unsigned int rlz_ms(unsigned long j)
{
	return (unsigned int)jiffies_to_msecs(j);
}

static unsigned int rlz_flush_ms(void)
{
	return rlz_ms(rcu_lazy_flush_jiffies());
}

/* A case's start: the CPU under test chosen, the timeout read, q queued there. */
static bool rlz_start(struct rlz_q *q, unsigned int *flush_ms, u64 *ns)
{
	if (!rlz_setup())
		return false;
	*flush_ms = rlz_flush_ms();
	return rlz_queue_on_cpu(q, ns);
}

/* Flushes of rdp's held callbacks for any reason but the timeout. */
static unsigned long rlz_other_flushes(struct rcu_data *rdp)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < RCU_LAZY_NR_WHY; i++)
		if (i != RCU_LAZY_TIMEOUT)
			n += READ_ONCE(rdp->n_lazy_flushes[i]);
	return n;
}

/* Poll c every 5 ms for at most ms. */
static bool rlz_wait(struct rlz_cb *c, unsigned int ms)
{
	unsigned int t;

	for (t = 0; t < ms && !rlz_invoked(c); t += 5)
		msleep(5);
	return rlz_invoked(c);
}

static void lazy_held_until_timeout(void)
{
	struct rlz_q q = { .a = &rlz_timeout };
	struct rcu_data *rdp;
	unsigned long t0, first, other0, tmo0;
	unsigned int flush_ms, try;

	if (!rlz_setup())
		return;
	rdp = per_cpu_ptr(&rcu_data, rlz_cpu);
	flush_ms = rlz_flush_ms();
	if (flush_ms > RLZ_MAX_TIMEOUT_MS) {
		ktap_skip("rcutree.jiffies_lazy_flush above 3 s: boot with a shorter one");
		return;
	}
	for (try = 0; try < 3; try++) {
		/*
		 * Nothing held from before. The deadline is the first held
		 * callback's: that may be another's queued since (a helper
		 * kthread's exit frees its task_struct with call_rcu()), so the
		 * bound below is from ->lazy_first, read once ours is queued.
		 */
		if (!rst_barrier())
			return;
		other0 = rlz_other_flushes(rdp);
		tmo0 = READ_ONCE(rdp->n_lazy_flushes[RCU_LAZY_TIMEOUT]);
		t0 = jiffies;
		if (!rlz_queue_on_cpu(&q, NULL))
			return;
		first = READ_ONCE(rdp->lazy_first);
		msleep(flush_ms / 2);
		if (rlz_other_flushes(rdp) != other0) {
			ktap_diag("CPU %d: a non-lazy callback flushed ours early; again", rlz_cpu);
			if (!rlz_wait(&rlz_timeout, flush_ms + RLZ_SLACK_MS))
				return (void)KTAP_EXPECT_MSG(false, "flushed callback never invoked");
			continue;
		}
		KTAP_EXPECT_MSG(!rlz_invoked(&rlz_timeout),
				"lazy callback on CPU %d invoked after %u ms, before the %u ms timeout",
				rlz_cpu, rlz_ms(rlz_timeout.when - t0), flush_ms);
		if (!rlz_wait(&rlz_timeout, flush_ms + RLZ_SLACK_MS)) {
			KTAP_EXPECT_MSG(false, "lazy callback not invoked %u ms after the timeout",
					RLZ_SLACK_MS);
			return;
		}
		ktap_diag("lazy callback on CPU %d invoked after %u ms (rcutree.jiffies_lazy_flush: %u ms), timeout flushes %lu",
			  rlz_cpu, rlz_ms(rlz_timeout.when - t0), flush_ms,
			  READ_ONCE(rdp->n_lazy_flushes[RCU_LAZY_TIMEOUT]) - tmo0);
		if (rlz_other_flushes(rdp) == other0) {
			KTAP_EXPECT(time_after_eq(rlz_timeout.when, first + rcu_lazy_flush_jiffies()));
			KTAP_EXPECT(time_after_eq(first + HZ / 10, t0));	/* first: ours, or near it */
			KTAP_EXPECT(READ_ONCE(rdp->n_lazy_flushes[RCU_LAZY_TIMEOUT]) > tmo0);
		}
		return;
	}
	ktap_skip("CPU under test never quiet for a whole timeout");
}

static void lazy_flushed_by_hurry(void)
{
	struct rlz_q q = { .a = &rlz_hurry_a, .b = &rlz_hurry_b };
	unsigned int flush_ms;
	unsigned long t0;

	t0 = jiffies;
	if (!rlz_start(&q, &flush_ms, NULL))
		return;
	if (!rlz_wait(&rlz_hurry_b, RST_GP_MS)) {
		KTAP_EXPECT_MSG(false, "call_rcu_hurry() callback not invoked in %u ms", RST_GP_MS);
		return;
	}
	ktap_diag("call_rcu() then call_rcu_hurry() on CPU %d: hurried one invoked after %u ms, lazy one %s",
		  rlz_cpu, rlz_ms(rlz_hurry_b.when - t0),
		  rlz_invoked(&rlz_hurry_a) ? "before it" : "not yet");
	KTAP_EXPECT_MSG(rlz_invoked(&rlz_hurry_a) && rlz_hurry_a.seq < rlz_hurry_b.seq,
			"lazy callback not flushed ahead of call_rcu_hurry()'s");
	KTAP_EXPECT_MSG(rlz_ms(rlz_hurry_b.when - t0) < flush_ms / 2,
			"call_rcu_hurry() took %u ms (timeout %u ms)",
			rlz_ms(rlz_hurry_b.when - t0), flush_ms);
	rlz_wait(&rlz_hurry_a, flush_ms + RLZ_SLACK_MS);	/* gone before its record is reused */
}

static void lazy_flushed_by_barrier(void)
{
	struct rlz_q q = { .a = &rlz_barrier };
	unsigned int flush_ms, ms;
	unsigned long t0;

	if (!rlz_start(&q, &flush_ms, NULL))
		return;
	t0 = jiffies;
	if (!rst_barrier())
		return;
	ms = rlz_ms(jiffies - t0);
	ktap_diag("rcu_barrier() after a lazy call_rcu() on CPU %d: %u ms, the callback %s",
		  rlz_cpu, ms, rlz_invoked(&rlz_barrier) ? "invoked" : "NOT invoked");
	KTAP_EXPECT_MSG(rlz_invoked(&rlz_barrier), "rcu_barrier() returned before a lazy callback");
	KTAP_EXPECT_MSG(ms < flush_ms / 2, "rcu_barrier() took %u ms (timeout %u ms)", ms, flush_ms);
	rlz_wait(&rlz_barrier, flush_ms + RLZ_SLACK_MS);	/* gone before the suite ends */
}

static void lazy_sync_not_delayed(void)
{
	struct rlz_q q = { .a = &rlz_sync, .sync = true };
	unsigned int flush_ms, ms;
	u64 ns = 0;

	if (!rlz_start(&q, &flush_ms, &ns))
		return;
	ms = (unsigned int)(ns / 1000000);
	ktap_diag("call_rcu() then synchronize_rcu() on CPU %d: %u ms (timeout %u ms)",
		  rlz_cpu, ms, flush_ms);
	KTAP_EXPECT_MSG(ms < flush_ms / 2, "synchronize_rcu() delayed by a lazy callback");
	rst_barrier();
	KTAP_EXPECT(rlz_invoked(&rlz_sync));
}

static void lazy_flushed_on_memory_pressure(void)
{
	struct rlz_q q = { .a = &rlz_memory };
	unsigned int flush_ms;
	unsigned long held, t0;

	if (!rlz_start(&q, &flush_ms, NULL))
		return;
	t0 = jiffies;
	held = rcu_lazy_flush_all();
	rlz_wait(&rlz_memory, flush_ms / 2);
	ktap_diag("rcu_lazy_flush_all() after a lazy call_rcu() on CPU %d: %lu held, the callback %s after %u ms",
		  rlz_cpu, held, rlz_invoked(&rlz_memory) ? "invoked" : "NOT invoked",
		  rlz_ms(jiffies - t0));
	KTAP_EXPECT(held >= 1);
	KTAP_EXPECT_MSG(rlz_invoked(&rlz_memory), "not invoked within half the timeout");
	rlz_wait(&rlz_memory, flush_ms + RLZ_SLACK_MS);	/* gone before the suite ends */
}

static void lazy_flushed_by_shrinker(void)
{
	struct rlz_q q = { .a = &rlz_shrink };
	unsigned int flush_ms;
	unsigned long t0;

	if (!rlz_start(&q, &flush_ms, NULL))
		return;
	t0 = jiffies;
	shrink_all();	/* as a failed alloc_pages() does */
	rlz_wait(&rlz_shrink, flush_ms / 2);
	ktap_diag("shrink_all() after a lazy call_rcu() on CPU %d: the callback %s after %u ms",
		  rlz_cpu, rlz_invoked(&rlz_shrink) ? "invoked" : "NOT invoked",
		  rlz_ms(jiffies - t0));
	KTAP_EXPECT_MSG(rlz_invoked(&rlz_shrink), "not invoked within half the timeout");
	rlz_wait(&rlz_shrink, flush_ms + RLZ_SLACK_MS);	/* gone before the suite ends */
}

static const struct ktap_case rcu_lazy_cases[] = {
	KTAP_CASE(lazy_held_until_timeout),
	KTAP_CASE(lazy_flushed_by_hurry),
	KTAP_CASE(lazy_flushed_by_barrier),
	KTAP_CASE(lazy_sync_not_delayed),
	KTAP_CASE(lazy_flushed_on_memory_pressure),
	KTAP_CASE(lazy_flushed_by_shrinker),
};
KTAP_SUITE(rcu_lazy, rcu_lazy_cases, &rcu_selftest);
