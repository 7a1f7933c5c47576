/*
 * What page_alloc.c shares with the per-CPU page lists (page_pcp.c): the
 * one zone of buddy free lists and its lock, and the lists' interface.
 * The lists hold order-0 pages (all that slab pages and kvfree_rcu()'s
 * blocks use) taken from and given back to the zone in batches.
 */
#ifndef _MM_PAGE_ZONE_H
#define _MM_PAGE_ZONE_H

#include <locking/spinlock.h>
#include "internal.h"

extern spinlock_t page_zone_lock;
extern struct buddy_zone page_zone;		/* guarded by page_zone_lock */
/* Zone-lock acquisitions by alloc_pages()/free_pages() and the lists' refills and drains. */
extern unsigned long page_zone_lock_takes;	/* guarded by page_zone_lock */

/* From mm_init(), the buddy lists filled: size batch and high from managed pages. */
void pcp_init(unsigned long managed);
/* An order-0 PFN from this CPU's list (refilled if empty), or BUDDY_NO_PFN. */
unsigned long pcp_alloc(void);
/* Put an order-0 page (poisoned, flags claimed) on this CPU's list; false: not possible now. */
bool pcp_free(unsigned long pfn);
/*
 * Give every online CPU's list back to the zone, when memory is short.
 * Returns the pages given back (0 when the caller could not ask the others).
 */
unsigned long pcp_drain_all(void);
/* Sums over CPUs: pages handed out and taken back through the lists, pages on them. */
void pcp_get_stats(unsigned long *allocs, unsigned long *frees, unsigned long *held);

/* For mm/test/page_pcp.c: pages on cpu's list; the list's high mark; busy-flag fallbacks so far. */
unsigned int pcp_cpu_count(unsigned int cpu);
unsigned int pcp_high_mark(void);
unsigned long pcp_busy_hits(void);
/* Whether this CPU is inside a push or pop of its list (from its interrupts, mm/test/). */
bool pcp_busy_here(void);
/* Pages the lists have given back to the zone so far (overflows and drains). */
unsigned long mm_pcp_drained(void);

#endif
