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

#include <kernel/init.h>
#include <kernel/torture_param.h>
#include "rcutorture.h"

/* ===== parameters ============================================================== */

/*
 * The one copy of the rcutorture.* values: defaults and KPARAM entries
 * from rcutorture_param_list.h. Only this file writes it (the command
 * line before it starts; rcu_torture_init() for what it adjusts); the
 * other parts read it through the const view rtp.
 */
static struct rcu_torture_params rcu_torture_param_store = {
#define RCUTORTURE_PARAM(type, name, def, min, max, desc)	.name = (def),
#define RCUTORTURE_PARAM_BOOL(name, def, desc)			.name = (def),
#define RCUTORTURE_PARAM_STRING(name, size, def, desc)		.name = def,
#include "rcutorture_param_list.h"
#undef RCUTORTURE_PARAM
#undef RCUTORTURE_PARAM_BOOL
#undef RCUTORTURE_PARAM_STRING
};
const struct rcu_torture_params *const rcu_torture_params_view = &rcu_torture_param_store;

#define RCUTORTURE_PARAM(type, name, def, min, max, desc)			\
	torture_param_field(rcu_torture_param_store, type, name, min, max, desc);
#define RCUTORTURE_PARAM_BOOL(name, def, desc)					\
	torture_param_field_bool(rcu_torture_param_store, name, desc);
#define RCUTORTURE_PARAM_STRING(name, size, def, desc)				\
	torture_param_field_string(rcu_torture_param_store, name, desc);
#include "rcutorture_param_list.h"
#undef RCUTORTURE_PARAM
#undef RCUTORTURE_PARAM_BOOL
#undef RCUTORTURE_PARAM_STRING

/* ===== state ====================================================================== */

struct task_struct *rcu_torture_writer_task;
static struct task_struct **fakewriter_tasks;
static struct task_struct **reader_tasks;
static struct task_struct *stats_task;

LIST_HEAD(rcu_torture_freelist);
struct rcu_torture __rcu *rcu_torture_current;
unsigned long rcu_torture_current_version;
static struct rcu_torture rcu_tortures[10 * RCU_TORTURE_PIPE_LEN];
static DEFINE_SPINLOCK(rcu_torture_lock);
struct rcu_torture_reader_check *rcu_torture_reader_mbchk;
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
bool rcu_torture_shutdown_time_arrived(void)
{
	u64 margin;

	if (!test_end_ns)
		return false;
	margin = (u64)rtp->shutdown_secs * NSEC_PER_SEC / 4;
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
		atomic_inc(&rcu_torture_counters.alloc_fail);
		spin_unlock_irqrestore(&rcu_torture_lock, flags);
		return NULL;
	}
	atomic_inc(&rcu_torture_counters.alloc);
	p = rcu_torture_freelist.next;
	list_del_init(p);
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
	return container_of(p, struct rcu_torture, rtort_free);
}

void rcu_torture_free(struct rcu_torture *p)
{
	unsigned long flags;

	atomic_inc(&rcu_torture_counters.free);
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
		atomic_inc(&rcu_torture_counters.freelist_waits);
		for (i = 0; i <= RCU_TORTURE_PIPE_LEN && n && !torture_must_stop(); i++) {
			cur_ops->cb_barrier();
			n = rcu_torture_count_missing(&pipe);
		}
		if (torture_must_stop())
			return 0;	/* the test is ending: it cleans up itself */
	}
	if (n) {
		atomic_add(n, &rcu_torture_counters.lost);
		pr_alert("%s" TORTURE_FLAG " !!! %d element(s) neither free nor current after a stutter pause\n",
			 rtp->torture_type, n);
		WARN(1, "%s: rtort_pipe_count: %d\n", "rcu_torture_writer", pipe);
	}
	return n;
}

/* ===== the independent testers ======================================================================= */

/*
 * Each runs beside the readers and writers and owns its kthreads, started
 * in this order once the core's machinery (stats, shuffler, stutter,
 * CPU hotplug, shutdown) runs, and stopped in the reverse order after
 * CPU hotplug stops and before the writers do. A new tester is one line
 * here and its init/cleanup pair in rcutorture.h.
 */
