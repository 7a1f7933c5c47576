/*
 * kmalloc: eight power-of-two size classes from 16 to 2048 bytes. Each
 * class carves whole pages into objects of its size and keeps the pages
 * that still have free objects on partial lists, one per node (the CPU
 * that carved the page, struct kmalloc_node, each with its lock); a page's free objects
 * form a list threaded through their first word, and its struct page
 * records the class, so kfree needs no header. Larger requests are
 * alloc_pages() blocks marked PG_kmalloc. With slab debugging on
 * (mm/slab_debug.c: CONFIG_SLUB_DEBUG_ON or slub_debug=, off by default
 * as Linux's) free objects hold POISON_FREE, checked when they are handed
 * out again (P), and kfree looks for double frees (F).
 *
 * In front of each class every CPU keeps a small stack of free objects
 * (struct kmalloc_cpu_cache) and, behind it, the free list of one slab
 * page taken whole: kmalloc and kfree take a node lock only to refill
 * (a page's list from the CPU's own node, cpu_cache_grab(); with
 * slub_debug=F half a stack, cpu_cache_refill()) or drain (each object
 * to its page's node, runs of one page at once) half a stack at once.
 * The push and pop themselves run with preemption off and this CPU's
 * kmalloc_cpu_busy flag set, not with interrupts off (cpu_cache_enter());
 * refills and drains disable interrupts. A CPU that goes offline gives its
 * stacks back to the pages (kmalloc_cpu_dead()). Without it every CPU's
 * kmalloc/kfree of one size meet on one lock; at -smp 128 the
 * rcutorture timer readers' 16-byte rcu_heads queued 60+ CPUs on it, and
 * under vCPU overcommit each hand-off of a ticket lock waits for the host
 * to run the next waiter (seconds of stall). With slab debugging an
 * object going onto a CPU's stack is poisoned (P) and checked against that
 * stack (F); the page-level double-free check runs when it drains, for the
 * objects that looked free already when kfree() was called (looks_free()),
 * or for every object when F is on without P.
 *
 * With CONFIG_KASAN every slot ends in KASAN's metadata
 * (KASAN_SLAB_META_SIZE bytes: the allocation and free stacks), so a
 * request goes to the class that fits it plus that; the bytes past the
 * request are the object's redzone, and kfree() hands the object to
 * KASAN's quarantine (mm/kasan/), which frees it here later. The
 * POISON_FREE fill and check leave the metadata alone.
 */
#include <mm/slab.h>
#include <kernel/debugobjects.h>
#include <locking/spinlock.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include <kernel/irqflags.h>
#include <kernel/barrier.h>
#include <kernel/smp.h>
#include <kernel/preempt.h>
#include <mm/kasan.h>
#include "slab_internal.h"
#include "slab_check.h"


#define KMALLOC_CLASS(i) [i] = {						\
	.size = 1U << (KMALLOC_SHIFT_LOW + (i)),				\
	.cache_limit = KMALLOC_CPU_CACHE_LIMIT(1U << (KMALLOC_SHIFT_LOW + (i))),	\
}
struct kmalloc_class kmalloc_classes[NR_KMALLOC_CLASSES] = {
	KMALLOC_CLASS(0), KMALLOC_CLASS(1), KMALLOC_CLASS(2), KMALLOC_CLASS(3),
	KMALLOC_CLASS(4), KMALLOC_CLASS(5), KMALLOC_CLASS(6), KMALLOC_CLASS(7),
};
BUILD_BUG_ON(NR_KMALLOC_CLASSES != 8);
BUILD_BUG_ON((1 << KMALLOC_SHIFT_HIGH) != KMALLOC_MAX_CACHE_SIZE);
BUILD_BUG_ON(PAGE_SIZE / KMALLOC_MIN_SIZE > 0xffff);

struct kmalloc_node kmalloc_nodes[KMALLOC_NR_NODES][NR_KMALLOC_CLASSES];

