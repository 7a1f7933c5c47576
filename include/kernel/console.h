/* The console device: the 8250 UART driver's entry points used by printk. */
#ifndef _KERNEL_CONSOLE_H
#define _KERNEL_CONSOLE_H

#include <kernel/types.h>

void serial8250_init(void);
void serial8250_write(const char *s, size_t len);
/* console=ttyS0[,baud[parity[bits]]], once the command line is parsed (kernel/params.c). */
void console_setup_params(void);

#endif
