/*
 * Saved backtraces: the return addresses of the current context's frames,
 * innermost first, for reports that print a stack later or print two
 * (KCSAN's). Arch contract (arch/x86_64/kernel/traps.c, frame pointers).
 */
#ifndef _KERNEL_STACKTRACE_H
#define _KERNEL_STACKTRACE_H

/* Store at most size return addresses, after skipping skip frames; returns how many. */
unsigned int stack_trace_save(unsigned long *store, unsigned int size, unsigned int skip);

#endif
