/*
 * The shape shared by mm's "interrupts against a task" cases (slab's
 * slab_irq_vs_task, page_pcp's page_pcp_irq_vs_task): a task loops on the
 * last online CPU while this one cross-calls it, so that the calls land
 * inside the task's lock-free per-CPU pushes and pops (mm/test/irq_task.c).
 */
#ifndef MM_TEST_IRQ_TASK_H
#define MM_TEST_IRQ_TASK_H

#include <kernel/types.h>
#include <kernel/smp.h>
#include <sched/completion.h>

struct mm_irq_task {
	const char *name;		/* the task's name, with one %u for its CPU */
	int (*task_fn)(void *);		/* loops until *stop, completes *done, ktest_wait_stop() */
	smp_call_func_t irq_fn;		/* each cross-call on the task's CPU */
	smp_call_func_t release_fn;	/* once, there, after the task finished */
	bool *stop;
	struct completion *done;
	unsigned int ms;		/* how long the calls go on */
	/*
	 * Optional: the calls go on past ms, up to max_ms, until enough()
	 * (e.g. until enough of them landed inside a push or pop).
	 */
	bool (*enough)(void);
	unsigned int max_ms;
};

/*
 * Run t: the task on the last online CPU (*cpu), cross-calls from CPU 0
 * for t->ms, then stop, wait, release and stop the thread. False (and a
 * failed expectation when the task hung) if it did not run to the end.
 */
bool mm_irq_vs_task(const struct mm_irq_task *t, unsigned int *cpu);

#endif
