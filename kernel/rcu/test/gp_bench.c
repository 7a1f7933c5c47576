/*
 * Tree RCU boot benchmark, our own (rcutree.gp_bench=1; Linux's
 * equivalent is the rcuscale module). Runs from init as a late initcall,
 * in a kthread bound to CPU 0, and prints one line per figure (with
 * rcutree.gp_bench=2 only the "idle" synchronize_rcu line, a quick way to
 * run 210 grace periods on an otherwise idle system):
 *
 *   rcu-bench: call_rcu cpus=C per_cpu_per_s=N n=K ns=T
 *       K callbacks queued back to back on CPU 0, then rcu_barrier():
 *       K / (time from the first call_rcu() until rcu_barrier() returns).
 *   rcu-bench: flood cbs=K peak_kmalloc_live=L peak_pages_used=P base_kmalloc_live=L0 base_pages_used=P0
 *       K kmalloc'd objects each freed through call_rcu(), queued as fast
 *       as possible on CPU 0 (yielding every 500): the largest kmalloc live
 *       count and pages in use seen while queuing (sampled every 500), and
 *       the same before the flood. Past rcutree.qhimark the batch limit is
 *       lifted, which shows as a large "max batch" at power-off.
 *   rcu-bench: synchronize_rcu idle cpus=C n=200 median_ns=M p99_ns=P max_ns=X
 *       200 synchronize_rcu() calls (after 10 warm-ups) with the other
 *       CPUs idle: their quiescent states come from dyntick-idle credit.
 *   rcu-bench: synchronize_rcu busy cpus=C n=200 median_ns=M p99_ns=P max_ns=X
 *       The same with one SCHED_NORMAL kthread per other CPU spinning on
 *       cond_resched(), outside any reader: CPU-bound tasks. The tick finds
 *       such a CPU outside a reader (preempt_count() is kept even under
 *       PREEMPT_NONE, see rcu_sched_clock_irq()) and reports its quiescent
 *       state at once, so a grace period waits about one tick per busy CPU,
 *       not rcutree.jiffies_till_sched_qs. Without CONFIG_PREEMPT_COUNT the
 *       spinner's cond_resched() reports instead.
 *   rcu-bench: synchronize_rcu readers cpus=C n=200 reader_us=R median_ns=M p99_ns=P max_ns=X
 *       The same with each other CPU's kthread inside back-to-back
 *       read-side critical sections of R us (cond_resched() between them):
 *       busy CPUs that really hold the grace period up. A grace period
 *       waits for the reader running when it starts, about R us plus a tick.
 *   rcu-bench: synchronize_rcu_expedited idle cpus=C n=200 median_ns=M p99_ns=P max_ns=X
 *   rcu-bench: synchronize_rcu_expedited busy cpus=C n=200 median_ns=M p99_ns=P max_ns=X
 *   rcu-bench: synchronize_rcu_expedited readers cpus=C n=200 reader_us=R median_ns=M ...
 *       The same three runs with synchronize_rcu_expedited() (tree_exp.c):
 *       idle CPUs are skipped without an IPI; each busy CPU gets one IPI,
 *       which finds a spinner outside any reader and reports at once, or a
 *       reader, whose rcu_read_unlock() then reports (deferred).
 *       rcutree.gp_bench=3 runs only these three.
 *
 * Every latency line ends with what the grace periods of that run cost
 * (difference of two rcu_get_gp_cost() snapshots):
 *   levels=L gps=G exp_gps=E gp_kthread_ns_per_gp=K fqs_per_gp=F
 *   leaf_lock_cont=C/A root_lock_cont=C/A
 * rcu_node levels, normal and expedited grace periods completed, the
 * grace-period kthread's CPU time per normal grace period, its forced-
 * quiescent-state scans per grace period, and how many of the leaf and
 * root rcu_node lock acquisitions found the lock held.
 *
 * rcutree.gp_bench=4 is the scale run (Documentation/RCU/scale.md): the
 * idle and busy lines of both waits, and "writers" lines (the busy CPUs
 * each call the same wait back to back: the funnel locks' contention),
 * no callbacks; the machine powers off when it ends.
 * rcutree.gp_bench_samples sets n (10..1000, default 200) and
 * rcutree.gp_bench_busy how many CPUs the loads occupy (0, the default:
 * every other CPU), spread evenly over the CPU numbers, so that a guest
 * of hundreds of vCPUs on a 2-core host measures the tree and not the
 * host's time slicing.
 *
 * With one CPU synchronize_rcu() returns at once (rcu_blocking_is_gp()).
 * Figures are reported, never judged. If the run does not end within
 * GB_TIMEOUT_MS, init prints "rcu-bench: timed out" and goes on.
 */
