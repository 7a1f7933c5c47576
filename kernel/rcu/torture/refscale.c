/*
 * refscale: the boot-time reader-overhead test (CONFIG_RCU_REF_SCALE_TEST),
 * in the manner of Linux's refscale module: how many nanoseconds one
 * read-side lock/unlock pair costs, next to other ways of protecting a read.
 *
 * With refscale.scale_runnable=1 a main kthread runs nruns runs. In each
 * run every reader kthread (reader i bound to CPU i) warms up with `loops`
 * sections, waits until all readers are ready, then with interrupts off times
 * `loops` back-to-back sections of scale_type:
 *   rcu       rcu_read_lock(); rcu_read_unlock();
 *   srcu      srcu_read_lock(); srcu_read_unlock(); on one srcu_struct (CONFIG_SRCU)
 *   rcu-tasks nothing: any code without a voluntary context switch is a
 *             Tasks RCU reader, so the loop is empty and compiles away, as
 *             Linux's does (CONFIG_TASKS_RCU)
 *   refcnt    atomic_inc(); atomic_dec(); on one shared counter
 *   rwlock    read_lock(); read_unlock(); on one shared rwlock_t
 *   rwsem     down_read(); up_read(); on one shared rw_semaphore
 *   lock      spin_lock(); spin_unlock(); on one shared lock
 *   lock-irq  spin_lock_irqsave(); spin_unlock_irqrestore(); likewise
 *   acqrel    smp_load_acquire() then smp_store_release() of this CPU's counter
 *   clock     local_clock() (a baseline: one timestamp per loop)
 *   rcu-trace rcu_read_lock_trace(); rcu_read_unlock_trace(); (CONFIG_TASKS_TRACE_RCU)
 * (readdelay=N busy-waits N ns inside each section). A run's figure is the
 * readers' total time divided by readers x loops. At the end it prints
 * Linux's "END OF TEST" banner and "Runs\tTime(ns)" table, then our own
 * machine-readable line:
 *   ref-perf: summary type=rcu cpus=N ns_per_pair=X.XXX median_ns_per_pair=... min_ns_per_pair=...
 *             max_ns_per_pair=... nreaders=R loops=L nruns=K
 * (ns_per_pair is the mean over runs) and powers off if refscale.shutdown
 * once every performance test of this boot is done (rcu_perf_test_end()).
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "rcu"
#define TORTURE_PARAM_PREFIX "refscale."

#include <rcu/rcupdate.h>
#include <rcu/rcupdate_trace.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/wait.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/torture_param.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <time/time.h>
#include <mm/slab.h>
#include <kernel/atomic.h>
#include <locking/spinlock.h>
#include <locking/rwlock.h>
#include <locking/rwsem.h>
#include <rcu/srcu.h>
#include <kernel/percpu.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/sort.h>
#include "rcu_perf_common.h"

#define SCALE_FLAG	"-ref-scale: "
#define SCALEOUT(s, ...)	pr_alert("%s" SCALE_FLAG s "\n", scale_type, ##__VA_ARGS__)
#define VERBOSE_SCALEOUT(s, ...) do { if (verbose) SCALEOUT(s, ##__VA_ARGS__); } while (0)

torture_param_bool(scale_runnable, false, "run the read-side overhead test at boot");
torture_param_string(scale_type, 16, "rcu",
		     "read-side protection to measure: rcu, srcu, rcu-tasks, rcu-trace, refcnt, rwlock, rwsem, lock, lock-irq, acqrel, clock");
torture_param(int, nreaders, -1, -1, NR_CPUS,
	      "reader kthreads, one per CPU; -1 for three quarters of the online CPUs");
torture_param(long, loops, 10000, 1, 100000000, "read-side sections per reader per run");
torture_param(int, nruns, 30, 1, 1000, "runs");
torture_param(int, readdelay, 0, 0, 1000000, "nanoseconds spent inside each read-side section");
torture_param(int, holdoff, 0, 0, 3600, "seconds to wait before the test starts");
torture_param(int, verbose, 0, 0, 2, "print per-run progress lines");
torture_param_bool(shutdown, true, "power off when the test is done");

/* --- what is measured ----------------------------------------------------------- */

static atomic_t ref_count;
static DEFINE_SPINLOCK(ref_lock);
static DEFINE_RWLOCK(ref_rwlock);
static DECLARE_RWSEM(ref_rwsem);
static DEFINE_PER_CPU(unsigned long, ref_acqrel);
#ifdef CONFIG_SRCU
DEFINE_STATIC_SRCU(srcu_refctl_scale);
#endif

