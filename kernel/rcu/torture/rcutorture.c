/*
 * rcutorture: the boot-time torture test of RCU, with Linux's parameters
 * (rcutorture.*), console lines and verdict. It is the project's oracle
 * for RCU correctness: a test that must pass for every RCU change.
 *
 * The core check: a writer kthread keeps replacing the element that the
 * shared pointer rcu_torture_current designates, and retires the old one
 * through grace periods, bumping its "pipeline count" once per grace
 * period; after RCU_TORTURE_PIPE_LEN of them the element is recycled.
 * Reader kthreads (and, with irqreader, timer handlers) dereference the
 * pointer under rcu_read_lock(), linger a while, and record the pipeline
 * count they see: a reader that began before a grace period must still
 * see the element it dereferenced with a count of at most 1, so any read
 * aged 2 or more (or of a recycled element, rtort_mbtest == 0) proves a
 * grace period ended before a reader that preceded it: an RCU bug.
 *
 * Around that core: fake writers hammer the update-side APIs, a barrier
 * tester checks rcu_barrier() against callbacks queued on each CPU, the
 * boost test starves preempted readers with one SCHED_FIFO spinner per
 * CPU and checks that priority boosting still lets grace periods end, the
 * shuffler and stutter (kernel/torture.c) move the test among the CPUs
 * and pause it, an FQS kthread pokes the grace-period kthread, an
 * optional CPU stall must be reported by the stall detector, and the
 * forward-progress test floods call_rcu() and checks that grace periods
 * keep completing. torture_type=busted selects a deliberately broken RCU
 * (grace periods that do not wait), which the test must catch.
 *
 * Reads are made of segments as in Linux (rcutorture_extend.c): the
 * flavor's reader, nested or not, and for "rcu" interrupts-off,
 * preempt-off, _bh and _sched stretches (rcutorture.extendables; Linux's
 * local_bh_disable() bit has no counterpart, this kernel having no
 * softirqs). CPU hotplug is kernel/torture.c's (rcutorture.onoff_*).
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "rcu"
#define TORTURE_PARAM_PREFIX "rcutorture."
#define TORTURE_PARAM_LINKAGE	/* shared with the other parts through rcutorture.h */

#include <kernel/init.h>
#include <kernel/torture_param.h>
#include "rcutorture.h"

/* ===== parameters ============================================================== */

torture_param_string(torture_type, 16, "rcu",
		     "type of RCU to torture (rcu, busted, tasks, srcu, srcud, busted_srcud, trivial)");
torture_param_bool(torture_runnable, IS_ENABLED(CONFIG_RCU_TORTURE_TEST_RUNNABLE),
		   "start rcutorture at boot");
torture_param(int, nreaders, -1, -NR_CPUS, 4 * NR_CPUS,
	      "reader kthreads (-1: one fewer than the online CPUs, at least 1)");
torture_param(int, nfakewriters, 4, 0, 64, "fake-writer kthreads calling the update-side APIs");
torture_param(int, stat_interval, 60, 0, 3600,
	      "seconds between statistics lines (0: only at the end)");
torture_param(int, shutdown_secs, 0, 0, 86400,
	      "end the test and power off after this many seconds (0: run forever)");
torture_param_bool(test_no_idle_hz, true,
		   "test dyntick-idle CPUs (the shuffler keeps one CPU idle in turn)");
torture_param(int, shuffle_interval, 3, 0, 3600,
	      "seconds between shuffles of the test kthreads (0: none)");
torture_param(int, stutter, 5, 0, 3600, "seconds to run, then to pause, the test (0: never pause)");
torture_param(int, irqreader, 1, 0, 1, "also read from timer handlers (and call_rcu() from them)");
torture_param(int, fqs_duration, 0, 0, 10000000,
	      "microseconds of each burst of forced quiescent-state scans (0: none)");
torture_param(int, fqs_holdoff, 0, 0, 1000000, "microseconds between forced scans within a burst");
torture_param(int, fqs_stutter, 3, 0, 3600, "seconds between bursts of forced scans");
torture_param_bool(gp_cond, false, "writer uses cond_synchronize_rcu()");
torture_param_bool(gp_cond_exp, false, "writer uses cond_synchronize_rcu_expedited()");
torture_param_bool(gp_cond_full, false, "writer uses cond_synchronize_rcu_full()");
torture_param_bool(gp_cond_exp_full, false,
		   "writer uses cond_synchronize_rcu_expedited_full()");
