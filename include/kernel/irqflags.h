/* local_irq_* in the names Linux code uses; flags are a value (never a pointer). */
#ifndef _KERNEL_IRQFLAGS_H
#define _KERNEL_IRQFLAGS_H

#include <asm/irqflags.h>

#define local_irq_disable()	arch_local_irq_disable()
#define local_irq_enable()	arch_local_irq_enable()
#define local_irq_save(flags)	do { (flags) = arch_local_irq_save(); } while (0)
#define local_irq_restore(flags) arch_local_irq_restore(flags)
#define local_save_flags(flags)	do { (flags) = arch_local_save_flags(); } while (0)
#define irqs_disabled()		arch_irqs_disabled()
#define irqs_disabled_flags(f)	arch_irqs_disabled_flags(f)

#endif
