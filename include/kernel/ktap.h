/*
 * In-kernel self-tests reported in KTAP, the format Linux's KUnit prints:
 *
 *   KTAP version 1
 *   1..2
 *       KTAP version 1
 *       # Subtest: sched
 *       1..3
 *       ok 1 sched_kthreads_every_cpu
 *       not ok 2 sched_fifo_preempt
 *       ok 3 sched_migrate # SKIP needs 2 CPUs
 *   # sched: pass:1 fail:1 skip:1 total:3
 *   not ok 1 sched
 *   # Totals: pass:1 fail:1 skip:1 total:3
 *
 * A case is a function that reports through ktap_expect()/KTAP_EXPECT and
 * may call ktap_skip(). Suites register with KTAP_SUITE and run from
 * ktap_run_suites() when their enable flag (a boot parameter) is set, or
 * one by name from the console monitor (ktap_run_suite_named()).
 */
#ifndef _KERNEL_KTAP_H
#define _KERNEL_KTAP_H

#include <kernel/compiler.h>
#include <kernel/errno.h>

struct ktap_case {
	const char *name;
	void (*run)(void);
};

struct ktap_suite {
	const char *name;
	const struct ktap_case *cases;
	unsigned int ncases;
	const bool *enabled;		/* run only when *enabled (NULL: always) */
};

#define KTAP_CASE(fn)	{ #fn, fn }
#define KTAP_SUITE(_name, _cases, _enabled)					\
	static const struct ktap_suite __ktap_suite_##_name __used		\
		__section(".ktap_suites") __aligned(8) = {			\
		.name = #_name, .cases = _cases, .ncases = ARRAY_SIZE(_cases),	\
		.enabled = _enabled }

/* Record a check in the running case; prints the failed condition and location. */
bool __ktap_expect(bool ok, const char *cond, const char *file, int line);
#define KTAP_EXPECT(cond)	__ktap_expect(!!(cond), #cond, __FILE__, __LINE__)
#define KTAP_EXPECT_MSG(cond, fmt, ...) ({					\
	bool __ok = __ktap_expect(!!(cond), #cond, __FILE__, __LINE__);	\
	if (!__ok)								\
		ktap_diag(fmt, ##__VA_ARGS__);					\
	__ok; })
/* Mark the running case skipped (a reason is printed after "# SKIP"). */
void ktap_skip(const char *reason);
/* A "# ..." diagnostic line inside the running case. */
__printf(1, 2) void ktap_diag(const char *fmt, ...);

/* Run every enabled suite; returns the number of failed cases. */
#ifdef CONFIG_KTEST
int ktap_run_suites(void);
/*
 * Run the suite called name whatever its enable flag (the console
 * monitor's `ktap` command): failed cases, or -ENOENT if there is none.
 */
int ktap_run_suite_named(const char *name);
/* Call fn for every suite built in. */
void ktap_for_each_suite(void (*fn)(const char *name, unsigned int ncases));
#else
static inline int ktap_run_suites(void) { return 0; }
static inline int ktap_run_suite_named(const char *name) { return -ENOENT; }
static inline void ktap_for_each_suite(void (*fn)(const char *name, unsigned int ncases)) { }
#endif

#endif
