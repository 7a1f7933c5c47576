/*
 * Saving a backtrace for later (Linux's stack_trace_save()): the return
 * addresses of the current call chain, for KASAN's allocation and free
 * stacks and KCSAN's two racing stacks. Arch contract: arch/x86_64/kernel/traps.c walks the frame
 * pointers with the same checks as its printed backtraces.
 */
#ifndef _KERNEL_STACKTRACE_H
#define _KERNEL_STACKTRACE_H

#include <kernel/types.h>

/*
 * Store up to size return addresses, starting skipnr frames above the
 * caller of arch_stack_trace_save() (skipnr 0: the caller's own return
 * address first). Returns how many were stored.
 */
unsigned int arch_stack_trace_save(unsigned long *store, unsigned int size, unsigned int skipnr);

#endif
