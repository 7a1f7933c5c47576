/*
 * Kernel page tables. arch_paging_init() replaces head.S's boot tables
 * (0-4 GiB, 2 MiB pages, all RWX) with an identity map of what the boot
 * memory map lists plus the legacy first MiB, with 2 MiB pages where
 * alignment allows and 4 KiB pages elsewhere: kernel text RX, rodata R+NX,
 * data/bss RW+NX, other memory RW+NX, page 0 absent. It is built in
 * layers, later ones overriding earlier ones (splitting 2 MiB pages where
 * needed). One PML4, shared by every CPU, also holds the kernel-stack area
 * and ioremap()ed MMIO. All changes happen under pgtable_lock. Every
 * kernel mapping is supervisor-only. User address spaces (uspace.c) copy
 * the kernel's PML4 entries, so those are created at boot and never later.
 */
#include <mm/mm.h>
#include <kernel/boot.h>
#include <locking/spinlock.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <asm/x86/boot.h>
#include <asm/x86/x86.h>

typedef u64 pte_t;

#define PTRS_PER_TABLE		512
#define LARGE_PAGE_SIZE		(1UL << 21)
#define PTE_ADDR_MASK		0x000ffffffffff000ULL
#define PDE_LARGE_ADDR_MASK	0x000fffffffe00000ULL
#define LOW_MEMORY_END		0x100000UL
#define VGA_WINDOW_START	0xa0000UL
#define VGA_WINDOW_END		0xc0000UL

#define LAPIC_PHYS		0xfee00000UL
#define IOAPIC_PHYS		0xfec00000UL