#define pr_fmt(fmt) "rcu-bench: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include <rcu/rcupdate.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <kernel/init.h>
#include <kernel/shutdown.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <mm/slab.h>
#include <mm/mm.h>
#include <kernel/atomic.h>
#include <kernel/errno.h>
#include <kernel/sort.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <rcu/torture.h>
#include "../torture/rcu_perf_common.h"

/*
 * 1: every figure; 2: only "synchronize_rcu idle" (grace periods on an
 * otherwise idle system); 3: only the synchronize_rcu_expedited lines; 4: the
 * scale run (above).
 */
static int gp_bench;
KPARAM("rcutree.gp_bench", gp_bench, KPARAM_INT, 0, 4,
       "run the RCU boot benchmark: 1 all figures (synchronize_rcu and synchronize_rcu_expedited latency idle and busy, call_rcu throughput, callback flood), 2 idle synchronize_rcu latency only, 3 synchronize_rcu_expedited latency only, 4 the scale run (idle, busy and writers latency of both, with their costs, then power-off)");

#define GB_MAX_SAMPLES	1000
static int gb_nsamples = 200;
KPARAM("rcutree.gp_bench_samples", gb_nsamples, KPARAM_INT, 10, GB_MAX_SAMPLES,
       "grace periods timed per rcutree.gp_bench latency line");
static int gb_busy_cpus;
KPARAM("rcutree.gp_bench_busy", gb_busy_cpus, KPARAM_INT, 0, NR_CPUS,
       "CPUs the rcutree.gp_bench busy, readers and writers loads occupy, spread over the CPU numbers (0: every CPU but the benchmark's)");

#define GB_WARMUP	10
#define GB_CALL_N	5000	/* below the default qhimark: batches stay limited */
#define GB_FLOOD_N	50000
#define GB_SAMPLE_EVERY	500
#define GB_TIMEOUT_MS	600000	/* the scale run at 255 CPUs takes minutes */

static u64 gb_samples[GB_MAX_SAMPLES];

/* --- synchronize_rcu() latency --------------------------------------------------- */

/* Which wait the latency runs time: synchronize_rcu() or synchronize_rcu_expedited(). */
static void (*gb_sync_fn)(void) = synchronize_rcu;
static const char *gb_sync_name = "synchronize_rcu";

#define GB_READER_US	1000	/* the "readers" load: each read-side section's length */

/* " levels=... root_lock_cont=C/A": what the grace periods between two snapshots cost. */
static void gb_cost_str(char *buf, size_t len, const struct rcu_gp_cost *a,
			const struct rcu_gp_cost *b, unsigned long gps, unsigned long exp_gps)
{
	snprintf(buf, len,
		 " levels=%d gps=%lu exp_gps=%lu gp_kthread_ns_per_gp=%llu fqs_per_gp=%lu.%02lu leaf_lock_cont=%lu/%lu root_lock_cont=%lu/%lu",
		 b->levels, gps, exp_gps,
		 (unsigned long long)(gps ? (b->gp_kthread_ns - a->gp_kthread_ns) / gps : 0),
		 gps ? (b->fqs_scans - a->fqs_scans) / gps : 0,
		 gps ? (b->fqs_scans - a->fqs_scans) * 100 / gps % 100 : 0,
		 b->leaf_lock_cont - a->leaf_lock_cont, b->leaf_lock_acq - a->leaf_lock_acq,
		 b->root_lock_cont - a->root_lock_cont, b->root_lock_acq - a->root_lock_acq);
}

