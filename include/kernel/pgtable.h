/*
 * Paging for mm/: the contract <mm/mm.h> includes. The arch provides,
 * in <asm/pgtable.h>: PAGE_SHIFT/PAGE_SIZE/PAGE_MASK, the early and direct
 * map limits (ARCH_BOOT_MAP_LIMIT, ARCH_DIRECT_MAP_LIMIT), the kernel-stack
 * area (KSTACK_AREA_START/END), and arch_paging_init(), arch_kernel_cr3(),
 * arch_map_kernel_page(), arch_unmap_kernel_page(), arch_kernel_page_mapped().
 */
#ifndef _KERNEL_PGTABLE_H
#define _KERNEL_PGTABLE_H

#include <asm/pgtable.h>

#endif