/*
 * Each kind of section is written once, as an always-inline body taking
 * the delay, and instantiated twice (REF_SECTION): without a delay, where
 * the constant 0 removes the test from the loop, so that the timed loop
 * holds nothing but the section and the loop count, as Linux's
 * readsection() loops do; and with one, for readdelay=N (Linux's
 * delaysection()). Counting down to zero keeps the loop to a decrement and
 * a branch.
 */
static __always_inline void ref_rcu_body(long n, int delay)
{
	for (long i = n; i > 0; i--) {
		rcu_read_lock();
		if (delay)
			ndelay(delay);
		rcu_read_unlock();
	}
}

#ifdef CONFIG_SRCU
static __always_inline void ref_srcu_body(long n, int delay)
{
	for (long i = n; i > 0; i--) {
		int idx = srcu_read_lock(&srcu_refctl_scale);

		if (delay)
			ndelay(delay);
		srcu_read_unlock(&srcu_refctl_scale, idx);
	}
}
#endif

/*
 * A Tasks RCU reader costs nothing: any code between voluntary context
 * switches is one. Linux 6.1's section is a loop with an empty body, which
 * the compiler deletes, so its timed call is a bare return and the figure
 * is the call and the clock reads spread over `loops`. Ours is the same
 * empty loop, and compiles the same (without a delay the body is empty and
 * nothing keeps the loop); with readdelay=N each pass is the delay alone.
 */
static __always_inline void ref_rcu_tasks_body(long n, int delay)
{
	for (long i = n; i > 0; i--)
		if (delay)
			ndelay(delay);
}

static __always_inline void ref_rwlock_body(long n, int delay)
{
	for (long i = n; i > 0; i--) {
		read_lock(&ref_rwlock);
		if (delay)
			ndelay(delay);
		read_unlock(&ref_rwlock);
	}
}

static __always_inline void ref_rwsem_body(long n, int delay)
{
	for (long i = n; i > 0; i--) {
		down_read(&ref_rwsem);
		if (delay)
			ndelay(delay);
		up_read(&ref_rwsem);
	}
}

/* The cheapest ordered handoff: acquire-load and release-store of a per-CPU counter. */
static __always_inline void ref_acqrel_body(long n, int delay)
{
	unsigned long x;

	preempt_disable();
	for (long i = n; i > 0; i--) {
		x = smp_load_acquire(this_cpu_ptr(&ref_acqrel));
		if (delay)
			ndelay(delay);
		smp_store_release(this_cpu_ptr(&ref_acqrel), x + 1);
	}
	preempt_enable();
}

static __always_inline void ref_refcnt_body(long n, int delay)
{
	for (long i = n; i > 0; i--) {
		atomic_inc(&ref_count);
		if (delay)
			ndelay(delay);
		atomic_dec(&ref_count);
	}
}

static __always_inline void ref_lock_body(long n, int delay)
{
	for (long i = n; i > 0; i--) {
		spin_lock(&ref_lock);
		if (delay)
			ndelay(delay);
		spin_unlock(&ref_lock);
	}
}

static __always_inline void ref_lock_irq_body(long n, int delay)
{
	unsigned long flags;

	for (long i = n; i > 0; i--) {
		spin_lock_irqsave(&ref_lock, flags);
		if (delay)
			ndelay(delay);
		spin_unlock_irqrestore(&ref_lock, flags);
	}
}

static u64 ref_clock_sink;

static __always_inline void ref_clock_body(long n, int delay)
{
	u64 x = 0;

	for (long i = n; i > 0; i--) {
		x += local_clock();
		if (delay)
			ndelay(delay);
	}
	WRITE_ONCE(ref_clock_sink, x);	/* keep the clock reads */
}

#define REF_SECTION(kind)								\
	static void ref_##kind##_section(long n) { ref_##kind##_body(n, 0); }		\
	static void ref_##kind##_delay_section(long n, int delay) { ref_##kind##_body(n, delay); }

REF_SECTION(rcu)
#ifdef CONFIG_SRCU
REF_SECTION(srcu)
#endif
#ifdef CONFIG_TASKS_RCU
REF_SECTION(rcu_tasks)
#endif
REF_SECTION(refcnt)
REF_SECTION(rwlock)
REF_SECTION(rwsem)
REF_SECTION(lock)
REF_SECTION(lock_irq)
REF_SECTION(acqrel)
REF_SECTION(clock)

