/*
 * locktorture: the boot-time torture test of this kernel's locks, with
 * Linux 6.1's parameters (locktorture.*), console lines and verdict
 * (Documentation/locking/locktorture.md).
 *
 * Writer kthreads take one lock of the chosen type over and over, hold it
 * a short (now and then a long) while, and check that nobody else holds
 * it: a writer that finds another writer inside (lock_is_write_held) or a
 * reader inside (lock_is_read_held) counts a failure, and any failure ends
 * the test with "End of test: FAILURE". lock_busted is a lock that does
 * not exclude anybody, which the test must catch. Around that: the
 * shuffler, stutter, CPU hotplug and the timed shutdown of kernel/torture.c.
 *
 * rtmutex_lock writers also take SCHED_FIFO now and then, as Linux's do,
 * and (ours) each holder checks priority inheritance just before it
 * releases: a holder with a waiter more important than itself must run at
 * that waiter's priority (RCU priority boosting stands on this).
 *
 * This kernel has no reader-writer locks, so Linux's rw_lock, rw_lock_irq,
 * rwsem_lock and percpu_rwsem_lock types, and ww_mutex_lock, do not exist
 * here: the reader side (nreaders_stress, "Reads:" lines) is kept for them.
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "lock"
#define TORTURE_PARAM_PREFIX "locktorture."

#include <kernel/init.h>
#include <kernel/torture.h>
#include <kernel/torture_param.h>
#include <kernel/atomic.h>
#include <kernel/bug.h>
#include <kernel/errno.h>
#include <kernel/reboot.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <locking/mutex.h>
#include <locking/spinlock.h>
#include <mm/slab.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <time/time.h>

/* ===== parameters (Linux's names and defaults) ================================= */

torture_param_string(torture_type, 16, "spin_lock",
		     "type of lock to torture (spin_lock, spin_lock_irq, mutex_lock, rtmutex_lock, lock_busted)");
torture_param_bool(torture_runnable, IS_ENABLED(CONFIG_LOCK_TORTURE_TEST_RUNNABLE),
		   "start locktorture at boot");
torture_param(int, nwriters_stress, -1, -1, 128,
	      "write-locking kthreads (-1: twice the online CPUs)");
torture_param(int, nreaders_stress, -1, -1, 128,
	      "read-locking kthreads, for reader-writer lock types (-1: as many as writers)");
torture_param(int, long_hold, 100, 0, 10000,
	      "milliseconds of the occasional long hold of the lock (0: none)");
torture_param(int, onoff_holdoff, 0, 0, 3600, "seconds before the first CPU-hotplug operation");
torture_param(int, onoff_interval, 0, 0, 3600,
	      "seconds between CPU-hotplug operations (0: none; needs CONFIG_HOTPLUG_CPU)");
torture_param(int, shuffle_interval, 3, 0, 100000,
	      "jiffies between shuffles of the test kthreads (0: none)");
torture_param(int, shutdown_secs, 0, 0, 86400,
	      "end the test and power off after this many seconds (0: run forever)");
torture_param(int, stat_interval, 60, 0, 3600,
	      "seconds between statistics lines (0: only at the end)");
torture_param(int, stutter, 5, 0, 100000,
	      "jiffies to run, then to pause, the test (0: never pause)");
torture_param(int, verbose, 1, 0, 2, "print kthread start/stop lines");
/* Linux 6.3's name for 6.1's constant 50000 (6.3 also changed the default to 50). */
torture_param(int, rt_boost_factor, 50000, 1, 100000000,
	      "rtmutex_lock writers go SCHED_FIFO about once in nwriters_stress * this many operations");

/* ===== state ====================================================================== */

struct lock_stress_stats {
	long n_lock_fail;
	long n_lock_acquired;
};

