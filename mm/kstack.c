/*
 * Kernel stacks in a virtual area of their own. Each stack takes the next
 * free stretch of the area: one guard page that is never mapped, then the
 * stack's pages. The next stack's guard page sits right above, so every
 * stack has a guard on both sides. Addresses are never reused, so freeing
 * a stack needs no TLB shootdown: no CPU will translate those addresses
 * again, unless it has a use-after-free bug.
 */
#include <mm/mm.h>
#include <locking/spinlock.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <mm/kasan.h>

static DEFINE_SPINLOCK(kstack_lock);
static unsigned long kstack_next = KSTACK_AREA_START;	/* guarded by kstack_lock */

static bool in_kstack_area(unsigned long addr)
{
	return addr >= KSTACK_AREA_START && addr < KSTACK_AREA_END;
}

/* Unmap and free the pages of [va, end); stops early at the first hole. */
static unsigned long unmap_stack_pages(unsigned long va, unsigned long end)
{
	unsigned long n = 0;
	phys_addr_t pa;

	for (; va < end && arch_unmap_kernel_page(va, &pa); va += PAGE_SIZE, n++)
		free_page(phys_to_virt(pa));
	return n;
}

void *alloc_kernel_stack(size_t size, void **base_out)
{
	unsigned long flags, va, off;

	if (WARN_ON(!size || size % PAGE_SIZE))
		return NULL;
	spin_lock_irqsave(&kstack_lock, flags);
	va = kstack_next + PAGE_SIZE;		/* skip the guard page below */
	if (va + size + PAGE_SIZE > KSTACK_AREA_END || va + size < va) {
		spin_unlock_irqrestore(&kstack_lock, flags);
		pr_warn_once("mm: kernel stack area exhausted\n");
		return NULL;
	}
	kstack_next = va + size;		/* the next stack's guard is our upper guard */
	spin_unlock_irqrestore(&kstack_lock, flags);

	/* KASAN: shadow for the stack and both guard pages, before anyone uses it. */
	if (kasan_populate_kstack(va - PAGE_SIZE, va + size + PAGE_SIZE))
		return NULL;
	for (off = 0; off < size; off += PAGE_SIZE) {
		void *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);

		if (!page || arch_map_kernel_page(va + off, virt_to_phys(page))) {
			free_page(page);
			unmap_stack_pages(va, va + off);
			return NULL;
		}
	}
	if (base_out)
		*base_out = (void *)va;
	return (void *)(va + size);
}

void free_kernel_stack(void *base)
{
	unsigned long va = (unsigned long)base;

	if (!base)
		return;
	if (!in_kstack_area(va) || va % PAGE_SIZE || arch_kernel_page_mapped(va - PAGE_SIZE) ||
	    !unmap_stack_pages(va, KSTACK_AREA_END)) {
		pr_emerg("free_kernel_stack: %p is not the base of a kernel stack\n", base);
		BUG();
	}
}

bool kernel_stack_guard_page(unsigned long addr)
{
	unsigned long page = addr & PAGE_MASK;

	if (!in_kstack_area(page) || page >= READ_ONCE(kstack_next) + PAGE_SIZE ||
	    arch_kernel_page_mapped(page))
		return false;
	return (page > KSTACK_AREA_START && arch_kernel_page_mapped(page - PAGE_SIZE)) ||
	       (page + PAGE_SIZE < KSTACK_AREA_END && arch_kernel_page_mapped(page + PAGE_SIZE));
}