struct rcu_torture_tester {
	const char *name;		/* for the line saying it failed to start */
	int (*init)(void);		/* 0 (also when its parameters leave it off) or -errno */
	void (*cleanup)(void);		/* NULL: nothing to stop */
	void (*summary)(void);		/* NULL, or lines after the final statistics */
};

static const struct rcu_torture_tester rcu_torture_testers[] = {
	{ "fqs",		rcu_torture_fqs_init,		rcu_torture_fqs_cleanup },
	{ "boost",		rcu_torture_boost_init,		rcu_torture_boost_cleanup,
	  rcu_torture_boost_summary },
	{ "stall",		rcu_torture_stall_init,		rcu_torture_stall_cleanup },
	{ "fwd_prog",		rcu_torture_fwd_prog_init,	rcu_torture_fwd_prog_cleanup },
	{ "barrier",		rcu_torture_barrier_init,	rcu_torture_barrier_cleanup },
	{ "read_exit",		rcu_torture_read_exit_init,	rcu_torture_read_exit_cleanup },
	{ "nocb",		rcu_torture_nocb_init,		rcu_torture_nocb_cleanup },
	{ "object_debug",	rcu_torture_objdebug_init,	NULL },
};

static int rcu_torture_testers_init(void)
{
	const struct rcu_torture_tester *t;
	int err;

	for (t = rcu_torture_testers; t < rcu_torture_testers + ARRAY_SIZE(rcu_torture_testers); t++) {
		err = t->init();
		if (err) {
			pr_alert("%s" TORTURE_FLAG "!!! %s tester failed to start: %d\n",
				 rtp->torture_type, t->name, err);
			return err;
		}
	}
	return 0;
}

/* Every tester's cleanup, also those that never started (each copes). */
static void rcu_torture_testers_cleanup(void)
{
	const struct rcu_torture_tester *t = rcu_torture_testers + ARRAY_SIZE(rcu_torture_testers);

	while (t-- > rcu_torture_testers)
		if (t->cleanup)
			t->cleanup();
}

