/*
 * scftorture: the torture test of the cross calls (kernel/smp.c), with
 * Linux 6.1's parameters (scftorture.*), statistics line and verdict.
 * Built in (CONFIG_SCF_TORTURE_TEST), it starts at boot, as Linux's does.
 *
 * One invoker kthread per CPU (scftorture.nthreads), bound to it, picks
 * a primitive at random by the weight_* parameters and calls it:
 * resched_cpu(), smp_call_function_single() without waiting, waiting,
 * or not waiting and then sleeping on a completion the handler signals
 * (Linux's "RPC" form), smp_call_function_many() and smp_call_function(),
 * each waiting or not. Targets are random CPUs below nr_cpu_ids,
 * offline ones included, while CPU hotplug (scftorture.onoff_interval)
 * takes CPUs down and up under the calls. A call carries a per-call
 * struct scf_check: the handler checks that the caller's stores are seen
 * (scfc_in) and that it runs on the CPU asked for; the caller of a
 * waiting call checks the handler's stores are seen when the call
 * returns (scfc_out). Linux counts those failures as ste, stnmie and
 * stnmoe; any makes the test end with FAILURE.
 *
 * Ours, on top (scftorture_check.c): waiting calls also record every CPU
 * their handler ran on, so a handler run twice on one CPU, run on the
 * caller's CPU or outside the mask of an smp_call_function_many(), or
 * not run on a CPU that stayed online throughout the call, is caught;
 * half the _many() calls get a random mask of CPUs, offline ones
 * included, instead of Linux's cpu_online_mask; and every no-wait
 * smp_call_function_single() that was accepted must have run by the end
 * (a lost call). These count in "ste" too and are itemised on one
 * "scftorture: ours:" line.
 *
 * Linux's scftorture.shutdown (a module-only switch) is registered as
 * not implemented: a built-in test powers off after shutdown_secs.
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "scftorture"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#define TORTURE_PARAM_PREFIX "scftorture."

#include <kernel/init.h>
#include <kernel/torture_param.h>
#include <kernel/reboot.h>
#include <kernel/cpu.h>
#include <kernel/errno.h>
#include <kernel/sprintf.h>
#include <sched/kthread.h>
#include <time/time.h>
#include <sched/sched.h>
#include <mm/slab.h>
#include "scftorture.h"

/* ===== parameters (Linux's names, defaults and units) =========================== */

torture_param(int, holdoff, 10, 0, 3600,
	      "seconds before the invokers start (CPUs come up and the boot settles)");
torture_param(int, longwait, 0, 0, 3600,
	      "handlers now and then busy-wait up to this many seconds (0: a few microseconds)");
torture_param(int, nthreads, -1, -1, 4 * NR_CPUS,
	      "invoker kthreads, thread i bound to CPU i mod nr_cpu_ids (-1: one per online CPU)");
torture_param(int, onoff_holdoff, 0, 0, 3600, "seconds before the first CPU-hotplug operation");
torture_param(int, onoff_interval, 0, 0, 3600000,
	      "jiffies between CPU-hotplug operations, as Linux passes it (0: none)");
torture_param(int, shutdown_secs, 0, 0, 86400,
	      "end the test and power off after this many seconds (0: run forever)");
torture_param(int, stat_interval, 60, 0, 3600,
	      "seconds between statistics lines (0: only at the end)");
torture_param(int, stutter, 5, 0, 3600000,
	      "jiffies to run, then to pause, the invokers (0: never pause)");
torture_param_bool(use_cpus_read_lock, false,
		   "hold cpus_read_lock() instead of disabling preemption around each call");
torture_param(int, verbose, 0, 0, 2, "print kthread start/stop lines");
torture_param(int, weight_resched, -1, -1, 1000000, "weight of resched_cpu()");
torture_param(int, weight_single, -1, -1, 1000000,
	      "weight of smp_call_function_single() without waiting");
torture_param(int, weight_single_rpc, -1, -1, 1000000,
	      "weight of smp_call_function_single() then waiting for the handler's complete()");
