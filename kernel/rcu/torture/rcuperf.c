/*
 * rcuperf: the boot-time grace-period performance test (CONFIG_RCU_PERF_TEST),
 * modelled on Linux's rcuperf module (renamed rcuscale in Linux 5.11; both
 * parameter prefixes work here: rcuscale.x is an alias of rcuperf.x, see
 * kernel/params.c).
 *
 * perf_type (Linux's scale_type) picks the flavor, as Linux 6.1's names:
 *   rcu        synchronize_rcu(), call_rcu(); readers rcu_read_lock()
 *   srcu       synchronize_srcu(), call_srcu() on one srcu_struct; readers
 *              srcu_read_lock() (CONFIG_SRCU)
 *   tasks      synchronize_rcu_tasks(), call_rcu_tasks(); readers need no marker
 *              (CONFIG_TASKS_RCU)
 *   tasks-rude synchronize_rcu_tasks_rude(), call_rcu_tasks_rude(); readers are
 *              the reader loop's interrupts-off section (CONFIG_TASKS_RUDE_RCU,
 *              rcuperf_rude.c)
 *   tasks-tracing synchronize_rcu_tasks_trace(), call_rcu_tasks_trace(); readers
 *              rcu_read_lock_trace() (CONFIG_TASKS_TRACE_RCU, rcuperf_trace.c)
 * With rcuperf.perf_runnable=1, nwriters writer kthreads (SCHED_FIFO 1,
 * writer i bound to CPU i % nr_cpu_ids) time one update-side wait after
 * another while nreaders reader kthreads (nice 19) spin through empty
 * read-side sections, as load. A writer's sample is:
 *   default       one synchronize_rcu() call (the flavor's);
 *   gp_exp=1      one synchronize_rcu_expedited() call (Tasks RCU: its only kind);
 *   gp_async=1    one call_rcu() round trip, from queuing the callback to its
 *                 invocation (Linux times only the call_rcu() itself; the
 *                 round trip is the figure a caller waits for). At most
 *                 gp_async_max callbacks per writer are in flight; past that
 *                 the writer waits in rcu_barrier(), as Linux's does.
 * Samples count once every writer has started. When every writer has
 * MIN_MEAS samples, and has run for rcuperf.minruntime seconds (Linux's
 * parameter: more samples make p99 a tail rather than one maximum; at most
 * MAX_MEAS are kept, the last slot being overwritten), the test is over: the main kthread stops the threads and
 * prints Linux's lines ("rcu-perf: writer N gps: G", the start/end/duration/
 * gps/batches line, one "writer-duration" line per sample) plus our own
 * machine-readable line over all writers' samples:
 *   rcu-perf: summary type=<sync|exp|async> cpus=N n=S min_ns= median_ns= p90_ns= p99_ns= max_ns=
 * and, for perf_type=rcu under Tree RCU, what the measured run's normal grace
 * periods cost (rcu_get_gp_cost() at the start and the end of the run; the
 * scale curve of tools/perf-vs-linux/scale-curve.sh reads it):
 *   rcu-perf: gp cost: levels=L gps=G gp_kthread_ns_per_gp=K fqs_per_gp=F
 * then powers off if rcuperf.shutdown (see rcu_perf_test_end()).
 * Figures are reported, never judged.
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#define TORTURE_PARAM_PREFIX "rcuperf."

#include <rcu/rcupdate.h>
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
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/sort.h>
#include <rcu/srcu.h>
#include <rcu/tasks.h>
#include <rcu/torture.h>
#include "rcu_perf_common.h"
#include "rcuperf_kfree.h"

#define PERF_FLAG	"-perf:"
#define PERFOUT(s)	pr_alert("%s" PERF_FLAG " %s\n", perf_type, s)
#define VERBOSE_PERFOUT(s) do { if (verbose) PERFOUT(s); } while (0)
#define VERBOSE_PERFOUT_ERR(s) \
	do { if (verbose) pr_alert("%s" PERF_FLAG "!!! %s\n", perf_type, s); } while (0)

#define MIN_MEAS	100	/* samples every writer needs before the test ends */
#define MAX_MEAS	10000	/* samples kept per writer */

