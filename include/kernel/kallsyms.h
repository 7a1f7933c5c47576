/* Address-to-symbol lookup used by %pS/%ps and backtraces. */
#ifndef _KERNEL_KALLSYMS_H
#define _KERNEL_KALLSYMS_H

#include <kernel/types.h>

/*
 * Write "func+0x1a/0x40" (with_offset) or "func" for addr into buf, like
 * scnprintf: always NUL-terminated, returns the length written. An address
 * outside any symbol is printed as a 0x-prefixed hex number.
 */
int sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset);

/* As sprint_symbol, for a return address (looks up addr - 1). */
int sprint_backtrace(char *buf, size_t size, unsigned long addr);
const char *kallsyms_lookup(unsigned long addr, unsigned long *size, unsigned long *offset);
/* Make %pS/%ps print symbols (installs sprint_symbol() into lib/vsprintf.c). */
void kallsyms_init(void);

#endif