static void gb_sync_latency(const char *load)
{
	unsigned int n = gb_nsamples;
	unsigned long gps, exp_gps;
	struct rcu_gp_cost c0, c1;
	char cost[200];

	for (int i = 0; i < GB_WARMUP; i++)
		gb_sync_fn();
	gps = rcu_gp_completed();
	exp_gps = rcu_exp_gp_completed();
	rcu_get_gp_cost(&c0);
	for (unsigned int i = 0; i < n; i++) {
		u64 t0 = local_clock();

		gb_sync_fn();
		gb_samples[i] = local_clock() - t0;
	}
	rcu_get_gp_cost(&c1);
	gb_cost_str(cost, sizeof(cost), &c0, &c1, rcu_gp_completed() - gps,
		    rcu_exp_gp_completed() - exp_gps);
	sort_u64(gb_samples, n);
	pr_info("%s %s cpus=%u n=%u%s median_ns=%llu p99_ns=%llu max_ns=%llu%s\n", gb_sync_name, load,
		num_online_cpus(), n,
		strcmp(load, "readers") ? "" : " reader_us=" __stringify(GB_READER_US),
		(unsigned long long)gb_samples[n / 2], (unsigned long long)gb_samples[n * 99 / 100],
		(unsigned long long)gb_samples[n - 1], cost);
}

/* A busy kernel thread under PREEMPT_NONE: never sleeps, offers cond_resched() constantly. */
static int gb_spinner(void *unused)
{
	while (!kthread_should_stop())
		cond_resched();
	return 0;
}

/* A busy CPU that holds grace periods up: back-to-back GB_READER_US readers. */
static int gb_reader_spinner(void *unused)
{
	while (!kthread_should_stop()) {
		u64 end;

		rcu_read_lock();
		end = local_clock() + GB_READER_US * NSEC_PER_USEC;
		while (local_clock() < end)
			cpu_relax();
		rcu_read_unlock();
		cond_resched();
	}
	return 0;
}

/*
 * Another caller of the wait being timed, back to back: concurrent callers
 * meet in the funnel of rcu_node locks (normal grace-period requests, the
 * expedited funnel) and share grace periods.
 */
static int gb_writer(void *unused)
{
	while (!kthread_should_stop())
		gb_sync_fn();
	return 0;
}

/* load "busy": gb_spinner on the other CPUs; "readers": gb_reader_spinner; "writers": gb_writer. */
static void gb_sync_latency_busy(const char *load)
{
	static struct task_struct *spinners[NR_CPUS];
	unsigned int cpu, me = raw_smp_processor_id();
	int (*fn)(void *) = !strcmp(load, "readers") ? gb_reader_spinner :
			    !strcmp(load, "writers") ? gb_writer : gb_spinner;
	unsigned int others = num_online_cpus() - 1, nbusy = others, seen = 0;

	if (gb_busy_cpus && (unsigned int)gb_busy_cpus < others)
		nbusy = gb_busy_cpus;
	for_each_online_cpu(cpu) {
		spinners[cpu] = NULL;
		if (cpu == me)
			continue;
		/* Another CPU gets a load each time seen crosses a multiple of others/nbusy. */
		seen++;
		if (seen * nbusy / others == (seen - 1) * nbusy / others)
			continue;
		spinners[cpu] = kthread_create_on_cpu(fn, NULL, cpu, "rcu_spin/%u");
		if (spinners[cpu])
			wake_up_process(spinners[cpu]);
		else
			pr_err("cannot start the spinner on CPU %u\n", cpu);
	}
	gb_sync_latency(load);
	for_each_online_cpu(cpu)
		if (spinners[cpu])
			kthread_stop(spinners[cpu]);
}

/* --- call_rcu() throughput -------------------------------------------------------- */

static atomic_t gb_cb_count;

static void gb_cb(struct rcu_head *rh)
{
	atomic_inc(&gb_cb_count);
}

