/*
 * What the boot loader told us, copied out of its structures before low
 * memory is reused: command line, memory map, ACPI RSDP, loader name.
 */
#ifndef _KERNEL_BOOT_H
#define _KERNEL_BOOT_H

#include <kernel/types.h>

#define COMMAND_LINE_SIZE	4096
#define BOOT_MEM_MAX		128

enum boot_mem_type { BOOT_MEM_RAM = 1, BOOT_MEM_RESERVED = 2, BOOT_MEM_ACPI = 3, BOOT_MEM_NVS = 4 };

struct boot_mem_region {
	u64 base, len;
	u32 type;
};

struct boot_info {
	char cmdline[COMMAND_LINE_SIZE];
	const char *loader;		/* "GRUB 2.06" (multiboot2) or "PVH" */
	u64 rsdp;			/* physical address of the ACPI RSDP, 0 if unknown */
	unsigned int nr_mem;
	struct boot_mem_region mem[BOOT_MEM_MAX];
};

extern struct boot_info boot_info;

void start_kernel(void);

#endif
