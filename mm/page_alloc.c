/*
 * The physical page allocator. mm_init() turns the boot memory map into a
 * list of usable ranges (RAM above 1 MiB, minus the kernel image and
 * anything the map also calls reserved), serves the first allocations
 * (page tables, the struct page array) straight from those ranges, then
 * hands what is left to the buddy free lists behind one irqsave lock.
 * Order-0 pages go through per-CPU lists in front of it (page_pcp.c).
 */
#include <mm/mm.h>
#include <mm/slab.h>
#include <kernel/boot.h>
#include <locking/spinlock.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <mm/kasan.h>
#include <mm/shrinker.h>
#include "page_zone.h"

/* Low memory (BIOS data, EBDA, the AP trampoline, ROMs) is never handed out. */
#define LOW_MEMORY_END		0x100000ULL
#define MAX_MEM_RANGES		(BOOT_MEM_MAX * 2)

struct page *mem_map;
unsigned long max_pfn;

DEFINE_SPINLOCK(page_zone_lock);
struct buddy_zone page_zone;			/* guarded by page_zone_lock */
unsigned long page_zone_lock_takes;		/* guarded by page_zone_lock */
/* Blocks handed out and taken back by the zone itself (the per-CPU lists count theirs). */
static unsigned long page_allocs, page_frees;	/* guarded by page_zone_lock */
static unsigned long page_failures;		/* atomic adds */
static unsigned long managed_pages;		/* set once by mm_init() */

/*
 * Before the buddy lists exist: free RAM as sorted ranges, allocated from
 * top down below early_limit (at first ARCH_BOOT_MAP_LIMIT: the boot page
 * tables map no more). Only CPU 0 runs then, so no lock.
 */
static struct mem_range early_ranges[MAX_MEM_RANGES];
static unsigned int nr_early_ranges;
static u64 early_limit = ARCH_BOOT_MAP_LIMIT;
static u64 early_lost;
static bool buddy_ready;

static void *early_alloc(u64 size, u64 align)
{
	int i;

	for (i = (int)nr_early_ranges - 1; i >= 0; i--) {
		u64 end = min(early_ranges[i].end, early_limit), start;

		if (end < early_ranges[i].start + size)
			continue;
		start = (end - size) & ~(align - 1);
		if (start < early_ranges[i].start)
			continue;
		nr_early_ranges = memrange_subtract(early_ranges, nr_early_ranges, MAX_MEM_RANGES,
						    start, start + size, PAGE_SIZE, &early_lost);
		return phys_to_virt(start);
	}
	return NULL;
}

/* End of a memory-map entry, saturated rather than wrapped. */
static u64 region_end(const struct boot_mem_region *m)
{
	return m->base + m->len < m->base ? ~0ULL : m->base + m->len;
}

/* RAM entries of the memory map, normalized; returns the count. */
static unsigned int collect_ram(struct mem_range *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *m = &boot_info.mem[i];
		u64 end = region_end(m);

		if (m->type != BOOT_MEM_RAM || m->base >= ARCH_DIRECT_MAP_LIMIT)
			continue;
		r[n++] = (struct mem_range){ m->base, min(end, (u64)ARCH_DIRECT_MAP_LIMIT) };
	}
	return memrange_normalize(r, n, PAGE_SIZE);
}

/* Remove from early_ranges what must never be allocated. */
static void reserve_unusable(void)
{
	unsigned int i;

	for (i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *m = &boot_info.mem[i];

		if (m->type != BOOT_MEM_RAM)
			nr_early_ranges = memrange_subtract(early_ranges, nr_early_ranges,
							    MAX_MEM_RANGES, m->base, region_end(m),
							    PAGE_SIZE, &early_lost);
	}
	nr_early_ranges = memrange_subtract(early_ranges, nr_early_ranges, MAX_MEM_RANGES,
					    0, LOW_MEMORY_END, PAGE_SIZE, &early_lost);
	nr_early_ranges = memrange_subtract(early_ranges, nr_early_ranges, MAX_MEM_RANGES,
					    virt_to_phys(__kernel_start), virt_to_phys(__kernel_end),
					    PAGE_SIZE, &early_lost);
}

static unsigned long kib(u64 bytes)
{
	return (unsigned long)(bytes >> 10);
}

