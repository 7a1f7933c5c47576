/* CPU-level helpers of the arch contract: TSC read, stack and frame pointers. */
#ifndef _ASM_PROCESSOR_H
#define _ASM_PROCESSOR_H

#include <kernel/types.h>

static inline u64 arch_read_cycles(void)
{
	u32 lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}
static inline unsigned long arch_frame_pointer(void)
{
	unsigned long fp;
	__asm__ volatile("movq %%rbp, %0" : "=r"(fp));
	return fp;
}
static inline unsigned long arch_stack_pointer(void)
{
	unsigned long sp;
	__asm__ volatile("movq %%rsp, %0" : "=r"(sp));
	return sp;
}

/* Switch to a fresh stack (top = highest address) and call fn there; never returns. */
static inline __attribute__((noreturn)) void arch_run_on_stack(void *top, void (*fn)(void))
{
	__asm__ volatile("movq %0, %%rsp\n\t"
			 "xorl %%ebp, %%ebp\n\t"	/* ends backtraces here */
			 "call *%1\n\t"
			 "ud2" :: "r"(top), "r"(fn) : "memory");
	__builtin_unreachable();
}

#endif
