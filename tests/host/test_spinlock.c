/*
 * A host model of kernel/locking/spinlock.c: the real lock code, compiled
 * with CONFIG_DEBUG_SPINLOCK, run by POSIX threads that each play one CPU
 * (per-CPU data indexed by the thread's CPU number). More threads than the
 * host has cores is the point: it is the vCPU overcommit the lock is built
 * for (a strict FIFO hand-off would crawl here). Checked: mutual exclusion
 * of plain increments over many threads and locks, trylock, the lock taken
 * from a signal handler while the interrupted thread waits in the queue
 * (the nesting that uses a CPU's second MCS node, as an interrupt does),
 * the owner checks (recursion, unlock of a free lock, unlock by another
 * CPU), and that every thread gets the lock within a bounded time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The kernel headers spinlock.c includes that reach <asm/...>: replaced below. */
#define _KERNEL_IRQFLAGS_H
#define _KERNEL_PREEMPT_H
#define _KERNEL_PERCPU_H
#define _KERNEL_SMP_H
#define _KERNEL_BARRIER_H
#define _KERNEL_CPUMASK_H
#define CONFIG_DEBUG_SPINLOCK 1

#include <kernel/compiler.h>
#include <kernel/types.h>

#define HOST_NCPU	16
#define NR_CPUS		HOST_NCPU

/* Per-CPU data: an array per variable, indexed by the calling thread's CPU. */
static __thread unsigned int host_cpu;
#define DEFINE_PER_CPU(type, name)	__typeof__(type) name[HOST_NCPU]
#define this_cpu_ptr(p)			(&(*(p))[host_cpu])
#define per_cpu_ptr(p, cpu)		(&(*(p))[(cpu)])
#define this_cpu_read(var)		((var)[host_cpu])
static unsigned int cpu_number[HOST_NCPU];
#define raw_smp_processor_id()		(host_cpu)

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__builtin_ia32_pause()
#else
#define cpu_relax()	barrier()
#endif
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
/* spin_lock() and friends (unused here: the test calls the raw operations). */
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define local_irq_disable()	barrier()
#define local_irq_enable()	barrier()
#define local_irq_save(f)	((f) = 0)
#define local_irq_restore(f)	((void)(f))

#include "../../kernel/locking/spinlock.c"
#include "test.h"

/* --- what the lock code calls into ----------------------------------------- */

static __thread jmp_buf *bug_jmp;	/* a test expecting a BUG() */
static __thread char bug_msg[256];

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(bug_msg, sizeof(bug_msg), fmt, ap);
	va_end(ap);
	return n;
}

void __bug(const char *file, int line, const char *func)
{
	if (bug_jmp)
		longjmp(*bug_jmp, 1);
	printf("# unexpected BUG at %s:%d (%s): %s", file, line, func, bug_msg);
	abort();
}

/* --- threads as CPUs ------------------------------------------------------- */

#define NTHREADS	12		/* more than the host's cores, on purpose */
#define NLOCKS		3

static spinlock_t locks[NLOCKS] = {
	__SPIN_LOCK_UNLOCKED(lock0), __SPIN_LOCK_UNLOCKED(lock1), __SPIN_LOCK_UNLOCKED(lock2),
};
static spinlock_t irq_lock = __SPIN_LOCK_UNLOCKED(irq_lock);
static unsigned long counts[NLOCKS];		/* plain increments under locks[i] */
static int inside[NLOCKS];			/* holders now: must stay 0 or 1 */
static unsigned long irq_count, irq_runs;	/* under irq_lock; handler runs */
static int exclusion_broken;
static pthread_t tids[NTHREADS];
static volatile int stop_irqs;
static int workers_done;

struct worker { unsigned int cpu; long iters; bool trylock; unsigned long acquired; };

static void take(spinlock_t *l, bool trylock)
{
	if (trylock) {
		while (!do_raw_spin_trylock(l, 0))
			cpu_relax();
	} else {
		do_raw_spin_lock(l, 0);
	}
}

