/*
 * Generic interrupt entry/exit accounting and the interrupt table printed
 * at shutdown in the format of Linux's /proc/interrupts.
 */
#include <kernel/irq.h>
#include <kernel/preempt.h>
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <time/tick.h>
#include <kernel/context_tracking.h>

DEFINE_PER_CPU(struct irq_stat, irq_stat);

/*
 * Hard-interrupt entry: RCU starts watching (context tracking), then the
 * hardirq count goes up. The outermost interrupt on a CPU whose tick is
 * stopped (dyntick-idle) first brings jiffies up to date.
 */
void irq_enter(void)
{
	ct_irq_enter();
	preempt_count_add(HARDIRQ_OFFSET);
	if ((preempt_count() & HARDIRQ_MASK) == HARDIRQ_OFFSET)
		tick_irq_enter();
}

/* The reverse; leaving the outermost interrupt may restart a stopped tick. */
void irq_exit(void)
{
	preempt_count_sub(HARDIRQ_OFFSET);
	if (!in_interrupt())
		tick_irq_exit();
	ct_irq_exit();
}

void nmi_enter(void)
{
	preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
	ct_nmi_enter();
}

void nmi_exit(void)
{
	ct_nmi_exit();
	preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
}

static void show_row(const char *name, size_t field, const char *desc)
{
	char line[1024];
	int n = scnprintf(line, sizeof(line), "%4s:", name);
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		const unsigned int *v = (const unsigned int *)((const char *)&per_cpu(irq_stat, cpu) + field);
		n += scnprintf(line + n, sizeof(line) - n, " %10u", *v);
	}
	printk(KERN_INFO "%s   %s\n", line, desc);
}

void show_interrupts(void)
{
	char line[1024];
	int n = scnprintf(line, sizeof(line), "     ");
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		char name[16];
		snprintf(name, sizeof(name), "CPU%u", cpu);
		n += scnprintf(line + n, sizeof(line) - n, " %10s", name);
	}
	printk(KERN_INFO "%s\n", line);
	show_row("LOC", offsetof(struct irq_stat, local_timer), "Local timer interrupts");
	show_row("RES", offsetof(struct irq_stat, resched), "Rescheduling interrupts");
	show_row("CAL", offsetof(struct irq_stat, call_function), "Function call interrupts");
	show_row("NMI", offsetof(struct irq_stat, nmi), "Non-maskable interrupts");
	show_row("SPU", offsetof(struct irq_stat, spurious), "Spurious interrupts");
}
