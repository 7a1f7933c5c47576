/*
 * User address spaces: one PML4 per process whose kernel half (slots
 * below USER_VA_START's) is a copy of the kernel's entries, so the kernel's
 * own tables are shared and stay supervisor-only, and whose user slot
 * holds tables only this process uses. Only the user tables and leaves
 * carry the U/S bit. CR3 follows the running task (arch_switch_to()).
 */
#include <kernel/user.h>
#include <kernel/errno.h>
#include <kernel/bug.h>
#include <kernel/percpu.h>
#include <kernel/irqflags.h>
#include <sched/task.h>
#include <mm/mm.h>
#include <asm/x86/boot.h>
#include <asm/x86/x86.h>
#include <asm/switch_to.h>

#define PTRS		512
#define ADDR_MASK	0x000ffffffffff000ULL
#define USER_SLOT	((USER_VA_START >> 39) & (PTRS - 1))

/* This CPU's loaded address space (0: the kernel's), to skip needless CR3 writes. */
static DEFINE_PER_CPU(u64, loaded_uspace);

static u64 *table_at(u64 entry)
{
	return phys_to_virt(entry & ADDR_MASK);
}

u64 arch_uspace_create(void)
{
	u64 *pml4 = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);

	if (!pml4)
		return 0;
	BUILD_BUG_ON(USER_SLOT != 255);
	x86_copy_kernel_pml4(pml4, USER_SLOT);
	return virt_to_phys(pml4);
}

/* The table below *entry, a new zeroed one if absent; user-accessible at this level. */
static u64 *user_table(u64 *entry)
{
	u64 *t;

	if (*entry & PTE_P)
		return table_at(*entry);
	t = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	if (!t)
		return NULL;
	*entry = virt_to_phys(t) | PTE_P | PTE_W | PTE_U;
	return t;
}

int arch_uspace_map_page(u64 uspace, unsigned long va, void *page, unsigned int prot)
{
	u64 *pml4 = phys_to_virt(uspace), *pdpt, *pd, *pt, leaf;

	if (va < USER_VA_START || va >= USER_VA_END || (va & (PAGE_SIZE - 1)))
		return -EINVAL;
	pdpt = user_table(&pml4[(va >> 39) & (PTRS - 1)]);
	pd = pdpt ? user_table(&pdpt[(va >> 30) & (PTRS - 1)]) : NULL;
	pt = pd ? user_table(&pd[(va >> 21) & (PTRS - 1)]) : NULL;
	if (!pt)
		return -ENOMEM;
	if (pt[(va >> 12) & (PTRS - 1)] & PTE_P)
		return -EEXIST;
	leaf = virt_to_phys(page) | PTE_P | PTE_U;
	if (prot & UPROT_WRITE)
		leaf |= PTE_W;
	if (!(prot & UPROT_EXEC) && (rdmsr(MSR_EFER) & EFER_NXE))
		leaf |= PTE_NX;
	/* Not in any CR3 yet, or only in ours with no old entry: no TLB entry to drop. */
	pt[(va >> 12) & (PTRS - 1)] = leaf;
	return 0;
}

/* Free the user tables below `table` at `level` (3: PDPT ... 0: leaf pages). */
static void free_level(u64 *table, int level)
{
	for (unsigned int i = 0; i < PTRS; i++) {
		if (!(table[i] & PTE_P))
			continue;
		if (level == 0)
			free_pages(table_at(table[i]), 0);
		else
			free_level(table_at(table[i]), level - 1);
	}
	free_pages(table, 0);
}

void arch_uspace_destroy(u64 uspace)
{
	u64 *pml4 = phys_to_virt(uspace);

	if (!uspace)
		return;
	BUG_ON(this_cpu_read(loaded_uspace) == uspace);
	if (pml4[USER_SLOT] & PTE_P)
		free_level(table_at(pml4[USER_SLOT]), 2);
	free_pages(pml4, 0);
}

/*
 * Load uspace (0: the kernel's tables) into CR3 unless already there.
 * Interrupts off (the switch path, or arch_uspace_switch()). A CR3 write
 * drops this CPU's non-global TLB entries, so a process's stale user
 * translations never outlive its switch-out here.
 */
void x86_load_uspace(u64 uspace)
{
	if (this_cpu_read(loaded_uspace) == uspace)
		return;
	write_cr3(uspace ? uspace : arch_kernel_cr3());
	this_cpu_write(loaded_uspace, uspace);
}

void arch_uspace_switch(u64 uspace)
{
	unsigned long flags;

	local_irq_save(flags);
	current->thread.uspace = uspace;
	x86_load_uspace(uspace);
	local_irq_restore(flags);
}
