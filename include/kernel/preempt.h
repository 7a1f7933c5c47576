/*
 * The per-CPU preempt count, laid out as in Linux: bits 0-7 preemption
 * disable depth, 8-15 softirq, 16-19 hardirq nesting, 20-23 NMI nesting.
 * in_interrupt(), in_task() and the scheduler's "may I switch?" checks read it.
 * Without CONFIG_PREEMPT_COUNT (only possible without preemption),
 * preempt_disable() and preempt_enable() are compiler barriers and bits
 * 0-7 stay zero outside the scheduler's own switch path; the interrupt
 * counts are always kept.
 */
#ifndef _KERNEL_PREEMPT_H
#define _KERNEL_PREEMPT_H

#include <kernel/percpu.h>

#define PREEMPT_OFFSET	(1U << 0)
#define SOFTIRQ_OFFSET	(1U << 8)
#define HARDIRQ_OFFSET	(1U << 16)
#define NMI_OFFSET	(1U << 20)
#define PREEMPT_MASK	0x000000ffU
#define SOFTIRQ_MASK	0x0000ff00U
#define HARDIRQ_MASK	0x000f0000U
#define NMI_MASK	0x00f00000U

DECLARE_PER_CPU(int, __preempt_count);
DECLARE_PER_CPU(int, __need_resched);

#define preempt_count()		((unsigned int)this_cpu_read(__preempt_count))
#define preempt_count_add(n)	this_cpu_add(__preempt_count, (int)(n))
#define preempt_count_sub(n)	this_cpu_sub(__preempt_count, (int)(n))

#define in_nmi()		(preempt_count() & NMI_MASK)
#define in_hardirq()		(preempt_count() & HARDIRQ_MASK)
#define in_softirq()		(preempt_count() & SOFTIRQ_MASK)
#define in_interrupt()		(preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))
#define in_task()		(!in_interrupt())
#define need_resched()		(this_cpu_read(__need_resched) != 0)

/* Called by preempt_enable() when the count drops to zero and a reschedule is pending. */
void preempt_schedule(void);

#ifdef CONFIG_PREEMPT_COUNT
#define preempt_disable()	do { preempt_count_add(1); barrier(); } while (0)
#define preempt_enable_no_resched() do { barrier(); preempt_count_sub(1); } while (0)
#define preempt_enable() do {							\
	barrier();								\
	preempt_count_sub(1);							\
	if (IS_ENABLED(CONFIG_PREEMPTION) && unlikely(preempt_count() == 0 &&	\
						      need_resched()))		\
		preempt_schedule();						\
} while (0)
#else
/* Nothing preempts a task here: a section only has to keep the compiler's order. */
#define preempt_disable()		barrier()
#define preempt_enable_no_resched()	barrier()
#define preempt_enable()		barrier()
#endif

#endif