torture_param_bool(perf_runnable, false, "run the RCU grace-period performance test at boot");
torture_param_string(perf_type, 16, "rcu", "RCU flavor to measure (rcu, srcu, tasks, tasks-rude, tasks-tracing)");
/* Linux 6.1's rcuscale calls it scale_type (rcuscale.scale_type reaches it through the alias). */
KPARAM_STRING("rcuperf.scale_type", perf_type,
	      "RCU flavor to measure (rcu, srcu, tasks, tasks-rude, tasks-tracing): Linux's name for perf_type");
torture_param(int, nreaders, -1, -NR_CPUS, 4 * NR_CPUS,
	      "reader kthreads: N, or -1 for one per online CPU (-k: CPUs + 1 - k)");
torture_param(int, nwriters, -1, -NR_CPUS, 4 * NR_CPUS,
	      "writer kthreads: N, or -1 for one per online CPU (-k: CPUs + 1 - k)");
torture_param_bool(gp_exp, false, "writers time synchronize_rcu_expedited()");
torture_param_bool(gp_async, false, "writers time call_rcu() round trips");
torture_param(int, gp_async_max, 1000, 1, 100000,
	      "call_rcu() callbacks in flight per writer before it waits in rcu_barrier()");
torture_param(int, writer_holdoff, 0, 0, 1000000,
	      "busy-wait in microseconds between a writer's samples");
torture_param(int, holdoff, 0, 0, 3600, "seconds the writers wait before their first grace period");
torture_param(int, minruntime, 0, 0, 3600,
	      "seconds each writer runs at least (and until MIN_MEAS samples), 0: samples only");
/*
 * Ours, for comparisons with Linux: Linux 6.1's boot runs expedited grace
 * periods before rcuscale starts (two on its comparison build, from
 * cpuidle's governor switch and rcu_sync_enter(): boot-time
 * synchronize_rcu() is expedited there), ours none.
 */
torture_param(int, boot_exp_gps, 0, 0, 100,
	      "synchronize_rcu_expedited() calls before the readers and writers start");
torture_param_bool(shutdown, true, "power off when the test is done");
torture_param(int, verbose, 1, 0, 2, "print thread start/stop lines");

/* --- the flavors ------------------------------------------------------------------ */


static int rcu_perf_read_lock(void) { rcu_read_lock(); return 0; }
static void rcu_perf_read_unlock(int idx) { rcu_read_unlock(); }

static const struct rcu_perf_ops rcu_ops = {
	.name = "rcu", .readlock = rcu_perf_read_lock, .readunlock = rcu_perf_read_unlock,
	/* call_rcu_hurry(): a timed round trip must never be lazy (CONFIG_RCU_LAZY). */
	.get_gp_seq = rcu_gp_completed, .async = call_rcu_hurry, .gp_barrier = rcu_barrier,
	.sync = synchronize_rcu, .exp_sync = synchronize_rcu_expedited,
};

#ifdef CONFIG_SRCU
DEFINE_STATIC_SRCU(srcu_ctl_perf);

static int srcu_perf_read_lock(void) { return srcu_read_lock(&srcu_ctl_perf); }
static void srcu_perf_read_unlock(int idx) { srcu_read_unlock(&srcu_ctl_perf, idx); }
static unsigned long srcu_perf_completed(void)
{
	unsigned long normal, exp;

	srcu_get_gp_counts(&srcu_ctl_perf, &normal, &exp);
	return normal + exp;
}
static void srcu_perf_call(struct rcu_head *head, rcu_callback_t func)
{
	call_srcu(&srcu_ctl_perf, head, func);
}
static void srcu_perf_barrier(void) { srcu_barrier(&srcu_ctl_perf); }
static void srcu_perf_sync(void) { synchronize_srcu(&srcu_ctl_perf); }
static void srcu_perf_exp_sync(void) { synchronize_srcu_expedited(&srcu_ctl_perf); }

static const struct rcu_perf_ops srcu_ops = {
	.name = "srcu", .readlock = srcu_perf_read_lock, .readunlock = srcu_perf_read_unlock,
	.get_gp_seq = srcu_perf_completed, .async = srcu_perf_call, .gp_barrier = srcu_perf_barrier,
	.sync = srcu_perf_sync, .exp_sync = srcu_perf_exp_sync,
};
#define SRCU_PERF_OPS	&srcu_ops,
#else
#define SRCU_PERF_OPS
#endif

