/*
 * The Kernel Concurrency Sanitizer's interface to the rest of the kernel
 * (CONFIG_KCSAN; runtime in kernel/kcsan/, Documentation/dev-tools/kcsan.md):
 *
 *   data_race(expr)    evaluate expr without KCSAN looking: an intended race
 *                      (a statistic, a heuristic). Say in a comment why it is
 *                      safe; it is not a substitute for READ_ONCE() where the
 *                      compiler must not tear, fuse or repeat the access.
 *   __no_kcsan         a function whose accesses are not instrumented.
 *   kcsan_disable_current()/kcsan_enable_current()   the same as data_race()
 *                      for a stretch of code, nestable, per task (or per CPU
 *                      in interrupt context).
 *   kcsan_init()       switches the runtime on once every CPU has its per-CPU
 *                      area (init/main.c); nothing is checked before.
 *
 * Without CONFIG_KCSAN all of these cost nothing.
 */
#ifndef _KERNEL_KCSAN_H
#define _KERNEL_KCSAN_H

#include <kernel/compiler.h>

#ifdef CONFIG_KCSAN
void kcsan_init(void);
void kcsan_disable_current(void);
void kcsan_enable_current(void);
/* The power-off line "kcsan: N watchpoints set, N races found, N reported". */
void kcsan_show_stats(void);
/* Counters since boot, for the self-test: reports printed, races found, watchpoints set. */
unsigned long kcsan_nr_reports(void);
unsigned long kcsan_nr_races_found(void);
unsigned long kcsan_nr_watchpoints_set(void);
/* CONFIG_KCSAN_SELFTEST: count the races on [p, p + size) apart (kcsan_test_races_at()). */
void kcsan_test_watch_addr(const void *p, size_t size);
unsigned long kcsan_test_races_at(void);
#define __no_kcsan	__attribute__((no_sanitize_thread))
#else
static inline void kcsan_init(void) { }
static inline void kcsan_disable_current(void) { }
static inline void kcsan_enable_current(void) { }
static inline void kcsan_show_stats(void) { }
static inline unsigned long kcsan_nr_reports(void) { return 0; }
static inline unsigned long kcsan_nr_races_found(void) { return 0; }
static inline unsigned long kcsan_nr_watchpoints_set(void) { return 0; }
#define __no_kcsan
#endif

/*
 * The value of expr, read with KCSAN's checks off for this context. The
 * access itself is an ordinary one: the compiler may still tear or fuse it.
 */
#define data_race(expr) ({							\
	__auto_type __kcsan_v = ({ kcsan_disable_current(); (expr); });	\
	kcsan_enable_current();							\
	__kcsan_v; })

#endif