/* From mm_init(), before the first kmalloc(). */
void kmalloc_init(void)
{
	for (unsigned int i = 0; i < KMALLOC_NR_NODES; i++)
		for (unsigned int j = 0; j < NR_KMALLOC_CLASSES; j++) {
			spin_lock_init(&kmalloc_nodes[i][j].lock);
			INIT_LIST_HEAD(&kmalloc_nodes[i][j].partial);
		}
}

bool kmalloc_cpu_caches_on;

/*
 * This CPU's node of class idx (interrupts are off). Before the per-CPU
 * areas (kmalloc_cpu_caches_on) only CPU 0 runs, and its number cannot be
 * read yet.
 */
static struct kmalloc_node *this_node(unsigned int idx)
{
	unsigned int cpu = READ_ONCE(kmalloc_cpu_caches_on) ? raw_smp_processor_id() : 0;

	return &kmalloc_nodes[cpu % KMALLOC_NR_NODES][idx];
}


DEFINE_PER_CPU(struct kmalloc_cpu_cache, kmalloc_cpu_caches[NR_KMALLOC_CLASSES]);
/* Objects handed out and taken back through kmalloc()/kfree(), per CPU (any class). */
DEFINE_PER_CPU(unsigned long, kmalloc_nr_allocs);
DEFINE_PER_CPU(unsigned long, kmalloc_nr_frees);
/* Per-CPU data works only once setup_per_cpu_areas() has run: until then, no caches. */

/*
 * Set while this CPU pushes or pops one of its caches with interrupts on,
 * between cpu_cache_enter() and cpu_cache_exit() (why safe: there). An
 * interrupt finding it set leaves the caches alone (slow path, node lock);
 * refills and drains, interrupts off, find it clear.
 *
 * Why not interrupts off, as before: under QEMU's TCG the local_irq_restore()
 * that turns them back on ends the translation block and goes back to
 * QEMU's main loop: about 30 ns of a 100 ns kmalloc() in rcuperf's kfree
 * test (Documentation/RCU/performance.md, 2026-12-07 17:15). Linux's SLUB
 * gets the same effect with a per-CPU cmpxchg on its freelist and a
 * transaction id; a flag keeps our bounded stacks and needs no 16-byte
 * cmpxchg.
 */
static DEFINE_PER_CPU(unsigned int, kmalloc_cpu_busy);
/* Slow-path calls that found this CPU inside a push or pop (an interrupt came in it): mm/test/. */
unsigned long kmalloc_busy_hits;

void kmalloc_enable_cpu_caches(void)
{
	WRITE_ONCE(kmalloc_cpu_caches_on, true);
}

/* Large (page-backed) kmalloc and failure counters: atomic adds. */
unsigned long large_allocs, large_frees, kmalloc_failures;


/* In a slow path (interrupts off): did we interrupt a push or pop on this CPU? */
static bool busy_here(void)
{
	if (likely(!this_cpu_read(kmalloc_cpu_busy)))
		return false;
	counter_inc(&kmalloc_busy_hits);
	return true;
}


__noreturn void bad_kfree(const void *ptr, const char *why)
{
	pr_emerg("kfree: bad pointer %p: %s\n", ptr, why);
	BUG();
}




/* Carve a fresh page for class c on node n; called with n->lock held. */
static struct page *new_slab(struct kmalloc_class *c, struct kmalloc_node *n, unsigned int idx,
			     gfp_t gfp)
{
	unsigned int nr = PAGE_SIZE / c->size, i;
	struct page *page;
	char *base;

	base = alloc_pages(gfp & ~__GFP_ZERO, 0);
	if (!base)
		return NULL;
	page = virt_to_page(base);
	if (slab_poison())
		memset(base, POISON_FREE, PAGE_SIZE);
	for (i = 0; i < nr; i++)
		*(void **)(base + i * c->size) = i + 1 < nr ? base + (i + 1) * c->size : NULL;
	page->flags = PG_slab;
	page->slab_class = idx;
	page->slab_node = (n - &kmalloc_nodes[0][0]) / NR_KMALLOC_CLASSES;
	page->inuse = 0;
	page->freelist = base;
	kasan_poison_slab(base);
	list_add(&page->list, &n->partial);
	n->nr_partial++;
	n->nr_pages++;
	return page;
}

