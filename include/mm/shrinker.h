/*
 * Shrinkers: caches of free memory (kvfree_rcu()'s spare pages, for one)
 * that give it back when the page allocator runs dry. A failed
 * alloc_pages() calls every registered shrinker's scan() once and tries
 * again (mm/shrinker.c), a much smaller form of Linux's
 * register_shrinker(): there is no reclaim, no priority and no count pass.
 */
#ifndef _MM_SHRINKER_H
#define _MM_SHRINKER_H

#include <kernel/types.h>

struct shrinker {
	/*
	 * Free what can be freed at once and return how many pages that was.
	 * Called from any context a failed alloc_pages() had (interrupts may
	 * be off, the caller may hold locks): take only irq-safe locks that
	 * are never held across alloc_pages(), never allocate, never sleep.
	 */
	unsigned long (*scan)(struct shrinker *s);
	const char *name;
	struct shrinker *next;		/* the registered list (guarded by shrinker_lock) */
	unsigned long n_calls, n_freed;	/* statistics */
};

/* Add s (never removed: the users are built in). Any context. */
void register_shrinker(struct shrinker *s);
/* Run every shrinker once; pages they freed in all. Called by alloc_pages() on failure. */
unsigned long shrink_all(void);

#endif