torture_param(int, weight_single_wait, -1, -1, 1000000,
	      "weight of smp_call_function_single() waiting");
torture_param(int, weight_many, -1, -1, 1000000,
	      "weight of smp_call_function_many() without waiting");
torture_param(int, weight_many_wait, -1, -1, 1000000, "weight of smp_call_function_many() waiting");
torture_param(int, weight_all, -1, -1, 1000000, "weight of smp_call_function() without waiting");
torture_param(int, weight_all_wait, -1, -1, 1000000, "weight of smp_call_function() waiting");
KPARAM_UNIMPL("scftorture.shutdown",
	      "built in, the test always powers off after scftorture.shutdown_secs");

/* ===== state ===================================================================== */

struct scf_statistics *scf_stats_p;
static struct task_struct *scf_torture_stats_task;
DEFINE_PER_CPU(atomic_long_t, scf_invoked_count);
DEFINE_PER_CPU(struct torture_random_state, scf_torture_rand);

static const char * const scf_prim_name[] = {
	"resched_cpu",
	"smp_call_function_single",
	"smp_call_function_single_rpc",
	"smp_call_function_many",
	"smp_call_function",
};

static struct scf_selector scf_sel_array[SCF_NPRIMS];
static int scf_sel_array_len;
static unsigned long scf_sel_totweight;

static atomic_t n_started;	/* invokers not yet at the start line */
int scf_longwait, scf_nthreads;
bool scf_use_cpus_read_lock;
atomic_t scf_n_errs;		/* handler on the wrong CPU (Linux's), and ours */
atomic_t scf_n_mb_in_errs;		/* handler did not see the caller's stores */
atomic_t scf_n_mb_out_errs;		/* caller did not see the handler's stores */
atomic_t scf_n_alloc_errs;
static bool scfdone;
static const char *bangstr = "";

/* ===== statistics ================================================================ */

/* Linux's statistics line. The caller serialises (the stats kthread, or the cleanup after it). */
static void scf_torture_stats_print(void)
{
	struct scf_statistics scfs = {};
	long long invoked_count = 0;
	char onoff[160];
	int cpu, i;

	for_each_possible_cpu(cpu)
		invoked_count += atomic_long_read(per_cpu_ptr(&scf_invoked_count, cpu));
	for (i = 0; i < nthreads; i++) {
		scfs.n_resched += READ_ONCE(scf_stats_p[i].n_resched);
		scfs.n_single += READ_ONCE(scf_stats_p[i].n_single);
		scfs.n_single_ofl += READ_ONCE(scf_stats_p[i].n_single_ofl);
		scfs.n_single_rpc += READ_ONCE(scf_stats_p[i].n_single_rpc);
		scfs.n_single_rpc_ofl += READ_ONCE(scf_stats_p[i].n_single_rpc_ofl);
		scfs.n_single_wait += READ_ONCE(scf_stats_p[i].n_single_wait);
		scfs.n_single_wait_ofl += READ_ONCE(scf_stats_p[i].n_single_wait_ofl);
		scfs.n_many += READ_ONCE(scf_stats_p[i].n_many);
		scfs.n_many_wait += READ_ONCE(scf_stats_p[i].n_many_wait);
		scfs.n_all += READ_ONCE(scf_stats_p[i].n_all);
		scfs.n_all_wait += READ_ONCE(scf_stats_p[i].n_all_wait);
	}
	if (atomic_read(&scf_n_errs) || atomic_read(&scf_n_mb_in_errs) ||
	    atomic_read(&scf_n_mb_out_errs) || atomic_read(&scf_n_alloc_errs))
		bangstr = "!!! ";
	onoff[0] = '\0';
	torture_onoff_stats(onoff, sizeof(onoff));
	/* One printk: Linux's line is a pr_alert() and two pr_cont()s, which others could split. */
	pr_alert("%s %sscf_invoked_count %s: %lld resched: %lld single: %lld/%lld single_ofl: %lld/%lld single_rpc: %lld single_rpc_ofl: %lld many: %lld/%lld all: %lld/%lld %sste: %d stnmie: %d stnmoe: %d staf: %d\n",
		 SCFTORT_FLAG, bangstr, READ_ONCE(scfdone) ? "VER" : "ver", invoked_count,
		 scfs.n_resched, scfs.n_single, scfs.n_single_wait, scfs.n_single_ofl,
		 scfs.n_single_wait_ofl, scfs.n_single_rpc, scfs.n_single_rpc_ofl,
		 scfs.n_many, scfs.n_many_wait, scfs.n_all, scfs.n_all_wait, onoff,
		 atomic_read(&scf_n_errs), atomic_read(&scf_n_mb_in_errs),
		 atomic_read(&scf_n_mb_out_errs), atomic_read(&scf_n_alloc_errs));
}

