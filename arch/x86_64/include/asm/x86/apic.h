/* Local APIC register offsets (xAPIC MMIO layout) and bits. arch/ only. */
#ifndef _ASM_X86_APIC_H
#define _ASM_X86_APIC_H

#define APIC_ID			0x020
#define APIC_VERSION		0x030
#define APIC_TPR		0x080
#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define APIC_ESR		0x280
#define APIC_ICR		0x300
#define APIC_ICR2		0x310
#define APIC_LVT_TIMER		0x320
#define APIC_LVT_LINT0		0x350
#define APIC_LVT_LINT1		0x360
#define APIC_LVT_ERROR		0x370
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_CUR		0x390
#define APIC_TIMER_DIV		0x3e0

#define APIC_SVR_ENABLE		0x100
#define APIC_LVT_MASKED		0x10000
#define APIC_TIMER_PERIODIC	0x20000
#define APIC_ICR_BUSY		0x1000
#define APIC_BASE_ENABLE	0x800
#define APIC_BASE_X2APIC	0x400
#define APIC_TIMER_DIV_16	0x3

#endif
