/*
 * x86-internal SMP state shared by acpi.c (which CPUs exist), smpboot.c
 * (starting them) and ipi.c. arch/ only; generic code uses <kernel/smp.h>.
 */
#ifndef _ASM_X86_SMP_H
#define _ASM_X86_SMP_H

#include <kernel/cpumask.h>

/*
 * CPUs whose MADT entry is enabled: started at boot. The other possible
 * CPUs are only online-capable (hot-pluggable) and are never started.
 */
extern struct cpumask x86_cpu_present_mask;

/* The AP trampoline's entry into C (smpboot.c), on the CPU's own stack. */
void x86_ap_entry(unsigned int cpu) __attribute__((noreturn));

#endif