static int scf_torture_stats(void *arg)
{
	VERBOSE_TOROUT_STRING("scf_torture_stats task started");
	do {
		schedule_timeout_interruptible(stat_interval * HZ);
		scf_torture_stats_print();
	} while (!torture_must_stop());
	torture_kthread_stopping("scf_torture_stats");
	return 0;
}

/* ===== choosing a primitive ======================================================= */

static void scf_sel_add(unsigned long weight, int prim, bool wait)
{
	struct scf_selector *scfsp = &scf_sel_array[scf_sel_array_len];

	/* No weight: not used. A full array or a sum too big for the percentages: complain. */
	if (!weight || WARN_ON_ONCE(scf_sel_array_len >= (int)ARRAY_SIZE(scf_sel_array)) ||
	    WARN_ON_ONCE(0 - 100000 * weight <= 100000 * scf_sel_totweight) ||
	    WARN_ON_ONCE(prim >= (int)ARRAY_SIZE(scf_prim_name)))
		return;
	scf_sel_totweight += weight;
	scfsp->scfs_weight = scf_sel_totweight;
	scfsp->scfs_prim = prim;
	scfsp->scfs_wait = wait;
	scf_sel_array_len++;
}

/* Linux's "scf_sel_dump: 12.345 smp_call_function_single(wait)" lines. */
static void scf_sel_dump(void)
{
	unsigned long oldw = 0, w;

	for (int i = 0; i < scf_sel_array_len; i++) {
		struct scf_selector *scfsp = &scf_sel_array[i];

		w = (scfsp->scfs_weight - oldw) * 100000 / scf_sel_totweight;
		pr_info("%s: %3lu.%03lu %s(%s)\n", __func__, w / 1000, w % 1000,
			scf_prim_name[scfsp->scfs_prim], scfsp->scfs_wait ? "wait" : "nowait");
		oldw = scfsp->scfs_weight;
	}
}

const struct scf_selector *scf_sel_rand(struct torture_random_state *trsp)
{
	unsigned long w = torture_random(trsp) % (scf_sel_totweight + 1);

	for (int i = 0; i < scf_sel_array_len; i++)
		if (scf_sel_array[i].scfs_weight >= w)
			return &scf_sel_array[i];
	WARN_ON_ONCE(1);
	return &scf_sel_array[0];
}

/* ===== the invokers =============================================================== */

/* Bind the current task to cpu; false if cpu is offline (the scheduler refuses). */
static bool scf_bind(int cpu)
{
	struct cpumask one;

	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	return !set_cpus_allowed_ptr(current, &one);
}

