/*
 * Context switch (arch contract). A switched-out task's callee-saved
 * registers sit on its own stack and its stack pointer in p->thread.sp.
 * Before the stacks are exchanged, the CPU is told next's kernel stack
 * (TSS RSP0 and the SYSCALL stack: where user-mode entries land) and
 * next's address space is loaded (a process's page tables, or the
 * kernel's for a kthread), and the FPU/SSE/AVX registers are switched
 * (arch/x86_64/kernel/fpu.c).
 */
#ifndef _ASM_SWITCH_TO_H
#define _ASM_SWITCH_TO_H

#include <kernel/types.h>

struct task_struct;

/*
 * Switch from prev to next; returns, in next's context, the task that was
 * switched away from (so the new side can finish the switch).
 */
struct task_struct *__switch_to_asm(unsigned long *prev_sp, unsigned long next_sp,
				    struct task_struct *prev);
/* cpu.c and arch/x86_64/mm/uspace.c: next's kernel stack top and address space. */
void x86_set_kernel_stack(unsigned long top);
void x86_load_uspace(u64 uspace);
/* fpu.c: prev's FPU/SSE/AVX registers saved, next's loaded (processes only). */
void x86_fpu_switch(struct task_struct *prev, struct task_struct *next);
#define arch_switch_to(prev, next) ({						\
	x86_set_kernel_stack((unsigned long)(next)->stack_top);			\
	x86_load_uspace((next)->thread.uspace);					\
	x86_fpu_switch((prev), (next));						\
	__switch_to_asm(&(prev)->thread.sp, (next)->thread.sp, (prev)); })

/*
 * Prepare a new task's stack so that its first switch-in calls
 * schedule_tail(prev) and then entry(arg), which must never return.
 */
void arch_task_stack_init(struct task_struct *p, void (*entry)(void *), void *arg);

#endif
