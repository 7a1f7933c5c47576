/*
 * Inter-processor interrupts through the local APIC: the CALL_FUNCTION
 * and RESCHEDULE vectors (senders and handlers) and NMIs, plus the NMI
 * handler that serves smp_send_stop() and NMI backtraces. The policy
 * (queues, masks, waiting) is generic, in kernel/smp.c and kernel/smp_nmi.c.
 */
#include <kernel/smp.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/irqflags.h>
#include <kernel/sched_hooks.h>
#include <time/tick.h>
#include <kernel/atomic.h>
#include <asm/smp.h>
#include <asm/io.h>
#include <asm/x86/x86.h>

#define NMI_REASON_PORT	0x61

/* Interrupts off around the send: an xAPIC ICR write is two registers. */
static void send_ipi(int cpu, u32 icr)
{
	unsigned long flags;

	local_irq_save(flags);
	apic_send_ipi(x86_cpu_to_apicid[cpu], icr);
	local_irq_restore(flags);
}

void arch_send_call_function_ipi_mask(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		send_ipi(cpu, APIC_DM_FIXED | APIC_LEVEL_ASSERT | CALL_FUNCTION_VECTOR);
}

void arch_send_call_function_single_ipi(int cpu)
{
	send_ipi(cpu, APIC_DM_FIXED | APIC_LEVEL_ASSERT | CALL_FUNCTION_VECTOR);
}

void arch_smp_send_reschedule(int cpu)
{
	send_ipi(cpu, APIC_DM_FIXED | APIC_LEVEL_ASSERT | RESCHEDULE_VECTOR);
}

void arch_send_nmi(int cpu)
{
	send_ipi(cpu, APIC_DM_NMI | APIC_LEVEL_ASSERT);
}

static void call_function_interrupt(struct pt_regs *regs)
{
	inc_irq_stat(call_function);
	generic_smp_call_function_interrupt();
}

static void reschedule_interrupt(struct pt_regs *regs)
{
	inc_irq_stat(resched);
	scheduler_ipi();
}

void arch_smp_prepare_cpus(void)
{
	x86_set_irq_handler(CALL_FUNCTION_VECTOR, call_function_interrupt);
	x86_set_irq_handler(RESCHEDULE_VECTOR, reschedule_interrupt);
}

void arch_show_regs(struct pt_regs *regs)
{
	x86_show_regs(regs);
	/* Interrupted in user mode: the RIP only, no walk of the user's frames. */
	x86_show_trace(regs->rip, user_mode(regs) ? 0 : regs->rbp);
}

/*
 * An NMI nobody in the kernel sent is external: QEMU's monitor command
 * `nmi` (scripts/qemu-run.sh sends one to every CPU when a guest overruns
 * its host-side time limit). Unlike Linux, which only prints the two lines
 * above, each CPU then shows where it was, one CPU at a time (they all
 * take the NMI at once), and CPU 0 also shows jiffies against the
 * clock and the interrupt counts: enough to tell a CPU spinning with
 * interrupts off from a stopped tick. Nothing here takes a lock the
 * interrupted code might hold.
 */
static void external_nmi_dump(struct pt_regs *regs)
{
	static unsigned long turn_lock;
	unsigned int cpu = raw_smp_processor_id();

	while (test_and_set_bit(0, &turn_lock))
		cpu_relax();
	if (cpu == 0) {
		tick_show_jiffies();
		show_interrupts();
	}
	printk(KERN_WARNING "NMI backtrace for cpu %u\n", cpu);
	arch_show_regs(regs);
	clear_bit(0, &turn_lock);
}

/*
 * Every NMI lands here (traps.c has done nmi_enter and counted it). NMIs
 * can merge while one is being handled, so each cause is checked in turn.
 */
void x86_nmi_handler(struct pt_regs *regs)
{
	u8 reason;

	if (smp_stop_requested())
		smp_stop_this_cpu();
	if (nmi_cpu_backtrace(regs))
		return;
	reason = inb(NMI_REASON_PORT);
	printk(KERN_EMERG "Uhhuh. NMI received for unknown reason %02x on CPU %u.\n",
	       reason, raw_smp_processor_id());
	printk(KERN_EMERG "Dazed and confused, but trying to continue\n");
	external_nmi_dump(regs);
}
