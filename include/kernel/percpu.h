/*
 * Per-CPU data: DEFINE_PER_CPU(type, name), per_cpu(name, cpu),
 * per_cpu_ptr(&name, cpu), this_cpu_ptr(&name) and the this_cpu_*
 * accessors (from <asm/percpu.h>). this_cpu_ptr() callers must keep
 * preemption (or interrupts) disabled while they use the pointer.
 */
#ifndef _KERNEL_PERCPU_H
#define _KERNEL_PERCPU_H

#include <kernel/compiler.h>
#include <asm/percpu.h>

#define DEFINE_PER_CPU(type, name)	__section(".data..percpu") __typeof__(type) name
#define DECLARE_PER_CPU(type, name)	extern __section(".data..percpu") __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name) \
	__section(".data..percpu") __aligned(64) __typeof__(type) name

extern unsigned long __per_cpu_offset[];
extern char __per_cpu_start[], __per_cpu_end[];
DECLARE_PER_CPU(unsigned long, this_cpu_off);
DECLARE_PER_CPU(unsigned int, cpu_number);

#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((char *)(ptr) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))
#define this_cpu_ptr(ptr) \
	((__typeof__(ptr))((char *)(ptr) + this_cpu_read(this_cpu_off)))

/* Copy the template for every possible CPU and move CPU 0 onto its copy. */
void setup_per_cpu_areas(void);
/* Called on a CPU coming up, to point its GS base at its area. */
void percpu_enter_cpu(unsigned int cpu);

#endif