static void *kmalloc_large(size_t size, gfp_t gfp)
{
	unsigned int order = get_order(size);
	void *addr = NULL;

	if (order <= MAX_ORDER)
		addr = alloc_pages(gfp, order);
	if (!addr) {
		counter_inc(&kmalloc_failures);
		return NULL;
	}
	virt_to_page(addr)->flags = PG_head | PG_kmalloc;
	kasan_kmalloc_large(addr, size, order);
	counter_inc(&large_allocs);
	return addr;
}

/* One object from node n's pages of class c, or NULL; called with n->lock held. */
static __always_inline void *slab_alloc_locked(struct kmalloc_class *c, struct kmalloc_node *n,
					       unsigned int idx, gfp_t gfp)
{
	struct page *page = list_first_entry_or_null(&n->partial, struct page, list);
	void *obj;

	if (!page)
		page = new_slab(c, n, idx, gfp);
	if (unlikely(!page))
		return NULL;
	obj = page->freelist;
	check_link(c, page, obj, obj_next(obj));
	page->freelist = obj_next(obj);
	page->inuse++;
	if (!page->freelist) {
		list_del_init(&page->list);
		n->nr_partial--;
	}
	return obj;
}

/*
 * Give nr objects of one page back to it at once; called with the page's
 * node lock n->lock held. head..tail is a list the caller linked through
 * the objects' first words (SLUB's detached freelist): one splice, one
 * inuse update and one look at the partial list for the whole run. A page
 * left empty goes onto *empties, for free_empties() once the lock is
 * dropped.
 */
static __always_inline void slab_free_run_locked(struct kmalloc_node *n, struct page *page,
						 void *head, void *tail, unsigned int nr,
						 struct list_head *empties)
{
	if (unlikely(page->inuse < nr))
		bad_kfree(head, "slab page has fewer objects in use than freed: double free?");
	*(void **)tail = page->freelist;
	if (!page->freelist) {
		/* It was full: back on the partial list. */
		list_add(&page->list, &n->partial);
		n->nr_partial++;
	}
	page->freelist = head;
	page->inuse -= nr;
	/* Keep one empty page per node to absorb alloc/free ping-pong; return the others. */
	if (!page->inuse && n->nr_partial > 1) {
		list_del(&page->list);
		n->nr_partial--;
		n->nr_pages--;
		list_add(&page->list, empties);
	}
}

/*
 * Give a cache entry's object back to its page, alone; n->lock held. A
 * suspect (SLAB_SUSPECT) is looked for on the page's free list first.
 */
static __always_inline void slab_free_locked(struct kmalloc_node *n, struct page *page, void *entry,
					     struct list_head *empties)
{
	void *obj = entry_obj(entry);

	if (entry != obj) {	/* a suspect: slub_debug=F */
		void *o;

		for (o = page->freelist; o; o = obj_next(o))
			if (unlikely(o == obj))
				bad_kfree(obj, "double free");
	}
	slab_free_run_locked(n, page, obj, obj, 1, empties);
}

/* Take node n's lock of class c (interrupts are off); counted for mm/test/'s batching check. */
static void node_lock(struct kmalloc_class *c, struct kmalloc_node *n)
{
	spin_lock(&n->lock);
	counter_inc(&c->lock_takes);
}

/*
 * Give nr prepared entries back to their pages (interrupts are off), each
 * under its page's node lock, taken once per run of one node. Neighbours
 * of one page (objects handed out one after another come from one page)
 * go back as one run (slab_free_run_locked()); with slub_debug=F each
 * object goes alone, so that a double free within the entries finds the
 * first copy on the page's list.
 */
static void slab_free_entries(struct kmalloc_class *c, void **entries, unsigned int nr,
			      struct list_head *empties)
{
	struct kmalloc_node *locked = NULL;
	struct page *run_page = NULL;
	void *head = NULL, *tail = NULL;
	unsigned int run = 0;
	bool alone = slab_checks();

