/*
 * Per-CPU lists of free order-0 pages, in front of the zone (Linux's pcp
 * lists, our own code). Slab pages and kvfree_rcu()'s blocks are order 0:
 * without these lists every one of them took the zone's one lock, about
 * 6 400 times in an -smp 8 kfree test run, and a holder preempted by the
 * host made the others wait (1.09 s summed in one boot).
 *
 * Each CPU keeps a stack of free pages linked through page->freelist and
 * marked PG_pcp. An empty stack takes pcp_batch pages from the zone under
 * one take of its lock; a stack above pcp_high gives pcp_batch back the
 * same way. The sizes follow Linux 6.1's zone_batchsize() idea: about a
 * thousandth of memory, at most 1 MiB, a quarter of that, rounded to
 * 2^n - 1; high is four batches (Linux's floor for it).
 *
 * Accounting as Linux 6.1 does it: a page on a per-CPU list has left the
 * zone, so nr_free_pages() (Linux's NR_FREE_PAGES, which rmqueue_bulk()
 * lowers when it fills a pcp list) does not count it, and neither does
 * rcuperf's kfree footprint. mm_get_stats() reports the lists' pages apart.
 *
 * Pushes and pops run with preemption off and this CPU's busy flag set,
 * not with interrupts off (mm/slab.c's kmalloc_cpu_busy says why: under
 * TCG turning interrupts back on ends a translation block). An interrupt
 * that finds the flag set uses the zone under its lock instead. Refills
 * and drains take the zone lock with interrupts off, flag still set.
 *
 * Pages sitting on a list stay poisoned (PAGE_POISON) and marked freed for
 * KASAN: free_pages() does both before pcp_free(), alloc_pages() undoes
 * them after pcp_alloc(). A second free_pages() of such a page finds
 * PG_pcp instead of PG_head and is reported as a double free.
 *
 * Giving pages back:
 *  - a CPU that goes offline: cpu_down() calls page_pcp_cpu_dead() once it
 *    is dead, which empties its list from the calling CPU;
 *  - an allocation that failed: alloc_pages() calls pcp_drain_all() before
 *    the shrinkers and tries again. It cross-calls every online CPU, each
 *    empties its own list, so no list is ever touched by two CPUs at once
 *    and the fast path needs no atomic instruction. A CPU interrupted
 *    inside a push or pop cannot empty it there: it marks the drain
 *    pending and the interrupted code empties the list as it leaves
 *    (pcp_exit()); the caller waits for that. A cross-call waits for
 *    the others, which needs interrupts on: a caller with interrupts off
 *    (or in an interrupt) empties only its own CPU's list.
 */
#include <mm/mm.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/barrier.h>
#include <kernel/compiler.h>
#include <kernel/printk.h>
#include "page_zone.h"
#include "slab_internal.h"	/* kmalloc_cpu_caches_on: the per-CPU areas are set up */

struct page_pcp {
	struct page *head;		/* free pages, PG_pcp, linked through page->freelist */
	/* Written by the owning CPU only; WRITE_ONCE() so that mm_get_stats() may read them. */
	unsigned int count;		/* pages on head */
	unsigned int busy;		/* code on this CPU is inside pcp_enter() .. pcp_exit() */
	unsigned int drain_pending;	/* a drain found busy set: pcp_exit() empties the list */
	unsigned long allocs, frees;	/* pages handed out and taken back through this list */
};

static DEFINE_PER_CPU(struct page_pcp, page_pcps);
static unsigned int pcp_batch, pcp_high;	/* set once by pcp_init(); 0: lists off */
/* Pages given back to the zone by drains of any kind (atomic adds). */
static unsigned long pcp_drained;
/* Zone-path allocations and frees that found this CPU inside a push or pop (mm/test/). */
static unsigned long pcp_busy_hit_count;

void pcp_init(unsigned long managed)
{
	unsigned long batch = managed / 1024;

	if (batch > (1024 * 1024) / PAGE_SIZE)
		batch = (1024 * 1024) / PAGE_SIZE;
	batch /= 4;
	/* 2^n - 1: successive batches do not all start on the same buddy boundary. */
	batch = batch + batch / 2;
	while (batch & (batch - 1))
		batch &= batch - 1;
	batch = batch > 1 ? batch - 1 : 1;
	pcp_batch = (unsigned int)batch;
	pcp_high = 4 * pcp_batch;
	pr_info("mm: per-CPU page lists: batch %u, high %u\n", pcp_batch, pcp_high);
}

