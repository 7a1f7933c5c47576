/*
 * KTAP suite "rcu_gp", case gp_batch_backlog: rcutree.rcu_divisor, Linux's
 * backlog share of a callback batch. A CPU that holds thousands of
 * callbacks, fewer than rcutree.qhimark (so the batch limit is not lifted),
 * invokes more than rcutree.blimit of them per pass of rcuc/N: the backlog
 * shifted right by rcu_divisor (3000 >> 7 = 23 against the default blimit
 * of 10). Before the rule each pass took blimit, and a call_rcu() flood
 * paid a pass of rcuc/N (rcu_core(), a context switch) for every ten
 * callbacks (Documentation/RCU/performance.md, 2026-12-07 14:15).
 *
 * The callbacks are queued on one CPU from a cross call (interrupts off,
 * so none is invoked before all are queued); that CPU's largest batch is
 * read and reset there, and restored afterwards. Skipped where the rule
 * cannot show: an offloaded CPU, a qhimark at or below the count, a blimit
 * at or above the share.
 */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/smp.h>
#include <kernel/atomic.h>
#include <mm/slab.h>

void gp_batch_backlog(void);

#define GSB_N	3000	/* callbacks queued: under the default qhimark (10000) */

static atomic_t gsb_ran;
static struct rcu_head *gsb_heads;
static unsigned long gsb_max_saved, gsb_max_seen;

static void gsb_cb(struct rcu_head *head)
{
	atomic_inc(&gsb_ran);
}

/* On the measured CPU, interrupts off: forget its largest batch, then queue them all. */
static void gsb_queue(void *unused)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	gsb_max_saved = rdp->n_max_batch;
	rdp->n_max_batch = 0;
	for (int i = 0; i < GSB_N; i++)
		call_rcu(&gsb_heads[i], gsb_cb);
}

/* On the measured CPU again: its largest batch since, and the old figure back. */
static void gsb_read(void *unused)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	gsb_max_seen = rdp->n_max_batch;
	if (gsb_max_saved > rdp->n_max_batch)
		rdp->n_max_batch = gsb_max_saved;
}

void gp_batch_backlog(void)
{
	long share = GSB_N >> rcu_params.rcu_divisor;
	unsigned int cpu, t = nr_cpu_ids;

	if (rcu_params.qhimark <= GSB_N || rcu_params.blimit >= share) {
		ktap_diag("qhimark %ld, blimit %ld, rcu_divisor %d", rcu_params.qhimark,
			  rcu_params.blimit, rcu_params.rcu_divisor);
		ktap_skip("no backlog share above blimit under qhimark");
		return;
	}
	for_each_online_cpu(cpu)
		if (!rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu))) {
			t = cpu;
			break;
		}
	if (t == nr_cpu_ids) {
		ktap_skip("every CPU is offloaded");
		return;
	}
	gsb_heads = kcalloc(GSB_N, sizeof(*gsb_heads), GFP_KERNEL);
	if (!KTAP_EXPECT_MSG(gsb_heads, "no memory for %d rcu_heads", GSB_N))
		return;
	atomic_set(&gsb_ran, 0);
	smp_call_function_single(t, gsb_queue, NULL, 1);
	rcu_barrier();
	smp_call_function_single(t, gsb_read, NULL, 1);
	kfree(gsb_heads);
	ktap_diag("CPU %u: %d callbacks queued at once, largest batch %lu (blimit %ld, share %ld)",
		  t, GSB_N, gsb_max_seen, rcu_params.blimit, share);
	KTAP_EXPECT_MSG(atomic_read(&gsb_ran) == GSB_N, "%d of %d callbacks invoked",
			atomic_read(&gsb_ran), GSB_N);
	KTAP_EXPECT_MSG(gsb_max_seen > (unsigned long)rcu_params.blimit,
			"largest batch %lu, not above blimit %ld with %d queued",
			gsb_max_seen, rcu_params.blimit, GSB_N);
	KTAP_EXPECT_MSG(gsb_max_seen <= (unsigned long)share,
			"largest batch %lu above the share %ld", gsb_max_seen, share);
}