	for (unsigned int i = 0; i < nr; i++) {
		void *obj = entry_obj(entries[i]);
		struct page *page = virt_to_page(obj);
		struct kmalloc_node *n;

		if (page == run_page && !alone) {
			*(void **)obj = head;
			head = obj;
			run++;
			continue;
		}
		if (run)
			slab_free_run_locked(locked, run_page, head, tail, run, empties);
		/* An object in use pins its page; a node past the table means it is not (a double free). */
		if (unlikely(page->slab_node >= KMALLOC_NR_NODES))
			bad_kfree(obj, "slab page has no node: double free?");
		n = page_node(page);
		if (n != locked) {
			if (locked)
				spin_unlock(&locked->lock);
			node_lock(c, n);
			locked = n;
		}
		if (alone) {
			slab_free_locked(n, page, entries[i], empties);
			run = 0;
			continue;
		}
		run_page = page;
		head = tail = obj;
		run = 1;
	}
	if (run)
		slab_free_run_locked(locked, run_page, head, tail, run, empties);
	if (locked)
		spin_unlock(&locked->lock);
}

static void free_empties(struct list_head *empties)
{
	struct page *page, *tmp;

	list_for_each_entry_safe(page, tmp, empties, list) {
		list_del(&page->list);
		page->flags = PG_head;
		page->order = 0;
		free_pages(page_address(page), 0);
	}
}

/* Refill an empty CPU cache with half its limit (slub_debug=F); interrupts are off. */
static void cpu_cache_refill(struct kmalloc_class *c, struct kmalloc_cpu_cache *cc,
			     unsigned int idx, gfp_t gfp)
{
	unsigned int want = c->cache_limit / 2;
	struct kmalloc_node *n = this_node(idx);

	node_lock(c, n);
	while (cc->count < want) {
		void *obj = slab_alloc_locked(c, n, idx, gfp);

		if (!obj)
			break;
		cc->objs[cc->count++] = obj;
	}
	spin_unlock(&n->lock);
}

/*
 * Refill an empty CPU cache (stack and freelist) by taking all the free
 * objects of one of this node's pages at once, as SLUB's CPU slab does:
 * the page's list becomes cc->freelist, and the page counts them all in
 * use until they come back. Interrupts are off. Not with slub_debug=F,
 * whose double-free check at kfree() looks at the stack and the page's
 * list only.
 */
static void cpu_cache_grab(struct kmalloc_class *c, struct kmalloc_cpu_cache *cc,
			   unsigned int idx, gfp_t gfp)
{
	struct kmalloc_node *n = this_node(idx);
	struct page *page;

	node_lock(c, n);
	page = list_first_entry_or_null(&n->partial, struct page, list);
	if (!page)
		page = new_slab(c, n, idx, gfp);
	if (likely(page)) {
		cc->freelist = page->freelist;
		page->freelist = NULL;
		page->inuse = PAGE_SIZE / c->size;
		list_del_init(&page->list);
		n->nr_partial--;
	}
	spin_unlock(&n->lock);
}

static __noreturn void cpu_freelist_corrupted(unsigned int idx, void *obj, void *next)
{
	pr_emerg("kmalloc-%u: CPU free list corrupted at %p (next %p): write after free?\n",
		 kmalloc_classes[idx].size, obj, next);
	BUG();
}

/*
 * The next object after obj on a CPU freelist: NULL, or in obj's page
 * (page-aligned: the addresses differ below PAGE_SIZE only) on an object
 * boundary, as check_link() wants of a page's list.
 */
static __always_inline void *cpu_freelist_next(unsigned int idx, void *obj)
{
	void *next = obj_next(obj);
	unsigned long nx = (unsigned long)next;

	if (unlikely(next && ((nx ^ (unsigned long)obj) >= PAGE_SIZE ||
			      (nx & (kmalloc_classes[idx].size - 1)))))
		cpu_freelist_corrupted(idx, obj, next);
	return next;
}

