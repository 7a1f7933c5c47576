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

void setup_per_cpu_areas(void)
{
	size_t size = __per_cpu_end - __per_cpu_start;
	unsigned int order = 0, cpu;

	while ((PAGE_SIZE << order) < size)
		order++;
	for_each_possible_cpu(cpu) {
		char *area = alloc_pages(GFP_KERNEL, order);

		BUG_ON(!area);
		memcpy(area, __per_cpu_start, size);
		__per_cpu_offset[cpu] = (unsigned long)(area - __per_cpu_start);
		per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
		per_cpu(cpu_number, cpu) = cpu;
	}
	printk(KERN_INFO "percpu: Embedded %zu bytes/cpu for %u CPUs\n", size, nr_cpu_ids);
	percpu_enter_cpu(0);
	kmalloc_enable_cpu_caches();
}

void percpu_enter_cpu(unsigned int cpu)
{
	arch_set_percpu_offset(__per_cpu_offset[cpu]);
}
