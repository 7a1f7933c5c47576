/*
 * Shared machinery of the torture tests (kernel/torture.c), after Linux's
 * <linux/torture.h>: a cheap per-thread random-number generator, creating
 * and stopping test kthreads, the "shuffler" that moves them among the CPUs
 * (leaving one CPU idle in turn, so it enters dyntick-idle), "stutter"
 * (pause the whole test now and then, so every CPU can go idle), and the
 * timed shutdown that runs the test's cleanup and then powers off.
 * With CONFIG_HOTPLUG_CPU, "onoff" (kernel/torture_onoff.c) takes random
 * CPUs down and up, as Linux's does.
 */
#ifndef _KERNEL_TORTURE_H
#define _KERNEL_TORTURE_H

#include <kernel/types.h>
#include <kernel/printk.h>
#include <sched/task.h>

/* "rcu" + TORTURE_FLAG + "--- Start of test" = "rcu-torture:--- Start of test" */
#define TORTURE_FLAG "-torture:"

/* Linux's console helpers, printing "<type>-torture: <text>". */
extern int torture_verbose;
extern const char *torture_type_name;
#define TOROUT_STRING(s) \
	pr_alert("%s" TORTURE_FLAG " %s\n", torture_type_name, s)
#define VERBOSE_TOROUT_STRING(s) \
	do { if (torture_verbose) TOROUT_STRING(s); } while (0)
#define TOROUT_ERRSTRING(s) \
	pr_alert("%s" TORTURE_FLAG "!!! %s\n", torture_type_name, s)
#define VERBOSE_TOROUT_ERRSTRING(s) \
	do { if (torture_verbose) TOROUT_ERRSTRING(s); } while (0)

/* Per-thread pseudo-random numbers; reseeded from the clock every so often. */
struct torture_random_state {
	unsigned long trs_state;
	long trs_count;
};
#define DEFINE_TORTURE_RANDOM(name) struct torture_random_state name = { 0, 0 }
unsigned long torture_random(struct torture_random_state *trsp);

/*
 * Linux's sleeps for the test kthreads: baset plus a random part of fuzzt_ns
 * (none if trsp is NULL), in TASK_UNINTERRUPTIBLE. Made from jiffy
 * timeouts whose mean length is the wanted one (<kernel/torture_sleep.h>);
 * a single sleep ends on a jiffy boundary next to the wanted end, or is
 * skipped when that boundary is now. Return 0, as Linux's do when the
 * time is up.
 */
int torture_hrtimeout_ns(u64 baset_ns, u32 fuzzt_ns, struct torture_random_state *trsp);
int torture_hrtimeout_us(u32 baset_us, u32 fuzzt_ns, struct torture_random_state *trsp);
int torture_hrtimeout_jiffies(u32 baset_j, struct torture_random_state *trsp);

/* One torture test at a time: begin/end bracket the setup, cleanup_* the teardown. */
bool torture_init_begin(const char *ttype, int verbose);
void torture_init_end(void);
/*
 * A test whose setup failed after torture_init_begin(): end the setup, run its cleanup, count
 * the boot as a failed test (not a pass) and, when it was to power off (shutdown_secs), power
 * off now. Returns err, for the init function to return.
 */
int torture_init_abort(void (*cleanup)(void), int err, bool power_off);
/* True if the test is already being torn down (the caller must not tear it down again). */
bool torture_cleanup_begin(void);
void torture_cleanup_end(void);

/* The test is ending: every test kthread should wind up. */
bool torture_must_stop(void);
/* The same, for callbacks and timers (which have no kthread_should_stop()). */
bool torture_must_stop_irq(void);
/* A test kthread's last act: wait (politely) for its kthread_stop(). */
void torture_kthread_stopping(const char *title);

/* Create and wake a test kthread (registered with the shuffler); 0 or -errno. */
int _torture_create_kthread(int (*fn)(void *arg), void *arg, const char *s,
			    const char *m, const char *f, struct task_struct **tp);
#define torture_create_kthread(n, arg, tp) \
	_torture_create_kthread(n, (arg), #n, "Creating " #n " task", \
				"Failed to create " #n, &(tp))
void _torture_stop_kthread(const char *m, struct task_struct **tp);
#define torture_stop_kthread(n, tp) \
	_torture_stop_kthread("Stopping " #n " task", &(tp))

/* Shuffler: every shuffint jiffies, move the test kthreads off one CPU in turn. */
int torture_shuffle_init(long shuffint);
void torture_shuffle_task_register(struct task_struct *tp);
/* Number of shuffles done so far (for reports). */
unsigned long torture_shuffle_count(void);

/* Stutter: run sgap jiffies, pause s jiffies, repeat. stutter_wait() sleeps out a pause. */
int torture_stutter_init(int s, int sgap);
bool stutter_wait(const char *title);
/*
 * Pause starts and ends so far (two per pause), so a report can tell "stuck"
 * from "paused": an unchanged count means no pause began or ended meanwhile.
 */
unsigned long torture_stutter_pauses(void);

/*
 * CPU hotplug: after ooholdoff jiffies, offline or online a random CPU
 * every oointerval jiffies (0: never) until the test ends, then bring all
 * back. torture_onoff_stats() prints Linux's "onoff: ..." fields into buf
 * (returns the length); torture_onoff_failures(): some operation failed.
 */
#if defined(CONFIG_HOTPLUG_CPU)
int torture_onoff_init(long ooholdoff, long oointerval);
void torture_onoff_cleanup(void);
int torture_onoff_stats(char *buf, size_t size);
bool torture_onoff_failures(void);
#else
static inline int torture_onoff_init(long ooholdoff, long oointerval) { return 0; }
static inline void torture_onoff_cleanup(void) { }
static inline int torture_onoff_stats(char *buf, size_t size) { return 0; }
static inline bool torture_onoff_failures(void) { return false; }
#endif

/* Power off ssecs seconds from now, after calling cleanup (which prints the verdict). */
int torture_shutdown_init(int ssecs, void (*cleanup)(void));
/* Kept for Linux's call sites: a shutdown here never needs a kthread's help. */
static inline void torture_shutdown_absorb(const char *title) { (void)title; }

#endif
