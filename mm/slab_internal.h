/*
 * kmalloc's private shapes (mm/slab.c, mm/slab_stats.c): the size
 * classes, the per-node slab lists, the per-CPU object caches and the
 * counters. mm/slab.c describes how they fit together.
 */
#ifndef _MM_SLAB_INTERNAL_H
#define _MM_SLAB_INTERNAL_H

#include <mm/slab.h>
#include <locking/spinlock.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include "internal.h"

#define KMALLOC_SHIFT_LOW	4	/* 16 bytes */
#define KMALLOC_SHIFT_HIGH	11	/* 2048 bytes */
#define NR_KMALLOC_CLASSES	(KMALLOC_SHIFT_HIGH - KMALLOC_SHIFT_LOW + 1)

/*
 * A CPU's cache of free objects of one class holds at most this many: 64
 * objects of 16-64 bytes (the rcu_head-sized objects that kfree_rcu()
 * users allocate on one CPU and free on another: a refill or drain moves
 * 32, half the class-lock takes of 32-object caches), 32 of 128 and 256
 * bytes, fewer as they grow (4 of 2048 bytes), so that a CPU holds at
 * most about 44 KiB across the classes.
 */
#define KMALLOC_CPU_CACHE_MAX		64
#define KMALLOC_CPU_CACHE_LIMIT(size)						\
	((size) <= 64 ? KMALLOC_CPU_CACHE_MAX :					\
	 8192 / (size) > 32 ? 32 : 8192 / (size) < 4 ? 4 : 8192 / (size))

struct kmalloc_class {
	unsigned int size;
	unsigned int cache_limit;	/* objects a CPU's cache may hold (KMALLOC_CPU_CACHE_LIMIT) */
	unsigned long lock_takes;	/* node-lock takes: refills, drains, uncached calls (mm/test/) */
};

extern struct kmalloc_class kmalloc_classes[NR_KMALLOC_CLASSES];

/*
 * A class's slab pages belong to nodes: each page to the CPU that carved it
 * (its number modulo KMALLOC_NR_NODES, kept in page->slab_node), with that
 * node's own lock and partial list, as Linux's SLUB gives each CPU its own
 * slabs. A CPU refills from its own node's pages, and an object goes back
 * to its page under the page's node lock. With one lock per class, CPUs
 * that allocate and free on their own (rcuperf's kfree test) all met on it,
 * and under vCPU overcommit each waited for preempted holders: 1.0-1.7 s of
 * a 2.1 s run at -smp 8 (Documentation/RCU/performance.md, 14:15 UTC).
 */
#define KMALLOC_NR_NODES	(NR_CPUS < 256 ? NR_CPUS : 256)
struct kmalloc_node {
	spinlock_t lock;
	/* guarded by lock: */
	struct list_head partial;	/* this node's slab pages with a free object */
	unsigned long nr_partial;
	unsigned long nr_pages;
};
extern struct kmalloc_node kmalloc_nodes[KMALLOC_NR_NODES][NR_KMALLOC_CLASSES];

struct kmalloc_cpu_cache {
	unsigned int count;
	/*
	 * Behind the stack: the free objects of one slab page taken whole
	 * (cpu_cache_grab()), linked through their first words as on the
	 * page. The page counts them in use.
	 */
	void *freelist;
	void *objs[KMALLOC_CPU_CACHE_MAX];
};
DECLARE_PER_CPU(struct kmalloc_cpu_cache, kmalloc_cpu_caches[NR_KMALLOC_CLASSES]);
/* Objects handed out and taken back through kmalloc()/kfree(), per CPU (any class). */
DECLARE_PER_CPU(unsigned long, kmalloc_nr_allocs);
DECLARE_PER_CPU(unsigned long, kmalloc_nr_frees);
/* setup_per_cpu_areas() has run: the per-CPU caches may be used. */
extern bool kmalloc_cpu_caches_on;
/* Large (page-backed) kmalloc and failure counters: atomic adds. */
extern unsigned long large_allocs, large_frees, kmalloc_failures;
/* A pointer kfree()/ksize() cannot take: print why and BUG(). */
__noreturn void bad_kfree(const void *ptr, const char *why);
/* Slow-path calls that found their CPU inside a cache push or pop (mm/slab.c). */
extern unsigned long kmalloc_busy_hits;

static inline struct kmalloc_node *page_node(const struct page *page)
{
	return &kmalloc_nodes[page->slab_node][page->slab_class];
}

static inline void counter_inc(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static inline unsigned int size_to_class(size_t size)
{
	if (size <= KMALLOC_MIN_SIZE)
		return 0;
	/* Index of the smallest power of two >= size, minus the first class's. */
	return 64 - __builtin_clzl(size - 1) - KMALLOC_SHIFT_LOW;
}

static inline bool slab_poison(void)
{
	return slab_debug_flags & SLAB_DEBUG_POISON;
}

static inline bool slab_checks(void)
{
	return slab_debug_flags & SLAB_DEBUG_CHECKS;
}

static inline void *obj_next(void *obj)
{
	return *(void **)obj;
}

#endif
