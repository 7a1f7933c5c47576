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

#include <kernel/init.h>
#include "rcutorture.h"

/* ===== state ====================================================================== */

static struct task_struct **fakewriter_tasks;
static struct task_struct **reader_tasks;
static struct task_struct *stats_task;
static unsigned long start_gp_seq;

/* ===== what can be tested ============================================================= */

/* Every flavor that can be tortured, in the order the "rcu-torture types:" line lists them. */
static struct rcu_torture_ops *torture_ops[] = {
	&rcu_ops, &rcu_busted_ops, &tasks_ops, TASKS_RUDE_TORTURE_OPS TRACE_TORTURE_OPS SRCU_TORTURE_OPS &trivial_ops,
};

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
	int flags = 0, firsterr = 0;
	long i;

	if (!rtp->torture_runnable)
		return 0;
	if (!torture_init_begin(rtp->torture_type, rtp->verbose))
		return -EBUSY;
	cur_ops = NULL;
	for (i = 0; i < (long)ARRAY_SIZE(torture_ops); i++) {
		if (!strcmp(rtp->torture_type, torture_ops[i]->name)) {
			cur_ops = torture_ops[i];
			break;
		}
	}
	if (!cur_ops) {
		char buf[128];
		int n = 0;

		pr_alert("rcu-torture: invalid torture type: \"%s\"\n", rtp->torture_type);
		for (i = 0; i < (long)ARRAY_SIZE(torture_ops); i++)
			n += snprintf(buf + n, sizeof(buf) - n, " %s", torture_ops[i]->name);
		pr_alert("rcu-torture types:%s\n", buf);
		firsterr = -EINVAL;
		goto unwind;
	}
	rcu_torture_params_settle();	/* fqs_duration, nrealreaders */
	if (cur_ops->init)
		cur_ops->init();
	rcu_torture_print_module_parms(cur_ops, "Start of test");
	if (cur_ops->gp_data)
		cur_ops->gp_data(&flags, &gp_seq);
	start_gp_seq = cur_ops->get_gp_seq();
	pr_alert("%s:  Start-test grace-period state: g%ld f%#x\n",
		 cur_ops->name, (long)gp_seq, flags);

	/* Each run starts from a full freelist and zeroed statistics. */
	rcu_torture_pool_init();
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
	rcu_torture_set_test_end();
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