#ifdef CONFIG_TASKS_RCU
/* Tasks RCU readers are any code between voluntary context switches: no marker. */
static int tasks_perf_read_lock(void) { return 0; }
static void tasks_perf_read_unlock(int idx) { }

static const struct rcu_perf_ops tasks_ops = {
	.name = "tasks", .readlock = tasks_perf_read_lock, .readunlock = tasks_perf_read_unlock,
	.get_gp_seq = rcu_tasks_gp_completed, .async = call_rcu_tasks,
	.gp_barrier = rcu_barrier_tasks, .sync = synchronize_rcu_tasks,
	.exp_sync = synchronize_rcu_tasks,	/* no expedited Tasks RCU, as in Linux */
};
#define TASKS_PERF_OPS	&tasks_ops,
#else
#define TASKS_PERF_OPS
#endif

/* Linux 6.1's order; a flavor this kernel lacks is left out, as Linux does. */
#ifdef CONFIG_TASKS_RUDE_RCU
#define TASKS_RUDE_PERF_OPS	&tasks_rude_perf_ops,
#else
#define TASKS_RUDE_PERF_OPS
#endif
#ifdef CONFIG_TASKS_TRACE_RCU
#define TASKS_TRACE_PERF_OPS	&tasks_tracing_perf_ops,
#else
#define TASKS_TRACE_PERF_OPS
#endif

static const struct rcu_perf_ops *const perf_ops[] = {
	&rcu_ops, SRCU_PERF_OPS TASKS_PERF_OPS TASKS_RUDE_PERF_OPS TASKS_TRACE_PERF_OPS
};
static const struct rcu_perf_ops *cur_ops;

static int nrealreaders, nrealwriters;

static struct task_struct **reader_tasks, **writer_tasks;

struct perf_writer {
	u64 *dur;		/* MAX_MEAS samples in ns */
	int n;			/* sync: samples kept (index of the last one + 1) */
	atomic_t n_async;	/* async: samples claimed by callbacks */
	atomic_t inflight;	/* async: callbacks queued, not yet invoked */
	bool recording;		/* async: every writer has started */
};
static struct perf_writer *writers;

static atomic_t n_writers_started, n_writers_finished;
static bool all_done;			/* every writer has MIN_MEAS samples */
static u64 t_started, t_finished;	/* local_clock() at the last start / last finish */
static unsigned long b_started, b_finished;	/* rcu_gp_completed() at those times */
static struct rcu_gp_cost c_started, c_finished;	/* rcu_get_gp_cost() at those times */
static DECLARE_WAIT_QUEUE_HEAD(perf_done_wq);

/* Once the test is over, a thread just waits to be stopped. */
static void perf_wait_stop(void)
{
	cond_resched();
	if (!READ_ONCE(all_done))
		return;
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
}

static int rcu_perf_reader(void *arg)
{
	unsigned long flags;

	VERBOSE_PERFOUT("rcu_perf_reader task started");
	set_user_nice(current, 19);
	do {
		int idx;

		local_irq_save(flags);
		idx = cur_ops->readlock();
		cur_ops->readunlock(idx);
		local_irq_restore(flags);
		perf_wait_stop();
	} while (!kthread_should_stop());
	VERBOSE_PERFOUT("rcu_perf_reader is stopping");
	return 0;
}

struct perf_async_cb {
	struct rcu_head rh;
	u64 t0;
	struct perf_writer *w;
};

static void rcu_perf_async_cb(struct rcu_head *rh)
{
	struct perf_async_cb *cb = container_of(rh, struct perf_async_cb, rh);
	struct perf_writer *w = cb->w;
	u64 d = local_clock() - cb->t0;

	if (READ_ONCE(w->recording) && !READ_ONCE(all_done)) {
		int i = atomic_inc_return(&w->n_async) - 1;

		if (i < MAX_MEAS)
			w->dur[i] = d;
	}
	atomic_dec(&w->inflight);
	kfree(cb);
}

/* One async sample: queue a callback, or wait for the writer's backlog when it is full. */
static void perf_async_one(struct perf_writer *w)
{
	struct perf_async_cb *cb;

	if (atomic_read(&w->inflight) >= gp_async_max) {
		cur_ops->gp_barrier();
		return;
	}
	cb = kmalloc(sizeof(*cb), GFP_KERNEL);
	if (!cb) {
		cur_ops->gp_barrier();	/* let callbacks free memory */
		return;
	}
	cb->w = w;
	atomic_inc(&w->inflight);
	cb->t0 = local_clock();
	cur_ops->async(&cb->rh, rcu_perf_async_cb);
}