/* One object from cc (stack first, then freelist), or NULL; with cc this CPU's and ours. */
static __always_inline void *cpu_cache_take(unsigned int idx, struct kmalloc_cpu_cache *cc)
{
	void *obj;

	if (likely(cc->count))
		return entry_obj(cc->objs[--cc->count]);
	obj = cc->freelist;
	if (obj)
		cc->freelist = cpu_freelist_next(idx, obj);
	return obj;
}

/* Drain the older half of a full CPU cache to the pages; interrupts are off. */
static void cpu_cache_drain(struct kmalloc_class *c, struct kmalloc_cpu_cache *cc)
{
	unsigned int n = cc->count / 2;
	LIST_HEAD(empties);

	slab_free_entries(c, cc->objs, n, &empties);
	cc->count -= n;
	memmove(cc->objs, cc->objs + n, cc->count * sizeof(cc->objs[0]));
	free_empties(&empties);
}

/*
 * cpu_cache_enter() / cpu_cache_exit(): the bracket around each push or pop
 * done with interrupts on. enter returns false, holding nothing, when the
 * caller must take the slow path: caches not set up yet, or this CPU
 * already inside a push or pop (we are an interrupt that came in one). On
 * true, preemption is off and kmalloc_cpu_busy set until exit. Safe because:
 * - preempt_disable() (paired with exit's preempt_enable()) keeps us on
 *   this CPU and other tasks off it: only an interrupt handler can run here
 *   in the bracket, and it finds the flag set (enter, busy_here()).
 * - Test and set of the flag are two instructions: an interrupt between
 *   them finds it clear and may push or pop, but it ends (flag clear, stack
 *   whole) before we go on. Handlers nest; they do not interleave.
 * - The flag's accesses are volatile, the stack's are not, so the compiler
 *   could move the latter across the former: enter's barrier() keeps them
 *   after the setting, exit's (its pair) before the clearing.
 * - No CPU barrier: an interrupt runs on the CPU it interrupted, which sees
 *   its own accesses in program order; kmalloc_cpu_dead() reads the caches
 *   from another CPU only once this one is dead (cpu_down()'s completion).
 */
static __always_inline bool cpu_cache_enter(void)
{
	if (unlikely(!READ_ONCE(kmalloc_cpu_caches_on)))
		return false;
	preempt_disable();	/* pairs with cpu_cache_exit()'s preempt_enable() */
	if (unlikely(this_cpu_read(kmalloc_cpu_busy))) {
		preempt_enable();
		return false;
	}
	this_cpu_write(kmalloc_cpu_busy, 1);
	barrier();	/* pairs with cpu_cache_exit()'s: stack accesses stay inside */
	return true;
}

static __always_inline void cpu_cache_exit(void)
{
	barrier();	/* pairs with cpu_cache_enter()'s */
	this_cpu_write(kmalloc_cpu_busy, 0);
	preempt_enable();
}

/*
 * Fast paths, interrupts on: pop from / push onto this CPU's cache of class
 * idx. NULL / false sends the caller to the slow path (enter said so, or the
 * cache is empty / full).
 */
static __always_inline void *cpu_cache_pop(unsigned int idx)
{
	void *obj;

	if (unlikely(!cpu_cache_enter()))
		return NULL;
	obj = cpu_cache_take(idx, this_cpu_ptr(&kmalloc_cpu_caches[idx]));
	if (likely(obj))
		this_cpu_inc(kmalloc_nr_allocs);
	cpu_cache_exit();
	return obj;
}

static __always_inline bool cpu_cache_push(unsigned int idx, void *entry)
{
	struct kmalloc_cpu_cache *cc;
	bool done = false;

	if (unlikely(!cpu_cache_enter()))
		return false;
	cc = this_cpu_ptr(&kmalloc_cpu_caches[idx]);
	if (likely(cc->count < kmalloc_classes[idx].cache_limit)) {
		cc->objs[cc->count++] = entry;
		done = true;
	}
	cpu_cache_exit();
	return done;
}

