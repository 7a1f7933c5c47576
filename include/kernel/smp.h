/*
 * Cross-CPU calls and the CPU identity: smp_processor_id(),
 * smp_call_function_single/_many, on_each_cpu, and the reschedule IPI.
 * Functions run by a cross call execute in hard-interrupt context on the
 * target CPU with interrupts disabled. The arch half of the contract
 * (starting CPUs, sending IPIs and NMIs: arch_smp_*, arch_send_*) is
 * <asm/smp.h>, used by kernel/smp.c, smp_cpus.c and smp_nmi.c.
 */
#ifndef _KERNEL_SMP_H
#define _KERNEL_SMP_H

#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include <asm/smp.h>

typedef void (*smp_call_func_t)(void *info);

#define raw_smp_processor_id()	this_cpu_read(cpu_number)
#define smp_processor_id()	raw_smp_processor_id()

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait);
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait);
void smp_call_function(smp_call_func_t func, void *info, int wait);
void on_each_cpu(smp_call_func_t func, void *info, int wait);
void smp_send_reschedule(int cpu);
/* Ask every other online CPU to stop (halt with interrupts off): panic and power-off. */
void smp_send_stop(void);
/* Backtrace every online CPU (through NMI), e.g. for stall warnings. */
void trigger_all_cpu_backtrace(void);
bool trigger_single_cpu_backtrace(int cpu);

/*
 * Bring the secondary CPUs online (called once from start_kernel on CPU 0,
 * after the per-CPU areas and CPU 0's interrupt setup, interrupts enabled).
 */
void smp_init(void);

/*
 * The command line's CPU counts (kernel/smp_cpus.c): maxcpus= and nosmp
 * limit the CPUs the boot brings up (the arch's bring-up loop asks
 * smp_boot_wants_more_cpus() before each), nr_cpus= caps nr_cpu_ids
 * (smp_setup_nr_cpu_ids(), right after the firmware's CPU count).
 */
extern unsigned int setup_max_cpus;
bool smp_boot_wants_more_cpus(unsigned int online);
void smp_setup_nr_cpu_ids(void);
/*
 * The arch's report of the possible CPUs, called by smp_setup_nr_cpu_ids()
 * once nr_cpus= has capped nr_cpu_ids (FOUND: the CPUs the firmware
 * listed), so that it counts what the boot really allows, as Linux's
 * prefill_possible_map() does after its early parameters.
 */
void arch_smp_announce_possible(unsigned int found);
/*
 * Boot benchmark: print the median/p90/min round trip of a synchronous
 * smp_call_function_single() to the first and last other CPU (after
 * smp_init, interrupts enabled; the smp.ipi_rtt=0 parameter skips it).
 */
#ifdef CONFIG_SMP_IPI_BENCH
void smp_measure_ipi_rtt(void);
#else
static inline void smp_measure_ipi_rtt(void) { }
#endif

/*
 * Hook run on each secondary CPU as it starts, before it is marked online,
 * with interrupts off (Linux's CPU-hotplug "starting" step): tells RCU
 * (kernel/smp_cpus.c).
 */
void notify_cpu_starting(unsigned int cpu);

/*
 * CPU hotplug (kernel/cpu.c): on the dying CPU, out of the online mask,
 * interrupts off: wait out the senders that saw it online and run every
 * call queued here. No call can be queued on it afterwards.
 */
void smp_cpu_dying_flush(unsigned int cpu);

/* ---- called by the arch's interrupt handlers ---- */

/* The CALL_FUNCTION IPI: run the calls queued for this CPU. */
void generic_smp_call_function_interrupt(void);

struct pt_regs;
/*
 * NMI handler helpers. First smp_stop_requested(): if true, the handler
 * calls smp_stop_this_cpu(), which marks the CPU offline and stopped and
 * halts with interrupts off for good. Then nmi_cpu_backtrace(regs): true
 * if this CPU had been asked for a backtrace and has printed it.
 */
bool smp_stop_requested(void);
__noreturn void smp_stop_this_cpu(void);
bool nmi_cpu_backtrace(struct pt_regs *regs);

#endif