static pte_t kernel_pml4[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static DEFINE_SPINLOCK(pgtable_lock);
static u64 pte_nx;		/* PTE_NX when EFER.NXE is on, else 0 */
static bool paging_live;	/* kernel_pml4 is in CR3 */
static bool pml4_frozen;	/* user address spaces copied kernel_pml4: no new entries */

/* Early ioremap() calls, replayed into the new tables. */
static struct { phys_addr_t start, end; } early_ioremaps[8];
static unsigned int nr_early_ioremaps;

#define PROT_TEXT	(PTE_P)
#define PROT_RODATA	(PTE_P | pte_nx)
#define PROT_DATA	(PTE_P | PTE_W | pte_nx)
#define PROT_UC		(PTE_P | PTE_W | PTE_PCD | PTE_PWT | pte_nx)
#define PROT_NONE	0ULL

static unsigned int pt_index(unsigned long va, unsigned int shift)
{
	return (va >> shift) & (PTRS_PER_TABLE - 1);
}

static pte_t *table_of(pte_t entry)
{
	return phys_to_virt(entry & PTE_ADDR_MASK);
}

/* Write a leaf entry; drop a stale translation from this CPU's TLB. */
static void set_entry(pte_t *entry, pte_t val, unsigned long va)
{
	pte_t old = *entry;

	WRITE_ONCE(*entry, val);
	if (paging_live && (old & PTE_P) && old != val)
		invlpg(va);
}

/* The table *entry points to, allocated (zeroed) if absent and create is set. */
static pte_t *next_table(pte_t *entry, bool create)
{
	pte_t *table;

	if (*entry & PTE_P)
		return table_of(*entry);
	if (!create)
		return NULL;
	table = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	if (!table)
		return NULL;
	/* Upper levels allow everything; the leaf entries decide. */
	WRITE_ONCE(*entry, virt_to_phys(table) | PTE_P | PTE_W);
	return table;
}

/* Turn the 2 MiB page *pde into 512 4 KiB pages with the same attributes. */
static pte_t *split_large_page(pte_t *pde, unsigned long va)
{
	pte_t old = *pde, attrs = (old & 0xfffULL & ~(pte_t)PTE_PS) | (old & PTE_NX);
	pte_t *table = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	unsigned int i;

	if (!table)
		return NULL;
	for (i = 0; i < PTRS_PER_TABLE; i++)
		table[i] = ((old & PDE_LARGE_ADDR_MASK) + i * PAGE_SIZE) | attrs;
	WRITE_ONCE(*pde, virt_to_phys(table) | PTE_P | PTE_W);
	if (paging_live)
		invlpg(va & ~(LARGE_PAGE_SIZE - 1));
	return table;
}

/*
 * Map [va, va + size) to pa with leaf attributes prot (PROT_NONE unmaps),
 * using 2 MiB pages where allow_large and alignment permit. Both ends must
 * be page-aligned. Caller holds pgtable_lock. Returns 0 or -ENOMEM.
 */
static int map_range(unsigned long va, phys_addr_t pa, u64 size, pte_t prot, bool allow_large)
{
	while (size) {
		pte_t *pdpt;

		/* A PML4 entry made now would be missing from every user address space. */
		if (WARN_ON_ONCE(pml4_frozen && !(kernel_pml4[pt_index(va, 39)] & PTE_P)))
			return -ENOMEM;
		pdpt = next_table(&kernel_pml4[pt_index(va, 39)], true);
		pte_t *pd = pdpt ? next_table(&pdpt[pt_index(va, 30)], true) : NULL;
		pte_t *pde, *pt;
		u64 step;


		if (!pd)
			return -ENOMEM;
		pde = &pd[pt_index(va, 21)];
		if (allow_large && IS_ALIGNED(va | pa, LARGE_PAGE_SIZE) && size >= LARGE_PAGE_SIZE &&
		    (!(*pde & PTE_P) || (*pde & PTE_PS))) {
			set_entry(pde, prot ? pa | prot | PTE_PS : 0, va);
			step = LARGE_PAGE_SIZE;
		} else {
			pt = (*pde & PTE_PS) ? split_large_page(pde, va) : next_table(pde, true);
			if (!pt)
				return -ENOMEM;
			set_entry(&pt[pt_index(va, 12)], prot ? pa | prot : 0, va);
			step = PAGE_SIZE;
		}
		va += step;
		pa += step;
		size -= step;
	}
	return 0;
}

/* The leaf entry (4 KiB PTE or 2 MiB PDE) for va, or NULL. Lock-free. */
static pte_t *lookup(unsigned long va)
{
	pte_t e = READ_ONCE(kernel_pml4[pt_index(va, 39)]);
	pte_t *pd, *pde;

	if (!(e & PTE_P))
		return NULL;
	e = READ_ONCE(table_of(e)[pt_index(va, 30)]);
	if (!(e & PTE_P))
		return NULL;
	pd = table_of(e);
	pde = &pd[pt_index(va, 21)];
	e = READ_ONCE(*pde);
	if (!(e & PTE_P))
		return NULL;
	if (e & PTE_PS)
		return pde;
	return &table_of(e)[pt_index(va, 12)];
}

/* Identity-map [start, end), widened to whole pages and clipped to the direct map. */
static void map_identity(u64 start, u64 end, pte_t prot)
{
	start = ALIGN_DOWN(start, PAGE_SIZE);
	end = ALIGN(min(end, (u64)ARCH_DIRECT_MAP_LIMIT), (u64)PAGE_SIZE);
	if (start >= end)
		return;
	if (map_range(start, start, end - start, prot, true))
		panic("x86/mm: out of memory for page tables mapping %#llx-%#llx",
		      (unsigned long long)start, (unsigned long long)end);
}

#ifdef CONFIG_KASAN
/*
 * KASAN's early shadow (Linux's kasan_early_init()): until kasan_init()
 * maps real shadow, the shadow of the first 4 TiB (one PML4 slot) is a
 * single zero page under shared tables, so the stack redzones the
 * compiler's prologues write before then land somewhere harmless. No
 * check reads it: checking starts with kasan_init().
 */
#define KASAN_EARLY_SLOT	(((unsigned long)CONFIG_KASAN_SHADOW_OFFSET >> 39) & (PTRS_PER_TABLE - 1))
static pte_t kasan_early_pdpt[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static pte_t kasan_early_pd[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static pte_t kasan_early_pt[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static u8 kasan_early_page[PAGE_SIZE] __aligned(PAGE_SIZE);
extern pte_t boot_pml4[PTRS_PER_TABLE];

static bool kasan_early_table(const pte_t *t)
{
	return t == kasan_early_pdpt || t == kasan_early_pd || t == kasan_early_pt;
}

/* From x86_boot_main(), before any other C: head.S's tables get the early shadow. */
void x86_kasan_early_init(void)
{
	pte_t nx = (rdmsr(MSR_EFER) & EFER_NXE) ? PTE_NX : 0;

	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++) {
		kasan_early_pt[i] = virt_to_phys(kasan_early_page) | PTE_P | PTE_W | nx;
		kasan_early_pd[i] = virt_to_phys(kasan_early_pt) | PTE_P | PTE_W;
		kasan_early_pdpt[i] = virt_to_phys(kasan_early_pd) | PTE_P | PTE_W;
	}
	WRITE_ONCE(boot_pml4[KASAN_EARLY_SLOT], virt_to_phys(kasan_early_pdpt) | PTE_P | PTE_W);
}

/* *entry points to the shared early table: give this path a private copy of it. */
static bool kasan_unshare(pte_t *entry, pte_t *early)
{
	pte_t *copy;

	if (!(*entry & PTE_P) || table_of(*entry) != early)
		return false;
	copy = alloc_pages(GFP_KERNEL, 0);
	if (!copy)
		panic("kasan: out of memory for shadow page tables");
	memcpy(copy, early, PAGE_SIZE);
	WRITE_ONCE(*entry, virt_to_phys(copy) | PTE_P | PTE_W);
	return true;
}

/*
 * Before mapping real shadow at va: no table on its path may be a shared
 * early one. A 2 MiB stretch about to get a large page loses its early
 * page table instead. Returns true if an entry changed (flush the TLB).
 */
static bool kasan_unshare_path(unsigned long va, bool large)
{
	pte_t *e = &kernel_pml4[pt_index(va, 39)];
	bool changed = kasan_unshare(e, kasan_early_pdpt);

	if (!(*e & PTE_P))
		return changed;
	e = &table_of(*e)[pt_index(va, 30)];
	changed |= kasan_unshare(e, kasan_early_pd);
	if (!(*e & PTE_P))
		return changed;
	e = &table_of(*e)[pt_index(va, 21)];
	if ((*e & PTE_P) && !(*e & PTE_PS) && table_of(*e) == kasan_early_pt) {
		if (large)
			WRITE_ONCE(*e, 0);
		else
			kasan_unshare(e, kasan_early_pt);
		changed = true;
	}
	return changed;
}
#else
static bool kasan_early_table(const pte_t *t)
{
	return false;
}
#endif

/* Leaf entries that are writable and executable, as 4 KiB pages. */
static unsigned long count_wx(const pte_t *table, int level)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < PTRS_PER_TABLE; i++) {
		pte_t e = table[i];

		if (!(e & PTE_P))
			continue;
		if (kasan_early_table(table_of(e)) && level)
			continue;	/* KASAN's early shadow: one zero page, 512 GiB of aliases */
		if (level == 0 || (level == 1 && (e & PTE_PS))) {
			if ((e & PTE_W) && !(e & PTE_NX))
				n += level ? PTRS_PER_TABLE : 1;
		} else {
			n += count_wx(table_of(e), level - 1);
		}
	}
	return n;
}

/* Linux's CONFIG_DEBUG_WX check: no page may be both writable and executable. */
static void check_wx_pages(void)
{
	unsigned long n = count_wx(kernel_pml4, 3);

	if (n)
		pr_warn("x86/mm: Checked W+X mappings: FAILED, %lu W+X pages found.\n", n);
	else
		pr_info("x86/mm: Checked W+X mappings: passed, no W+X pages found.\n");
}

static bool cached_type(u32 type)
{
	return type == BOOT_MEM_RAM || type == BOOT_MEM_ACPI || type == BOOT_MEM_NVS;
}

void arch_paging_init(void)
{
	u64 text = virt_to_phys(__kernel_start), rodata = virt_to_phys(__start_rodata);
	u64 data = virt_to_phys(__end_rodata), end = virt_to_phys(__kernel_end);
	unsigned long flags;
	unsigned int pass, i;

	if (rdmsr(MSR_EFER) & EFER_NXE)
		pte_nx = PTE_NX;
	spin_lock_irqsave(&pgtable_lock, flags);

	/*
	 * 1. Every region of the memory map, RW+NX: RAM, ACPI and NVS cached;
	 * reserved and unknown types (firmware, MMIO) uncached. Uncached
	 * first, so RAM wins where the loader's entries overlap.
	 */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < boot_info.nr_mem; i++) {
			const struct boot_mem_region *m = &boot_info.mem[i];
			u64 mend = m->base + m->len < m->base ? ~0ULL : m->base + m->len;

			if (cached_type(m->type) == pass)
				map_identity(m->base, mend, pass ? PROT_DATA : PROT_UC);
		}

	/*
	 * 2. The legacy first MiB (BIOS data, EBDA, ROMs, the AP trampoline,
	 * which runs on its own page tables until it is in kernel text, so
	 * here it only needs to be writable); the VGA window uncached.
	 */
	map_identity(0, LOW_MEMORY_END, PROT_DATA);
	map_identity(VGA_WINDOW_START, VGA_WINDOW_END, PROT_UC);

	/* 3. The kernel image: text (with the boot headers) RX, rodata R, the rest RW. */
	map_identity(text, rodata, PROT_TEXT);
	map_identity(rodata, data, PROT_RODATA);
	map_identity(data, end, PROT_DATA);

	/* 4. Page 0 absent, so NULL dereferences fault. */
	map_identity(0, PAGE_SIZE, PROT_NONE);

	/* 5. The local and I/O APIC registers, and whatever was ioremap()ed so far. */
	map_identity(LAPIC_PHYS, LAPIC_PHYS + PAGE_SIZE, PROT_UC);
	map_identity(IOAPIC_PHYS, IOAPIC_PHYS + PAGE_SIZE, PROT_UC);
	for (i = 0; i < nr_early_ioremaps; i++)
		if (map_range(early_ioremaps[i].start, early_ioremaps[i].start,
			      early_ioremaps[i].end - early_ioremaps[i].start, PROT_UC, false))
			panic("x86/mm: out of memory for page tables");

	/*
	 * 6. The PML4 entries the kernel can still need later (the kernel-stack
	 * area; ioremap() in the first 512 GiB), so user address spaces, which
	 * copy the PML4, share everything below them.
	 */
	if (!next_table(&kernel_pml4[0], true) ||
	    !next_table(&kernel_pml4[pt_index(KSTACK_AREA_START, 39)], true))
		panic("x86/mm: out of memory for page tables");

#ifdef CONFIG_KASAN
	/* The early shadow stays until kasan_init() replaces it (asm/pgtable.h). */
	kernel_pml4[KASAN_EARLY_SLOT] = boot_pml4[KASAN_EARLY_SLOT];
#endif
	write_cr3(virt_to_phys(kernel_pml4));
	paging_live = true;
	spin_unlock_irqrestore(&pgtable_lock, flags);

	if (pte_nx)
		pr_info("NX (Execute Disable) protection: active\n");
	else
		pr_notice("Notice: NX (Execute Disable) protection missing in CPU!\n");
	if (IS_ENABLED(CONFIG_DEBUG_KERNEL) && pte_nx)
		check_wx_pages();
}

