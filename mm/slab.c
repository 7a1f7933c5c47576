/*
 * kmalloc: eight power-of-two size classes from 16 to 2048 bytes. Each
 * class carves whole pages into objects of its size and keeps the pages
 * that still have free objects on a partial list; a page's free objects
 * form a list threaded through their first word, and its struct page
 * records the class, so kfree needs no header. Larger requests are
 * alloc_pages() blocks marked PG_kmalloc. With CONFIG_DEBUG_KERNEL free
 * objects hold POISON_FREE, checked when they are handed out again, and
 * kfree looks for double frees.
 */
#include <mm/slab.h>
#include <kernel/debugobjects.h>
#include <locking/spinlock.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include "internal.h"

#define KMALLOC_SHIFT_LOW	4	/* 16 bytes */
#define KMALLOC_SHIFT_HIGH	11	/* 2048 bytes */
#define NR_KMALLOC_CLASSES	(KMALLOC_SHIFT_HIGH - KMALLOC_SHIFT_LOW + 1)

struct kmalloc_class {
	spinlock_t lock;
	unsigned int size;
	/* guarded by lock: */
	struct list_head partial;	/* slab pages with at least one free object */
	unsigned long nr_partial;
	unsigned long nr_pages;
	unsigned long allocs, frees;
};

#define KMALLOC_CLASS(i) [i] = {						\
	.lock = __SPIN_LOCK_UNLOCKED(kmalloc_class_lock),			\
	.size = 1U << (KMALLOC_SHIFT_LOW + (i)),				\
	.partial = LIST_HEAD_INIT(kmalloc_classes[i].partial),			\
}
static struct kmalloc_class kmalloc_classes[NR_KMALLOC_CLASSES] = {
	KMALLOC_CLASS(0), KMALLOC_CLASS(1), KMALLOC_CLASS(2), KMALLOC_CLASS(3),
	KMALLOC_CLASS(4), KMALLOC_CLASS(5), KMALLOC_CLASS(6), KMALLOC_CLASS(7),
};
BUILD_BUG_ON(NR_KMALLOC_CLASSES != 8);
BUILD_BUG_ON((1 << KMALLOC_SHIFT_HIGH) != KMALLOC_MAX_CACHE_SIZE);
BUILD_BUG_ON(PAGE_SIZE / KMALLOC_MIN_SIZE > 0xffff);

/* Large (page-backed) kmalloc and failure counters: atomic adds. */
static unsigned long large_allocs, large_frees, kmalloc_failures;

