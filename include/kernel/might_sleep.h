/*
 * might_sleep(): marks a function that may sleep. With
 * CONFIG_DEBUG_ATOMIC_SLEEP (selected by CONFIG_PROVE_LOCKING) a call from
 * atomic context (preemption or interrupts off, a spinlock or, with
 * preemptible RCU, an RCU reader held) prints Linux's "BUG: sleeping
 * function called from invalid context at file:line" report, even when
 * this particular call would not have slept. Off, it is nothing.
 */
#ifndef _KERNEL_MIGHT_SLEEP_H
#define _KERNEL_MIGHT_SLEEP_H

#ifdef CONFIG_DEBUG_ATOMIC_SLEEP
void __might_sleep(const char *file, int line);
#define might_sleep()	__might_sleep(__FILE__, __LINE__)
#else
#define might_sleep()	do { } while (0)
#endif

#endif