static __always_inline bool pcp_ready(void)
{
	return likely(READ_ONCE(kmalloc_cpu_caches_on)) && likely(pcp_batch);
}

/*
 * Claim this CPU's list: preemption off, busy set. NULL if code on this
 * CPU is already inside (we are an interrupt that came in the middle).
 */
static __always_inline struct page_pcp *pcp_enter(void)
{
	struct page_pcp *p;

	preempt_disable();	/* pairs with preempt_enable() in pcp_exit(): no other task here */
	p = this_cpu_ptr(&page_pcps);
	if (unlikely(READ_ONCE(p->busy))) {
		preempt_enable();
		__atomic_fetch_add(&pcp_busy_hit_count, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	WRITE_ONCE(p->busy, 1);
	/*
	 * Compiler barrier: the list's accesses stay after the flag is set. No
	 * CPU barrier: only this CPU's interrupts read the flag, and they see
	 * its own stores in program order.
	 */
	barrier();
	return p;
}

/* Give n pages off the top of p back to the zone (n <= p->count). */
static void pcp_give_back(struct page_pcp *p, unsigned int n)
{
	unsigned long flags;

	if (!n)
		return;
	spin_lock_irqsave(&page_zone_lock, flags);
	page_zone_lock_takes++;
	for (unsigned int i = 0; i < n; i++) {
		struct page *page = p->head;

		p->head = page->freelist;
		page->freelist = NULL;
		buddy_free(&page_zone, page - mem_map, 0);
	}
	WRITE_ONCE(p->count, p->count - n);
	spin_unlock_irqrestore(&page_zone_lock, flags);
	__atomic_fetch_add(&pcp_drained, n, __ATOMIC_RELAXED);
}

/*
 * Empty this CPU's list for a drain that found it busy. Interrupts off, so
 * nothing else on this CPU runs meanwhile; busy is clear.
 */
static __noinline void pcp_drain_deferred(struct page_pcp *p)
{
	unsigned long flags;

	local_irq_save(flags);
	if (READ_ONCE(p->drain_pending) && !READ_ONCE(p->busy)) {
		pcp_give_back(p, p->count);
		/* Release: the pages are in the zone before pcp_drain_all()'s acquire sees 0. */
		smp_store_release(&p->drain_pending, 0);
	}
	local_irq_restore(flags);
}

static __always_inline void pcp_exit(struct page_pcp *p)
{
	barrier();	/* the list's accesses before the flag is cleared (see pcp_enter()) */
	WRITE_ONCE(p->busy, 0);
	/*
	 * Clear, then look: a drain interrupt after the clear empties the list
	 * itself, one before it left drain_pending set for us to act on.
	 */
	barrier();
	if (unlikely(READ_ONCE(p->drain_pending)))
		pcp_drain_deferred(p);
	preempt_enable();
}

/* Fill an empty list with up to pcp_batch pages from the zone. */
static __noinline void pcp_refill(struct page_pcp *p)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&page_zone_lock, flags);
	page_zone_lock_takes++;
	for (i = 0; i < pcp_batch; i++) {
		unsigned long pfn = buddy_alloc(&page_zone, 0);
		struct page *page;

		if (pfn == BUDDY_NO_PFN)
			break;
		page = &mem_map[pfn];
		page->flags = PG_pcp;
		page->freelist = p->head;
		p->head = page;
	}
	WRITE_ONCE(p->count, p->count + i);
	spin_unlock_irqrestore(&page_zone_lock, flags);
}

unsigned long pcp_alloc(void)
{
	unsigned long pfn = BUDDY_NO_PFN;
	struct page_pcp *p;
	struct page *page;

	if (!pcp_ready())
		return BUDDY_NO_PFN;
	p = pcp_enter();
	if (unlikely(!p))
		return BUDDY_NO_PFN;
	if (unlikely(!p->head))
		pcp_refill(p);
	page = p->head;
	if (likely(page)) {
		p->head = page->freelist;
		WRITE_ONCE(p->count, p->count - 1);
		WRITE_ONCE(p->allocs, p->allocs + 1);
		page->freelist = NULL;
		page->order = 0;
		page->flags = PG_head;
		pfn = page - mem_map;
	}
	pcp_exit(p);
	return pfn;
}