static void critical(int i)
{
	if (__atomic_fetch_add(&inside[i], 1, __ATOMIC_RELAXED) != 0)
		__atomic_store_n(&exclusion_broken, 1, __ATOMIC_RELAXED);
	if (!spin_is_held(&locks[i]))
		__atomic_store_n(&exclusion_broken, 1, __ATOMIC_RELAXED);
	counts[i]++;	/* plain: the lock alone makes this safe */
	__atomic_fetch_sub(&inside[i], 1, __ATOMIC_RELAXED);
}

/* An "interrupt": takes a lock the interrupted code never holds. */
static void irq_handler(int sig)
{
	(void)sig;
	do_raw_spin_lock(&irq_lock, 0);
	irq_count++;
	do_raw_spin_unlock(&irq_lock);
	__atomic_fetch_add(&irq_runs, 1, __ATOMIC_RELAXED);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;

	host_cpu = w->cpu;
	for (long n = 0; n < w->iters; n++) {
		int i = (int)((n + w->cpu) % NLOCKS);

		take(&locks[i], w->trylock && (n & 1));
		critical(i);
		do_raw_spin_unlock(&locks[i]);
		w->acquired++;
	}
	/* Stay alive (signals may still target this thread) until the sender has stopped. */
	__atomic_fetch_add(&workers_done, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop_irqs, __ATOMIC_SEQ_CST))
		usleep(100);
	return NULL;
}

static void *irq_sender(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&workers_done, __ATOMIC_SEQ_CST) < NTHREADS) {
		for (int t = 0; t < NTHREADS; t++)
			pthread_kill(tids[t], SIGUSR1);
		usleep(200);
	}
	return NULL;
}

static void run_workers(long iters, bool trylock, bool irqs, struct worker *w)
{
	pthread_t sender;

	memset(counts, 0, sizeof(counts));
	exclusion_broken = 0;
	stop_irqs = 0;
	workers_done = 0;
	for (unsigned int t = 0; t < NTHREADS; t++) {
		w[t] = (struct worker){ .cpu = t, .iters = iters, .trylock = trylock };
		pthread_create(&tids[t], NULL, worker_fn, &w[t]);
	}
	if (irqs)
		pthread_create(&sender, NULL, irq_sender, NULL);
	while (__atomic_load_n(&workers_done, __ATOMIC_SEQ_CST) < NTHREADS)
		usleep(1000);
	if (irqs)
		pthread_join(sender, NULL);	/* it stops once every worker is done */
	__atomic_store_n(&stop_irqs, 1, __ATOMIC_SEQ_CST);
	for (int t = 0; t < NTHREADS; t++)
		pthread_join(tids[t], NULL);
}

static void check_totals(long iters)
{
	unsigned long sum = 0;

	for (int i = 0; i < NLOCKS; i++) {
		sum += counts[i];
		CHECK_EQ(READ_ONCE(locks[i].val), 0);	/* free, nobody queued */
	}
	CHECK_EQ(sum, (unsigned long)NTHREADS * iters);
	CHECK(!exclusion_broken);
	for (int c = 0; c < HOST_NCPU; c++)
		CHECK_EQ(spin_mcs_nodes[0][c].count, 0);	/* every node given back */
}

static void test_mutual_exclusion(void)
{
	struct worker w[NTHREADS];

	run_workers(40000, false, false, w);
	check_totals(40000);
}

static void test_trylock_mix(void)
{
	struct worker w[NTHREADS];

	run_workers(20000, true, false, w);
	check_totals(20000);
}

static void test_irq_nesting(void)
{
	struct worker w[NTHREADS];
	struct sigaction sa = { .sa_handler = irq_handler };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	irq_count = irq_runs = 0;
	run_workers(40000, false, true, w);
	signal(SIGUSR1, SIG_IGN);
	check_totals(40000);
	CHECK(irq_runs > 0);
	CHECK_EQ(irq_count, irq_runs);
	CHECK_EQ(READ_ONCE(irq_lock.val), 0);
	printf("# irq_nesting: %lu handler runs took irq_lock inside the workers\n", irq_runs);
}

