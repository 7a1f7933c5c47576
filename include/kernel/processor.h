/*
 * CPU-level helpers: the contract generic code includes. The arch
 * provides, in <asm/processor.h>: arch_read_cycles() (a cycle counter),
 * arch_frame_pointer() and arch_stack_pointer() (for backtraces and
 * stack checks), and arch_run_on_stack() (switch stacks and call a
 * function that never returns).
 */
#ifndef _KERNEL_PROCESSOR_H
#define _KERNEL_PROCESSOR_H

#include <asm/processor.h>

#endif
