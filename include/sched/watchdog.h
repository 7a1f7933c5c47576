/*
 * The soft-lockup detector's figures (kernel/sched/watchdog.c,
 * CONFIG_SOFTLOCKUP_DETECTOR), for its self-test: reports printed so far
 * and the pid of the last task named; watchdog_thresh= (seconds; a report
 * comes after twice that, 0: off); and touch_softlockup_watchdog() for a
 * CPU kept busy on purpose.
 */
#ifndef _SCHED_WATCHDOG_H
#define _SCHED_WATCHDOG_H

#ifdef CONFIG_SOFTLOCKUP_DETECTOR
unsigned long watchdog_reports(int *last_pid);
int watchdog_get_thresh(void);
/* Linux's: this CPU is busy on purpose, count from now (preemption off). */
void touch_softlockup_watchdog(void);
#else
static inline unsigned long watchdog_reports(int *last_pid) { return 0; }
static inline int watchdog_get_thresh(void) { return 0; }
static inline void touch_softlockup_watchdog(void) { }
#endif

#endif
