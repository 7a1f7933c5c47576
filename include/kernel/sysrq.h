/*
 * Magic SysRq (CONFIG_MAGIC_SYSRQ, drivers/tty/sysrq.c): the console input
 * layer offers every received character and BREAK to it first; it
 * consumes the SysRq prefix (a BREAK, or the sysrq_serial_seq= sequence)
 * and the letter after it, and runs the letter's action.
 */
#ifndef _KERNEL_SYSRQ_H
#define _KERNEL_SYSRQ_H

#include <kernel/types.h>

#ifdef CONFIG_MAGIC_SYSRQ
/* A BREAK arrived: the next character within 5 s is a SysRq key. */
void sysrq_serial_break(void);
/* An input character: true if SysRq consumed it (prefix or key). */
bool sysrq_serial_char(u8 c);
/* Run the action of key as if typed after the prefix (the monitor's `sysrq` command). */
void handle_sysrq(u8 key);
#else
static inline void sysrq_serial_break(void) { }
static inline bool sysrq_serial_char(u8 c) { return false; }
static inline void handle_sysrq(u8 key) { }
#endif

#endif
