/*
 * mm/-private definitions: the per-page metadata (struct page), the buddy
 * free lists and the physical range lists used while booting. buddy.c and
 * memrange.c are pure logic; tests/host/test_mm_buddy.c compiles them.
 */
#ifndef _MM_INTERNAL_H
#define _MM_INTERNAL_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <mm/mm.h>

/*
 * One per physical page frame, indexed by PFN. Who may touch a page's
 * fields: the zone lock while it is free (PG_buddy on the head of a free
 * block), its kmalloc class lock while PG_slab, otherwise its owner.
 */
struct page {
	struct list_head list;	/* buddy free list, or the kmalloc class's partial list */
	u32 flags;		/* PG_* */
	union {
		u8 order;	/* free block order (PG_buddy) or allocation order (PG_head) */
		u8 slab_node;	/* PG_slab: the kmalloc node (mm/slab.c) owning the page */
	};
	u8 slab_class;		/* PG_slab: kmalloc size class index */
	u16 inuse;		/* PG_slab: objects handed out */
	void *freelist;		/* PG_slab: first free object, linked through its first word;
				 * PG_pcp: the next page on the CPU's list */
};

#define PG_reserved	0x01u	/* not RAM, or never given to the allocator */
#define PG_buddy	0x02u	/* head of a free block of 2^order pages */
#define PG_head		0x04u	/* head of a block handed out by alloc_pages() */
#define PG_slab		0x08u	/* carved into kmalloc objects */
#define PG_kmalloc	0x10u	/* PG_head block that is one large kmalloc object */
#define PG_pcp		0x20u	/* free order-0 page on a CPU's list (mm/page_pcp.c) */

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;		/* blocks on free_list */
};

/* The free lists over mem_map[0 .. nr_pages). No locking inside: callers serialize. */
struct buddy_zone {
	struct page *mem_map;
	unsigned long nr_pages;		/* PFNs covered by mem_map */
	unsigned long nr_free;		/* free pages */
	struct free_area area[MAX_ORDER + 1];
};

#define BUDDY_NO_PFN	(~0UL)

/* Cover nr_pages PFNs with map; every page starts PG_reserved. */
void buddy_init(struct buddy_zone *z, struct page *map, unsigned long nr_pages);
/* Hand [start_pfn, end_pfn) to the allocator. */
void buddy_free_range(struct buddy_zone *z, unsigned long start_pfn, unsigned long end_pfn);
/* Take a 2^order block; returns its first PFN or BUDDY_NO_PFN. The head's flags are cleared. */
unsigned long buddy_alloc(struct buddy_zone *z, unsigned int order);
/* Return a 2^order block starting at pfn (naturally aligned), merging with free buddies. */
void buddy_free(struct buddy_zone *z, unsigned long pfn, unsigned int order);

/*
 * kmalloc's debugging (mm/slab_debug.c, Linux's slub_debug flags):
 * decided by slab_debug_init() in mm_init(), before the first kmalloc().
 */
#define SLAB_DEBUG_CHECKS	0x1u	/* F: double-free checks */
#define SLAB_DEBUG_POISON	0x2u	/* P: POISON_FREE in free objects, checked on reuse */
/* kmalloc's per-node slab lists (mm/slab.c): from mm_init(), before the first kmalloc(). */
void kmalloc_init(void);

#ifdef CONFIG_SLUB_DEBUG
extern unsigned int slab_debug_flags;
void slab_debug_init(void);
#else
#define slab_debug_flags	0u
static inline void slab_debug_init(void) { }
#endif

/* A physical range [start, end). */
struct mem_range {
	u64 start, end;
};

/*
 * Shrink each range inward to align boundaries, drop empty ones, sort and
 * merge overlapping or touching ranges. Returns the new count.
 */
unsigned int memrange_normalize(struct mem_range *r, unsigned int n, u64 align);
/*
 * Remove [start, end), widened outward to align, from the sorted list r of
 * n ranges with room for cap. A range split in two needs one more slot;
 * when there is none the upper piece is dropped and *lost grows by its
 * size. Returns the new count.
 */
unsigned int memrange_subtract(struct mem_range *r, unsigned int n, unsigned int cap,
			       u64 start, u64 end, u64 align, u64 *lost);
/* Sum of the lengths. */
u64 memrange_total(const struct mem_range *r, unsigned int n);

/* kmalloc's view of mm_init(): the page array and its bounds. */
extern struct page *mem_map;
extern unsigned long max_pfn;

static inline struct page *virt_to_page(const void *addr)
{
	return &mem_map[virt_to_phys(addr) >> PAGE_SHIFT];
}
static inline void *page_address(const struct page *page)
{
	return phys_to_virt((phys_addr_t)(page - mem_map) << PAGE_SHIFT);
}
/* True if addr is identity-mapped RAM covered by mem_map. */
static inline bool virt_addr_valid(const void *addr)
{
	return mem_map && (virt_to_phys(addr) >> PAGE_SHIFT) < max_pfn;
}

/* slab.c for KASAN (mm/kasan/): the kmalloc slot holding addr and its size, if any. */
bool kmalloc_slab_object(const void *addr, void **slot, unsigned int *slot_size);
/* slab.c for KASAN's quarantine: give a freed slot back to its class now. */
void kmalloc_slab_free_now(void *slot);
/* slab.c for KASAN's quarantine: per-CPU data works (setup_per_cpu_areas() has run). */
bool kmalloc_percpu_ready(void);

/* slab.c's counters, for mm_get_stats(). */
void kmalloc_get_stats(struct mm_stats *st);
/* How often the lock of the kmalloc class serving size bytes was taken (mm/test/slab.c). */
unsigned long kmalloc_class_lock_takes(size_t size);
/* Slow-path kmalloc()/kfree() calls that interrupted a cache push or pop on their CPU (mm/test/). */
unsigned long kmalloc_cpu_busy_hits(void);
/* Objects CPU cpu's cache of the class serving size bytes holds (mm/test/slab.c). */
unsigned int kmalloc_cpu_cached(unsigned int cpu, size_t size);
/* Whether a freed obj is on its slab page's free list, or its page went back (mm/test/slab.c). */
bool kmalloc_obj_back_in_page(const void *obj);

#endif
