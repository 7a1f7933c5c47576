/*
 * Tree RCU's kvfree_rcu() batching (kernel/rcu/kvfree.c), as the rest of
 * Tree RCU, its power-off report and its tests see it.
 */
#ifndef _RCU_KVFREE_H
#define _RCU_KVFREE_H

#include <kernel/types.h>

/* Sums over every CPU since boot. */
struct kvfree_rcu_stats {
	unsigned long batches;		/* handed to a grace period */
	unsigned long batches_polled;	/* of which freed at once: their cookie was complete */
	unsigned long pages;		/* pointer blocks freed with their batch */
	unsigned long objs;		/* objects freed */
	unsigned long objs_head;	/* of which through the rcu_head fallback list */
	unsigned long fallbacks;	/* two-argument calls that found no block */
	unsigned long headless_sync;	/* one-argument calls that found no block: synchronize_rcu() */
	unsigned long page_allocs;	/* blocks taken from alloc_pages() (the rest from the cache) */
	unsigned long shrunk;		/* spare blocks given back to the shrinker */
	unsigned long cached;		/* spare blocks now */
	unsigned long pending;		/* objects collected, not yet handed over */
	unsigned long fast_hits;	/* kvfree_rcu()s from an interrupt inside a CPU's lockless add */
	unsigned long monitor_retries;	/* monitor runs put off a jiffy by a lockless add */
};

void kvfree_rcu_init(void);		/* rcu_init() */
void kvfree_rcu_show_stats(void);	/* rcu_show_stats(), at power-off */
void kvfree_rcu_stats(struct kvfree_rcu_stats *st);
/* Objects cpu has collected plus its batches waiting for a grace period (tests). */
unsigned long kvfree_rcu_cpu_pending(unsigned int cpu);
/* Test kernels (CONFIG_RCU_SELFTEST): every block allocation fails while set. */
void kvfree_rcu_test_fail_alloc(bool fail);

#endif