/* One lock type: Linux's lock_torture_ops, less what no type here needs. */
struct lock_torture_ops {
	void (*init)(void);
	int (*writelock)(int tid);
	void (*write_delay)(struct torture_random_state *trsp);
	void (*task_boost)(struct torture_random_state *trsp);
	void (*hold_check)(void);	/* ours: called by the holder just before it releases */
	void (*writeunlock)(int tid);
	int (*readlock)(int tid);
	void (*read_delay)(struct torture_random_state *trsp);
	void (*readunlock)(int tid);
	unsigned long flags;	/* for the _irq types: the state saved by the holder */
	const char *name;
};

static struct {
	int nrealwriters_stress;
	int nrealreaders_stress;
	bool debug_lock;
	atomic_t n_lock_torture_errors;
	struct lock_torture_ops *cur_ops;
	struct lock_stress_stats *lwsa;	/* writer statistics */
	struct lock_stress_stats *lrsa;	/* reader statistics */
} cxt;

static struct task_struct *stats_task;
static struct task_struct **writer_tasks;
static struct task_struct **reader_tasks;

/*
 * Who is inside: racy on purpose. The lock under test orders these
 * accesses (its acquire and release pair with each other); a lock that
 * does not exclude lets a writer see another's true, which is the point.
 */
static bool lock_is_write_held;
static atomic_t lock_is_read_held;
static unsigned long last_lock_release;

/* Linux's torture_preempt_schedule(): let a preemptible kernel switch here. */
static void torture_preempt_schedule(void)
{
	if (IS_ENABLED(CONFIG_PREEMPTION))
		preempt_schedule();	/* a no-op where preemption is disabled (spinlock held) */
}

/* The occasional long hold and the rare preemption point of Linux's write delays. */
static void lock_torture_long_hold(struct torture_random_state *trsp, int n, int mult)
{
	if (long_hold && !(torture_random(trsp) % ((unsigned long)n * 2000 * long_hold)))
		mdelay((unsigned long)long_hold * mult);
	if (!(torture_random(trsp) % ((unsigned long)n * 20000)))
		torture_preempt_schedule();
}

static void torture_boost_dummy(struct torture_random_state *trsp)
{
	/* Only rt_mutexes care about priority. */
}

/* ===== lock_busted: no exclusion at all; the test must fail ======================== */

static int torture_lock_busted_write_lock(int tid)
{
	return 0;	/* BUGGY, do not use in real life!!! */
}

static void torture_lock_busted_write_delay(struct torture_random_state *trsp)
{
	lock_torture_long_hold(trsp, cxt.nrealwriters_stress, 1);
}

static void torture_lock_busted_write_unlock(int tid)
{
	/* BUGGY, do not use in real life!!! */
}

static struct lock_torture_ops lock_busted_ops = {
	.writelock	= torture_lock_busted_write_lock,
	.write_delay	= torture_lock_busted_write_delay,
	.task_boost	= torture_boost_dummy,
	.writeunlock	= torture_lock_busted_write_unlock,
	.name		= "lock_busted",
};

/* ===== spin_lock and spin_lock_irq ================================================== */

static DEFINE_SPINLOCK(torture_spinlock);

static int torture_spin_lock_write_lock(int tid)
{
	spin_lock(&torture_spinlock);
	return 0;
}

/* Mostly short holds, as likely code has; now and then a long one, to force contention. */
static void torture_spin_lock_write_delay(struct torture_random_state *trsp)
{
	const unsigned long shortdelay_us = 2;

	lock_torture_long_hold(trsp, cxt.nrealwriters_stress, 1);
	if (!(torture_random(trsp) % (cxt.nrealwriters_stress * 2 * shortdelay_us)))
		udelay(shortdelay_us);
}

static void torture_spin_lock_write_unlock(int tid)
{
	spin_unlock(&torture_spinlock);
}

static struct lock_torture_ops spin_lock_ops = {
	.writelock	= torture_spin_lock_write_lock,
	.write_delay	= torture_spin_lock_write_delay,
	.task_boost	= torture_boost_dummy,
	.writeunlock	= torture_spin_lock_write_unlock,
	.name		= "spin_lock",
};

