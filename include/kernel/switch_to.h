/*
 * Context switch: the contract the scheduler includes. The arch provides,
 * in <asm/switch_to.h>: arch_switch_to(prev, next), which returns in
 * next's context the task switched away from, and arch_task_stack_init(),
 * which makes a new task's first switch-in run schedule_tail() and then
 * its entry function.
 */
#ifndef _KERNEL_SWITCH_TO_H
#define _KERNEL_SWITCH_TO_H

#include <asm/switch_to.h>

struct task_struct;
/* The scheduler's half of a new task's first switch-in, called from the arch's assembly. */
void schedule_tail(struct task_struct *prev);

#endif
