/*
 * rcuperf's kfree_rcu() test (Linux's rcuscale.kfree_rcu_test, our own
 * code): with rcuperf.kfree_rcu_test=1 (or rcuscale.kfree_rcu_test=1),
 * rcuperf runs this instead of its grace-period test (rcuperf.c hands
 * over). kfree_nthreads kthreads (thread i bound to CPU i % nr_cpu_ids,
 * nice 19) each run kfree_loops loops of kfree_alloc_num kmalloc()s of
 * kfree_mult * 24 bytes, each object passed straight to kfree_rcu(): the
 * two-argument form, the one-argument (headless) form, or a coin toss
 * between them per object (both or neither of kfree_rcu_test_double and
 * kfree_rcu_test_single set, Linux's rule). The last thread to finish
 * prints Linux's line:
 *   Total time taken by all kfree'ers: N ns, loops: N, batches: N, memory footprint: NMB
 * where, as in Linux, the time is the run of the thread that ends last,
 * from its own start to its end, batches are the grace periods completed
 * from the last thread's start to that end (Linux's "batches" is a gp_seq
 * difference), and the footprint is that thread's
 * free memory at its start less its average over the run, sampled every
 * kfree_loops / 4 loops (Linux's si_mem_available() sampling; here
 * nr_free_pages()). Then, with rcuperf.shutdown, the machine powers off.
 * Figures are reported, never judged.
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "rcu"
#define TORTURE_PARAM_PREFIX "rcuperf."

#include <rcu/rcupdate.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/wait.h>
#include <kernel/param.h>
#include <kernel/torture.h>
#include <kernel/torture_param.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/atomic.h>
#include <kernel/errno.h>
#include <time/time.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include "rcu_perf_common.h"
#include "rcuperf_kfree.h"

torture_param(int, kfree_rcu_test, 0, 0, 1, "run the kfree_rcu() test instead of the grace-period one");
torture_param(int, kfree_mult, 1, 1, 100, "multiple of the object size (24 bytes) to allocate");
torture_param(int, kfree_nthreads, -1, -NR_CPUS, 4 * NR_CPUS,
	      "kfree_rcu() kthreads: N, or -1 for one per online CPU (-k: CPUs + 1 - k)");
torture_param(int, kfree_alloc_num, 8000, 1, 10000000, "allocations and frees per loop");
torture_param(int, kfree_loops, 10, 4, 1000000, "loops of kfree_alloc_num allocations and frees");
torture_param_bool(kfree_rcu_test_double, false, "only the two-argument kfree_rcu()");
torture_param_bool(kfree_rcu_test_single, false, "only the one-argument (headless) kfree_rcu()");

/* Linux's object: 8 bytes and an rcu_head (24 bytes on x86-64). */
struct kfree_obj {
	char kfree_obj[8];
	struct rcu_head rh;
};

static int kfree_nrealthreads;
static atomic_t n_kfree_started, n_kfree_ended;
static unsigned long kfree_gp_start;
static struct task_struct **kfree_tasks;
static DECLARE_WAIT_QUEUE_HEAD(kfree_done_wq);
static bool kfree_shutdown;

bool rcu_perf_kfree_wanted(void)
{
	return kfree_rcu_test;
}

static int kfree_perf_thread(void *arg)
{
	bool both = kfree_rcu_test_single == kfree_rcu_test_double;
	long mem_begin = 0, mem_during = 0;
	DEFINE_TORTURE_RANDOM(tr);
	int loop = 0;
	u64 t_start;

	(void)arg;
	set_user_nice(current, 19);
	t_start = local_clock();
	if (atomic_inc_return(&n_kfree_started) == kfree_nrealthreads)
		kfree_gp_start = rcu_gp_completed();
	do {
		if (!mem_during)
			mem_during = mem_begin = (long)nr_free_pages();
		else if (loop % (kfree_loops / 4) == 0)
			mem_during = (mem_during + (long)nr_free_pages()) / 2;
		for (int i = 0; i < kfree_alloc_num; i++) {
			struct kfree_obj *p = kmalloc(kfree_mult * sizeof(*p), GFP_KERNEL);

			if (!p) {
				pr_alert("rcu-perf: kfree_rcu() test: out of memory\n");
				goto out;
			}
			if ((kfree_rcu_test_single && !kfree_rcu_test_double) ||
			    (both && (torture_random(&tr) & 0x800)))
				kfree_rcu(p);
			else
				kfree_rcu(p, rh);
		}
		cond_resched();
	} while (!kthread_should_stop() && ++loop < kfree_loops);
out:
	if (atomic_inc_return(&n_kfree_ended) == kfree_nrealthreads) {
		u64 t = local_clock() - t_start;

		pr_alert("Total time taken by all kfree'ers: %llu ns, loops: %d, batches: %ld, memory footprint: %ldMB\n",
			 (unsigned long long)t, kfree_loops,
			 (long)(rcu_gp_completed() - kfree_gp_start),
			 (mem_begin - mem_during) >> (20 - PAGE_SHIFT));
		wake_up(&kfree_done_wq);
	}
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

/* Wait for every thread's end, stop them, then leave the power-off to rcu_perf_test_end(). */
static int kfree_perf_main(void *unused)
{
	wait_event(kfree_done_wq, atomic_read(&n_kfree_ended) >= kfree_nrealthreads);
	for (int i = 0; i < kfree_nrealthreads; i++)
		if (kfree_tasks[i])
			kthread_stop(kfree_tasks[i]);
	kfree(kfree_tasks);
	rcu_perf_test_end(kfree_shutdown);
	return 0;
}

int rcu_perf_kfree_init(bool shutdown, int nthreads_online)
{
	kfree_nrealthreads = kfree_nthreads >= 0 ? kfree_nthreads :
			     (nthreads_online + 1 + kfree_nthreads > 0 ?
			      nthreads_online + 1 + kfree_nthreads : 1);
	if (!kfree_nrealthreads)
		return 0;
	kfree_shutdown = shutdown;
	pr_alert("kfree object size=%zu\n", kfree_mult * sizeof(struct kfree_obj));
	kfree_tasks = kcalloc(kfree_nrealthreads, sizeof(*kfree_tasks), GFP_KERNEL);
	if (!kfree_tasks)
		return -ENOMEM;
	rcu_perf_test_begin();
	for (long i = 0; i < kfree_nrealthreads; i++) {
		kfree_tasks[i] = kthread_create(kfree_perf_thread, (void *)i, "kfree_perf/%ld", i);
		if (!kfree_tasks[i]) {
			/* Those started will still end; count the others as ended. */
			pr_alert("rcu-perf: cannot create kfree_perf/%ld\n", i);
			kfree_nrealthreads = (int)i;
			break;
		}
		kthread_bind(kfree_tasks[i], i % nr_cpu_ids);
		wake_up_process(kfree_tasks[i]);
	}
	if (!kthread_run(kfree_perf_main, NULL, "kfree_perf_main"))
		pr_alert("rcu-perf: cannot create kfree_perf_main\n");
	return 0;
}
