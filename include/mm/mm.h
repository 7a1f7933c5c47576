/*
 * Memory management: the physical page allocator (a buddy allocator over
 * orders 0..MAX_ORDER), kernel stacks with guard pages, ioremap, and the
 * counters. All RAM is identity-mapped (virtual address == physical
 * address); only kernel stacks live elsewhere, in their own area.
 * kmalloc and friends are in <mm/slab.h>.
 */
#ifndef _MM_MM_H
#define _MM_MM_H

#include <kernel/types.h>

#ifdef __HOST_TEST__
#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#else
#include <kernel/pgtable.h>
#endif

/* Allocation flags. Nothing sleeps yet, so GFP_KERNEL and GFP_ATOMIC behave alike. */
typedef unsigned int gfp_t;
#define __GFP_HIGH	0x01u	/* caller cannot wait (atomic context) */
#define __GFP_RECLAIM	0x02u	/* caller could wait for memory to be freed */
#define __GFP_ZERO	0x100u	/* return zeroed memory */
#define __GFP_NOWARN	0x200u	/* do not warn when the allocation fails */
#define GFP_ATOMIC	(__GFP_HIGH)
#define GFP_NOWAIT	0u
#define GFP_KERNEL	(__GFP_RECLAIM)

/* Largest block alloc_pages() can return: 2^MAX_ORDER pages (4 MiB). */
#define MAX_ORDER	10

/* Identity map: a kernel virtual address of RAM is its physical address. */
static inline phys_addr_t virt_to_phys(const volatile void *addr)
{
	return (phys_addr_t)(uintptr_t)addr;
}
static inline void *phys_to_virt(phys_addr_t phys)
{
	return (void *)(uintptr_t)phys;
}
#define __pa(x)		virt_to_phys(x)
#define __va(x)		phys_to_virt(x)

/* Smallest order whose block holds size bytes (size > 0). */
static inline unsigned int get_order(size_t size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

/* Kernel image boundaries, from the linker script. */
extern char __kernel_start[], _stext[], _etext[], __start_rodata[], __end_rodata[];
extern char _sdata[], __bss_start[], __bss_end[], __kernel_end[];

/*
 * Set up the page allocator from boot_info's memory map, switch to the
 * kernel page tables (arch_paging_init) and print the "Memory:" banner.
 * Called once on CPU 0 from start_kernel, before the per-CPU areas and
 * before other CPUs start.
 */
void mm_init(void);

/*
 * 2^order physically contiguous pages, naturally aligned, or NULL (which
 * is counted and, unless __GFP_NOWARN, warned about once). Any context
 * except NMI: the allocator lock is taken with interrupts disabled.
 */
void *alloc_pages(gfp_t gfp, unsigned int order);
/* Free a block from alloc_pages() with the same order; NULL is a no-op. */
void free_pages(void *addr, unsigned int order);
static inline void *__get_free_page(gfp_t gfp) { return alloc_pages(gfp, 0); }
static inline void *get_zeroed_page(gfp_t gfp) { return alloc_pages(gfp | __GFP_ZERO, 0); }
static inline void free_page(void *addr) { free_pages(addr, 0); }

/* Pages currently free. */
unsigned long nr_free_pages(void);
/* cpu_down(), once cpu is dead: its per-CPU free pages back to the zone (mm/page_pcp.c). */
void page_pcp_cpu_dead(unsigned int cpu);
/* Pages managed by the allocator (RAM minus low memory, kernel image, early allocations). */
unsigned long totalram_pages(void);

/*
 * Kernel stacks (also the per-CPU IST stacks): size bytes (a multiple of
 * PAGE_SIZE) of zeroed pages mapped RW+NX in the kernel-stack area, with an
 * unmapped guard page below and above, so running off either end faults.
 * Returns the stack top (the highest address + 1, 16-byte aligned) and the
 * lowest address in *base_out, or NULL. The addresses are not in the
 * identity map (no virt_to_phys) and are only valid with the kernel page
 * tables loaded. Any context except NMI.
 */
void *alloc_kernel_stack(size_t size, void **base_out);
/* Unmap and free a stack from alloc_kernel_stack(); base is *base_out. */
void free_kernel_stack(void *base);
/* True if addr is in an unmapped guard page next to a live kernel stack (for fault reports). */
bool kernel_stack_guard_page(unsigned long addr);

/*
 * Map size bytes of MMIO at phys uncached and non-executable, and return
 * the (identity) address, or NULL. May be called before mm_init(); the
 * mapping is then carried over into the kernel page tables. Remapping a
 * range that is already mapped cached flushes only this CPU's TLB, so do
 * it before other CPUs touch that range. Page 0 and the kernel image are
 * refused. Arch contract (arch/x86_64/mm/paging.c).
 */
void *arch_ioremap(phys_addr_t phys, size_t size);
void arch_iounmap(void *addr);
static inline void *ioremap(phys_addr_t phys, size_t size) { return arch_ioremap(phys, size); }
/* The identity mapping stays; kept for symmetry with Linux drivers. */
static inline void iounmap(void *addr) { arch_iounmap(addr); }

struct mm_stats {
	unsigned long total_pages;	/* managed by the page allocator */
	unsigned long free_pages;	/* in the zone: not counting the per-CPU lists (Linux's way) */
	unsigned long pcp_pages;	/* free order-0 pages on the CPUs' lists (mm/page_pcp.c) */
	unsigned long zone_lock_takes;	/* acquisitions of the zone's lock */
	unsigned long page_allocs, page_frees, page_failures;
	unsigned long kmalloc_allocs, kmalloc_frees, kmalloc_failures;
	unsigned long kmalloc_live;	/* objects allocated and not yet freed */
	unsigned long slab_pages;	/* pages carved into small objects */
	unsigned long large_live;	/* kmalloc allocations served by alloc_pages */
};
void mm_get_stats(struct mm_stats *st);
/* One "mm: ..." line with the counters above (printed at shutdown). */
void mm_show_stats(void);

#endif