void mm_init(void)
{
	static struct mem_range ram[MAX_MEM_RANGES];
	unsigned int nr_ram, i;
	u64 ram_bytes, map_bytes;

	slab_debug_init();	/* slub_debug= is parsed; no kmalloc() yet */
	kmalloc_init();
	nr_ram = collect_ram(ram);
	if (!nr_ram)
		panic("mm: the boot memory map lists no usable RAM");
	ram_bytes = memrange_total(ram, nr_ram);
	max_pfn = ram[nr_ram - 1].end >> PAGE_SHIFT;

	memcpy(early_ranges, ram, nr_ram * sizeof(ram[0]));
	nr_early_ranges = nr_ram;
	reserve_unusable();

	/* Page tables first: afterwards every RAM page is mapped, wherever mem_map lands. */
	arch_paging_init();
	early_limit = ARCH_DIRECT_MAP_LIMIT;
	/* KASAN: shadow for all of RAM, from early memory, before anything is checked. */
	kasan_init(max_pfn << PAGE_SHIFT);

	map_bytes = ALIGN((u64)max_pfn * sizeof(struct page), PAGE_SIZE);
	mem_map = early_alloc(map_bytes, PAGE_SIZE);
	if (!mem_map)
		panic("mm: no room for the page array (%lu KiB)", kib(map_bytes));
	if (IS_ENABLED(CONFIG_KASAN)) {
		void *meta = early_alloc(kasan_page_meta_bytes(max_pfn), PAGE_SIZE);

		if (!meta)
			panic("mm: no room for KASAN's page records");
		kasan_page_meta_init(meta, max_pfn);
	}
	buddy_init(&page_zone, mem_map, max_pfn);
	for (i = 0; i < nr_early_ranges; i++) {
		buddy_free_range(&page_zone, early_ranges[i].start >> PAGE_SHIFT,
				 early_ranges[i].end >> PAGE_SHIFT);
		/* Free from the start, as if freed: a read before any alloc_pages() is reported. */
		kasan_poison_boot_free(phys_to_virt(early_ranges[i].start),
				       early_ranges[i].end - early_ranges[i].start);
	}
	managed_pages = page_zone.nr_free;
	pcp_init(managed_pages);
	WRITE_ONCE(buddy_ready, true);
	if (early_lost)
		pr_warn("mm: memory map too fragmented, %lu KiB of RAM left unused\n",
			kib(early_lost));

	pr_info("Memory: %luK/%luK available (%luK kernel code, %luK rodata, %luK rwdata, "
		"%luK bss, %luK reserved)\n",
		nr_free_pages() << (PAGE_SHIFT - 10), kib(ram_bytes),
		kib(_etext - _stext), kib(__end_rodata - __start_rodata),
		kib(__bss_start - _sdata), kib(__bss_end - __bss_start),
		kib(ram_bytes) - (nr_free_pages() << (PAGE_SHIFT - 10)));
}

static void page_poison(void *addr, unsigned int order)
{
	if (IS_ENABLED(CONFIG_DEBUG_KERNEL))
		memset(addr, PAGE_POISON, PAGE_SIZE << order);
}

void *alloc_pages(gfp_t gfp, unsigned int order)
{
	unsigned long flags, pfn = BUDDY_NO_PFN;
	void *addr;

	if (unlikely(!READ_ONCE(buddy_ready))) {
		/* Early boot, CPU 0 only: page tables and the page array. */
		addr = order <= MAX_ORDER ? early_alloc(PAGE_SIZE << order, PAGE_SIZE << order) : NULL;
		if (!addr)
			panic("mm: early allocation of order %u failed", order);
		if (gfp & __GFP_ZERO)
			memset(addr, 0, PAGE_SIZE << order);
		return addr;
	}

	/*
	 * Order 0 from this CPU's list first. A failure empties every CPU's
	 * list into the zone and asks the shrinkers (<mm/shrinker.h>) for
	 * their spare pages, then tries again.
	 */
	for (int tries = 0; likely(order <= MAX_ORDER) && tries < 2; tries++) {
		unsigned long given;

		if (order == 0) {
			pfn = pcp_alloc();
			if (likely(pfn != BUDDY_NO_PFN))
				break;
		}
		spin_lock_irqsave(&page_zone_lock, flags);
		page_zone_lock_takes++;
		pfn = buddy_alloc(&page_zone, order);
		if (pfn != BUDDY_NO_PFN) {
			mem_map[pfn].flags = PG_head;
			mem_map[pfn].order = order;
			page_allocs++;
		}
		spin_unlock_irqrestore(&page_zone_lock, flags);
		if (pfn != BUDDY_NO_PFN)
			break;
		given = pcp_drain_all();
		if (!(shrink_all() + given))
			break;
	}
	if (unlikely(pfn == BUDDY_NO_PFN)) {
		__atomic_fetch_add(&page_failures, 1, __ATOMIC_RELAXED);
		if (!(gfp & __GFP_NOWARN))
			pr_warn_once("mm: page allocation failure: order:%u, mode:%#x, %lu pages free\n",
				     order, gfp, nr_free_pages());
		return NULL;
	}
	addr = phys_to_virt((phys_addr_t)pfn << PAGE_SHIFT);
	kasan_alloc_pages(addr, order);
	if (gfp & __GFP_ZERO)
		memset(addr, 0, PAGE_SIZE << order);
	return addr;
}