#ifdef CONFIG_TASKS_TRACE_RCU
/* Linux's "rcu-trace": Tasks Trace RCU readers (include/rcu/rcupdate_trace.h). */
static __always_inline void ref_rcu_trace_body(long n, int delay)
{
	for (long i = n; i > 0; i--) {
		rcu_read_lock_trace();
		if (delay)
			ndelay(delay);
		rcu_read_unlock_trace();
	}
}
REF_SECTION(rcu_trace)
#define REF_TRACE_OPS	REF_OPS("rcu-trace", rcu_trace),
#else
#define REF_TRACE_OPS
#endif

struct ref_scale_ops {
	const char *name;
	void (*section)(long n);
	void (*delaysection)(long n, int delay);
};

#define REF_OPS(str, kind) { str, ref_##kind##_section, ref_##kind##_delay_section }

/* Linux 6.1's names and order; a flavor its kernel lacks is left out, as Linux does. */
static const struct ref_scale_ops ref_ops[] = {
	REF_OPS("rcu", rcu),
#ifdef CONFIG_SRCU
	REF_OPS("srcu", srcu),
#endif
#ifdef CONFIG_TASKS_RCU
	REF_OPS("rcu-tasks", rcu_tasks),
#endif
	REF_OPS("refcnt", refcnt),
	REF_OPS("rwlock", rwlock),
	REF_OPS("rwsem", rwsem),
	REF_OPS("lock", lock),
	REF_OPS("lock-irq", lock_irq),
	REF_OPS("acqrel", acqrel),
	REF_OPS("clock", clock),
	REF_TRACE_OPS
};
static const struct ref_scale_ops *cur_ops;

/* --- readers and runs ----------------------------------------------------------------- */

struct ref_reader {
	struct task_struct *task;
	struct wait_queue_head wq;
	bool start;
	u64 duration_ns;	/* of the last run */
};
static struct ref_reader *readers;
static int nrealreaders;
static atomic_t n_warmedup;	/* readers still to arrive at the starting line */
static atomic_t n_running;	/* readers still timing the current run */
static DECLARE_WAIT_QUEUE_HEAD(main_wq);

/* n sections of the chosen kind, with readdelay ns inside each if it is set. */
static void ref_do_sections(long n)
{
	if (readdelay)
		cur_ops->delaysection(n, readdelay);
	else
		cur_ops->section(n);
}

static int ref_scale_reader(void *arg)
{
	struct ref_reader *rt = arg;
	unsigned long flags;
	u64 t0;

	VERBOSE_SCALEOUT("ref_scale_reader %ld: task started", (long)(rt - readers));
	for (;;) {
		wait_event(rt->wq, smp_load_acquire(&rt->start) || kthread_should_stop());
		if (kthread_should_stop())
			break;
		rt->start = false;
		/*
		 * Warm up with a whole run's worth of sections, as Linux's
		 * reader does: under TCG the first pass that takes the loop's
		 * back edge translates and links its blocks (tens of us), which
		 * one warm-up section never reaches, and a short run timed
		 * after it read 70-75 ns per lock-irq pair instead of 26.
		 * Then keep warming until every reader is ready.
		 */
		ref_do_sections(loops);
		if (atomic_dec_return(&n_warmedup))
			while (atomic_read(&n_warmedup))
				ref_do_sections(1);
		local_irq_save(flags);
		t0 = local_clock();
		ref_do_sections(loops);
		rt->duration_ns = local_clock() - t0;
		local_irq_restore(flags);
		if (!atomic_dec_return(&n_running))
			wake_up(&main_wq);
	}
	return 0;
}

/* One run; returns picoseconds per section, averaged over the readers. */
static u64 ref_scale_run(void)
{
	u64 sum = 0;

	atomic_set(&n_warmedup, nrealreaders);
	atomic_set(&n_running, nrealreaders);
	for (int r = 0; r < nrealreaders; r++) {
		smp_store_release(&readers[r].start, true);
		wake_up(&readers[r].wq);
	}
	wait_event(main_wq, !atomic_read(&n_running));
	for (int r = 0; r < nrealreaders; r++)
		sum += readers[r].duration_ns;
	return sum * 1000 / ((u64)nrealreaders * loops);
}

