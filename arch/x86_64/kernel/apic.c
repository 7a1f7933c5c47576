/*
 * Local APIC access in xAPIC (MMIO at 0xFEE00000) or x2APIC (MSRs) mode,
 * chosen once on the boot CPU: x2APIC when CPUID offers it and
 * CONFIG_X86_X2APIC is set. Register numbers are xAPIC MMIO offsets;
 * x2APIC maps offset R to MSR 0x800 + R/16.
 */
#include <kernel/printk.h>
#include <time/time.h>
#include <asm/io.h>
#include <asm/barrier.h>
#include <asm/x86/x86.h>
#include <asm/x86/apic.h>

#define APIC_MMIO_BASE	0xfee00000UL

bool x2apic_mode;
static volatile u8 __iomem *const apic_mmio = (volatile u8 __iomem *)APIC_MMIO_BASE;

u32 apic_read(u32 reg)
{
	if (x2apic_mode)
		return (u32)rdmsr(0x800 + (reg >> 4));
	return readl(apic_mmio + reg);
}

void apic_write(u32 reg, u32 val)
{
	if (x2apic_mode)
		wrmsr(0x800 + (reg >> 4), val);
	else
		writel(val, apic_mmio + reg);
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

u32 apic_read_id(void)
{
	u32 id = apic_read(APIC_ID);
	return x2apic_mode ? id : id >> 24;
}

void apic_wait_icr_idle(void)
{
	if (x2apic_mode)
		return;		/* x2APIC has no delivery-status bit to poll */
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY)
		cpu_relax();
}

/*
 * Send an IPI. Callers disable interrupts: in xAPIC mode the two ICR
 * writes must not be split by an interrupt handler that sends its own IPI.
 */
void apic_send_ipi(u32 apic_id, u32 icr_low)
{
	if (x2apic_mode) {
		/* MSR writes to the ICR are not serialising: order prior stores first. */
		mb();
		wrmsr(0x800 + (APIC_ICR >> 4), ((u64)apic_id << 32) | icr_low);
		return;
	}
	apic_wait_icr_idle();
	apic_write(APIC_ICR2, apic_id << 24);
	apic_write(APIC_ICR, icr_low);
}

static void apic_enable_this_cpu(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	base |= APIC_BASE_ENABLE;
	if (x2apic_mode)
		base |= APIC_BASE_X2APIC;
	wrmsr(MSR_APIC_BASE, base);
	apic_write(APIC_TPR, 0);
	apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	apic_write(APIC_LVT_LINT1, APIC_DM_NMI);	/* LINT1 carries NMIs on PCs */
	apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_APIC_VECTOR);
	apic_eoi();
}

static void mask_legacy_pic(void)
{
	/* Remap the 8259s away from the exception vectors, then mask every line. */
	outb(0x20, 0x11); outb(0xa0, 0x11);
	outb(0x21, 0x20); outb(0xa1, 0x28);
	outb(0x21, 0x04); outb(0xa1, 0x02);
	outb(0x21, 0x01); outb(0xa1, 0x01);
	outb(0x21, 0xff); outb(0xa1, 0xff);
}

void apic_init_bsp(void)
{
	u32 a, b, c, d;

	mask_legacy_pic();
	cpuid(1, 0, &a, &b, &c, &d);
	x2apic_mode = IS_ENABLED(CONFIG_X86_X2APIC) && (c & (1u << 21));
	apic_enable_this_cpu();
	printk(KERN_INFO "x86: local APIC in %s mode, boot CPU APIC ID %u\n",
	       x2apic_mode ? "x2APIC" : "xAPIC", apic_read_id());
}

void apic_init_ap(void)
{
	apic_enable_this_cpu();
}