static int torture_spin_lock_write_lock_irq(int tid)
{
	unsigned long flags;

	spin_lock_irqsave(&torture_spinlock, flags);
	cxt.cur_ops->flags = flags;	/* only the holder writes it: the lock guards it */
	return 0;
}

static void torture_spin_lock_write_unlock_irq(int tid)
{
	spin_unlock_irqrestore(&torture_spinlock, cxt.cur_ops->flags);
}

static struct lock_torture_ops spin_lock_irq_ops = {
	.writelock	= torture_spin_lock_write_lock_irq,
	.write_delay	= torture_spin_lock_write_delay,
	.task_boost	= torture_boost_dummy,
	.writeunlock	= torture_spin_lock_write_unlock_irq,
	.name		= "spin_lock_irq",
};

/* ===== mutex_lock ==================================================================== */

static DEFINE_MUTEX(torture_mutex);

static int torture_mutex_lock(int tid)
{
	mutex_lock(&torture_mutex);
	return 0;
}

/* Linux 6.1: every hold 20 ms (longdelay / 5), now and then five times long_hold. */
static void torture_mutex_delay(struct torture_random_state *trsp)
{
	if (long_hold && !(torture_random(trsp) %
			   ((unsigned long)cxt.nrealwriters_stress * 2000 * long_hold)))
		mdelay((unsigned long)long_hold * 5);
	else
		mdelay(long_hold / 5);
	if (!(torture_random(trsp) % (cxt.nrealwriters_stress * 20000)))
		torture_preempt_schedule();
}

static void torture_mutex_unlock(int tid)
{
	mutex_unlock(&torture_mutex);
}

static struct lock_torture_ops mutex_lock_ops = {
	.writelock	= torture_mutex_lock,
	.write_delay	= torture_mutex_delay,
	.task_boost	= torture_boost_dummy,
	.writeunlock	= torture_mutex_unlock,
	.name		= "mutex_lock",
};

/* ===== rtmutex_lock, with the priority-inheritance check ============================== */

static DEFINE_RT_MUTEX(torture_rtmutex);
/* Ours: holders that had an RT waiter, those of them boosted, and PI failures. */
static long n_pi_rt_waited, n_pi_boosted, n_pi_fail;
static atomic_long_t n_rt_boosts;	/* writers gone SCHED_FIFO */

static int torture_rtmutex_lock(int tid)
{
	rt_mutex_lock(&torture_rtmutex);
	return 0;
}

/*
 * As Linux 6.1: once in about rt_boost_factor (Linux 6.1: 50000) operations
 * per writer a writer goes SCHED_FIFO (sched_set_fifo(): priority 50), and
 * goes back to SCHED_NORMAL nice 0 about twice as many operations later;
 * trsp NULL resets it.
 */
static void torture_rtmutex_boost(struct torture_random_state *trsp)
{
	const unsigned long factor = rt_boost_factor;
	struct sched_param sp = { .sched_priority = MAX_RT_PRIO / 2 };
	struct sched_param normal = { .sched_priority = 0 };

	if (current->policy != SCHED_FIFO) {
		if (trsp && !(torture_random(trsp) % (cxt.nrealwriters_stress * factor))) {
			sched_setscheduler_nocheck(current, SCHED_FIFO, &sp);
			atomic_long_inc(&n_rt_boosts);
		}
	} else if (!trsp || !(torture_random(trsp) % (cxt.nrealwriters_stress * factor * 2))) {
		sched_setscheduler_nocheck(current, SCHED_NORMAL, &normal);
		/*
		 * Linux's sched_set_normal(current, 0) leaves the writer at nice 0,
		 * above the other writers' nice 19: under CFS that is a share of
		 * the CPU, under this kernel's strict priorities it starved them
		 * (Max/Min 1475938/2 in 8 s on 2 CPUs). Back to the writers' nice.
		 */
		set_user_nice(current, 19);
	}
}

static void torture_rtmutex_unlock(int tid)
{
	rt_mutex_unlock(&torture_rtmutex);
}