/*
 * The slow path of kmalloc(): interrupts off. The CPU cache is refilled
 * and popped unless we interrupted a push or pop on this CPU
 * (kmalloc_cpu_busy), in which case the object comes from the pages.
 */
static void *kmalloc_slow(struct kmalloc_class *c, unsigned int idx, gfp_t gfp)
{
	unsigned long flags;
	void *obj;

	local_irq_save(flags);
	if (likely(READ_ONCE(kmalloc_cpu_caches_on)) && !busy_here()) {
		struct kmalloc_cpu_cache *cc = this_cpu_ptr(&kmalloc_cpu_caches[idx]);

		if (!cc->count && !cc->freelist) {
			if (slab_checks())
				cpu_cache_refill(c, cc, idx, gfp);
			else
				cpu_cache_grab(c, cc, idx, gfp);
		}
		obj = cpu_cache_take(idx, cc);
	} else {
		struct kmalloc_node *n = this_node(idx);

		node_lock(c, n);
		obj = slab_alloc_locked(c, n, idx, gfp);
		spin_unlock(&n->lock);
	}
	if (likely(obj))
		this_cpu_inc(kmalloc_nr_allocs);
	local_irq_restore(flags);
	return obj;
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmalloc_class *c;
	unsigned int idx;
	void *obj;

	if (unlikely(!size))
		return ZERO_SIZE_PTR;
	if (size > KMALLOC_MAX_CACHE_SIZE - KASAN_SLAB_META_SIZE)
		return kmalloc_large(size, gfp);

	/* KASAN: room for the request, 8-byte aligned, then the metadata. */
	idx = size_to_class(KASAN_SLAB_META_SIZE ? ALIGN(size, 8) + KASAN_SLAB_META_SIZE : size);
	c = &kmalloc_classes[idx];
	obj = cpu_cache_pop(idx);
	if (unlikely(!obj))
		obj = kmalloc_slow(c, idx, gfp);
	if (unlikely(!obj)) {
		counter_inc(&kmalloc_failures);
		return NULL;
	}

	if (slab_poison()) {
		check_poison(c, obj);
		memset(obj, POISON_FREE, sizeof(void *));	/* no stale link left behind */
		if (poison_size(c) > sizeof(void *))	/* live: kfree() need not look for it (looks_free) */
			((u8 *)obj)[sizeof(void *)] = POISON_INUSE;
	}
	if (gfp & __GFP_ZERO)
		memset(obj, 0, poison_size(c));
	kasan_slab_alloc(obj, size, c->size);
	return obj;
}

/*
 * An object being freed becomes its CPU-cache entry (a suspect tagged,
 * cache_entry()) and, unless a suspect, is filled with POISON_FREE: a
 * suspect keeps its first word, a free list's link if it is free. Once per
 * free, before any lock: a second look would find the fill and take the
 * object for a suspect.
 */
static __always_inline void *slab_free_prepare(const struct kmalloc_class *c, void *obj)
{
	void *entry = cache_entry(c, obj);

	if (slab_poison() && entry == obj)
		memset(obj, POISON_FREE, poison_size(c));
	return entry;
}

/*
 * Put a prepared entry on this CPU's cache (or straight back to its page).
 * The fast push unless slub_debug=F, whose double-free check walks the
 * cache with interrupts off.
 */
static __always_inline void slab_free_entry(struct page *page, void *entry)
{
	struct kmalloc_class *c = &kmalloc_classes[page->slab_class];
	void *obj = entry_obj(entry);
	unsigned long flags;

	if (!IS_ENABLED(CONFIG_KASAN))	/* KASAN: counted by kfree(), before the quarantine */
		this_cpu_inc(kmalloc_nr_frees);	/* one instruction: safe against interrupts */
	if (likely(!slab_checks()) && likely(cpu_cache_push(page->slab_class, entry)))
		return;
	local_irq_save(flags);
	if (likely(READ_ONCE(kmalloc_cpu_caches_on)) && !busy_here()) {
		struct kmalloc_cpu_cache *cc = this_cpu_ptr(&kmalloc_cpu_caches[page->slab_class]);

		if (slab_checks())
			cpu_cache_check_free(cc, obj);
		if (cc->count >= c->cache_limit)
			cpu_cache_drain(c, cc);
		cc->objs[cc->count++] = entry;
	} else {
		LIST_HEAD(empties);

		slab_free_entries(c, &entry, 1, &empties);
		free_empties(&empties);
	}
	local_irq_restore(flags);
}

