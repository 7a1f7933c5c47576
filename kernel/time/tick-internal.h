/*
 * Private interface between the periodic tick (tick.c) and dyntick-idle
 * (tick-sched.c).
 */
#ifndef _KERNEL_TIME_TICK_INTERNAL_H
#define _KERNEL_TIME_TICK_INTERNAL_H

#include <kernel/tick.h>

#ifdef CONFIG_NO_HZ_IDLE
/*
 * Called by tick_handle() when this CPU's tick is stopped: the interrupt
 * is the one-shot (or a stale periodic expiry). Re-arms the one-shot if it
 * fired before its jiffy began; otherwise marks it consumed, so the idle
 * loop programs the next event.
 */
void tick_nohz_handler(u64 now);
#else
static inline void tick_nohz_handler(u64 now) { }
#endif

#endif