torture_param_bool(gp_exp, false, "writer uses synchronize_rcu_expedited()");
torture_param_bool(gp_normal, false, "writer uses call_rcu()");
torture_param_bool(gp_poll, false, "writer uses start/poll_state_synchronize_rcu()");
torture_param_bool(gp_poll_exp, false,
		   "writer uses start_poll_synchronize_rcu_expedited()/poll_state_synchronize_rcu()");
torture_param_bool(gp_poll_full, false,
		   "writer uses start/poll_state_synchronize_rcu_full()");
torture_param_bool(gp_poll_exp_full, false,
		   "writer uses start_poll_synchronize_rcu_expedited_full()/poll_state_synchronize_rcu_full()");
torture_param_bool(gp_sync, false, "writer uses synchronize_rcu()");
torture_param(int, n_barrier_cbs, 0, 0, NR_CPUS,
	      "kthreads (one callback each, on CPU = kthread number) testing rcu_barrier() (0: none)");
torture_param(int, stall_cpu, 0, 0, 300,
	      "seconds to stall a CPU inside a reader, to provoke a stall warning (0: none)");
torture_param(int, stall_cpu_holdoff, 10, 0, 3600, "seconds to wait before stalling the CPU");
torture_param(int, stall_cpu_irqsoff, 0, 0, 1, "stall with interrupts disabled");
torture_param_bool(stall_no_softlockup, false,
		   "keep the soft-lockup detector quiet during the stall (touch_softlockup_watchdog())");
torture_param(int, fwd_progress, 1, -65536, 65536,
	      "forward-progress kthreads (cond_resched() loop, call_rcu() flood; 0: none, <0 or more than the CPUs: one per CPU)");
torture_param(int, fwd_progress_holdoff, 60, 1, 3600,
	      "seconds before (and between) forward-progress tests");
torture_param(int, fwd_progress_div, 4, 1, 100,
	      "the cond_resched() loop lasts between 1/div and all of the stall timeout");
torture_param_bool(fwd_progress_need_resched, true,
		   "call cond_resched() in that loop only when need_resched()");
torture_param(int, read_exit_delay, 13, 0, 3600, "seconds between read-then-exit episodes");
torture_param(int, read_exit_burst, 16, 0, 10000, "read-then-exit kthreads per episode (0: none)");
torture_param(int, nocbs_nthreads, 0, 0, 1024,
	      "kthreads toggling callback offloading of random CPUs (0: none; rcutorture_nocb.c)");
torture_param(int, nocbs_toggle, 1000, 1, 3600000,
	      "milliseconds between one toggler's (de)offloads, plus up to an eighth more");
torture_param(int, verbose, 1, 0, 2, "print kthread start/stop lines");
torture_param(int, onoff_interval, 0, 0, 3600000,
	      "milliseconds between CPU-hotplug operations (0: none; needs CONFIG_HOTPLUG_CPU)");
torture_param(int, onoff_holdoff, 0, 0, 3600, "seconds before the first CPU-hotplug operation");
torture_param(int, object_debug, 0, 0, 1,
	      "test double call_rcu() detection (needs debug objects, not implemented yet)");

torture_param(int, test_boost, 1, 0, 2,
	      "test RCU priority boosting: 0 never, 1 if the flavor boosts (RCU_BOOST), 2 always");
torture_param(int, test_boost_interval, 7, 1, 3600,
	      "seconds from the end of one boost test to the start of the next");
torture_param(int, test_boost_duration, 4, 2, 3600,
	      "seconds each boost test lasts (a grace period may take up to this less 0.5 s)");

/* ===== state ====================================================================== */

int nrealreaders;
struct task_struct *writer_task;
static struct task_struct **fakewriter_tasks;
static struct task_struct **reader_tasks;
static struct task_struct *stats_task;
static struct task_struct *fqs_task;
static struct task_struct *stall_task;

