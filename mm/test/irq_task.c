/*
 * mm_irq_vs_task() (irq_task.h): the driver of mm's "interrupts against a
 * task" KTAP cases, one copy for the slab and page_pcp suites.
 */
#include "irq_task.h"
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/compiler.h>
#include <sched/kthread.h>
#include <time/time.h>

bool mm_irq_vs_task(const struct mm_irq_task *t, unsigned int *cpu)
{
	struct task_struct *p;
	struct cpumask saved;
	u64 start, end, last;

	*cpu = ktest_last_online_cpu();
	init_completion(t->done);
	p = ktest_kthread(t->task_fn, NULL, *cpu, t->name);
	if (!p)
		return false;
	ktest_pin_current(0, &saved);	/* off the task's CPU, so the calls are interrupts there */
	wake_up_process(p);
	start = local_clock();
	end = start + t->ms * 1000000ULL;
	last = start + (t->enough ? t->max_ms : t->ms) * 1000000ULL;
	for (;;) {
		u64 now = local_clock();

		if (now >= last || (now >= end && (!t->enough || t->enough())))
			break;
		if (smp_call_function_single(*cpu, t->irq_fn, NULL, 1))
			break;
		cond_resched();
	}
	WRITE_ONCE(*t->stop, true);
	ktest_unpin_current(&saved);
	if (!KTAP_EXPECT_MSG(ktest_wait(t->done, 20000), "the task on CPU %u did not finish", *cpu)) {
		ktest_stop_if(p, false, 0);
		return false;
	}
	smp_call_function_single(*cpu, t->release_fn, NULL, 1);
	ktest_stop(p, 5000, NULL);
	return true;
}