static void slab_free(struct page *page, void *obj)
{
	const struct kmalloc_class *c = &kmalloc_classes[page->slab_class];
	unsigned long offset = (unsigned long)obj - (unsigned long)page_address(page);

	if (unlikely(offset & (c->size - 1)))
		bad_kfree(obj, "not the start of an object");
	slab_free_entry(page, slab_free_prepare(c, obj));
}

void kfree(const void *ptr)
{
	struct page *page;
	u32 flags;

	if (unlikely(ZERO_OR_NULL_PTR(ptr)))
		return;
	if (unlikely(!virt_addr_valid(ptr)))
		bad_kfree(ptr, "not a RAM address");
	page = virt_to_page(ptr);
	flags = READ_ONCE(page->flags);
	if (flags & PG_slab) {
		unsigned int size = kmalloc_classes[page->slab_class].size;
		void *slot = (void *)((unsigned long)ptr & ~(unsigned long)(size - 1));

		/* DEBUG_OBJECTS: memory holding a live object (a queued rcu_head) is kept. */
		if (debug_check_no_obj_freed(ptr, size))
			return;
		/* KASAN: taken back now, even if the quarantine frees it later (one instruction). */
		if (IS_ENABLED(CONFIG_KASAN))
			this_cpu_inc(kmalloc_nr_frees);
		/* KASAN: quarantined, or a double or invalid free it reported. */
		if (kasan_slab_free((void *)ptr, slot, size, (unsigned long)__builtin_return_address(0)))
			return;
		slab_free(page, (void *)ptr);
	} else if (IS_ENABLED(CONFIG_KASAN) &&
		   !kasan_kfree_large((void *)ptr, (unsigned long)__builtin_return_address(0))) {
		return;
	} else if (flags == (PG_head | PG_kmalloc) && ptr == page_address(page)) {
		if (debug_check_no_obj_freed(ptr, PAGE_SIZE << page->order))
			return;
		page->flags = PG_head;
		counter_inc(&large_frees);
		free_pages((void *)ptr, page->order);
	} else {
		bad_kfree(ptr, "not allocated by kmalloc, or already freed");
	}
}

/*
 * kfree_bulk(): free nr objects at once, for callers that free many
 * (kvfree_rcu()'s batches once their grace period is over). A run of up to
 * KFREE_BULK_RUN objects of one class first fills this CPU's cache as far
 * as it has room, in one fast push (cpu_cache_push_many()); the rest goes
 * back to the pages under one take of each node lock, where freeing them
 * one by one through the cache would drain half a cache at a time. The
 * checks and the POISON_FREE fill are done before any of it; the
 * page-level double-free check under the lock, as for a drain. With
 * slub_debug=F nothing goes through the cache, and each object is first
 * looked for on it, as kfree() does. Other classes' objects between them,
 * large blocks and everything under KASAN (its quarantine) go to kfree().
 */
#define KFREE_BULK_RUN	128

/*
 * Push up to nr prepared entries of class idx onto this CPU's cache, as
 * cpu_cache_push() does one; returns how many it took.
 */
static unsigned int cpu_cache_push_many(unsigned int idx, void **entries, unsigned int nr)
{
	struct kmalloc_cpu_cache *cc;
	unsigned int done = 0, limit;

	if (unlikely(!cpu_cache_enter()))
		return 0;
	limit = kmalloc_classes[idx].cache_limit;
	cc = this_cpu_ptr(&kmalloc_cpu_caches[idx]);
	while (done < nr && cc->count < limit)
		cc->objs[cc->count++] = entries[done++];
	cpu_cache_exit();
	return done;
}