LIST_HEAD(rcu_torture_freelist);
struct rcu_torture __rcu *rcu_torture_current;
unsigned long rcu_torture_current_version;
static struct rcu_torture rcu_tortures[10 * RCU_TORTURE_PIPE_LEN];
static DEFINE_SPINLOCK(rcu_torture_lock);
DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_count);
DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_batch);
atomic_t rcu_torture_wcount[RCU_TORTURE_PIPE_LEN + 1];
struct rcu_torture_reader_check *rcu_torture_reader_mbchk;
atomic_t n_rcu_torture_alloc;
atomic_t n_rcu_torture_alloc_fail;
atomic_t n_rcu_torture_free;
atomic_t n_rcu_torture_mberror;
atomic_t n_rcu_torture_mbchk_fail;
atomic_t n_rcu_torture_mbchk_tries;
atomic_t n_rcu_torture_error;
atomic_t n_rcu_torture_lost;	/* elements neither free nor current after a stutter pause */
atomic_t n_rcu_torture_freelist_waits;	/* free-list checks that had to wait for the pipeline */
atomic_t n_rcu_torture_poll_timeouts;	/* polled grace periods that never completed on their own */
long n_rcu_torture_barrier_error;
long n_rcu_torture_boost_ktrerror;	/* booster kthreads that could not be created */
long n_rcu_torture_boost_rterror;	/* boosters that could not go SCHED_FIFO */
long n_rcu_torture_boost_failure;	/* grace periods that outlived a boost window */
long n_rcu_torture_boosts;		/* boost-test windows completed */
atomic_long_t n_rcu_torture_timers;
long n_barrier_attempts;
long n_barrier_successes;
unsigned long n_read_exits;
LIST_HEAD(rcu_torture_removed);	/* writer-private: waiting for synchronous GPs */
static unsigned long start_gp_seq;
static u64 test_end_ns;			/* shutdown deadline on local_clock(), 0: none */
atomic_t rcu_fwd_cb_nodelay;		/* readers skip long delays while non-zero (floods under way) */

int rcu_torture_writer_state;	/* RTWS_*: what the writer is doing */
static const char * const rcu_torture_writer_state_names[] = {
	"RTWS_FIXED_DELAY", "RTWS_DELAY", "RTWS_REPLACE", "RTWS_DEF_FREE",
	"RTWS_EXP_SYNC", "RTWS_COND_GET", "RTWS_COND_GET_FULL", "RTWS_COND_GET_EXP",
	"RTWS_COND_GET_EXP_FULL", "RTWS_COND_SYNC", "RTWS_COND_SYNC_FULL", "RTWS_COND_SYNC_EXP",
	"RTWS_COND_SYNC_EXP_FULL", "RTWS_POLL_GET", "RTWS_POLL_GET_FULL", "RTWS_POLL_GET_EXP",
	"RTWS_POLL_GET_EXP_FULL", "RTWS_POLL_WAIT", "RTWS_POLL_WAIT_FULL", "RTWS_POLL_WAIT_EXP",
	"RTWS_POLL_WAIT_EXP_FULL", "RTWS_SYNC", "RTWS_STUTTER", "RTWS_STOPPING",
};
_Static_assert(ARRAY_SIZE(rcu_torture_writer_state_names) == RTWS_STOPPING + 1,
	       "one name per RTWS_* state");

const char *rcu_torture_writer_state_getname(void)
{
	unsigned int i = READ_ONCE(rcu_torture_writer_state);

	return i < ARRAY_SIZE(rcu_torture_writer_state_names) ?
	       rcu_torture_writer_state_names[i] : "???";
}

/*
 * Stop the CPU-hogging tests (forward progress) a little before the
 * shutdown, so they do not disturb the final report: Linux uses 30 s;
 * short boot tests here get a quarter of their run instead.
 */
bool shutdown_time_arrived(void)
{
	u64 margin;

	if (!test_end_ns)
		return false;
	margin = (u64)shutdown_secs * NSEC_PER_SEC / 4;
	if (margin > 30 * NSEC_PER_SEC)
		margin = 30 * NSEC_PER_SEC;
	return local_clock() + margin >= test_end_ns;
}

struct rcu_torture *rcu_torture_alloc(void)
{
	struct list_head *p;
	unsigned long flags;

	spin_lock_irqsave(&rcu_torture_lock, flags);
	if (list_empty(&rcu_torture_freelist)) {
		atomic_inc(&n_rcu_torture_alloc_fail);
		spin_unlock_irqrestore(&rcu_torture_lock, flags);
		return NULL;
	}
	atomic_inc(&n_rcu_torture_alloc);
	p = rcu_torture_freelist.next;
	list_del_init(p);
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
	return container_of(p, struct rcu_torture, rtort_free);
}

void rcu_torture_free(struct rcu_torture *p)
{
	unsigned long flags;

	atomic_inc(&n_rcu_torture_free);
	spin_lock_irqsave(&rcu_torture_lock, flags);
	list_add_tail(&p->rtort_free, &rcu_torture_freelist);
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
}