static void torture_rtmutex_delay(struct torture_random_state *trsp)
{
	const unsigned long shortdelay_us = 2;

	lock_torture_long_hold(trsp, cxt.nrealwriters_stress, 1);
	if (!(torture_random(trsp) % (cxt.nrealwriters_stress * 2 * shortdelay_us)))
		udelay(shortdelay_us);
}

/*
 * The holder, just before it releases: under its pi_lock (which orders
 * the waiters' enqueueing and the boost of the owner, kernel/locking/
 * rtmutex.c), its effective priority must be at least that of its most
 * important waiter. Counted when that waiter is real-time, and counted as
 * boosted when the holder itself is not: the case RCU boosting relies on.
 * Only the holder writes the counters: the lock under test guards them.
 */
static void torture_rtmutex_hold_check(void)
{
	struct task_struct *t = current;
	unsigned long flags;
	int top, prio, normal;

	spin_lock_irqsave(&t->pi_lock, flags);
	top = rt_mutex_top_waiter_prio(t);
	prio = t->prio;
	normal = t->normal_prio;
	spin_unlock_irqrestore(&t->pi_lock, flags);
	if (top >= MAX_PRIO)
		return;	/* nobody waits */
	if (rt_prio(top)) {
		WRITE_ONCE(n_pi_rt_waited, n_pi_rt_waited + 1);
		if (prio < normal)
			WRITE_ONCE(n_pi_boosted, n_pi_boosted + 1);
	}
	if (prio > top) {
		WRITE_ONCE(n_pi_fail, n_pi_fail + 1);
		if (n_pi_fail <= 10)	/* the first ten; the statistics line counts them all */
			pr_alert("%s" TORTURE_FLAG "!!! rt_mutex holder %s prio %d below its waiter's %d\n",
				 torture_type, t->comm, prio, top);
	}
}

static struct lock_torture_ops rtmutex_lock_ops = {
	.writelock	= torture_rtmutex_lock,
	.write_delay	= torture_rtmutex_delay,
	.task_boost	= torture_rtmutex_boost,
	.hold_check	= torture_rtmutex_hold_check,
	.writeunlock	= torture_rtmutex_unlock,
	.name		= "rtmutex_lock",
};

static struct lock_torture_ops *torture_ops[] = {
	&lock_busted_ops, &spin_lock_ops, &spin_lock_irq_ops, &mutex_lock_ops, &rtmutex_lock_ops,
};

/* ===== the kthreads ==================================================================== */

/* Take and release the lock over and over, checking that nobody else is inside. */
static int lock_torture_writer(void *arg)
{
	struct lock_stress_stats *lwsp = arg;
	int tid = lwsp - cxt.lwsa;
	DEFINE_TORTURE_RANDOM(rand);

	VERBOSE_TOROUT_STRING("lock_torture_writer task started");
	set_user_nice(current, 19);	/* Linux's MAX_NICE */
	do {
		if ((torture_random(&rand) & 0xfffff) == 0)
			schedule_timeout_uninterruptible(1);
		cxt.cur_ops->task_boost(&rand);
		cxt.cur_ops->writelock(tid);
		if (WARN_ON_ONCE(lock_is_write_held))
			lwsp->n_lock_fail++;
		lock_is_write_held = true;
		if (WARN_ON_ONCE(atomic_read(&lock_is_read_held)))
			lwsp->n_lock_fail++;	/* rare, but... */
		WRITE_ONCE(lwsp->n_lock_acquired, lwsp->n_lock_acquired + 1);
		cxt.cur_ops->write_delay(&rand);
		if (cxt.cur_ops->hold_check)
			cxt.cur_ops->hold_check();
		lock_is_write_held = false;
		WRITE_ONCE(last_lock_release, jiffies);
		cxt.cur_ops->writeunlock(tid);
		stutter_wait("lock_torture_writer");
	} while (!torture_must_stop());
	cxt.cur_ops->task_boost(NULL);	/* back to SCHED_NORMAL */
	torture_kthread_stopping("lock_torture_writer");
	return 0;
}