/*
 * --- progress: twelve threads hammer one lock for a second ---------------------------
 * With more threads than cores the lock goes, a host time slice at a time,
 * to whichever threads are running (a released lock is taken by a running
 * CPU, a queued one waits for its turn at the head): the counts are
 * uneven by design. Checked: nobody deadlocks, every thread got the lock,
 * and the lock ends free with no queue.
 */

static spinlock_t hot = __SPIN_LOCK_UNLOCKED(hot);
static volatile int hot_stop;
static unsigned long hot_acq[NTHREADS];

static void *hot_fn(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	host_cpu = cpu;
	while (!hot_stop) {
		do_raw_spin_lock(&hot, 0);
		hot_acq[cpu]++;
		do_raw_spin_unlock(&hot);
	}
	return NULL;
}

static void test_every_thread_progresses(void)
{
	unsigned long min = ~0UL, max = 0;

	for (unsigned int t = 0; t < NTHREADS; t++)
		pthread_create(&tids[t], NULL, hot_fn, (void *)(uintptr_t)t);
	sleep(1);
	hot_stop = 1;
	for (int t = 0; t < NTHREADS; t++) {
		pthread_join(tids[t], NULL);
		if (hot_acq[t] < min)
			min = hot_acq[t];
		if (hot_acq[t] > max)
			max = hot_acq[t];
	}
	printf("# progress: acquisitions per thread:");
	for (int t = 0; t < NTHREADS; t++)
		printf(" %lu", hot_acq[t]);
	printf("\n");
	printf("# progress: %d threads, 1 s, acquisitions per thread min %lu max %lu\n",
	       NTHREADS, min, max);
	CHECK(min > 0);
	CHECK_EQ(READ_ONCE(hot.val), 0);
}

/* --- the owner checks (CONFIG_DEBUG_SPINLOCK) ------------------------------------------ */

static bool expect_bug(void (*fn)(spinlock_t *), spinlock_t *l, const char *what)
{
	jmp_buf jb;
	bool hit;

	bug_msg[0] = 0;
	bug_jmp = &jb;
	if (!setjmp(jb))
		fn(l);
	bug_jmp = NULL;
	hit = strstr(bug_msg, what) != NULL;
	if (!hit)
		printf("# expected \"%s\", got \"%s\"\n", what, bug_msg);
	return hit;
}

static void lock_it(spinlock_t *l) { do_raw_spin_lock(l, 0); }
static void unlock_it(spinlock_t *l) { do_raw_spin_unlock(l); }

static void test_owner_checks(void)
{
	spinlock_t l = __SPIN_LOCK_UNLOCKED(l);

	host_cpu = 3;
	do_raw_spin_lock(&l, 0x1234);
	CHECK_EQ(l.locked, 4);		/* CPU 3 + 1 */
	CHECK(spin_is_held(&l));
	CHECK(spin_is_locked(&l));
	CHECK(!do_raw_spin_trylock(&l, 0));
	CHECK(expect_bug(lock_it, &l, "BUG: spinlock recursion on CPU#3"));
	CHECK(expect_bug(lock_it, &l, ".owner_cpu: 3"));
	host_cpu = 5;
	CHECK(!spin_is_held(&l));
	CHECK(expect_bug(unlock_it, &l, "spinlock wrong CPU on CPU#5"));
	host_cpu = 3;
	do_raw_spin_unlock(&l);
	CHECK(!spin_is_locked(&l));
	CHECK(expect_bug(unlock_it, &l, "spinlock already unlocked"));
	CHECK(do_raw_spin_trylock(&l, 0));
	do_raw_spin_unlock(&l);
	CHECK_EQ(l.val, 0);
	host_cpu = 0;
}

int test_failed;

int main(void)
{
	static const struct test_case tests[] = {
		TEST_CASE(test_owner_checks),
		TEST_CASE(test_mutual_exclusion),
		TEST_CASE(test_trylock_mix),
		TEST_CASE(test_irq_nesting),
		TEST_CASE(test_every_thread_progresses),
	};

	for (unsigned int c = 0; c < HOST_NCPU; c++)
		cpu_number[c] = c;
	return test_main("test_spinlock", tests, sizeof(tests) / sizeof(tests[0]));
}