/* Elements neither free nor current; *pipe gets the first one's pipeline count. */
static int rcu_torture_count_missing(int *pipe)
{
	struct rcu_torture *cur = rcu_access_pointer(rcu_torture_current);
	unsigned long flags;
	int i, n = 0;

	spin_lock_irqsave(&rcu_torture_lock, flags);
	for (i = 0; i < (int)ARRAY_SIZE(rcu_tortures); i++) {
		if (list_empty(&rcu_tortures[i].rtort_free) && &rcu_tortures[i] != cur) {
			if (!n)
				*pipe = READ_ONCE(rcu_tortures[i].rtort_pipe_count);
			n++;
		}
	}
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
	return n;
}

/*
 * After a stutter pause every element but the current one must be back on
 * the free list (Linux's check in rcu_torture_writer()): one that is not
 * had its callback lost, or never invoked. Elements still on the writer's
 * rcu_torture_removed list (waiting for synchronous grace periods) are on a
 * list and do not count, as in Linux.
 *
 * Linux checks once, trusting the pause to have been long enough for the
 * pipeline to drain (up to RCU_TORTURE_PIPE_LEN grace periods per element).
 * On an overloaded host one grace period took 3.8 s (TREE01, campaign
 * under jitter) and the check failed with nothing lost. So a failed first
 * look is followed by rcu_barrier()s, one per pipeline stage: each waits
 * for every callback queued before it, including the ones the previous
 * stage's callbacks requeued, and the writer (the only one who puts
 * elements in flight) is not queueing any. What is still missing after
 * that was really lost. Returns how many are missing; WARNs then.
 */
int rcu_torture_check_freelist(void)
{
	int i, n, pipe = 0;

	n = rcu_torture_count_missing(&pipe);
	if (n && cur_ops->cb_barrier) {
		atomic_inc(&n_rcu_torture_freelist_waits);
		for (i = 0; i <= RCU_TORTURE_PIPE_LEN && n && !torture_must_stop(); i++) {
			cur_ops->cb_barrier();
			n = rcu_torture_count_missing(&pipe);
		}
		if (torture_must_stop())
			return 0;	/* the test is ending: it cleans up itself */
	}
	if (n) {
		atomic_add(n, &n_rcu_torture_lost);
		pr_alert("%s" TORTURE_FLAG " !!! %d element(s) neither free nor current after a stutter pause\n",
			 torture_type, n);
		WARN(1, "%s: rtort_pipe_count: %d\n", "rcu_torture_writer", pipe);
	}
	return n;
}

/* ===== start and end =================================================================================== */

static void rcu_torture_cleanup(void)
{
	unsigned long gp_seq = 0;
	int flags = 0, i;
	bool failed;

	if (torture_cleanup_begin()) {
		if (cur_ops && cur_ops->cb_barrier)
			cur_ops->cb_barrier();
		return;
	}
	if (!cur_ops) {
		torture_cleanup_end();
		return;
	}
	torture_onoff_cleanup();	/* first: every CPU back online for the rest */
	rcu_torture_read_exit_cleanup();
	rcu_torture_nocb_cleanup();
	rcu_torture_boost_cleanup();
	rcu_torture_barrier_cleanup();
	rcu_torture_fwd_prog_cleanup();
	torture_stop_kthread(rcu_torture_stall, stall_task);
	torture_stop_kthread(rcu_torture_writer, writer_task);
	if (reader_tasks) {
		for (i = 0; i < nrealreaders; i++)
			torture_stop_kthread(rcu_torture_reader, reader_tasks[i]);
		kfree(reader_tasks);
		reader_tasks = NULL;
	}
	kfree(rcu_torture_reader_mbchk);
	rcu_torture_reader_mbchk = NULL;
	if (fakewriter_tasks) {
		for (i = 0; i < nfakewriters; i++)
			torture_stop_kthread(rcu_torture_fakewriter, fakewriter_tasks[i]);
		kfree(fakewriter_tasks);
		fakewriter_tasks = NULL;
	}
	if (cur_ops->gp_data)
		cur_ops->gp_data(&flags, &gp_seq);
	pr_alert("%s:  End-test grace-period state: g%ld f%#x total-gps=%ld\n",
		 cur_ops->name, (long)gp_seq, flags,
		 (long)(cur_ops->get_gp_seq() - start_gp_seq));
	torture_stop_kthread(rcu_torture_stats, stats_task);
	torture_stop_kthread(rcu_torture_fqs, fqs_task);
	if (cur_ops->cb_barrier)
		cur_ops->cb_barrier();	/* every callback of ours has run */
	if (cur_ops->cleanup)
		cur_ops->cleanup();
	rcu_torture_stats_print();	/* after the stats kthread is gone */
	rcutorture_print_read_segs();	/* a read that saw an old element: how it was made */
	if (boost_tested)
		rcu_torture_boost_summary();
	failed = atomic_read(&n_rcu_torture_error) || atomic_read(&n_rcu_torture_lost) ||
		 atomic_read(&n_rcu_torture_poll_timeouts) || n_rcu_torture_barrier_error ||
		 n_rcu_torture_boost_failure;
	/* As Linux: hotplug operations that failed, with nothing else wrong, say LOCK_HOTPLUG. */
	rcu_torture_print_module_parms(cur_ops, failed ? "End of test: FAILURE" :
				       torture_onoff_failures() ? "End of test: LOCK_HOTPLUG" :
				       "End of test: SUCCESS");
	failed |= torture_onoff_failures();
	if (failed)
		kernel_note_test_failure();	/* the power-off exit status says so */
	torture_cleanup_end();
}