static int scftorture_invoker(void *arg)
{
	struct scf_statistics *scfp = arg;
	DEFINE_TORTURE_RANDOM(rand);
	bool was_offline = false;
	int cpu, curcpu;

	VERBOSE_SCFTORTOUT("scftorture_invoker %d: task started", scfp->cpu);
	cpu = scfp->cpu % nr_cpu_ids;
	was_offline = !scf_bind(cpu);
	set_user_nice(current, 19);	/* Linux's MAX_NICE: the handlers, not the callers, matter */
	if (holdoff)
		schedule_timeout_interruptible(holdoff * HZ);

	VERBOSE_SCFTORTOUT("scftorture_invoker %d: Waiting for all SCF torturers from cpu %d",
			   scfp->cpu, raw_smp_processor_id());
	curcpu = raw_smp_processor_id();
	WARN_ONCE(!was_offline && cpu_online(cpu) && curcpu != cpu,
		  "%s: Wanted CPU %d, running on %d, nr_cpu_ids = %u\n",
		  __func__, scfp->cpu, curcpu, nr_cpu_ids);

	/* The last one to arrive starts them all; the others wait for it. */
	if (atomic_dec_return(&n_started)) {
		while (smp_load_acquire(&n_started.counter)) {	/* pairs with the decrement above */
			if (torture_must_stop()) {
				VERBOSE_SCFTORTOUT("scftorture_invoker %d ended before starting",
						   scfp->cpu);
				goto end;
			}
			schedule_timeout_uninterruptible(1);
		}
	}
	VERBOSE_SCFTORTOUT("scftorture_invoker %d started", scfp->cpu);

	do {
		scftorture_invoke_one(scfp, &rand);
		/* While our CPU is offline the scheduler has moved us: wait, then go back. */
		while (!cpu_online(cpu) && !torture_must_stop()) {
			schedule_timeout_interruptible(HZ / 5);
			was_offline = true;
		}
		if (was_offline)
			was_offline = !scf_bind(cpu);
		cond_resched();
		stutter_wait("scftorture_invoker");
	} while (!torture_must_stop());

	VERBOSE_SCFTORTOUT("scftorture_invoker %d ended", scfp->cpu);
end:
	torture_kthread_stopping("scftorture_invoker");
	return 0;
}

/* Linux's "scftorture: --- Start of test:  verbose=..." line (and End of test). */
static void scftorture_print_module_parms(const char *tag)
{
	pr_alert(SCFTORT_FLAG "--- %s:  verbose=%d holdoff=%d longwait=%d nthreads=%d onoff_holdoff=%d onoff_interval=%d shutdown_secs=%d stat_interval=%d stutter=%d use_cpus_read_lock=%d, weight_resched=%d, weight_single=%d, weight_single_rpc=%d, weight_single_wait=%d, weight_many=%d, weight_many_wait=%d, weight_all=%d, weight_all_wait=%d\n",
		 tag, verbose, holdoff, longwait, nthreads, onoff_holdoff, onoff_interval,
		 shutdown_secs, stat_interval, stutter, use_cpus_read_lock, weight_resched,
		 weight_single, weight_single_rpc, weight_single_wait, weight_many,
		 weight_many_wait, weight_all, weight_all_wait);
}

static void scf_cleanup_handler(void *unused)
{
}

static void scf_torture_cleanup(void)
{
	bool failed;

	if (torture_cleanup_begin())
		return;
	WRITE_ONCE(scfdone, true);
	if (!nthreads || !scf_stats_p)
		goto end;
	torture_onoff_cleanup();	/* every CPU back online before the last checks */
	for (int i = 0; i < nthreads; i++)
		torture_stop_kthread(scftorture_invoker, scf_stats_p[i].task);
	/*
	 * Linux sends this without waiting. Waiting also flushes every CPU's
	 * queue: a CPU runs its calls in order, so every no-wait call queued
	 * before has run when this returns, and the lost-call count is exact.
	 */
	smp_call_function(scf_cleanup_handler, NULL, 1);
	torture_stop_kthread(scf_torture_stats, scf_torture_stats_task);
	scf_check_lost();
	scf_torture_stats_print();	/* after the stats kthread is stopped */
	scf_print_ours();
	failed = atomic_read(&scf_n_errs) || atomic_read(&scf_n_mb_in_errs) || atomic_read(&scf_n_mb_out_errs);
	kfree(scf_stats_p);
	scf_stats_p = NULL;
	if (failed)
		scftorture_print_module_parms("End of test: FAILURE");
	else if (torture_onoff_failures())
		scftorture_print_module_parms("End of test: LOCK_HOTPLUG");
	else
		scftorture_print_module_parms("End of test: SUCCESS");
	if (failed || torture_onoff_failures())
		kernel_note_test_failure();	/* the power-off exit status says so */
end:
	torture_cleanup_end();
}