static int perf_writer_samples(struct perf_writer *w)
{
	int n = gp_async ? atomic_read(&w->n_async) : w->n;

	return n < MAX_MEAS ? n : MAX_MEAS;
}

/* Writer me has its MIN_MEAS samples (or more: async callbacks complete in bursts). */
static void perf_writer_finished(long me)
{
	struct sched_param sp = { .sched_priority = 0 };

	sched_setscheduler_nocheck(current, SCHED_NORMAL, &sp);
	pr_alert("%s%s rcu_perf_writer %ld has %d measurements\n", perf_type, PERF_FLAG, me,
		 perf_writer_samples(&writers[me]));
	if (atomic_inc_return(&n_writers_finished) < nrealwriters)
		return;
	t_finished = local_clock();
	b_finished = cur_ops->get_gp_seq();
	rcu_get_gp_cost(&c_finished);
	PERFOUT("Test complete");
	smp_store_release(&all_done, true);
	wake_up(&perf_done_wq);
}

static int rcu_perf_writer(void *arg)
{
	long me = (long)arg;
	struct perf_writer *w = &writers[me];
	struct sched_param sp = { .sched_priority = 1 };
	bool started = false, done = false;
	unsigned long jdone = 0;
	int i = 0;

	VERBOSE_PERFOUT("rcu_perf_writer task started");
	sched_setscheduler_nocheck(current, SCHED_FIFO, &sp);
	/*
	 * As Linux's rcuscale: only the writers wait out the holdoff. The
	 * readers spin from the start, so the first grace periods measured
	 * meet CPUs already busy in the reader loop, not CPUs (and, under
	 * QEMU, host threads) waking from a long idle with threads just created.
	 */
	if (holdoff)
		schedule_timeout_uninterruptible(holdoff * HZ);
	if (atomic_inc_return(&n_writers_started) >= nrealwriters) {
		t_started = local_clock();
		b_started = cur_ops->get_gp_seq();
		rcu_get_gp_cost(&c_started);
		if (gp_exp)
			rcu_exp_latency_reset();	/* the breakdown covers the measured run only */
	}
	do {
		if (writer_holdoff)
			udelay(writer_holdoff);
		if (gp_async) {
			perf_async_one(w);
		} else {
			u64 t0 = local_clock();

			if (gp_exp)
				cur_ops->exp_sync();
			else
				cur_ops->sync();
			w->dur[i] = local_clock() - t0;
			w->n = i + 1;
		}
		if (!started && atomic_read(&n_writers_started) >= nrealwriters) {
			started = true;
			jdone = jiffies + (unsigned long)minruntime * HZ;
			WRITE_ONCE(w->recording, true);
		}
		if (!done && started && perf_writer_samples(w) >= MIN_MEAS &&
		    (!minruntime || time_after(jiffies, jdone))) {
			done = true;
			perf_writer_finished(me);
		}
		/* Overwrite slot 0 until everyone runs; keep the last slot once full or over. */
		if (!gp_async && started && !READ_ONCE(all_done) && i < MAX_MEAS - 1)
			i++;
		perf_wait_stop();
	} while (!kthread_should_stop());
	if (gp_async)
		cur_ops->gp_barrier();	/* every callback of ours has run before the samples are read */
	VERBOSE_PERFOUT("rcu_perf_writer is stopping");
	return 0;
}

/* Linux's meaning of a negative thread count: -1 is one per CPU, -k is CPUs + 1 - k, at least 1. */
static int compute_real(int n)
{
	int nr;

	if (n >= 0)
		return n;
	nr = (int)num_online_cpus() + 1 + n;
	return nr > 0 ? nr : 1;
}