static void counter_inc(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static unsigned int size_to_class(size_t size)
{
	if (size <= KMALLOC_MIN_SIZE)
		return 0;
	/* Index of the smallest power of two >= size, minus the first class's. */
	return 64 - __builtin_clzl(size - 1) - KMALLOC_SHIFT_LOW;
}

static __noreturn void bad_kfree(const void *ptr, const char *why)
{
	pr_emerg("kfree: bad pointer %p: %s\n", ptr, why);
	BUG();
}

static void *obj_next(void *obj)
{
	return *(void **)obj;
}

/* A free object's link must stay inside its page on an object boundary. */
static void check_link(const struct kmalloc_class *c, const struct page *page, void *obj, void *next)
{
	unsigned long base = (unsigned long)page_address(page);
	unsigned long n = (unsigned long)next;

	if (unlikely(next && (n - base >= PAGE_SIZE || (n - base) % c->size))) {
		pr_emerg("kmalloc-%u: free list of page %p corrupted at %p (next %p): write after free?\n",
			 c->size, page_address(page), obj, next);
		BUG();
	}
}

/* Under CONFIG_DEBUG_KERNEL: was a free object written to while it sat on the free list? */
static void check_poison(const struct kmalloc_class *c, const u8 *obj)
{
	unsigned int i;

	for (i = sizeof(void *); i < c->size; i++)
		if (unlikely(obj[i] != POISON_FREE)) {
			pr_err("kmalloc-%u: poison overwritten at %p (offset %u: %#x, want %#x), "
			       "object %p: use after free\n",
			       c->size, obj + i, i, obj[i], POISON_FREE, obj);
			WARN_ON(1);
			return;
		}
}

/* Carve a fresh page for class c; called with c->lock held. */
static struct page *new_slab(struct kmalloc_class *c, unsigned int idx, gfp_t gfp)
{
	unsigned int n = PAGE_SIZE / c->size, i;
	struct page *page;
	char *base;

	base = alloc_pages(gfp & ~__GFP_ZERO, 0);
	if (!base)
		return NULL;
	page = virt_to_page(base);
	if (IS_ENABLED(CONFIG_DEBUG_KERNEL))
		memset(base, POISON_FREE, PAGE_SIZE);
	for (i = 0; i < n; i++)
		*(void **)(base + i * c->size) = i + 1 < n ? base + (i + 1) * c->size : NULL;
	page->flags = PG_slab;
	page->slab_class = idx;
	page->inuse = 0;
	page->freelist = base;
	list_add(&page->list, &c->partial);
	c->nr_partial++;
	c->nr_pages++;
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
	counter_inc(&large_allocs);
	return addr;
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmalloc_class *c;
	struct page *page;
	unsigned long flags;
	unsigned int idx;
	void *obj;

	if (unlikely(!size))
		return ZERO_SIZE_PTR;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_large(size, gfp);

	idx = size_to_class(size);
	c = &kmalloc_classes[idx];
	spin_lock_irqsave(&c->lock, flags);
	page = list_first_entry_or_null(&c->partial, struct page, list);
	if (!page)
		page = new_slab(c, idx, gfp);
	if (unlikely(!page)) {
		spin_unlock_irqrestore(&c->lock, flags);
		counter_inc(&kmalloc_failures);
		return NULL;
	}
	obj = page->freelist;
	check_link(c, page, obj, obj_next(obj));
	page->freelist = obj_next(obj);
	page->inuse++;
	if (!page->freelist) {
		list_del_init(&page->list);
		c->nr_partial--;
	}
	c->allocs++;
	spin_unlock_irqrestore(&c->lock, flags);

	if (IS_ENABLED(CONFIG_DEBUG_KERNEL)) {
		check_poison(c, obj);
		memset(obj, POISON_FREE, sizeof(void *));	/* no stale link left behind */
	}
	if (gfp & __GFP_ZERO)
		memset(obj, 0, c->size);
	return obj;
}

static void slab_free(struct page *page, void *obj)
{
	struct kmalloc_class *c = &kmalloc_classes[page->slab_class];
	unsigned long offset = (unsigned long)obj - (unsigned long)page_address(page);
	struct page *empty = NULL;
	unsigned long flags;

	if (unlikely(offset % c->size))
		bad_kfree(obj, "not the start of an object");

	spin_lock_irqsave(&c->lock, flags);
	if (IS_ENABLED(CONFIG_DEBUG_KERNEL)) {
		void *o;

		for (o = page->freelist; o; o = obj_next(o))
			if (unlikely(o == obj)) {
				spin_unlock_irqrestore(&c->lock, flags);
				bad_kfree(obj, "double free");
			}
		memset(obj, POISON_FREE, c->size);
	}
	if (unlikely(!page->inuse)) {
		spin_unlock_irqrestore(&c->lock, flags);
		bad_kfree(obj, "slab page has no objects in use: double free?");
	}
	*(void **)obj = page->freelist;
	if (!page->freelist) {
		/* It was full: back on the partial list. */
		list_add(&page->list, &c->partial);
		c->nr_partial++;
	}
	page->freelist = obj;
	page->inuse--;
	c->frees++;
	/* Keep one empty page per class to absorb alloc/free ping-pong; return the others. */
	if (!page->inuse && c->nr_partial > 1) {
		list_del(&page->list);
		c->nr_partial--;
		c->nr_pages--;
		empty = page;
	}
	spin_unlock_irqrestore(&c->lock, flags);

	if (empty) {
		empty->flags = PG_head;
		empty->order = 0;
		free_pages(page_address(empty), 0);
	}
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
		/* DEBUG_OBJECTS: memory holding a live object (a queued rcu_head) is kept. */
		if (debug_check_no_obj_freed(ptr, kmalloc_classes[page->slab_class].size))
			return;
		slab_free(page, (void *)ptr);
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

size_t ksize(const void *ptr)
{
	struct page *page;
	u32 flags;

	if (ZERO_OR_NULL_PTR(ptr))
		return 0;
	if (!virt_addr_valid(ptr))
		bad_kfree(ptr, "ksize of a pointer not in RAM");
	page = virt_to_page(ptr);
	flags = READ_ONCE(page->flags);
	if (flags & PG_slab)
		return kmalloc_classes[page->slab_class].size;
	if (flags == (PG_head | PG_kmalloc))
		return PAGE_SIZE << page->order;
	bad_kfree(ptr, "ksize of a pointer kmalloc did not hand out");
}

void kmalloc_get_stats(struct mm_stats *st)
{
	unsigned long la = __atomic_load_n(&large_allocs, __ATOMIC_RELAXED);
	unsigned long lf = __atomic_load_n(&large_frees, __ATOMIC_RELAXED);
	unsigned int i;

	st->kmalloc_allocs = la;
	st->kmalloc_frees = lf;
	st->large_live = la - lf;
	st->slab_pages = 0;
	for (i = 0; i < NR_KMALLOC_CLASSES; i++) {
		struct kmalloc_class *c = &kmalloc_classes[i];
		unsigned long flags;

		spin_lock_irqsave(&c->lock, flags);
		st->kmalloc_allocs += c->allocs;
		st->kmalloc_frees += c->frees;
		st->slab_pages += c->nr_pages;
		spin_unlock_irqrestore(&c->lock, flags);
	}
	st->kmalloc_live = st->kmalloc_allocs - st->kmalloc_frees;
	st->kmalloc_failures = __atomic_load_n(&kmalloc_failures, __ATOMIC_RELAXED);
}
