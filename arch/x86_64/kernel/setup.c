/*
 * First C code: identify the boot protocol (multiboot2 from GRUB, or PVH
 * from QEMU's -kernel), copy what it tells us into boot_info before the
 * memory holding it is reused, bring up the console and exception handling,
 * then hand over to start_kernel().
 */
#include <kernel/boot.h>
#include <kernel/console.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <asm/x86/boot.h>
#include <asm/x86/x86.h>

struct boot_info boot_info;
static u8 rsdp_copy[64] __aligned(16);

struct mb2_tag { u32 type, size; };
struct mb2_mmap_entry { u64 base, len; u32 type, reserved; };
struct pvh_start_info {
	u32 magic, version, flags, nr_modules;
	u64 modlist_paddr, cmdline_paddr, rsdp_paddr, memmap_paddr;
	u32 memmap_entries, reserved;
};
struct pvh_memmap_entry { u64 addr, size; u32 type, reserved; };

static void add_mem(u64 base, u64 len, u32 type)
{
	if (boot_info.nr_mem < BOOT_MEM_MAX)
		boot_info.mem[boot_info.nr_mem++] = (struct boot_mem_region){ base, len, type };
}

static void parse_multiboot2(const u8 *mbi)
{
	u32 total = *(const u32 *)mbi;
	const u8 *p = mbi + 8;

	boot_info.loader = "multiboot2";
	while (p < mbi + total) {
		const struct mb2_tag *tag = (const void *)p;
		const u8 *body = p + 8;

		if (tag->type == 0)
			break;
		switch (tag->type) {
		case 1:	/* command line */
			strscpy(boot_info.cmdline, (const char *)body, sizeof(boot_info.cmdline));
			break;
		case 2: {	/* boot loader name */
			static char loader[64];
			strscpy(loader, (const char *)body, sizeof(loader));
			boot_info.loader = loader;
			break;
		}
		case 6: {	/* memory map */
			u32 esize = ((const u32 *)body)[0];
			for (const u8 *e = body + 8; e + esize <= p + tag->size; e += esize) {
				const struct mb2_mmap_entry *m = (const void *)e;
				add_mem(m->base, m->len, m->type);
			}
			break;
		}
		case 14:	/* ACPI 1.0 RSDP, copied into the tag */
		case 15:	/* ACPI 2.0+ RSDP */
			if (!boot_info.rsdp || tag->type == 15) {
				memcpy(rsdp_copy, body, min((size_t)tag->size - 8, sizeof(rsdp_copy)));
				boot_info.rsdp = (u64)(uintptr_t)rsdp_copy;
			}
			break;
		}
		p += ALIGN(tag->size, 8);
	}
}

static void parse_pvh(const struct pvh_start_info *si)
{
	boot_info.loader = "PVH";
	if (si->cmdline_paddr)
		strscpy(boot_info.cmdline, (const char *)(uintptr_t)si->cmdline_paddr,
			sizeof(boot_info.cmdline));
	boot_info.rsdp = si->rsdp_paddr;
	if (si->version >= 1 && si->memmap_paddr) {
		const struct pvh_memmap_entry *m = (const void *)(uintptr_t)si->memmap_paddr;
		for (u32 i = 0; i < si->memmap_entries; i++)
			add_mem(m[i].addr, m[i].size, m[i].type);
	}
}

void x86_boot_main(u32 magic, u32 info)
{
	x86_kasan_early_init();	/* before any instrumented function's prologue */
	tsc_mark_boot();
	console_init();		/* the consoles register: printk works from here */
	x86_early_trap_init();
	if (magic == MB2_BOOTLOADER_MAGIC)
		parse_multiboot2((const u8 *)(uintptr_t)info);
	else if (magic == PVH_START_MAGIC)
		parse_pvh((const struct pvh_start_info *)(uintptr_t)info);
	else
		printk(KERN_ERR "x86: unknown boot protocol (magic %#x): no command line or memory map\n", magic);
	start_kernel();
}
