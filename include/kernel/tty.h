/*
 * Console input: the UART driver's receive interrupt hands each character
 * (and each BREAK) to tty_receive_*(), which offers it to Magic SysRq
 * first and queues the rest for a reader in task context (the kernel
 * monitor) through tty_read_char().
 */
#ifndef _KERNEL_TTY_H
#define _KERNEL_TTY_H

#include <kernel/types.h>

/* Hard-interrupt context, from the UART driver. */
void tty_receive_char(u8 c);
void tty_receive_break(void);

/* Task context: the next input character, sleeping until there is one. */
int tty_read_char(void);
/* Characters dropped because nobody read them in time (the buffer was full). */
unsigned long tty_input_overruns(void);

#endif
