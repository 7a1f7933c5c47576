/* Port I/O and MMIO accessors (arch contract used by drivers). */
#ifndef _ASM_IO_H
#define _ASM_IO_H

#include <kernel/types.h>
#include <kernel/compiler.h>	/* __iomem, __force */

static inline void outb(u16 port, u8 v) { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { __asm__ volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline u8 inb(u16 port) { u8 v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u16 inw(u16 port) { u16 v; __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u32 inl(u16 port) { u32 v; __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

/* MMIO pointers are __iomem (sparse keeps them apart from memory); these are the only way in. */
static inline u32 readl(const volatile void __iomem *addr)
{
	return *(const volatile u32 __force *)addr;
}
static inline void writel(u32 v, volatile void __iomem *addr)
{
	*(volatile u32 __force *)addr = v;
}

#endif