static void gb_call_rcu_rate(void)
{
	struct rcu_head *heads = kcalloc(GB_CALL_N, sizeof(*heads), GFP_KERNEL);
	u64 t0, ns;

	if (!heads) {
		pr_err("call_rcu failed: no memory\n");
		return;
	}
	rcu_barrier();		/* start with empty queues */
	atomic_set(&gb_cb_count, 0);
	t0 = local_clock();
	for (int i = 0; i < GB_CALL_N; i++)
		call_rcu(&heads[i], gb_cb);
	rcu_barrier();
	ns = local_clock() - t0;
	if (atomic_read(&gb_cb_count) != GB_CALL_N)
		pr_err("call_rcu failed: %d of %d callbacks ran by rcu_barrier()\n",
		       atomic_read(&gb_cb_count), GB_CALL_N);
	pr_info("call_rcu cpus=%u per_cpu_per_s=%llu n=%u ns=%llu\n", num_online_cpus(),
		(unsigned long long)(ns ? GB_CALL_N * NSEC_PER_SEC / ns : 0), GB_CALL_N,
		(unsigned long long)ns);
	kfree(heads);
}

/* --- a callback flood ---------------------------------------------------------------- */

struct gb_obj {
	struct rcu_head rh;
	unsigned long payload[6];	/* 64 bytes in all */
};

static void gb_obj_free(struct rcu_head *rh)
{
	kfree(container_of(rh, struct gb_obj, rh));
}

static void gb_sample(unsigned long *live, unsigned long *pages)
{
	struct mm_stats st;

	mm_get_stats(&st);
	if (st.kmalloc_live > *live)
		*live = st.kmalloc_live;
	if (st.total_pages - st.free_pages > *pages)
		*pages = st.total_pages - st.free_pages;
}

static void gb_flood(void)
{
	unsigned long base_live = 0, base_pages = 0, live = 0, pages = 0;
	unsigned int n;

	rcu_barrier();
	gb_sample(&base_live, &base_pages);
	for (n = 0; n < GB_FLOOD_N; n++) {
		struct gb_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

		if (!o) {
			pr_err("flood: allocation failed after %u objects\n", n);
			break;
		}
		call_rcu(&o->rh, gb_obj_free);
		if (!(n % GB_SAMPLE_EVERY)) {
			gb_sample(&live, &pages);
			cond_resched();
		}
	}
	gb_sample(&live, &pages);
	rcu_barrier();
	pr_info("flood cbs=%u peak_kmalloc_live=%lu peak_pages_used=%lu base_kmalloc_live=%lu base_pages_used=%lu\n",
		n, live, pages, base_live, base_pages);
}

/* --- driver --------------------------------------------------------------------------- */

static struct completion gb_done;

static int gb_thread(void *unused)
{
	if (gp_bench == 2) {
		gb_sync_latency("idle");
		complete(&gb_done);
		return 0;
	}
	if (gp_bench == 1) {
		gb_call_rcu_rate();
		gb_flood();
		gb_sync_latency("idle");
		gb_sync_latency_busy("busy");
		gb_sync_latency_busy("readers");
	}
	if (gp_bench == 4) {
		gb_sync_latency("idle");
		gb_sync_latency_busy("busy");
		gb_sync_latency_busy("writers");
	}
	gb_sync_fn = synchronize_rcu_expedited;
	gb_sync_name = "synchronize_rcu_expedited";
	gb_sync_latency("idle");
	gb_sync_latency_busy("busy");
	gb_sync_latency_busy(gp_bench == 4 ? "writers" : "readers");
	complete(&gb_done);
	if (gp_bench == 4)
		shutdown_request();	/* a benchmark boot: done (as rcuscale.shutdown=1) */
	return 0;
}

static int rcu_gp_bench_run(void)
{
	struct task_struct *t;

	if (!gp_bench)
		return 0;
	init_completion(&gb_done);
	t = kthread_create_on_cpu(gb_thread, NULL, 0, "rcu_bench/%u");
	if (!t) {
		pr_err("cannot create the benchmark kthread\n");
		return -ENOMEM;
	}
	wake_up_process(t);
	if (!wait_for_completion_timeout(&gb_done, msecs_to_jiffies(GB_TIMEOUT_MS)))
		pr_err("timed out after %u ms\n", GB_TIMEOUT_MS);
	return 0;
}
late_initcall(rcu_gp_bench_run);
