/*
 * Lazy callbacks (CONFIG_RCU_LAZY, Linux 6.2): most call_rcu() callbacks
 * only free memory, and nobody waits for them. On an offloaded CPU
 * (tree_nocb.c) such a callback is not given a grace period at once: it
 * is held in rdp->lazy_cbs, unnumbered, and rcuog is not woken. The held
 * callbacks move into ->cblist (and so towards a grace period) when:
 *  - rcutree.jiffies_lazy_flush jiffies (Linux's LAZY_FLUSH_JIFFIES, 10 s)
 *    have passed since the first of them: a per-CPU timer wakes rcuog;
 *  - they reach rcutree.qhimark (Linux's bypass limit);
 *  - a callback that is not lazy arrives (call_rcu_hurry(): someone waits
 *    for it), which takes them along ahead of it, keeping queue order;
 *  - rcu_barrier() entrains its callback (it must wait for them), or the
 *    CPU is de-offloaded (its own list knows nothing of laziness);
 *  - memory is short: a failed alloc_pages() runs the shrinkers
 *    (mm/shrinker.c), and ours (Linux's lazy_rcu_shrink_scan()) asks every
 *    CPU holding some to flush at rcuog's next pass; rcu_lazy_flush_all()
 *    flushes them at once from a caller that may take nocb_lock.
 * Linux holds them in its bypass list; ours has no bypass, so they have
 * a list of their own. rcutree.enable_rcu_lazy switches it at boot
 * (Linux 6.9's name; default on unless CONFIG_RCU_LAZY_DEFAULT_OFF). A
 * non-offloaded CPU's callbacks are never held: there RCU_FAST_NO_HZ's
 * rcutree.rcu_idle_lazy_gp_delay is what spares idle CPUs
 * (Documentation/RCU/lazy.md says which applies when).
 *
 * Locking: everything here is under rdp->nocb_lock, interrupts off, like
 * the rest of an offloaded list; the timer's own lock nests inside it
 * (the timer function takes only rcuog's ->nocb_gp_lock, not nocb_lock).
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <time/time.h>
#include <time/timer.h>
#include <kernel/init.h>
#include <mm/shrinker.h>

#define LAZY_FLUSH_JIFFIES	(10 * HZ)

static bool enable_rcu_lazy = !IS_ENABLED(CONFIG_RCU_LAZY_DEFAULT_OFF);
KPARAM_BOOL("rcutree.enable_rcu_lazy", enable_rcu_lazy,
	    "hold offloaded CPUs' call_rcu() callbacks lazily (CONFIG_RCU_LAZY)");
static int jiffies_lazy_flush = LAZY_FLUSH_JIFFIES;
KPARAM_CLAMP("rcutree.jiffies_lazy_flush", jiffies_lazy_flush, KPARAM_INT, 1, 60 * HZ,
	     "jiffies a lazy callback may be held before its grace period is asked for");

static const char *const rcu_lazy_why[RCU_LAZY_NR_WHY] = {
	[RCU_LAZY_TIMEOUT] = "timeout", [RCU_LAZY_SIZE] = "size", [RCU_LAZY_HURRY] = "hurry",
	[RCU_LAZY_BARRIER] = "barrier", [RCU_LAZY_MEMORY] = "memory", [RCU_LAZY_OTHER] = "other",
};

bool rcu_lazy_enabled(void)
{
	return enable_rcu_lazy;
}

unsigned long rcu_lazy_flush_jiffies(void)
{
	return jiffies_lazy_flush;
}

void call_rcu_hurry(struct rcu_head *head, rcu_callback_t func)
{
	__call_rcu_common(head, func, false, false);
}

/* The held callbacks are due: wake rcuog, whose pass moves them (rcu_lazy_gp_scan()). */
static void rcu_lazy_timer_fn(struct timer_list *t)
{
	struct rcu_data *rdp = container_of(t, struct rcu_data, lazy_timer);

	rcu_nocb_wake_gp(rdp);
}

void rcu_lazy_init_rdp(struct rcu_data *rdp)
{
	rcu_cblist_init(&rdp->lazy_cbs);
	timer_setup(&rdp->lazy_timer, rcu_lazy_timer_fn, 0);
}

bool rcu_lazy_enqueue(struct rcu_data *rdp, struct rcu_head *head)
{
	if (!enable_rcu_lazy)
		return false;
	if (!rdp->lazy_cbs.len) {
		/* The first one sets the deadline; later ones ride along with it. */
		rdp->lazy_first = jiffies;
		mod_timer(&rdp->lazy_timer, rdp->lazy_first + jiffies_lazy_flush);
	}
	rcu_cblist_enqueue(&rdp->lazy_cbs, head);
	rdp->n_lazy_queued++;
	if (rdp->lazy_cbs.len > (long)rdp->lazy_peak)
		WRITE_ONCE(rdp->lazy_peak, rdp->lazy_cbs.len);	/* read locklessly at power-off */
	return true;
}