static void perf_summary(void)
{
	unsigned int total = 0, k = 0;
	u64 *all;

	for (int i = 0; i < nrealwriters; i++)
		total += perf_writer_samples(&writers[i]);
	if (!total) {
		pr_alert("%s%s!!! no samples\n", perf_type, PERF_FLAG);
		return;
	}
	all = kmalloc_array(total, sizeof(*all), GFP_KERNEL);
	if (!all) {
		pr_alert("%s%s!!! no memory for the summary\n", perf_type, PERF_FLAG);
		return;
	}
	for (int i = 0; i < nrealwriters; i++)
		for (int j = 0; j < perf_writer_samples(&writers[i]); j++)
			all[k++] = writers[i].dur[j];
	sort_u64(all, total);
	pr_alert("%s%s summary type=%s cpus=%u n=%u min_ns=%llu median_ns=%llu p90_ns=%llu p99_ns=%llu max_ns=%llu\n",
		 perf_type, PERF_FLAG, gp_async ? "async" : gp_exp ? "exp" : "sync",
		 num_online_cpus(), total, (unsigned long long)all[0],
		 (unsigned long long)rcu_perf_percentile(all, total, 50),
		 (unsigned long long)rcu_perf_percentile(all, total, 90),
		 (unsigned long long)rcu_perf_percentile(all, total, 99),
		 (unsigned long long)all[total - 1]);
	kfree(all);
}

/*
 * The grace-period kthread's CPU time and FQS scans per normal grace period
 * of the measured run (Tree RCU only: rcu_get_gp_cost() gives levels 0 under
 * Tiny RCU). The kthread's time is added up when it switches away, so a
 * snapshot taken while it runs misses its current slice: with a hundred
 * grace periods or more, that is within a percent.
 */
static void perf_gp_cost(void)
{
	unsigned long gps = b_finished - b_started;

	if (cur_ops != &rcu_ops || !c_finished.levels || !gps)
		return;
	pr_alert("%s%s gp cost: levels=%d gps=%lu gp_kthread_ns_per_gp=%llu fqs_per_gp=%lu.%02lu\n",
		 perf_type, PERF_FLAG, c_finished.levels, gps,
		 (unsigned long long)((c_finished.gp_kthread_ns - c_started.gp_kthread_ns) / gps),
		 (c_finished.fqs_scans - c_started.fqs_scans) / gps,
		 (c_finished.fqs_scans - c_started.fqs_scans) * 100 / gps % 100);
}

/*
 * Expedited runs: where the grace periods' time went (rcu_exp_latency(),
 * Documentation/RCU/expedited.md), to tell a slow IPI delivery or driver
 * wake-up (a vCPU the host did not run) from a report deferred by a reader.
 */
static void perf_exp_breakdown(void)
{
	struct rcu_exp_latency st;

	rcu_exp_latency(&st);
	pr_alert("%s%s expedited breakdown: gps=%lu ipis=%lu ipi_avg_ns=%llu ipi_max_ns=%llu deferred=%lu deferred_irq=%lu defer_avg_ns=%llu defer_max_ns=%llu wake_avg_ns=%llu wake_max_ns=%llu\n",
		 perf_type, PERF_FLAG, st.gps, st.ipis,
		 (unsigned long long)(st.ipis ? st.ipi_sum_ns / st.ipis : 0),
		 (unsigned long long)st.ipi_max_ns, st.deferred, st.deferred_irq,
		 (unsigned long long)(st.deferred ? st.defer_sum_ns / st.deferred : 0),
		 (unsigned long long)st.defer_max_ns,
		 (unsigned long long)(st.gps ? st.wake_sum_ns / st.gps : 0),
		 (unsigned long long)st.wake_max_ns);
}

static void rcu_perf_cleanup(void)
{
	int gps = 0;

	if (gp_exp && gp_async)
		VERBOSE_PERFOUT_ERR("No expedited async GPs, so went with async!");
	for (int i = 0; i < nrealreaders; i++)
		if (reader_tasks[i])
			kthread_stop(reader_tasks[i]);
	for (int i = 0; i < nrealwriters; i++) {
		int n;

		if (writer_tasks[i])
			kthread_stop(writer_tasks[i]);
		n = perf_writer_samples(&writers[i]);
		pr_alert("%s%s writer %d gps: %d\n", perf_type, PERF_FLAG, i, n);
		gps += n;
	}
	pr_alert("%s%s start: %llu end: %llu duration: %llu gps: %d batches: %ld\n", perf_type,
		 PERF_FLAG, (unsigned long long)t_started, (unsigned long long)t_finished,
		 (unsigned long long)(t_finished - t_started), gps, (long)(b_finished - b_started));
	for (int i = 0; i < nrealwriters; i++) {
		for (int j = 0; j < perf_writer_samples(&writers[i]); j++) {
			pr_alert("%s%s %4d writer-duration: %5d %llu\n", perf_type, PERF_FLAG, i, j,
				 (unsigned long long)writers[i].dur[j]);
			if (j % 100 == 0)
				schedule_timeout_uninterruptible(1);	/* let the console drain */
		}
	}
	perf_summary();
	perf_gp_cost();
	if (gp_exp && !gp_async && cur_ops == &rcu_ops)
		perf_exp_breakdown();
}