void free_pages(void *addr, unsigned int order)
{
	unsigned long flags, pfn;
	struct page *page;
	u32 expected;

	if (!addr)
		return;
	pfn = virt_to_phys(addr) >> PAGE_SHIFT;
	if (unlikely(!READ_ONCE(buddy_ready) || !virt_addr_valid(addr) ||
		     (unsigned long)addr & ((PAGE_SIZE << order) - 1))) {
		pr_emerg("free_pages: %p (order %u) was not allocated by alloc_pages\n", addr, order);
		BUG();
	}
	page = &mem_map[pfn];
	/* Claim the block atomically, so two CPUs freeing it at once cannot both pass. */
	expected = PG_head;
	if (unlikely(page->order != order ||
		     !__atomic_compare_exchange_n(&page->flags, &expected, 0, false,
						  __ATOMIC_RELAXED, __ATOMIC_RELAXED))) {
		u32 f = READ_ONCE(page->flags);

		pr_emerg("free_pages: bad free of %p order %u: page flags %#x order %u (%s)\n",
			 addr, order, f, page->order,
			 f & (PG_buddy | PG_pcp) ? "double free" :
			 f & (PG_slab | PG_kmalloc) ? "owned by kmalloc" :
			 f & PG_reserved ? "reserved page" :
			 f == PG_head ? "wrong order" : "not an allocated block: double free?");
		BUG();
	}
	page_poison(addr, order);
	kasan_free_pages(addr, order);
	if (order == 0 && likely(pcp_free(pfn)))
		return;
	spin_lock_irqsave(&page_zone_lock, flags);
	page_zone_lock_takes++;
	page_frees++;
	buddy_free(&page_zone, pfn, order);
	spin_unlock_irqrestore(&page_zone_lock, flags);
}

unsigned long nr_free_pages(void)
{
	return READ_ONCE(page_zone.nr_free);
}

unsigned long totalram_pages(void)
{
	return managed_pages;
}

void mm_get_stats(struct mm_stats *st)
{
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	pcp_get_stats(&st->page_allocs, &st->page_frees, &st->pcp_pages);
	spin_lock_irqsave(&page_zone_lock, flags);
	st->total_pages = managed_pages;
	st->free_pages = page_zone.nr_free;	/* as Linux's NR_FREE_PAGES: not the per-CPU lists */
	st->page_allocs += page_allocs;
	st->page_frees += page_frees;
	st->zone_lock_takes = page_zone_lock_takes;
	spin_unlock_irqrestore(&page_zone_lock, flags);
	st->page_failures = __atomic_load_n(&page_failures, __ATOMIC_RELAXED);
	kmalloc_get_stats(st);
}

void mm_show_stats(void)
{
	struct mm_stats st;

	mm_get_stats(&st);
	pr_info("mm: %lu/%lu pages free, %lu on per-CPU lists, %lu page allocs, %lu frees, %lu failed, "
		"%lu zone lock takes; "
		"kmalloc: %lu allocs, %lu frees, %lu live (%lu large, %lu slab pages), %lu failed\n",
		st.free_pages, st.total_pages, st.pcp_pages, st.page_allocs, st.page_frees,
		st.page_failures, st.zone_lock_takes,
		st.kmalloc_allocs, st.kmalloc_frees, st.kmalloc_live, st.large_live, st.slab_pages,
		st.kmalloc_failures);
}
