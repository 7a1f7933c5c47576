/*
 * The in-kernel test harness shared by every KTAP suite and boot benchmark
 * (kernel/test/ktest.c): kthreads on a chosen CPU, waits that always end, and
 * calls that may hang (the code under test being broken) run in a helper
 * kthread with a timeout. Case reporting is KTAP's (<kernel/ktap.h>).
 *
 * Thread functions follow one shape: do the work, signal a completion,
 * then ktest_wait_stop() until kthread_stop(), so kthread_stop() never
 * sees a task that exited on its own.
 */
#ifndef _KERNEL_KTEST_H
#define _KERNEL_KTEST_H

#include <kernel/ktap.h>
#include <kernel/types.h>
#include <sched/completion.h>
#include <sched/task.h>
#include <kernel/cpumask.h>

/* The highest-numbered online CPU (0 on a UP machine). */
unsigned int ktest_last_online_cpu(void);

/* Wait at most ms for c; true if it completed. */
bool ktest_wait(struct completion *c, unsigned int ms);

/* A test thread's last step: sleep until kthread_stop(). */
void ktest_wait_stop(void);

/*
 * Create a kthread running fn(data), not yet woken: bound to cpu when
 * cpu >= 0 (name may hold one %u for it), else free to run anywhere.
 * A failure is reported in the running KTAP case; returns NULL then.
 */
struct task_struct *ktest_kthread(int (*fn)(void *), void *data, int cpu, const char *name);

/*
 * Run fn(arg) in a helper kthread named comm (bound to cpu when cpu >= 0)
 * and wait at most ms for it to return. True if it did; then *ret gets
 * its value and *ns the time it took (either pointer may be NULL). The
 * call record is freed by whichever side lets go last, so a helper still
 * stuck in fn after the timeout never touches freed memory.
 */
bool ktest_call_timeout(const char *comm, int cpu, int (*fn)(void *), void *arg, unsigned int ms,
			int *ret, u64 *ns);

/*
 * kthread_stop(p) within ms (run by ktest_call_timeout(), so a stuck
 * thread cannot hang the caller); false, and a failure reported in the
 * running case, if it did not return. *ret: kthread_stop()'s value.
 */
bool ktest_stop(struct task_struct *p, unsigned int ms, int *ret);

/* ktest_stop() a thread that reported done; leave one that never did (it is stuck). */
void ktest_stop_if(struct task_struct *p, bool reported, unsigned int ms);

/*
 * Run the calling test thread on cpu only, until ktest_unpin_current():
 * for a controller that must stay off a CPU its own test keeps busy.
 * *saved receives the CPUs it was allowed before.
 */
void ktest_pin_current(unsigned int cpu, struct cpumask *saved);
void ktest_unpin_current(const struct cpumask *saved);

#endif