bool rcu_lazy_flush(struct rcu_data *rdp, int why)
{
	struct rcu_head *rhp;

	if (!rdp->lazy_cbs.len)
		return false;
	/* In queue order, behind nothing newer: a later call_rcu_hurry() is enqueued after. */
	while ((rhp = rcu_cblist_dequeue(&rdp->lazy_cbs))) {
		rcu_segcblist_enqueue(&rdp->cblist, rhp);
		rdp->n_cbs_queued++;	/* counted as it enters ->cblist (tree_nocb.c) */
		/* kfree_rcu()'s count for RCU_FAST_NO_HZ once they are in ->cblist (tree_nohz.c). */
		rdp->n_lazy_cbs += __is_kfree_rcu_offset((unsigned long)rhp->func);
	}
	WRITE_ONCE(rdp->n_lazy_flushes[why], rdp->n_lazy_flushes[why] + 1);
	if (why != RCU_LAZY_TIMEOUT)
		del_timer(&rdp->lazy_timer);	/* spares rcuog a pointless wakeup */
	return true;
}

bool rcu_lazy_gp_scan(struct rcu_data *rdp)
{
	unsigned long due;

	if (!rdp->lazy_cbs.len)
		return false;
	if (READ_ONCE(rdp->lazy_flush_asap)) {
		WRITE_ONCE(rdp->lazy_flush_asap, false);
		return rcu_lazy_flush(rdp, RCU_LAZY_MEMORY);	/* rcu_lazy_shrink_scan() asked */
	}
	due = rdp->lazy_first + jiffies_lazy_flush;
	if (time_before(jiffies, due)) {
		/* Woken early (another CPU's callbacks): the timer still owes us this deadline. */
		if (!timer_pending(&rdp->lazy_timer))
			mod_timer(&rdp->lazy_timer, due);
		return false;
	}
	return rcu_lazy_flush(rdp, RCU_LAZY_TIMEOUT);
}

unsigned long rcu_lazy_flush_all(void)
{
	unsigned long flags, n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		bool moved = false;

		if (!rdp->nocb_gp_rdp)
			continue;	/* never offloaded: never holds any */
		spin_lock_irqsave(&rdp->nocb_lock, flags);
		if (rdp->offloaded) {
			n += rdp->lazy_cbs.len;
			moved = rcu_lazy_flush(rdp, RCU_LAZY_MEMORY);
		}
		spin_unlock_irqrestore(&rdp->nocb_lock, flags);
		if (moved)
			rcu_nocb_wake_gp(rdp);	/* rare: rcuog gives them a grace period now */
	}
	return n;
}

/*
 * The shrinker (Linux's lazy_rcu_shrink_scan()): a failed alloc_pages()
 * calls it from any context, with any lock held, nocb_lock and rcuog's
 * included, so it takes none and wakes nobody itself: a flag, then the
 * CPU's lazy timer at once (its function wakes rcuog, whose pass sees the
 * flag in rcu_lazy_gp_scan() and flushes). Nothing is freed before the
 * callbacks' grace period, so no page is given back now: 0.
 */
static unsigned long rcu_lazy_shrink_scan(struct shrinker *s)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		if (!rdp->nocb_gp_rdp || !READ_ONCE(rdp->lazy_cbs.len))
			continue;	/* never offloaded, or holding none */
		WRITE_ONCE(rdp->lazy_flush_asap, true);
		mod_timer(&rdp->lazy_timer, jiffies);
	}
	return 0;
}

static struct shrinker rcu_lazy_shrinker = {
	.scan = rcu_lazy_shrink_scan,
	.name = "rcu-lazy",
};

static int rcu_lazy_shrinker_init(void)
{
	register_shrinker(&rcu_lazy_shrinker);
	return 0;
}
early_initcall(rcu_lazy_shrinker_init);

/* Lockless: printed at power-off, one line per offloaded CPU that held any. */
void rcu_lazy_show_stats_cpu(struct rcu_data *rdp)
{
	char buf[128];
	int i, n = 0;

	if (!enable_rcu_lazy || !READ_ONCE(rdp->n_lazy_queued))
		return;
	for (i = 0; i < RCU_LAZY_NR_WHY; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %s %lu", rcu_lazy_why[i],
			      READ_ONCE(rdp->n_lazy_flushes[i]));
	pr_info("CPU %d: lazy: queued %lu, held %ld (peak %lu), flushes:%s\n", rdp->cpu,
		READ_ONCE(rdp->n_lazy_queued), READ_ONCE(rdp->lazy_cbs.len),
		READ_ONCE(rdp->lazy_peak), buf);
}
