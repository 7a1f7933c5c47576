/*
 * might_sleep(): marks a function that may sleep. With
 * CONFIG_DEBUG_ATOMIC_SLEEP (selected by CONFIG_PROVE_LOCKING) a call from
 * atomic context (preemption or interrupts off, a spinlock or, with
 * preemptible RCU, an RCU reader held) prints Linux's "BUG: sleeping
 * function called from invalid context at file:line" report, even when
 * this particular call would not have slept. Off, it is nothing.
 *
 * With CONFIG_PREEMPT_VOLUNTARY it is also a voluntary preemption point, as
 * Linux's might_resched(): a reschedule pending there is taken at once
 * (__cond_resched(), kernel/sched/core.c).
 */
#ifndef _KERNEL_MIGHT_SLEEP_H
#define _KERNEL_MIGHT_SLEEP_H

#ifdef CONFIG_PREEMPT_VOLUNTARY
int __cond_resched(void);
#define might_resched()	((void)__cond_resched())
#else
#define might_resched()	do { } while (0)
#endif

#ifdef CONFIG_DEBUG_ATOMIC_SLEEP
void __might_sleep(const char *file, int line);
#define might_sleep()	do { __might_sleep(__FILE__, __LINE__); might_resched(); } while (0)
#else
#define might_sleep()	might_resched()
#endif

#endif