static void rcu_torture_testers_summary(void)
{
	const struct rcu_torture_tester *t;

	for (t = rcu_torture_testers; t < rcu_torture_testers + ARRAY_SIZE(rcu_torture_testers); t++)
		if (t->summary)
			t->summary();
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
	rcu_torture_testers_cleanup();
	torture_stop_kthread(rcu_torture_writer, rcu_torture_writer_task);
	if (reader_tasks) {
		for (i = 0; i < rtp->nrealreaders; i++)
			torture_stop_kthread(rcu_torture_reader, reader_tasks[i]);
		kfree(reader_tasks);
		reader_tasks = NULL;
	}
	kfree(rcu_torture_reader_mbchk);
	rcu_torture_reader_mbchk = NULL;
	if (fakewriter_tasks) {
		for (i = 0; i < rtp->nfakewriters; i++)
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
	if (cur_ops->cb_barrier)
		cur_ops->cb_barrier();	/* every callback of ours has run */
	if (cur_ops->cleanup)
		cur_ops->cleanup();
	rcu_torture_stats_print();	/* after the stats kthread is gone */
	rcutorture_print_read_segs();	/* a read that saw an old element: how it was made */
	rcu_torture_testers_summary();
	failed = rcu_torture_stats_failed();
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
	int flags = 0, firsterr = 0, nrealreaders;
	long i;

	if (!rtp->torture_runnable)
		return 0;
	if (!torture_init_begin(rtp->torture_type, rtp->verbose))
		return -EBUSY;
	cur_ops = NULL;
	for (i = 0; i < (long)n_torture_ops; i++) {
		if (!strcmp(rtp->torture_type, torture_ops[i]->name)) {
			cur_ops = torture_ops[i];
			break;
		}
	}
	if (!cur_ops) {
		char buf[128];
		int n = 0;

		pr_alert("rcu-torture: invalid torture type: \"%s\"\n", rtp->torture_type);
		for (i = 0; i < (long)n_torture_ops; i++)
			n += snprintf(buf + n, sizeof(buf) - n, " %s", torture_ops[i]->name);
		pr_alert("rcu-torture types:%s\n", buf);
		firsterr = -EINVAL;
		goto unwind;
	}
	if (!cur_ops->fqs && rtp->fqs_duration) {
		pr_alert("rcu-torture: ->fqs NULL and non-zero fqs_duration, fqs disabled.\n");
		rcu_torture_param_store.fqs_duration = 0;
	}
	if (cur_ops->init)
		cur_ops->init();
	if (rtp->nreaders >= 0) {
		nrealreaders = rtp->nreaders;
	} else {
		nrealreaders = num_online_cpus() - 2 - rtp->nreaders;
		if (nrealreaders <= 0)
			nrealreaders = 1;
	}
	rcu_torture_param_store.nrealreaders = nrealreaders;
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
	rcu_torture_stats_reset();

	rcutorture_extend_init();	/* rcutorture.extendables: only the bits this kernel has */
	rcu_torture_write_types();
	firsterr = torture_create_kthread(rcu_torture_writer, NULL, rcu_torture_writer_task);
	if (firsterr)
		goto unwind;
	if (rtp->nfakewriters > 0) {
		fakewriter_tasks = kcalloc(rtp->nfakewriters, sizeof(fakewriter_tasks[0]), GFP_KERNEL);
		if (!fakewriter_tasks) {
			VERBOSE_TOROUT_ERRSTRING("out of memory");
			firsterr = -ENOMEM;
			goto unwind;
		}
	}
	for (i = 0; i < rtp->nfakewriters; i++) {
		firsterr = torture_create_kthread(rcu_torture_fakewriter, NULL, fakewriter_tasks[i]);
		if (firsterr)
			goto unwind;
	}
	reader_tasks = kcalloc(rtp->nrealreaders, sizeof(reader_tasks[0]), GFP_KERNEL);
	rcu_torture_reader_mbchk = kcalloc(rtp->nrealreaders, sizeof(*rcu_torture_reader_mbchk),
					   GFP_KERNEL);
	if (!reader_tasks || !rcu_torture_reader_mbchk) {
		VERBOSE_TOROUT_ERRSTRING("out of memory");
		firsterr = -ENOMEM;
		goto unwind;
	}
	for (i = 0; i < rtp->nrealreaders; i++) {
		rcu_torture_reader_mbchk[i].rtc_chkrdr = -1;
		firsterr = torture_create_kthread(rcu_torture_reader, (void *)i, reader_tasks[i]);
		if (firsterr)
			goto unwind;
	}
	if (rtp->stat_interval > 0) {
		firsterr = torture_create_kthread(rcu_torture_stats, NULL, stats_task);
		if (firsterr)
			goto unwind;
	}
	if (rtp->test_no_idle_hz && rtp->shuffle_interval > 0) {
		firsterr = torture_shuffle_init(rtp->shuffle_interval * HZ);
		if (firsterr)
			goto unwind;
	}
	if (rtp->stutter) {
		/*
		 * As Linux: pause `stutter` seconds, then run for the flavor's
		 * stall timeout (stutter seconds if it has none). Running as long
		 * as the pause halved the time the test ran, and with it the
		 * writer's updates against Linux's.
		 */
		int run = cur_ops->stall_dur ? cur_ops->stall_dur() : rtp->stutter * HZ;

		firsterr = torture_stutter_init(rtp->stutter * HZ, run);
		if (firsterr)
			goto unwind;
	}
	test_end_ns = rtp->shutdown_secs ? local_clock() + (u64)rtp->shutdown_secs * NSEC_PER_SEC : 0;
	firsterr = torture_onoff_init(rtp->onoff_holdoff * HZ, msecs_to_jiffies(rtp->onoff_interval));
	if (firsterr)
		goto unwind;
	firsterr = torture_shutdown_init(rtp->shutdown_secs, rcu_torture_cleanup);
	if (firsterr)
		goto unwind;
	firsterr = rcu_torture_testers_init();
	if (firsterr)
		goto unwind;
	torture_init_end();
	return 0;

unwind:
	return torture_init_abort(rcu_torture_cleanup, firsterr, rtp->shutdown_secs);
}
late_initcall(rcu_torture_init);