/* The reader side, for reader-writer lock types (none in this kernel yet). */
static int lock_torture_reader(void *arg)
{
	struct lock_stress_stats *lrsp = arg;
	int tid = lrsp - cxt.lrsa;
	DEFINE_TORTURE_RANDOM(rand);

	VERBOSE_TOROUT_STRING("lock_torture_reader task started");
	set_user_nice(current, 19);
	do {
		if ((torture_random(&rand) & 0xfffff) == 0)
			schedule_timeout_uninterruptible(1);
		cxt.cur_ops->readlock(tid);
		atomic_inc(&lock_is_read_held);
		if (WARN_ON_ONCE(lock_is_write_held))
			lrsp->n_lock_fail++;	/* rare, but... */
		WRITE_ONCE(lrsp->n_lock_acquired, lrsp->n_lock_acquired + 1);
		cxt.cur_ops->read_delay(&rand);
		atomic_dec(&lock_is_read_held);
		cxt.cur_ops->readunlock(tid);
		stutter_wait("lock_torture_reader");
	} while (!torture_must_stop());
	torture_kthread_stopping("lock_torture_reader");
	return 0;
}

/* ===== statistics ======================================================================= */

/*
 * Linux's line: "Writes:  Total: N  Max/Min: MAX/MIN ???  Fail: F !!!", "???"
 * when some kthread got less than half the acquisitions of another (not a
 * failure; not judged with CPU hotplug), "!!!" when any kthread saw the
 * lock shared. Read racily while the kthreads run, as Linux's data_race().
 */
static void __torture_print_stats(struct lock_stress_stats *statp, bool write)
{
	int n_stress = write ? cxt.nrealwriters_stress : cxt.nrealreaders_stress;
	long max = 0, min = n_stress ? READ_ONCE(statp[0].n_lock_acquired) : 0, cur;
	long long sum = 0;
	bool fail = false;

	for (int i = 0; i < n_stress; i++) {
		if (READ_ONCE(statp[i].n_lock_fail))
			fail = true;
		cur = READ_ONCE(statp[i].n_lock_acquired);
		sum += cur;
		if (max < cur)
			max = cur;
		if (min > cur)
			min = cur;
	}
	pr_alert("%s:  Total: %lld  Max/Min: %ld/%ld %s  Fail: %d %s\n",
		 write ? "Writes" : "Reads ", sum, max, min,
		 !onoff_interval && max / 2 > min ? "???" : "", fail, fail ? "!!!" : "");
	if (fail)
		atomic_inc(&cxt.n_lock_torture_errors);
}

/* Ours, one line for rtmutex_lock: the priority-inheritance check's counts. */
static void lock_torture_pi_stats(void)
{
	long fail = READ_ONCE(n_pi_fail);

	if (cxt.cur_ops != &rtmutex_lock_ops)
		return;
	pr_alert("%s" TORTURE_FLAG " rt_mutex PI: writers made RT %ld, holders with RT waiters %ld boosted %ld failures %ld %s\n",
		 torture_type, atomic_long_read(&n_rt_boosts), READ_ONCE(n_pi_rt_waited), READ_ONCE(n_pi_boosted), fail,
		 fail ? "!!!" : "");
}

/* One caller at a time: the stats kthread, or the cleanup once it has stopped. */
static void lock_torture_stats_print(void)
{
	__torture_print_stats(cxt.lwsa, true);
	if (cxt.cur_ops->readlock)
		__torture_print_stats(cxt.lrsa, false);
	lock_torture_pi_stats();
}

static int lock_torture_stats(void *arg)
{
	VERBOSE_TOROUT_STRING("lock_torture_stats task started");
	do {
		schedule_timeout_interruptible(stat_interval * HZ);
		lock_torture_stats_print();
		torture_shutdown_absorb("lock_torture_stats");
	} while (!torture_must_stop());
	torture_kthread_stopping("lock_torture_stats");
	return 0;
}

