/*
 * kmalloc's checks of free objects, for mm/slab.c only: a free list's
 * links stay in their page (check_link()), slub_debug=P's POISON_FREE fill
 * (check_poison()), and slub_debug=F's double-free suspects, tagged in
 * their CPU-cache entries (cache_entry(), entry_obj()).
 */
#ifndef _MM_SLAB_CHECK_H
#define _MM_SLAB_CHECK_H

#include <kernel/printk.h>
#include <kernel/bug.h>
#include <mm/kasan.h>
#include "slab_internal.h"

/*
 * Sizes are powers of two and slab pages page-aligned, so an object is
 * aligned to its size: masks, not divisions, find its start.
 */
BUILD_BUG_ON(PAGE_SIZE % KMALLOC_MAX_CACHE_SIZE);

/* A free object's link must stay inside its page on an object boundary. */
static __always_inline void check_link(const struct kmalloc_class *c, const struct page *page, void *obj, void *next)
{
	unsigned long base = (unsigned long)page_address(page);
	unsigned long n = (unsigned long)next;

	if (unlikely(next && (n - base >= PAGE_SIZE || (n - base) & (c->size - 1)))) {
		pr_emerg("kmalloc-%u: free list of page %p corrupted at %p (next %p): write after free?\n",
			 c->size, page_address(page), obj, next);
		BUG();
	}
}

/* The bytes of a slot the POISON_FREE fill covers: all but KASAN's metadata. */
static inline unsigned int poison_size(const struct kmalloc_class *c)
{
	return c->size - KASAN_SLAB_META_SIZE;
}

/* slub_debug=P: was a free object written to while it sat on the free list? */
static inline void check_poison(const struct kmalloc_class *c, const u8 *obj)
{
	unsigned int i;

	for (i = sizeof(void *); i < poison_size(c); i++)
		if (unlikely(obj[i] != POISON_FREE)) {
			pr_err("kmalloc-%u: poison overwritten at %p (offset %u: %#x, want %#x), "
			       "object %p: use after free\n",
			       c->size, obj + i, i, obj[i], POISON_FREE, obj);
			WARN_ON(1);
			return;
		}
}

/*
 * The double-free check (F) walks the page's free list under
 * the class lock, up to 256 links per object: most of a drain's hold. Only
 * an object that may already be free needs it. A free object is POISON_FREE
 * past its first word, and kmalloc() marks the byte after the first word
 * POISON_INUSE, so a live object, even one never written, does not look
 * free. An object that looks free when kfree() is called is a suspect: its
 * pointer carries SLAB_SUSPECT (bit 0; objects are 16-byte aligned) on the
 * CPU cache and into the drain, which walks the free list for it alone.
 * A suspect is not poisoned again: if it is free, its first word is a
 * free list's link that the walk (for it or another suspect) follows.
 * Without poisoning (F without P) nothing tells, and every object is one.
 */
#define SLAB_SUSPECT	1UL

static inline bool looks_free(const struct kmalloc_class *c, const u8 *obj)
{
	for (unsigned int i = sizeof(void *); i < poison_size(c); i++)
		if (obj[i] != POISON_FREE)
			return false;
	return true;	/* also when there is no byte to mark (KASAN's smallest slots) */
}

/* obj as its CPU-cache entry: tagged when it may be a double free (slub_debug=F). */
static __always_inline void *cache_entry(const struct kmalloc_class *c, void *obj)
{
	if (slab_checks() && (!slab_poison() || looks_free(c, obj)))
		return (void *)((unsigned long)obj | SLAB_SUSPECT);
	return obj;
}

static inline void *entry_obj(void *entry)
{
	return (void *)((unsigned long)entry & ~SLAB_SUSPECT);
}

/* slub_debug=F: obj, being freed, must not sit on this CPU's cache cc already (interrupts off). */
static inline void cpu_cache_check_free(const struct kmalloc_cpu_cache *cc, const void *obj)
{
	for (unsigned int i = 0; i < cc->count; i++)
		if (unlikely(entry_obj(cc->objs[i]) == obj))
			bad_kfree(obj, "double free");
}

#endif
