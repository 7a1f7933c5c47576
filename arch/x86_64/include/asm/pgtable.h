/*
 * Paging constants and hooks of the arch contract used by mm/: page size,
 * how much memory is reachable before and after the kernel's own page
 * tables exist, the kernel-stack virtual area, and the functions that map
 * and unmap its pages. Implemented in arch/x86_64/mm/paging.c.
 */
#ifndef _ASM_PGTABLE_H
#define _ASM_PGTABLE_H

#include <kernel/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

/*
 * Physical memory below this address is identity-mapped by the boot page
 * tables (head.S), so mm_init() may touch it before arch_paging_init().
 */
#define ARCH_BOOT_MAP_LIMIT	0x100000000ULL

/*
 * The identity map covers physical addresses below this limit (64 TiB);
 * RAM above it is ignored. It is also where the kernel-stack area starts.
 */
#define ARCH_DIRECT_MAP_LIMIT	0x0000400000000000ULL

/*
 * Kernel stacks: a virtual area of its own in the canonical lower half
 * (one PML4 slot, 512 GiB), handed out bottom-up and never reused.
 */
#define KSTACK_AREA_START	0x0000400000000000UL
#define KSTACK_AREA_END		0x0000408000000000UL

/*
 * Build the kernel page tables from the boot memory map and switch CR3 to
 * them. Called once by mm_init() on CPU 0 before any other CPU runs; the
 * page-table pages come from alloc_pages(), which at that point hands out
 * early (pre-buddy) memory below ARCH_BOOT_MAP_LIMIT.
 */
void arch_paging_init(void);

/*
 * Physical address of the kernel PML4 (below 4 GiB, so a 32-bit AP
 * trampoline can load it). Valid after arch_paging_init().
 */
u64 arch_kernel_cr3(void);

/*
 * Map one 4 KiB page read-write, non-executable at va (which must lie in
 * the kernel-stack area). Returns 0 or -ENOMEM. Any context but NMI.
 */
int arch_map_kernel_page(unsigned long va, phys_addr_t pa);

/*
 * Unmap the 4 KiB page at va (kernel-stack area) and flush it from this
 * CPU's TLB. Returns true and the page's physical address in *pa if a page
 * was mapped there, false otherwise.
 */
bool arch_unmap_kernel_page(unsigned long va, phys_addr_t *pa);

/* True if va is mapped. Lock-free, so usable from a fault handler. */
bool arch_kernel_page_mapped(unsigned long va);

/*
 * KASAN (mm/kasan/): back the shadow virtual range [start, end) (page
 * aligned) with zeroed RAM wherever it is not mapped yet; pages already
 * mapped keep their contents. 2 MiB pages where a whole aligned 2 MiB is
 * new. The PML4 entries it needs must be made at boot (kasan_init()).
 * Returns 0 or -ENOMEM.
 */
int arch_kasan_map_shadow(unsigned long start, unsigned long end);

#endif