/* Linux 6.1's line, with long_hold and rt_boost_factor (Linux 6.4's, 6.3's) at the end. */
static void lock_torture_print_module_parms(const char *tag)
{
	pr_alert("%s" TORTURE_FLAG
		 "--- %s%s: nwriters_stress=%d nreaders_stress=%d stat_interval=%d verbose=%d shuffle_interval=%d stutter=%d shutdown_secs=%d onoff_interval=%d onoff_holdoff=%d long_hold=%d rt_boost_factor=%d\n",
		 torture_type, tag, cxt.debug_lock ? " [debug]" : "",
		 cxt.nrealwriters_stress, cxt.nrealreaders_stress, stat_interval, verbose,
		 shuffle_interval, stutter, shutdown_secs, onoff_interval, onoff_holdoff, long_hold,
		 rt_boost_factor);
}

/* ===== start and end ===================================================================== */

static void lock_torture_cleanup(void)
{
	bool failed;
	int i;

	if (torture_cleanup_begin())
		return;
	/* The test never ran (a bad torture_type, say): nothing to stop or report. */
	if (!cxt.lwsa && !cxt.lrsa)
		goto end;
	torture_onoff_cleanup();	/* first: every CPU back online for the rest */
	if (writer_tasks) {
		for (i = 0; i < cxt.nrealwriters_stress; i++)
			torture_stop_kthread(lock_torture_writer, writer_tasks[i]);
		kfree(writer_tasks);
		writer_tasks = NULL;
	}
	if (reader_tasks) {
		for (i = 0; i < cxt.nrealreaders_stress; i++)
			torture_stop_kthread(lock_torture_reader, reader_tasks[i]);
		kfree(reader_tasks);
		reader_tasks = NULL;
	}
	torture_stop_kthread(lock_torture_stats, stats_task);
	lock_torture_stats_print();	/* after the stats kthread is gone */
	failed = atomic_read(&cxt.n_lock_torture_errors) || READ_ONCE(n_pi_fail);
	/* As Linux: hotplug operations that failed, with nothing else wrong, say LOCK_HOTPLUG. */
	lock_torture_print_module_parms(failed ? "End of test: FAILURE" :
					torture_onoff_failures() ? "End of test: LOCK_HOTPLUG" :
					"End of test: SUCCESS");
	if (failed || torture_onoff_failures())
		kernel_note_test_failure();	/* the power-off exit status says so */
	kfree(cxt.lwsa);
	cxt.lwsa = NULL;
	kfree(cxt.lrsa);
	cxt.lrsa = NULL;
end:
	torture_cleanup_end();
}

/* Allocate zeroed statistics for n kthreads; false when out of memory. */
static bool lock_torture_alloc_stats(struct lock_stress_stats **sp, int n)
{
	*sp = kcalloc(n ? n : 1, sizeof(**sp), GFP_KERNEL);
	return *sp;
}