/* Linux's defaults: all weights -1 gives every primitive its share; else -1 means 0. */
static unsigned long scf_weight(int w, unsigned long dflt, bool all_default)
{
	if (all_default)
		return w == 0 ? 0 : dflt;
	return w == -1 ? 0 : (unsigned long)w;
}

static int scf_torture_init(void)
{
	bool dflt = weight_resched <= 0 && weight_single <= 0 && weight_single_rpc <= 0 &&
		    weight_single_wait <= 0 && weight_many <= 0 && weight_many_wait <= 0 &&
		    weight_all <= 0 && weight_all_wait <= 0;
	int firsterr = 0;

	if (!torture_init_begin(SCFTORT_STRING, verbose))
		return -EBUSY;
	scftorture_print_module_parms("Start of test");
	scf_sel_add(scf_weight(weight_resched, 2 * nr_cpu_ids, dflt), SCF_PRIM_RESCHED, false);
	scf_sel_add(scf_weight(weight_single, 2 * nr_cpu_ids, dflt), SCF_PRIM_SINGLE, false);
	scf_sel_add(scf_weight(weight_single_rpc, 2 * nr_cpu_ids, dflt), SCF_PRIM_SINGLE_RPC, true);
	scf_sel_add(scf_weight(weight_single_wait, 2 * nr_cpu_ids, dflt), SCF_PRIM_SINGLE, true);
	scf_sel_add(scf_weight(weight_many, 2, dflt), SCF_PRIM_MANY, false);
	scf_sel_add(scf_weight(weight_many_wait, 2, dflt), SCF_PRIM_MANY, true);
	scf_sel_add(scf_weight(weight_all, 1, dflt), SCF_PRIM_ALL, false);
	scf_sel_add(scf_weight(weight_all_wait, 1, dflt), SCF_PRIM_ALL, true);
	if (!scf_sel_array_len) {
		VERBOSE_SCFTORTOUT_ERRSTRING("all zero weights makes no sense");
		firsterr = -EINVAL;
		goto unwind;
	}
	scf_sel_dump();

	if (onoff_interval > 0) {
		firsterr = torture_onoff_init(onoff_holdoff * HZ, onoff_interval);
		if (firsterr)
			goto unwind;
	}
	if (shutdown_secs > 0) {
		firsterr = torture_shutdown_init(shutdown_secs, scf_torture_cleanup);
		if (firsterr)
			goto unwind;
	}
	if (stutter > 0) {
		firsterr = torture_stutter_init(stutter, stutter);
		if (firsterr)
			goto unwind;
	}

	if (nthreads < 0)
		nthreads = num_online_cpus();
	scf_stats_p = kcalloc(nthreads, sizeof(scf_stats_p[0]), GFP_KERNEL);
	if (!scf_stats_p) {
		VERBOSE_SCFTORTOUT_ERRSTRING("out of memory");
		firsterr = -ENOMEM;
		goto unwind;
	}
	scf_longwait = longwait;
	scf_use_cpus_read_lock = use_cpus_read_lock;
	scf_nthreads = nthreads;
	VERBOSE_SCFTORTOUT("Starting %d smp_call_function() threads", nthreads);
	atomic_set(&n_started, nthreads);
	for (int i = 0; i < nthreads; i++) {
		scf_stats_p[i].cpu = i;
		firsterr = torture_create_kthread(scftorture_invoker, &scf_stats_p[i],
						  scf_stats_p[i].task);
		if (firsterr)
			goto unwind;
	}
	if (stat_interval > 0) {
		firsterr = torture_create_kthread(scf_torture_stats, NULL, scf_torture_stats_task);
		if (firsterr)
			goto unwind;
	}
	torture_init_end();
	return 0;

unwind:
	return torture_init_abort(scf_torture_cleanup, firsterr, shutdown_secs);
}
late_initcall(scf_torture_init);