bool pcp_free(unsigned long pfn)
{
	struct page *page = &mem_map[pfn];
	struct page_pcp *p;

	if (!pcp_ready())
		return false;
	p = pcp_enter();
	if (unlikely(!p))
		return false;
	page->flags = PG_pcp;	/* free_pages() claimed it (PG_head -> 0): ours alone */
	page->freelist = p->head;
	p->head = page;
	WRITE_ONCE(p->count, p->count + 1);
	WRITE_ONCE(p->frees, p->frees + 1);
	if (unlikely(p->count > pcp_high))
		pcp_give_back(p, pcp_batch);
	pcp_exit(p);
	return true;
}

/* Cross-call of pcp_drain_all(), interrupts off. */
static void pcp_drain_here(void *unused)
{
	struct page_pcp *p = this_cpu_ptr(&page_pcps);

	if (READ_ONCE(p->busy)) {
		/* Interrupted a push or pop: pcp_exit() empties the list. */
		WRITE_ONCE(p->drain_pending, 1);
		return;
	}
	pcp_give_back(p, p->count);
	smp_store_release(&p->drain_pending, 0);	/* as in pcp_drain_deferred() */
}

unsigned long pcp_drain_all(void)
{
	unsigned long before = __atomic_load_n(&pcp_drained, __ATOMIC_RELAXED);
	unsigned int cpu, self;

	if (!pcp_ready())
		return 0;
	if (irqs_disabled() || in_interrupt()) {
		unsigned long flags;

		/* Waiting for other CPUs is not safe here: only this CPU's list. */
		local_irq_save(flags);
		pcp_drain_here(NULL);
		local_irq_restore(flags);
		return __atomic_load_n(&pcp_drained, __ATOMIC_RELAXED) - before;
	}
	on_each_cpu(pcp_drain_here, NULL, 1);
	/*
	 * The CPUs that were inside a push or pop empty their lists when they
	 * leave it, preemption still off: wait for them (not for ourselves,
	 * who are not inside one: we are a task with interrupts on).
	 */
	preempt_disable();
	self = smp_processor_id();
	for_each_online_cpu(cpu) {
		struct page_pcp *p = per_cpu_ptr(&page_pcps, cpu);

		if (cpu == self)
			continue;
		/* Acquire: pairs with the smp_store_release()s that clear it. */
		while (smp_load_acquire(&p->drain_pending))
			cpu_relax();
	}
	preempt_enable();
	return __atomic_load_n(&pcp_drained, __ATOMIC_RELAXED) - before;
}

/*
 * cpu_down(), once cpu is dead: nothing runs there until cpu_up(), and its
 * last accesses to the list are ordered before us by cpu_down()'s waits.
 */
void page_pcp_cpu_dead(unsigned int cpu)
{
	struct page_pcp *p;

	if (!pcp_ready())
		return;
	p = per_cpu_ptr(&page_pcps, cpu);
	pcp_give_back(p, p->count);
	WRITE_ONCE(p->drain_pending, 0);
}

void pcp_get_stats(unsigned long *allocs, unsigned long *frees, unsigned long *held)
{
	unsigned int cpu;

	*allocs = *frees = *held = 0;
	if (!pcp_ready())
		return;
	for_each_possible_cpu(cpu) {
		const struct page_pcp *p = per_cpu_ptr(&page_pcps, cpu);

		*allocs += READ_ONCE(p->allocs);
		*frees += READ_ONCE(p->frees);
		*held += READ_ONCE(p->count);
	}
}

unsigned int pcp_cpu_count(unsigned int cpu)
{
	return pcp_ready() ? READ_ONCE(per_cpu_ptr(&page_pcps, cpu)->count) : 0;
}

unsigned int pcp_high_mark(void)
{
	return pcp_high;
}

unsigned long mm_pcp_drained(void)
{
	return __atomic_load_n(&pcp_drained, __ATOMIC_RELAXED);
}

bool pcp_busy_here(void)
{
	return READ_ONCE(this_cpu_ptr(&page_pcps)->busy);
}

unsigned long pcp_busy_hits(void)
{
	return __atomic_load_n(&pcp_busy_hit_count, __ATOMIC_RELAXED);
}
