/*
 * Per-CPU areas: one copy of the .data..percpu template per possible CPU.
 * CPU 0 runs on the template itself (offset 0) until this runs, so it is
 * called early, before interrupts are enabled or other CPUs exist.
 */
#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <kernel/string.h>
#include <kernel/bug.h>
#include <kernel/printk.h>

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(unsigned int, cpu_number);

/*
 * Each CPU's copy is a unit of whole pages, the units side by side in
 * blocks of up to 2^MAX_ORDER pages, and a unit is an ODD number of pages.
 * Scans that read one variable of every CPU (the FQS and expedited scans of
 * each CPU's rcu_data) then touch pages whose page numbers differ by an odd
 * stride, which fall into distinct slots of anything indexed by the low
 * bits of the page number: a direct-mapped TLB such as QEMU's soft TLB
 * (256 entries by default), or the sets of a cache. With one power-of-two
 * block per CPU (the old layout: 4 pages for ~10 KB) every 64th CPU shared
 * a slot, and from -smp 128 on both scans missed on every CPU, doubling
 * the grace period (Documentation/RCU/performance.md, issue 36).
 */
void setup_per_cpu_areas(void)
{
	size_t size = __per_cpu_end - __per_cpu_start;
	size_t unit = (size + PAGE_SIZE - 1) & PAGE_MASK;
	unsigned int per_block, left = 0, cpu;
	char *next = NULL;

	if (!unit)
		unit = PAGE_SIZE;
	if (!((unit / PAGE_SIZE) & 1))
		unit += PAGE_SIZE;
	per_block = (PAGE_SIZE << MAX_ORDER) / unit;
	BUG_ON(!per_block);
	for_each_possible_cpu(cpu) {
		char *area;

		if (!left) {	/* a new block for the CPUs still to come, at most per_block */
			unsigned int n = nr_cpu_ids - cpu;

			if (n > per_block)
				n = per_block;
			next = alloc_pages(GFP_KERNEL, get_order(unit * n));
			BUG_ON(!next);
			left = n;
		}
		area = next;
		next += unit;
		left--;
		memcpy(area, __per_cpu_start, size);
		__per_cpu_offset[cpu] = (unsigned long)(area - __per_cpu_start);
		per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
		per_cpu(cpu_number, cpu) = cpu;
	}
	printk(KERN_INFO "percpu: Embedded %zu bytes/cpu for %u CPUs, units of %zu pages\n", size,
	       nr_cpu_ids, unit / PAGE_SIZE);
	percpu_enter_cpu(0);
	kmalloc_enable_cpu_caches();
}

void percpu_enter_cpu(unsigned int cpu)
{
	arch_set_percpu_offset(__per_cpu_offset[cpu]);
}
