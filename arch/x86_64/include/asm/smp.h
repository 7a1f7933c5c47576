/*
 * The arch side of SMP used by generic kernel/smp*.c: starting the other
 * CPUs, and sending cross-call, reschedule and NMI interrupts. x86-64
 * implements it in arch/x86_64/kernel/{smpboot,ipi}.c.
 */
#ifndef _ASM_SMP_H
#define _ASM_SMP_H

#include <kernel/cpumask.h>

struct pt_regs;

/* Register the IPI handlers; on CPU 0, before any other CPU starts. */
void arch_smp_prepare_cpus(void);

/*
 * Start every present CPU, one at a time; returns when each is online or
 * has been given up on. Called once, on CPU 0, with interrupts enabled.
 */
#ifdef CONFIG_SMP
void arch_smp_boot_secondary_cpus(void);
#else
static inline void arch_smp_boot_secondary_cpus(void) { }
#endif

/*
 * CPU hotplug (kernel/cpu.c, CONFIG_HOTPLUG_CPU). arch_cpu_present(): the
 * CPU exists and can be started. arch_cpu_up(): start an offline CPU
 * again, from process context; it runs the per-CPU bring-up of boot and
 * marks itself online; returns 0 once it is, or -EIO if it did not come.
 * arch_cpu_die(): the dying CPU's last act, interrupts off: stop its
 * timer and halt in a state arch_cpu_up() can start it from (x86: INIT,
 * then the startup IPIs).
 */
bool arch_cpu_present(unsigned int cpu);
int arch_cpu_up(unsigned int cpu);
void arch_cpu_die(void) __attribute__((noreturn));

/*
 * IPIs. Any context (interrupts on or off); the targets must be online and
 * not the calling CPU (except arch_smp_send_reschedule, which may target it).
 */
void arch_send_call_function_ipi_mask(const struct cpumask *mask);
void arch_send_call_function_single_ipi(int cpu);
void arch_smp_send_reschedule(int cpu);
/* A non-maskable interrupt to cpu: backtraces and smp_send_stop(). Safe from NMI and panic. */
void arch_send_nmi(int cpu);

/* Print the interrupted context's registers and a backtrace (NMI backtraces). */
void arch_show_regs(struct pt_regs *regs);

#endif
