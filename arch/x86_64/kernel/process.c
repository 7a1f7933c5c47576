/* Initial stack frame of a new task, matching what __switch_to_asm pops. */
#include <sched/task.h>
#include <asm/switch_to.h>

extern char ret_from_kthread[];

void arch_task_stack_init(struct task_struct *p, void (*entry)(void *), void *arg)
{
	/* The stack top is 16-byte aligned, so ret_from_kthread starts ABI-aligned. */
	unsigned long *sp = (unsigned long *)p->stack_top;

	*--sp = (unsigned long)ret_from_kthread;
	*--sp = 0;				/* rbp: ends backtraces */
	*--sp = 0;				/* rbx */
	*--sp = (unsigned long)entry;		/* r12 */
	*--sp = (unsigned long)arg;		/* r13 */
	*--sp = 0;				/* r14 */
	*--sp = 0;				/* r15 */
	p->thread.sp = (unsigned long)sp;
}
