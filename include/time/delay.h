/*
 * Delays: the busy-waits udelay/ndelay/mdelay (<time/time.h>) and the
 * sleeping msleep/ssleep/usleep_range (kernel/time/sleep.c), which need
 * task context. Sleeps last at least what is asked, rounded up to the
 * tick: up to one jiffy (1000/HZ ms) plus wakeup latency longer.
 */
#ifndef _TIME_DELAY_H
#define _TIME_DELAY_H

#include <time/time.h>

void msleep(unsigned int msecs);
/* No signals here: sleeps like msleep() in TASK_INTERRUPTIBLE, returns 0 (ms left). */
unsigned long msleep_interruptible(unsigned int msecs);
static inline void ssleep(unsigned int seconds) { msleep(seconds * 1000); }
/*
 * Sleep at least min microseconds. Below USLEEP_SPIN_US this busy-waits
 * (udelay); otherwise it sleeps on a jiffy timer, which may overrun max
 * by up to a jiffy: there are no high-resolution timers.
 */
#define USLEEP_SPIN_US	10
void usleep_range(unsigned long min, unsigned long max);

#endif