static int rcu_torture_init(void)
{
	unsigned long gp_seq = 0;
	int flags = 0, firsterr = 0, cpu;
	long i;

	if (!torture_runnable)
		return 0;
	if (!torture_init_begin(torture_type, verbose))
		return -EBUSY;
	cur_ops = NULL;
	for (i = 0; i < (long)n_torture_ops; i++) {
		if (!strcmp(torture_type, torture_ops[i]->name)) {
			cur_ops = torture_ops[i];
			break;
		}
	}
	if (!cur_ops) {
		char buf[128];
		int n = 0;

		pr_alert("rcu-torture: invalid torture type: \"%s\"\n", torture_type);
		for (i = 0; i < (long)n_torture_ops; i++)
			n += snprintf(buf + n, sizeof(buf) - n, " %s", torture_ops[i]->name);
		pr_alert("rcu-torture types:%s\n", buf);
		firsterr = -EINVAL;
		goto unwind;
	}
	if (!cur_ops->fqs && fqs_duration) {
		pr_alert("rcu-torture: ->fqs NULL and non-zero fqs_duration, fqs disabled.\n");
		fqs_duration = 0;
	}
	if (cur_ops->init)
		cur_ops->init();
	if (nreaders >= 0) {
		nrealreaders = nreaders;
	} else {
		nrealreaders = num_online_cpus() - 2 - nreaders;
		if (nrealreaders <= 0)
			nrealreaders = 1;
	}
	rcu_torture_print_module_parms(cur_ops, "Start of test");
	if (cur_ops->gp_data)
		cur_ops->gp_data(&flags, &gp_seq);
	start_gp_seq = cur_ops->get_gp_seq();
	pr_alert("%s:  Start-test grace-period state: g%ld f%#x\n",
		 cur_ops->name, (long)gp_seq, flags);

	/* Each run starts from a full freelist and zeroed statistics. */
	INIT_LIST_HEAD(&rcu_torture_freelist);
	for (i = 0; i < (long)ARRAY_SIZE(rcu_tortures); i++) {
		rcu_tortures[i].rtort_mbtest = 0;
		rcu_tortures[i].rtort_chkp = NULL;
		list_add_tail(&rcu_tortures[i].rtort_free, &rcu_torture_freelist);
	}
	RCU_INIT_POINTER(rcu_torture_current, NULL);
	rcu_torture_current_version = 0;
	atomic_set(&n_rcu_torture_alloc, 0);
	atomic_set(&n_rcu_torture_alloc_fail, 0);
	atomic_set(&n_rcu_torture_free, 0);
	atomic_set(&n_rcu_torture_mberror, 0);
	atomic_set(&n_rcu_torture_mbchk_fail, 0);
	atomic_set(&n_rcu_torture_mbchk_tries, 0);
	atomic_set(&n_rcu_torture_error, 0);
	atomic_set(&n_rcu_torture_lost, 0);
	atomic_set(&n_rcu_torture_poll_timeouts, 0);
	atomic_set(&n_rcu_torture_freelist_waits, 0);
	n_rcu_torture_barrier_error = 0;
	n_rcu_torture_boost_ktrerror = 0;
	n_rcu_torture_boost_rterror = 0;
	n_rcu_torture_boost_failure = 0;
	n_rcu_torture_boosts = 0;
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		atomic_set(&rcu_torture_wcount[i], 0);
	for_each_possible_cpu(cpu) {
		for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++) {
			per_cpu(rcu_torture_count, cpu)[i] = 0;
			per_cpu(rcu_torture_batch, cpu)[i] = 0;
		}
	}

	rcutorture_extend_init();	/* rcutorture.extendables: only the bits this kernel has */
	rcu_torture_write_types();
	firsterr = torture_create_kthread(rcu_torture_writer, NULL, writer_task);
	if (firsterr)
		goto unwind;
	if (nfakewriters > 0) {
		fakewriter_tasks = kcalloc(nfakewriters, sizeof(fakewriter_tasks[0]), GFP_KERNEL);
		if (!fakewriter_tasks) {
			VERBOSE_TOROUT_ERRSTRING("out of memory");
			firsterr = -ENOMEM;
			goto unwind;
		}
	}
	for (i = 0; i < nfakewriters; i++) {
		firsterr = torture_create_kthread(rcu_torture_fakewriter, NULL, fakewriter_tasks[i]);
		if (firsterr)
			goto unwind;
	}
	reader_tasks = kcalloc(nrealreaders, sizeof(reader_tasks[0]), GFP_KERNEL);
	rcu_torture_reader_mbchk = kcalloc(nrealreaders, sizeof(*rcu_torture_reader_mbchk),
					   GFP_KERNEL);
	if (!reader_tasks || !rcu_torture_reader_mbchk) {
		VERBOSE_TOROUT_ERRSTRING("out of memory");
		firsterr = -ENOMEM;
		goto unwind;
	}
	for (i = 0; i < nrealreaders; i++) {
		rcu_torture_reader_mbchk[i].rtc_chkrdr = -1;
		firsterr = torture_create_kthread(rcu_torture_reader, (void *)i, reader_tasks[i]);
		if (firsterr)
			goto unwind;
	}
	if (stat_interval > 0) {
		firsterr = torture_create_kthread(rcu_torture_stats, NULL, stats_task);
		if (firsterr)
			goto unwind;
	}
	if (test_no_idle_hz && shuffle_interval > 0) {
		firsterr = torture_shuffle_init(shuffle_interval * HZ);
		if (firsterr)
			goto unwind;
	}
	if (stutter) {
		/*
		 * As Linux: pause `stutter` seconds, then run for the flavor's
		 * stall timeout (stutter seconds if it has none). Running as long
		 * as the pause halved the time the test ran, and with it the
		 * writer's updates against Linux's.
		 */
		int run = cur_ops->stall_dur ? cur_ops->stall_dur() : stutter * HZ;

		firsterr = torture_stutter_init(stutter * HZ, run);
		if (firsterr)
			goto unwind;
	}
	if (fqs_duration) {
		firsterr = torture_create_kthread(rcu_torture_fqs, NULL, fqs_task);
		if (firsterr)
			goto unwind;
	}
	boost_tested = rcu_torture_can_boost();
	if (boost_tested) {
		firsterr = rcu_torture_boost_init();
		if (firsterr)
			goto unwind;
	}
	test_end_ns = shutdown_secs ? local_clock() + (u64)shutdown_secs * NSEC_PER_SEC : 0;
	firsterr = torture_onoff_init(onoff_holdoff * HZ, msecs_to_jiffies(onoff_interval));
	if (firsterr)
		goto unwind;
	firsterr = torture_shutdown_init(shutdown_secs, rcu_torture_cleanup);
	if (firsterr)
		goto unwind;
	if (stall_cpu > 0) {
		/*
		 * On the last CPU, and kept out of the shuffler: CPU 0 keeps the
		 * jiffies here, and with its interrupts off no other CPU would
		 * see the stall last (Linux has no such limit).
		 */
		VERBOSE_TOROUT_STRING("Creating rcu_torture_stall task");
		stall_task = kthread_create(rcu_torture_stall, NULL, "rcu_torture_stall");
		if (!stall_task) {
			firsterr = -ENOMEM;
			goto unwind;
		}
		kthread_bind(stall_task, rcu_torture_last_online_cpu());
		wake_up_process(stall_task);
	}
	firsterr = rcu_torture_fwd_prog_init();
	if (firsterr)
		goto unwind;
	firsterr = rcu_torture_barrier_init();
	if (firsterr)
		goto unwind;
	firsterr = rcu_torture_read_exit_init();
	if (firsterr)
		goto unwind;
	firsterr = rcu_torture_nocb_init();
	if (firsterr)
		goto unwind;
	if (object_debug)
		rcu_test_debug_objects();
	torture_init_end();
	return 0;

unwind:
	return torture_init_abort(rcu_torture_cleanup, firsterr, shutdown_secs);
}
late_initcall(rcu_torture_init);
