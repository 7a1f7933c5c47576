/*
 * What printk's own files share (kernel/printk/): the console lock, which
 * printk.c takes around each call's lines and console.c around changes
 * to the list of consoles.
 */
#ifndef _KERNEL_PRINTK_INTERNAL_H
#define _KERNEL_PRINTK_INTERNAL_H

#include <kernel/types.h>

/*
 * Take the console lock, with interrupts off. Returns false, without
 * taking it, when this CPU already holds it (a printk nested in an NMI or
 * a fault inside printk): the caller then writes through unlocked.
 */
bool console_lock(void);
void console_unlock(void);

#endif
