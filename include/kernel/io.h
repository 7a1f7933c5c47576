/*
 * Device access for drivers: the contract drivers include. The arch
 * provides, in <asm/io.h>: port I/O (outb/outw/outl, inb/inw/inl) and
 * MMIO (readl/writel); mapping device memory is ioremap() in <mm/mm.h>.
 */
#ifndef _KERNEL_IO_H
#define _KERNEL_IO_H

#include <asm/io.h>

#endif
