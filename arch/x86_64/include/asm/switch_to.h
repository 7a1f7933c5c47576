/*
 * Context switch (arch contract). A switched-out task's callee-saved
 * registers sit on its own stack and its stack pointer in p->thread.sp.
 */
#ifndef _ASM_SWITCH_TO_H
#define _ASM_SWITCH_TO_H

struct task_struct;

/*
 * Switch from prev to next; returns, in next's context, the task that was
 * switched away from (so the new side can finish the switch).
 */
struct task_struct *__switch_to_asm(unsigned long *prev_sp, unsigned long next_sp,
				    struct task_struct *prev);
#define arch_switch_to(prev, next) \
	__switch_to_asm(&(prev)->thread.sp, (next)->thread.sp, (prev))

/*
 * Prepare a new task's stack so that its first switch-in calls
 * schedule_tail(prev) and then entry(arg), which must never return.
 */
void arch_task_stack_init(struct task_struct *p, void (*entry)(void *), void *arg);

#endif
