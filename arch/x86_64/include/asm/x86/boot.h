/* Constants shared by the boot assembly and C: magics, control-register and page-table bits. */
#ifndef _ASM_X86_BOOT_H
#define _ASM_X86_BOOT_H

#define MB2_HEADER_MAGIC	0xE85250D6
#define MB2_BOOTLOADER_MAGIC	0x36d76289
#define PVH_START_MAGIC		0x336ec578

#define BOOT_CS		0x08
#define BOOT_DS		0x10
#define BOOT_STACK_SIZE	16384

#define PTE_P		0x001
#define PTE_W		0x002
#define PTE_U		0x004
#define PTE_PWT		0x008
#define PTE_PCD		0x010
#define PTE_A		0x020
#define PTE_D		0x040
#define PTE_PS		0x080
#define PTE_G		0x100
#define PTE_NX		(1ULL << 63)

#define CR0_PE		0x00000001
#define CR0_WP		0x00010000
#define CR0_PG		0x80000000
#define CR4_PAE		0x00000020
#define CR4_PGE		0x00000080

#define MSR_EFER	0xC0000080
#define EFER_LME	0x00000100
#define EFER_NXE	0x00000800

#endif