static void ref_scale_report(u64 *ps, int n)
{
	u64 sum = 0, mean;
	u64 *sorted = kmalloc_array(n, sizeof(*sorted), GFP_KERNEL);

	SCALEOUT("END OF TEST. Calculating average duration per loop (nanoseconds)...");
	pr_alert("Runs\tTime(ns)\n");
	for (int i = 0; i < n; i++) {
		pr_alert("%d\t%llu.%03u\n", i + 1, (unsigned long long)(ps[i] / 1000),
			 (unsigned int)(ps[i] % 1000));
		sum += ps[i];
	}
	if (!sorted) {
		SCALEOUT("!!! no memory for the summary");
		return;
	}
	memcpy(sorted, ps, n * sizeof(*ps));
	sort_u64(sorted, n);
	mean = sum / n;
#define PS(x) (unsigned long long)((x) / 1000), (unsigned int)((x) % 1000)
	pr_alert("ref-perf: summary type=%s cpus=%u ns_per_pair=%llu.%03u median_ns_per_pair=%llu.%03u min_ns_per_pair=%llu.%03u max_ns_per_pair=%llu.%03u nreaders=%d loops=%ld nruns=%d\n",
		 cur_ops->name, num_online_cpus(), PS(mean),
		 PS(rcu_perf_percentile(sorted, n, 50)), PS(sorted[0]), PS(sorted[n - 1]),
		 nrealreaders, loops, nruns);
#undef PS
	kfree(sorted);
}

static int ref_scale_main(void *unused)
{
	u64 *ps = kcalloc(nruns, sizeof(*ps), GFP_KERNEL);
	int started = 0;

	if (!ps) {
		SCALEOUT("!!! out of memory");
		goto out;
	}
	if (holdoff)
		schedule_timeout_uninterruptible(holdoff * HZ);
	for (long r = 0; r < nrealreaders; r++, started++) {
		init_waitqueue_head(&readers[r].wq);
		readers[r].task = kthread_create(ref_scale_reader, &readers[r], "ref_scale_reader/%ld", r);
		if (!readers[r].task) {
			SCALEOUT("!!! cannot create reader %ld", r);
			goto stop;
		}
		kthread_bind(readers[r].task, r);
		wake_up_process(readers[r].task);
	}
	VERBOSE_SCALEOUT("main_func: starting %d runs with %d readers", nruns, nrealreaders);
	for (int i = 0; i < nruns; i++) {
		ps[i] = ref_scale_run();
		VERBOSE_SCALEOUT("main_func: run %d ended", i + 1);
	}
	ref_scale_report(ps, nruns);
stop:
	for (int r = 0; r < started; r++)
		kthread_stop(readers[r].task);
out:
	kfree(ps);
	kfree(readers);
	rcu_perf_test_end(shutdown);
	return 0;
}

static int ref_scale_init(void)
{
	unsigned int ncpus = num_online_cpus();

	if (!scale_runnable)
		return 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(ref_ops); i++)
		if (!strcmp(scale_type, ref_ops[i].name))
			cur_ops = &ref_ops[i];
	if (!cur_ops) {
		pr_alert("ref-scale: invalid scale type: \"%s\"\n", scale_type);
		pr_alert("ref-scale types:");
		for (unsigned int i = 0; i < ARRAY_SIZE(ref_ops); i++)
			pr_cont(" %s", ref_ops[i].name);
		pr_cont("\n");
		return -EINVAL;
	}
	nrealreaders = nreaders >= 0 ? nreaders : (int)(ncpus * 3 / 4);
	if (nrealreaders < 1)
		nrealreaders = 1;
	/* Readers spin at the starting line: two on one CPU would wait for each other forever. */
	if (nrealreaders > (int)ncpus) {
		SCALEOUT("nreaders=%d capped at the %u online CPUs", nrealreaders, ncpus);
		nrealreaders = ncpus;
	}
	SCALEOUT("--- Start of test:  verbose=%d shutdown=%d holdoff=%d loops=%ld nreaders=%d nruns=%d readdelay=%d",
		 verbose, shutdown, holdoff, loops, nrealreaders, nruns, readdelay);
	readers = kcalloc(nrealreaders, sizeof(*readers), GFP_KERNEL);
	if (!readers) {
		SCALEOUT("!!! out of memory");
		return -ENOMEM;
	}
	rcu_perf_test_begin();
	if (!kthread_run(ref_scale_main, NULL, "ref_scale_main")) {
		SCALEOUT("!!! cannot create the main kthread");
		kfree(readers);
		rcu_perf_test_end(false);
		return -ENOMEM;
	}
	return 0;
}
late_initcall(ref_scale_init);
