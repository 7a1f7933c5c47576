/*
 * Bringing the shadow up. mm_init() calls kasan_init() as soon as the
 * kernel page tables are live and before the buddy allocator exists: the
 * shadow of all RAM below dm_end (the direct map, which holds the kernel
 * image, its .bss boot stack and, later, the per-CPU areas) is mapped
 * from early memory and zeroed, the first page of the kernel-stack area's
 * shadow makes its PML4 entry (user address spaces copy the PML4, so no
 * entry may be added later), and only then does kasan_dm_end say the
 * shadow exists, so every check before it is skipped. Then the globals'
 * redzones: the constructors GCC emitted call __asan_register_globals().
 * Kernel stacks get their shadow as they are allocated.
 */
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <locking/spinlock.h>
#include "kasan.h"

/* .init_array: the constructors GCC emits for instrumented globals (kernel.ld). */
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

static DEFINE_SPINLOCK(kstack_shadow_lock);

void kasan_init(unsigned long dm_end)
{
	unsigned long ks = (unsigned long)kasan_mem_to_shadow(KSTACK_AREA_START);

	if (arch_kasan_map_shadow((unsigned long)kasan_mem_to_shadow(0),
				  (unsigned long)kasan_mem_to_shadow(ALIGN(dm_end, PAGE_SIZE << 3))) ||
	    arch_kasan_map_shadow(ks, ks + PAGE_SIZE))
		panic("kasan: out of memory for the shadow of %lu MiB", dm_end >> 20);
	kasan_report_init();
	WRITE_ONCE(kasan_dm_end, dm_end);
	for (void (**ctor)(void) = __init_array_start; ctor < __init_array_end; ctor++)
		(*ctor)();
	pr_info("kasan: KernelAddressSanitizer initialized (generic), shadow %#lx-%#lx\n",
		(unsigned long)kasan_mem_to_shadow(0), (unsigned long)kasan_mem_to_shadow(dm_end));
}

int kasan_populate_kstack(unsigned long start, unsigned long end)
{
	unsigned long flags;
	int err;

	spin_lock_irqsave(&kstack_shadow_lock, flags);
	err = arch_kasan_map_shadow((unsigned long)kasan_mem_to_shadow(start),
				    (unsigned long)kasan_mem_to_shadow(end - 1) + 1);
	/*
	 * Stacks are handed out bottom-up and never reused, so the shadowed
	 * part of the area only grows. The stack's address reaches other
	 * CPUs only through its task, published after this under locks.
	 */
	if (!err && end > kasan_kstack_end)
		WRITE_ONCE(kasan_kstack_end, end);
	spin_unlock_irqrestore(&kstack_shadow_lock, flags);
	return err;
}
