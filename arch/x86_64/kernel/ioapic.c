/*
 * The I/O APIC, just enough to deliver legacy ISA interrupts (the serial
 * port's receive interrupt, IRQ 4) to the boot CPU. The 8259 PICs stay
 * masked (apic.c); the MADT (acpi.c) says where the I/O APIC is and how
 * ISA lines map to its inputs. Everything else in this kernel is an IPI
 * or the local timer, so there is no general interrupt-routing layer.
 */
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <locking/spinlock.h>
#include <asm/io.h>
#include <asm/x86/x86.h>

#define IOAPIC_MAPPED_PHYS	0xfec00000UL	/* the page paging.c maps uncached */
#define IOAPIC_REGSEL		0x00
#define IOAPIC_WINDOW		0x10
#define IOAPIC_REG_VER		0x01
#define IOAPIC_REDTBL(n)	(0x10 + 2 * (n))

#define REDIR_MASKED		(1u << 16)
#define REDIR_LEVEL		(1u << 15)
#define REDIR_ACTIVE_LOW	(1u << 13)

/* MPS INTI flags in the MADT override: 00 = bus default (ISA: high, edge). */
#define INTI_POLARITY_LOW	0x3
#define INTI_TRIGGER_LEVEL	0xc

static DEFINE_SPINLOCK(ioapic_lock);
static irq_handler_t isa_handlers[16];

static u32 ioapic_read(u32 reg)
{
	u8 __iomem *base = (u8 __iomem *)(uintptr_t)x86_ioapic.phys;

	writel(reg, base + IOAPIC_REGSEL);
	return readl(base + IOAPIC_WINDOW);
}

static void ioapic_write(u32 reg, u32 val)
{
	u8 __iomem *base = (u8 __iomem *)(uintptr_t)x86_ioapic.phys;

	writel(reg, base + IOAPIC_REGSEL);
	writel(val, base + IOAPIC_WINDOW);
}

/* One vector per ISA line; the dispatcher in traps.c sends the EOI afterwards. */
static void isa_irq_interrupt(struct pt_regs *regs)
{
	unsigned int irq = (unsigned int)regs->vector - ISA_IRQ_VECTOR(0);

	if (irq < 16 && isa_handlers[irq])
		isa_handlers[irq]();
}

int arch_request_legacy_irq(unsigned int irq, irq_handler_t handler)
{
	u32 gsi, pin, lo, entries;
	u16 flags;
	unsigned long irqflags;

	if (irq >= 16 || !handler)
		return -EINVAL;
	/* Only the page paging.c maps: a firmware that puts it elsewhere gets no ISA interrupts. */
	if (x86_ioapic.phys != IOAPIC_MAPPED_PHYS) {
		pr_warn("x86: no I/O APIC at %#lx (MADT: %#x): IRQ %u not routed\n",
			IOAPIC_MAPPED_PHYS, x86_ioapic.phys, irq);
		return -ENODEV;
	}
	gsi = x86_ioapic.isa_gsi[irq];
	flags = x86_ioapic.isa_flags[irq];
	entries = ((ioapic_read(IOAPIC_REG_VER) >> 16) & 0xff) + 1;
	if (gsi < x86_ioapic.gsi_base || gsi - x86_ioapic.gsi_base >= entries)
		return -ENODEV;
	pin = gsi - x86_ioapic.gsi_base;

	lo = ISA_IRQ_VECTOR(irq);	/* fixed delivery, physical destination */
	if ((flags & INTI_POLARITY_LOW) == INTI_POLARITY_LOW)
		lo |= REDIR_ACTIVE_LOW;
	if ((flags & INTI_TRIGGER_LEVEL) == INTI_TRIGGER_LEVEL)
		lo |= REDIR_LEVEL;

	spin_lock_irqsave(&ioapic_lock, irqflags);
	isa_handlers[irq] = handler;
	x86_set_irq_handler(ISA_IRQ_VECTOR(irq), isa_irq_interrupt);
	/* Masked while the destination (the boot CPU, APIC ID < 256 in xAPIC terms) is written. */
	ioapic_write(IOAPIC_REDTBL(pin), REDIR_MASKED);
	ioapic_write(IOAPIC_REDTBL(pin) + 1, x86_cpu_to_apicid[0] << 24);
	ioapic_write(IOAPIC_REDTBL(pin), lo);
	spin_unlock_irqrestore(&ioapic_lock, irqflags);
	return 0;
}