static int lock_torture_init(void)
{
	int i, firsterr = 0;

	if (!torture_runnable)
		return 0;
	if (!torture_init_begin(torture_type, verbose))
		return -EBUSY;
	cxt.cur_ops = NULL;
	for (i = 0; i < (int)ARRAY_SIZE(torture_ops); i++)
		if (!strcmp(torture_type, torture_ops[i]->name))
			cxt.cur_ops = torture_ops[i];
	if (!cxt.cur_ops) {
		char buf[128];
		int n = 0;

		pr_alert("lock-torture: invalid torture type: \"%s\"\n", torture_type);
		for (i = 0; i < (int)ARRAY_SIZE(torture_ops); i++)
			n += snprintf(buf + n, sizeof(buf) - n, " %s", torture_ops[i]->name);
		pr_alert("lock-torture types:%s\n", buf);
		firsterr = -EINVAL;
		goto unwind;
	}
	if (nwriters_stress == 0 && (!cxt.cur_ops->readlock || nreaders_stress == 0)) {
		pr_alert("lock-torture: must run at least one locking thread\n");
		firsterr = -EINVAL;
		goto unwind;
	}
	cxt.nrealwriters_stress = nwriters_stress >= 0 ? nwriters_stress : 2 * num_online_cpus();
	if (cxt.cur_ops->readlock) {
		if (nreaders_stress >= 0) {
			cxt.nrealreaders_stress = nreaders_stress;
		} else {
			/* As Linux: split the default kthreads evenly between the two sides. */
			if (nwriters_stress < 0)
				cxt.nrealwriters_stress = num_online_cpus();
			cxt.nrealreaders_stress = cxt.nrealwriters_stress;
		}
	}
	if (cxt.cur_ops->init)
		cxt.cur_ops->init();
	/* Linux's " [debug]": the lock type checks its owner (CONFIG_DEBUG_SPINLOCK). */
	cxt.debug_lock = IS_ENABLED(CONFIG_DEBUG_SPINLOCK) && !strncmp(torture_type, "spin", 4);

	/* Each run starts from zeroed statistics. */
	atomic_set(&cxt.n_lock_torture_errors, 0);
	lock_is_write_held = false;
	atomic_set(&lock_is_read_held, 0);
	n_pi_rt_waited = n_pi_boosted = n_pi_fail = 0;
	atomic_long_set(&n_rt_boosts, 0);
	if (!lock_torture_alloc_stats(&cxt.lwsa, cxt.nrealwriters_stress) ||
	    (cxt.cur_ops->readlock && !lock_torture_alloc_stats(&cxt.lrsa, cxt.nrealreaders_stress))) {
		VERBOSE_TOROUT_STRING("cxt.lwsa: Out of memory");
		firsterr = -ENOMEM;
		goto unwind;
	}
	lock_torture_print_module_parms("Start of test");

	if (onoff_interval > 0) {
		firsterr = torture_onoff_init(onoff_holdoff * HZ, onoff_interval * HZ);
		if (firsterr)
			goto unwind;
	}
	if (shuffle_interval > 0) {
		firsterr = torture_shuffle_init(shuffle_interval);	/* jiffies, as Linux's */
		if (firsterr)
			goto unwind;
	}
	if (shutdown_secs > 0) {
		firsterr = torture_shutdown_init(shutdown_secs, lock_torture_cleanup);
		if (firsterr)
			goto unwind;
	}
	if (stutter > 0) {
		firsterr = torture_stutter_init(stutter, stutter);	/* jiffies, as Linux's */
		if (firsterr)
			goto unwind;
	}
	writer_tasks = kcalloc(cxt.nrealwriters_stress ? : 1, sizeof(writer_tasks[0]), GFP_KERNEL);
	if (cxt.cur_ops->readlock)
		reader_tasks = kcalloc(cxt.nrealreaders_stress ? : 1, sizeof(reader_tasks[0]),
				       GFP_KERNEL);
	if (!writer_tasks || (cxt.cur_ops->readlock && !reader_tasks)) {
		TOROUT_ERRSTRING("writer_tasks: Out of memory");
		firsterr = -ENOMEM;
		goto unwind;
	}
	/* Writers and readers interleaved, a writer first, as Linux creates them. */
	for (i = 0; i < cxt.nrealwriters_stress || i < cxt.nrealreaders_stress; i++) {
		if (i < cxt.nrealwriters_stress) {
			firsterr = torture_create_kthread(lock_torture_writer, &cxt.lwsa[i],
							  writer_tasks[i]);
			if (firsterr)
				goto unwind;
		}
		if (cxt.cur_ops->readlock && i < cxt.nrealreaders_stress) {
			firsterr = torture_create_kthread(lock_torture_reader, &cxt.lrsa[i],
							  reader_tasks[i]);
			if (firsterr)
				goto unwind;
		}
	}
	if (stat_interval > 0) {
		firsterr = torture_create_kthread(lock_torture_stats, NULL, stats_task);
		if (firsterr)
			goto unwind;
	}
	torture_init_end();
	return 0;

unwind:
	return torture_init_abort(lock_torture_cleanup, firsterr, shutdown_secs);
}
late_initcall(lock_torture_init);