static void kfree_bulk_run(unsigned int idx, void **run, unsigned int n)
{
	struct kmalloc_class *c = &kmalloc_classes[idx];
	unsigned long flags;
	unsigned int done = 0;
	LIST_HEAD(empties);

	this_cpu_add(kmalloc_nr_frees, n);	/* one instruction: safe against interrupts */
	if (!slab_checks())
		done = cpu_cache_push_many(idx, run, n);
	if (done == n)
		return;
	local_irq_save(flags);
	if (slab_checks() && likely(READ_ONCE(kmalloc_cpu_caches_on)) && !busy_here())
		for (unsigned int i = 0; i < n; i++)
			cpu_cache_check_free(this_cpu_ptr(&kmalloc_cpu_caches[idx]), entry_obj(run[i]));
	slab_free_entries(c, run + done, n - done, &empties);
	local_irq_restore(flags);
	free_empties(&empties);
}

void kfree_bulk(size_t nr, void **p)
{
	void *run[KFREE_BULK_RUN];
	unsigned int n = 0, idx = 0;

	for (size_t i = 0; i < nr; i++) {
		void *ptr = p[i];
		struct page *page;
		struct kmalloc_class *c;

		if (IS_ENABLED(CONFIG_KASAN) || ZERO_OR_NULL_PTR(ptr) || !virt_addr_valid(ptr) ||
		    !(READ_ONCE(virt_to_page(ptr)->flags) & PG_slab)) {
			kfree(ptr);	/* its checks and reports, as for one */
			continue;
		}
		page = virt_to_page(ptr);
		c = &kmalloc_classes[page->slab_class];
		if (unlikely((unsigned long)ptr & (c->size - 1)))
			bad_kfree(ptr, "not the start of an object");
		/* DEBUG_OBJECTS: memory holding a live object (a queued rcu_head) is kept. */
		if (debug_check_no_obj_freed(ptr, c->size))
			continue;
		if (n && (page->slab_class != idx || n == KFREE_BULK_RUN)) {
			kfree_bulk_run(idx, run, n);
			n = 0;
		}
		idx = page->slab_class;
		run[n++] = slab_free_prepare(c, ptr);
	}
	if (n)
		kfree_bulk_run(idx, run, n);
}

/*
 * From cpu_down() once cpu is dead: its last kmalloc()/kfree() happened
 * before the completion it signalled on the way down, which cpu_down()
 * waited for (that orders them before us), and nothing runs there until
 * cpu_up(). Give every object its caches hold back to the pages, so that
 * they are neither held nor counted free while it is away.
 */
void kmalloc_cpu_dead(unsigned int cpu)
{
	if (!READ_ONCE(kmalloc_cpu_caches_on))
		return;
	for (unsigned int idx = 0; idx < NR_KMALLOC_CLASSES; idx++) {
		struct kmalloc_cpu_cache *cc = per_cpu_ptr(&kmalloc_cpu_caches[idx], cpu);
		unsigned long flags;
		LIST_HEAD(empties);

		local_irq_save(flags);	/* node locks are taken from interrupts too */
		slab_free_entries(&kmalloc_classes[idx], cc->objs, cc->count, &empties);
		cc->count = 0;
		/* Then its grabbed page's objects, a stack's worth at a time. */
		while (cc->freelist) {
			while (cc->freelist && cc->count < KMALLOC_CPU_CACHE_MAX) {
				void *obj = cc->freelist;

				cc->freelist = cpu_freelist_next(idx, obj);
				cc->objs[cc->count++] = obj;
			}
			slab_free_entries(&kmalloc_classes[idx], cc->objs, cc->count, &empties);
			cc->count = 0;
		}
		local_irq_restore(flags);
		free_empties(&empties);
	}
}

#ifdef CONFIG_KASAN
void kmalloc_slab_free_now(void *slot)
{
	slab_free(virt_to_page(slot), slot);
}
#endif