/* Copy the kernel half into a new user PML4 (uspace.c); the kernel's entries are final. */
void x86_copy_kernel_pml4(u64 *pml4, unsigned int first_user_slot)
{
	unsigned long flags;

	spin_lock_irqsave(&pgtable_lock, flags);
	WRITE_ONCE(pml4_frozen, true);
	for (unsigned int i = 0; i < first_user_slot; i++)
		pml4[i] = kernel_pml4[i];
	spin_unlock_irqrestore(&pgtable_lock, flags);
}

u64 arch_kernel_cr3(void)
{
	WARN_ON_ONCE(!paging_live);
	return virt_to_phys(kernel_pml4);
}

void *arch_ioremap(phys_addr_t phys, size_t size)
{
	phys_addr_t start = ALIGN_DOWN(phys, PAGE_SIZE), end = ALIGN(phys + size, PAGE_SIZE);
	unsigned long flags;
	int err = 0;

	if (!size || end <= start || end > ARCH_DIRECT_MAP_LIMIT)
		return NULL;
	/* Never page 0 (NULL must keep faulting) nor the kernel image (it would lose RX/RO). */
	if (WARN_ON(start < PAGE_SIZE ||
		    (start < virt_to_phys(__kernel_end) && end > virt_to_phys(__kernel_start))))
		return NULL;
	spin_lock_irqsave(&pgtable_lock, flags);
	if (paging_live) {
		err = map_range(start, start, end - start, PROT_UC, false);
	} else if (end <= ARCH_BOOT_MAP_LIMIT && nr_early_ioremaps < ARRAY_SIZE(early_ioremaps)) {
		/* The boot tables already map it; remember it for arch_paging_init(). */
		early_ioremaps[nr_early_ioremaps].start = start;
		early_ioremaps[nr_early_ioremaps++].end = end;
	} else {
		err = -ENOMEM;
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
	if (err) {
		pr_warn("x86/mm: ioremap of %#llx (%zu bytes) failed\n", (unsigned long long)phys, size);
		return NULL;
	}
	return phys_to_virt(phys);
}

void arch_iounmap(void *addr)
{
}

static void check_kstack_va(unsigned long va)
{
	if (unlikely(va < KSTACK_AREA_START || va >= KSTACK_AREA_END || va % PAGE_SIZE)) {
		pr_emerg("x86/mm: %#lx is not a page in the kernel-stack area\n", va);
		BUG();
	}
}

int arch_map_kernel_page(unsigned long va, phys_addr_t pa)
{
	unsigned long flags;
	int err;

	check_kstack_va(va);
	spin_lock_irqsave(&pgtable_lock, flags);
	err = map_range(va, pa, PAGE_SIZE, PROT_DATA, false);
	spin_unlock_irqrestore(&pgtable_lock, flags);
	return err;
}

bool arch_unmap_kernel_page(unsigned long va, phys_addr_t *pa)
{
	unsigned long flags;
	pte_t *entry;
	bool mapped;

	check_kstack_va(va);
	spin_lock_irqsave(&pgtable_lock, flags);
	entry = lookup(va);
	mapped = entry && (*entry & PTE_P);
	if (mapped) {
		*pa = *entry & PTE_ADDR_MASK;
		set_entry(entry, 0, va);
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
	return mapped;
}

bool arch_kernel_page_mapped(unsigned long va)
{
	pte_t *entry = lookup(va);

	return entry && (READ_ONCE(*entry) & PTE_P);
}

#ifdef CONFIG_KASAN
/* asm/pgtable.h: KASAN's shadow, RW+NX, never unmapped. */
int arch_kasan_map_shadow(unsigned long start, unsigned long end)
{
	unsigned long flags, va;
	bool flush = false;
	int err = 0;

	start = ALIGN_DOWN(start, PAGE_SIZE);
	end = ALIGN(end, PAGE_SIZE);
	spin_lock_irqsave(&pgtable_lock, flags);
	for (va = start; va < end && !err;) {
		bool large = IS_ALIGNED(va, LARGE_PAGE_SIZE) && end - va >= LARGE_PAGE_SIZE;
		pte_t *entry;
		void *mem;

		flush |= kasan_unshare_path(va, large);
		entry = lookup(va);
		if (entry && (*entry & PTE_P) &&
		    (*entry & PTE_ADDR_MASK) != virt_to_phys(kasan_early_page)) {
			va += PAGE_SIZE;
			continue;
		}
		if (large && !entry && (mem = alloc_pages(GFP_KERNEL | __GFP_ZERO, 9))) {
			err = map_range(va, virt_to_phys(mem), LARGE_PAGE_SIZE, PROT_DATA, true);
			va += LARGE_PAGE_SIZE;
			continue;
		}
		mem = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
		err = mem ? map_range(va, virt_to_phys(mem), PAGE_SIZE, PROT_DATA, false) : -ENOMEM;
		va += PAGE_SIZE;
	}
	/* Early tables replaced (kasan_init(), CPU 0 alone, kernel CR3): drop their translations. */
	if (flush)
		write_cr3(read_cr3());
	spin_unlock_irqrestore(&pgtable_lock, flags);
	return err;
}
#endif
