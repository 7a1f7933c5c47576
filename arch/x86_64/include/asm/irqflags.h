/* Interrupt-flag primitives behind <kernel/irqflags.h>. */
#ifndef _ASM_IRQFLAGS_H
#define _ASM_IRQFLAGS_H

#define X86_EFLAGS_IF	0x200UL

static inline unsigned long arch_local_save_flags(void)
{
	unsigned long flags;
	__asm__ volatile("pushfq; popq %0" : "=rm"(flags) :: "memory");
	return flags;
}
static inline void arch_local_irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void arch_local_irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();
	arch_local_irq_disable();
	return flags;
}
static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		arch_local_irq_enable();
}
static inline int arch_irqs_disabled_flags(unsigned long flags) { return !(flags & X86_EFLAGS_IF); }
static inline int arch_irqs_disabled(void) { return arch_irqs_disabled_flags(arch_local_save_flags()); }
/* Enable interrupts and halt in one step, so a wakeup cannot slip in between. */
static inline void arch_safe_halt(void) { __asm__ volatile("sti; hlt" ::: "memory"); }
static inline void arch_halt(void) { __asm__ volatile("hlt" ::: "memory"); }

#endif
