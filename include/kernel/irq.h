/*
 * Interrupt bookkeeping shared by arch and generic code: per-CPU interrupt
 * counters (the shutdown table's LOC/RES/CAL/NMI rows) and irq_enter/exit,
 * which maintain the hardirq part of the preempt count.
 */
#ifndef _KERNEL_IRQ_H
#define _KERNEL_IRQ_H

#include <kernel/percpu.h>

struct irq_stat {
	unsigned int local_timer;	/* LOC */
	unsigned int resched;		/* RES */
	unsigned int call_function;	/* CAL */
	unsigned int nmi;		/* NMI */
	unsigned int spurious;		/* SPU */
};
DECLARE_PER_CPU(struct irq_stat, irq_stat);

#define inc_irq_stat(field)	this_cpu_inc(irq_stat.field)

/*
 * Arch contract: true while handling an interrupt that came from user mode
 * (Linux's user_mode(get_irq_regs())), for the tick's RCU quiescent state.
 */
bool arch_irq_interrupted_user(void);

/*
 * Arch contract: in a device or timer interrupt's handler, print the
 * registers and backtrace of what it interrupted (Linux's
 * show_regs(get_irq_regs()), for the soft-lockup report) and return true;
 * false, printing nothing, outside one.
 */
bool arch_show_irq_regs(void);

void irq_enter(void);
void irq_exit(void);
void nmi_enter(void);
void nmi_exit(void);

/*
 * Device interrupts (arch contract): route legacy ISA line irq (0-15;
 * COM1 is 4) to the boot CPU and call handler for it in hard-interrupt
 * context, interrupts off; the arch acknowledges the interrupt after the
 * handler returns. Returns 0, or -ENODEV when the line cannot be routed.
 */
typedef void (*irq_handler_t)(void);
int arch_request_legacy_irq(unsigned int irq, irq_handler_t handler);

/* Print the /proc/interrupts-style table of every possible CPU. */
void show_interrupts(void);

#endif
