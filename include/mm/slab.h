/*
 * kmalloc: small objects from power-of-two size classes (16..2048 bytes)
 * carved from pages; larger requests go straight to alloc_pages(). Usable
 * on any CPU and in interrupt context (not NMI). With slab debugging on
 * (slub_debug=, CONFIG_SLUB_DEBUG_ON: mm/slab_debug.c) freed objects are
 * filled with POISON_FREE and checked when reused.
 */
#ifndef _MM_SLAB_H
#define _MM_SLAB_H

#include <mm/mm.h>

#define KMALLOC_MIN_SIZE	16
#define KMALLOC_MAX_CACHE_SIZE	2048
#define POISON_FREE		0x6b	/* freed small objects (Linux's value) */
#define PAGE_POISON		0xaa	/* freed pages (Linux's value) */
#define POISON_INUSE		0x5a	/* a byte of a live small object (Linux's value) */

/* kmalloc(0) returns this: not NULL, yet faults when dereferenced. */
#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* size bytes aligned to min(size rounded up to a power of two, PAGE_SIZE), or NULL. */
void *kmalloc(size_t size, gfp_t gfp);
/*
 * Free a kmalloc'ed object; NULL and ZERO_SIZE_PTR are no-ops. A pointer
 * kmalloc did not hand out (or a double free, with slub_debug=F)
 * is a BUG.
 */
void kfree(const void *ptr);
/*
 * Free nr kmalloc'ed objects (any mix of sizes; NULLs skipped) as kfree()
 * would, with one class-lock take per run of one class (mm/slab.c).
 */
void kfree_bulk(size_t nr, void **p);
/* kvfree(): there is no vmalloc here, so every kv*alloc'ed object is a kmalloc'ed one. */
static inline void kvfree(const void *ptr)
{
	kfree(ptr);
}
/* Usable size of a kmalloc'ed object (at least what was asked for). */
size_t ksize(const void *ptr);

/* setup_per_cpu_areas() is done: kmalloc may use its per-CPU object caches. */
void kmalloc_enable_cpu_caches(void);
/* cpu_down(): cpu is dead; give the objects its caches hold back to the pages. */
void kmalloc_cpu_dead(unsigned int cpu);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}
/* Array of n elements; a product that overflows fails like any too-large request. */
static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		bytes = SIZE_MAX;
	return kmalloc(bytes, gfp);
}
static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kmalloc_array(n, size, gfp | __GFP_ZERO);
}

#endif