static void perf_free(void)
{
	for (int i = 0; writers && i < nrealwriters; i++)
		kfree(writers[i].dur);
	kfree(writers);
	kfree(writer_tasks);
	kfree(reader_tasks);
}

/* Create n threads running fn, thread i bound to CPU i mod nr_cpu_ids. False if one fails. */
static bool perf_start_threads(struct task_struct **tasks, int n, int (*fn)(void *),
			       const char *what)
{
	for (long i = 0; i < n; i++) {
		tasks[i] = kthread_create(fn, (void *)i, "%s/%ld", what, i);
		if (!tasks[i]) {
			pr_alert("%s%s!!! cannot create %s %ld\n", perf_type, PERF_FLAG, what, i);
			return false;
		}
		kthread_bind(tasks[i], i % nr_cpu_ids);
		wake_up_process(tasks[i]);
	}
	return true;
}

/* Start the threads, wait for the writers' verdict, report, then let shutdown decide. */
static int rcu_perf_main(void *unused)
{
	for (int i = 0; i < boot_exp_gps; i++)
		synchronize_rcu_expedited();
	if (!perf_start_threads(reader_tasks, nrealreaders, rcu_perf_reader, "rcu_perf_reader") ||
	    !perf_start_threads(writer_tasks, nrealwriters, rcu_perf_writer, "rcu_perf_writer"))
		goto out;
	if (nrealwriters)
		wait_event(perf_done_wq, smp_load_acquire(&all_done));
out:
	smp_store_release(&all_done, true);	/* a failed start ends the test too */
	rcu_perf_cleanup();
	perf_free();
	rcu_perf_test_end(shutdown);
	return 0;
}

static int rcu_perf_init(void)
{
	struct task_struct *t;

	if (rcu_perf_kfree_wanted())	/* Linux's rule: the kfree_rcu() test instead */
		return rcu_perf_kfree_init(shutdown, (int)num_online_cpus());
	if (!perf_runnable)
		return 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(perf_ops); i++)
		if (!strcmp(perf_type, perf_ops[i]->name))
			cur_ops = perf_ops[i];
	if (!cur_ops) {
		pr_alert("rcu-perf: invalid perf type: \"%s\"\n", perf_type);
		pr_alert("rcu-perf types:");
		for (unsigned int i = 0; i < ARRAY_SIZE(perf_ops); i++)
			pr_cont(" %s", perf_ops[i]->name);
		pr_cont("\n");
		return -EINVAL;
	}
	nrealreaders = compute_real(nreaders);
	nrealwriters = compute_real(nwriters);
	pr_alert("%s" PERF_FLAG "--- Start of test: nreaders=%d nwriters=%d verbose=%d shutdown=%d\n",
		 perf_type, nrealreaders, nrealwriters, verbose, shutdown);
	reader_tasks = kcalloc(nrealreaders ? nrealreaders : 1, sizeof(*reader_tasks), GFP_KERNEL);
	writer_tasks = kcalloc(nrealwriters ? nrealwriters : 1, sizeof(*writer_tasks), GFP_KERNEL);
	writers = kcalloc(nrealwriters ? nrealwriters : 1, sizeof(*writers), GFP_KERNEL);
	if (!reader_tasks || !writer_tasks || !writers)
		goto nomem;
	for (int i = 0; i < nrealwriters; i++) {
		writers[i].dur = kmalloc_array(MAX_MEAS, sizeof(u64), GFP_KERNEL);
		if (!writers[i].dur)
			goto nomem;
	}
	rcu_perf_test_begin();
	t = kthread_run(rcu_perf_main, NULL, "rcu_perf_main");
	if (!t) {
		rcu_perf_test_end(false);
		goto nomem;
	}
	return 0;
nomem:
	pr_alert("%s" PERF_FLAG "!!! out of memory\n", perf_type);
	perf_free();
	return -ENOMEM;
}
late_initcall(rcu_perf_init);
