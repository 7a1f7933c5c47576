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
 * Linux's reader "extensions" (mixing bh/irq/preempt disabling into a
 * reader) and CPU-hotplug testing are not done: this kernel has no
 * softirqs and no hotplug. Their fields in the parameter line print 0.
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "rcu"
#define TORTURE_PARAM_PREFIX "rcutorture."

#include <rcu/rcupdate.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/wait.h>
#include <sched/mutex.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/torture_param.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/slab.h>
#include <kernel/atomic.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/bug.h>
#include <kernel/reboot.h>
#include <kernel/torture.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/percpu.h>
#include <kernel/irqflags.h>
#include "../tree.h"

#define KBUILD_MODNAME "rcutorture"

/* ===== parameters ============================================================== */

torture_param_string(torture_type, 16, "rcu", "type of RCU to torture (rcu, busted)");
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
torture_param_bool(gp_exp, false, "writer uses synchronize_rcu_expedited()");
torture_param_bool(gp_normal, false, "writer uses call_rcu()");
torture_param_bool(gp_poll, false, "writer uses start/poll_state_synchronize_rcu()");
torture_param_bool(gp_sync, false, "writer uses synchronize_rcu()");
torture_param(int, n_barrier_cbs, 0, 0, NR_CPUS,
	      "kthreads (one callback each, on CPU = kthread number) testing rcu_barrier() (0: none)");
torture_param(int, stall_cpu, 0, 0, 300,
	      "seconds to stall a CPU inside a reader, to provoke a stall warning (0: none)");
torture_param(int, stall_cpu_holdoff, 10, 0, 3600, "seconds to wait before stalling the CPU");
torture_param(int, stall_cpu_irqsoff, 0, 0, 1, "stall with interrupts disabled");
torture_param_bool(fwd_progress, true,
		   "test grace-period forward progress (cond_resched() loop, call_rcu() flood)");
torture_param(int, fwd_progress_holdoff, 60, 1, 3600,
	      "seconds before (and between) forward-progress tests");
torture_param(int, fwd_progress_div, 4, 1, 100,
	      "the cond_resched() loop lasts between 1/div and all of the stall timeout");
torture_param_bool(fwd_progress_need_resched, true,
		   "call cond_resched() in that loop only when need_resched()");
torture_param(int, read_exit_delay, 13, 0, 3600, "seconds between read-then-exit episodes");
torture_param(int, read_exit_burst, 16, 0, 10000, "read-then-exit kthreads per episode (0: none)");
torture_param(int, verbose, 1, 0, 2, "print kthread start/stop lines");
torture_param(int, object_debug, 0, 0, 1,
	      "test double call_rcu() detection (needs debug objects, not implemented yet)");

torture_param(int, test_boost, 1, 0, 2,
	      "test RCU priority boosting: 0 never, 1 if the flavor boosts (RCU_BOOST), 2 always");
torture_param(int, test_boost_interval, 7, 1, 3600,
	      "seconds from the end of one boost test to the start of the next");
torture_param(int, test_boost_duration, 4, 2, 3600,
	      "seconds each boost test lasts (a grace period may take up to this less 0.5 s)");

/* Features of Linux's rcutorture not present here; printed as 0 in the parameter line. */
#define stall_cpu_block		0
#define onoff_interval		0
#define onoff_holdoff		0

/* ===== state ====================================================================== */

#define RCU_TORTURE_PIPE_LEN	10

/* Per-reader mailbox for the memory-ordering check (rtmbkf). */
struct rcu_torture_reader_check {
	unsigned long rtc_myloops;	/* this reader's read count */
	int rtc_chkrdr;			/* reader this one asked to be checked, -1: none */
	unsigned long rtc_chkloops;	/* that reader's count when we asked */
	int rtc_ready;			/* the grace period after asking has ended */
	struct rcu_torture_reader_check *rtc_assigner;	/* who asked us to check */
} __aligned(64);

struct rcu_torture {
	struct rcu_head rtort_rcu;
	int rtort_pipe_count;		/* grace periods since it was replaced */
	struct list_head rtort_free;	/* on the freelist, or on rcu_torture_removed */
	int rtort_mbtest;		/* 1 while in use; 0 once recycled */
	struct rcu_torture_reader_check *rtort_chkp;	/* a pending ordering check */
};

static int nrealreaders;
static struct task_struct *writer_task;
static struct task_struct **fakewriter_tasks;
static struct task_struct **reader_tasks;
static struct task_struct *stats_task;
static struct task_struct *fqs_task;
static struct task_struct *stall_task;
static struct task_struct *fwd_prog_task;
static struct task_struct **barrier_cbs_tasks;
static struct task_struct *barrier_task;
static struct task_struct *read_exit_task;
static struct task_struct *boost_tasks[NR_CPUS];

static LIST_HEAD(rcu_torture_freelist);
static struct rcu_torture *rcu_torture_current;
static unsigned long rcu_torture_current_version;
static struct rcu_torture rcu_tortures[10 * RCU_TORTURE_PIPE_LEN];
static DEFINE_SPINLOCK(rcu_torture_lock);
static DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_count);
static DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_batch);
static atomic_t rcu_torture_wcount[RCU_TORTURE_PIPE_LEN + 1];
static struct rcu_torture_reader_check *rcu_torture_reader_mbchk;
static atomic_t n_rcu_torture_alloc;
static atomic_t n_rcu_torture_alloc_fail;
static atomic_t n_rcu_torture_free;
static atomic_t n_rcu_torture_mberror;
static atomic_t n_rcu_torture_mbchk_fail;
static atomic_t n_rcu_torture_mbchk_tries;
static atomic_t n_rcu_torture_error;
static long n_rcu_torture_barrier_error;
static long n_rcu_torture_boost_ktrerror;	/* booster kthreads that could not be created */
static long n_rcu_torture_boost_rterror;	/* boosters that could not go SCHED_FIFO */
static long n_rcu_torture_boost_failure;	/* grace periods that outlived a boost window */
static long n_rcu_torture_boosts;		/* boost-test windows completed */
static atomic_long_t n_rcu_torture_timers;
static long n_barrier_attempts;
static long n_barrier_successes;
static unsigned long n_read_exits;
static LIST_HEAD(rcu_torture_removed);	/* writer-private: waiting for synchronous GPs */
static unsigned long start_gp_seq;
static u64 test_end_ns;			/* shutdown deadline on local_clock(), 0: none */
static bool rcu_fwd_cb_nodelay;		/* readers skip long delays during floods */

static int rcu_torture_writer_state;
#define RTWS_FIXED_DELAY	0
#define RTWS_DELAY		1
#define RTWS_REPLACE		2
#define RTWS_DEF_FREE		3
#define RTWS_EXP_SYNC		4
#define RTWS_COND_GET		5
#define RTWS_COND_SYNC		6
#define RTWS_POLL_GET		7
#define RTWS_POLL_WAIT		8
#define RTWS_SYNC		9
#define RTWS_STUTTER		10
#define RTWS_STOPPING		11
static const char * const rcu_torture_writer_state_names[] = {
	"RTWS_FIXED_DELAY", "RTWS_DELAY", "RTWS_REPLACE", "RTWS_DEF_FREE",
	"RTWS_EXP_SYNC", "RTWS_COND_GET", "RTWS_COND_SYNC", "RTWS_POLL_GET",
	"RTWS_POLL_WAIT", "RTWS_SYNC", "RTWS_STUTTER", "RTWS_STOPPING",
};

static const char *rcu_torture_writer_state_getname(void)
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
static bool shutdown_time_arrived(void)
{
	u64 margin;

	if (!test_end_ns)
		return false;
	margin = (u64)shutdown_secs * NSEC_PER_SEC / 4;
	if (margin > 30 * NSEC_PER_SEC)
		margin = 30 * NSEC_PER_SEC;
	return local_clock() + margin >= test_end_ns;
}

static struct rcu_torture *rcu_torture_alloc(void)
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

static void rcu_torture_free(struct rcu_torture *p)
{
	unsigned long flags;

	atomic_inc(&n_rcu_torture_free);
	spin_lock_irqsave(&rcu_torture_lock, flags);
	list_add_tail(&p->rtort_free, &rcu_torture_freelist);
	spin_unlock_irqrestore(&rcu_torture_lock, flags);
}

/* ===== the flavors under test ========================================================== */

struct rcu_torture_ops {
	void (*init)(void);
	void (*cleanup)(void);
	int (*readlock)(void);
	void (*read_delay)(struct torture_random_state *rrsp);
	void (*readunlock)(int idx);
	unsigned long (*get_gp_seq)(void);	/* grace periods completed */
	void (*deferred_free)(struct rcu_torture *p);
	void (*sync)(void);
	void (*exp_sync)(void);
	unsigned long (*get_gp_state)(void);
	unsigned long (*start_gp_poll)(void);
	bool (*poll_gp_state)(unsigned long oldstate);
	void (*cond_sync)(unsigned long oldstate);
	call_rcu_func_t call;
	void (*cb_barrier)(void);
	void (*fqs)(void);
	void (*gp_data)(int *flags, unsigned long *gp_seq);
	int (*stall_dur)(void);		/* jiffies until a stall warning */
	/* Boost test: a GP outlived its window; is boosting to blame (not a CPU)? */
	bool (*check_boost_failed)(unsigned long gp_state, int *cpup);
	int irq_capable;
	int can_boost;			/* the flavor boosts preempted readers */
	const char *name;
};

static struct rcu_torture_ops *cur_ops;

static int rcu_torture_read_lock(void)
{
	rcu_read_lock();
	return 0;
}

static void rcu_torture_read_unlock(int idx)
{
	rcu_read_unlock();
}

/*
 * Linger inside the reader: a short delay sometimes, so readers overlap
 * grace-period boundaries, and a long one rarely (shorter in interrupt
 * context), so that forced quiescent-state scans and the stall machinery
 * see readers that take a while. In a preemptible kernel, sometimes get
 * preempted, which sends the reader through the blocked-tasks lists.
 */
static void rcu_read_delay(struct torture_random_state *rrsp)
{
	const unsigned long shortdelay_us = 200;
	unsigned long longdelay_ms = 300;

	if (!READ_ONCE(rcu_fwd_cb_nodelay) &&
	    !(torture_random(rrsp) % (nrealreaders * 2000 * longdelay_ms))) {
		if (in_interrupt())
			longdelay_ms = 5;
		mdelay(longdelay_ms);
	}
	if (!(torture_random(rrsp) % (nrealreaders * 2 * shortdelay_us)))
		udelay(shortdelay_us);
	if (IS_ENABLED(CONFIG_PREEMPT_RCU) && !in_interrupt() && !preempt_count() &&
	    !irqs_disabled() && !(torture_random(rrsp) % (nrealreaders * 500))) {
		/* A real preemption: need_resched, then the preempt_enable() check. */
		preempt_disable();
		set_tsk_need_resched(current);
		preempt_enable();
	}
}

/* One more grace period for rp; true once it has been through the whole pipeline. */
static bool rcu_torture_pipe_update_one(struct rcu_torture *rp)
{
	struct rcu_torture_reader_check *rtrcp = READ_ONCE(rp->rtort_chkp);
	int i;

	if (rtrcp) {
		WRITE_ONCE(rp->rtort_chkp, NULL);
		smp_store_release(&rtrcp->rtc_ready, 1);
	}
	i = READ_ONCE(rp->rtort_pipe_count);
	if (i > RCU_TORTURE_PIPE_LEN)
		i = RCU_TORTURE_PIPE_LEN;
	atomic_inc(&rcu_torture_wcount[i]);
	WRITE_ONCE(rp->rtort_pipe_count, i + 1);
	if (i + 1 >= RCU_TORTURE_PIPE_LEN) {
		rp->rtort_mbtest = 0;
		return true;
	}
	return false;
}

/* After a synchronous grace period: age every element waiting on the writer's list. */
static void rcu_torture_pipe_update(struct rcu_torture *old_rp)
{
	struct rcu_torture *rp, *rp1;

	if (old_rp)
		list_add(&old_rp->rtort_free, &rcu_torture_removed);
	list_for_each_entry_safe(rp, rp1, &rcu_torture_removed, rtort_free) {
		if (rcu_torture_pipe_update_one(rp)) {
			list_del(&rp->rtort_free);
			rcu_torture_free(rp);
		}
	}
}

/* call_rcu() callback: one more grace period, then requeue until the end of the pipe. */
static void rcu_torture_cb(struct rcu_head *p)
{
	struct rcu_torture *rp = container_of(p, struct rcu_torture, rtort_rcu);

	if (torture_must_stop_irq())
		return;	/* the test is over: the next start rebuilds the freelist */
	if (rcu_torture_pipe_update_one(rp))
		rcu_torture_free(rp);
	else
		cur_ops->deferred_free(rp);
}

static void rcu_torture_deferred_free(struct rcu_torture *p)
{
	call_rcu(&p->rtort_rcu, rcu_torture_cb);
}

static void rcu_sync_torture_init(void)
{
	INIT_LIST_HEAD(&rcu_torture_removed);
}

/* The flavor's (Tree or Tiny) grace-period flags and sequence number. */
static void rcu_torture_gp_data(int *flags, unsigned long *gp_seq)
{
	rcutorture_get_gp_data(flags, gp_seq);
}

static int rcu_torture_stall_dur(void)
{
	return (int)rcu_jiffies_till_stall_check();
}

/*
 * Boost test: only Tree RCU can tell whether a grace period that outlived
 * its window was held up by a CPU (boosting cannot help) or by a preempted
 * reader (boosting failed). Tiny RCU never boosts: blame boosting, as Linux.
 */
static bool rcu_torture_check_boost_fail(unsigned long gp_state, int *cpup)
{
#ifdef CONFIG_TREE_RCU
	return rcu_check_boost_fail(gp_state, cpup);
#else
	if (cpup)
		*cpup = -1;
	return true;
#endif
}

/* The grace-period kthread's SCHED_FIFO priority; Tiny RCU has no such kthread. */
static int rcu_torture_gp_kthreads_prio(void)
{
#ifdef CONFIG_TREE_RCU
	return rcu_get_gp_kthreads_prio();
#else
	return 0;
#endif
}

static struct rcu_torture_ops rcu_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= rcu_torture_read_unlock,
	.get_gp_seq	= rcu_gp_completed,
	.deferred_free	= rcu_torture_deferred_free,
	.sync		= synchronize_rcu,
	.exp_sync	= synchronize_rcu_expedited,
	.get_gp_state	= get_state_synchronize_rcu,
	.start_gp_poll	= start_poll_synchronize_rcu,
	.poll_gp_state	= poll_state_synchronize_rcu,
	.cond_sync	= cond_synchronize_rcu,
	.call		= call_rcu,
	.cb_barrier	= rcu_barrier,
	.fqs		= rcu_force_quiescent_state,
	.gp_data	= rcu_torture_gp_data,
	.stall_dur	= rcu_torture_stall_dur,
	.check_boost_failed = rcu_torture_check_boost_fail,
	.irq_capable	= 1,
	.can_boost	= IS_ENABLED(CONFIG_RCU_BOOST),
	.name		= "rcu",
};

/*
 * "busted": an RCU whose grace periods do not wait for anything. Never
 * use it for real: it exists so that the test proves it can fail (each
 * run must end with FAILURE, the reader pipeline showing ages above 1).
 */
static void rcu_busted_torture_deferred_free(struct rcu_torture *p)
{
	rcu_torture_cb(&p->rtort_rcu);	/* deliberately no grace period */
}

static void synchronize_rcu_busted(void)
{
	/* deliberately waits for nothing */
}

static void call_rcu_busted(struct rcu_head *head, rcu_callback_t func)
{
	func(head);	/* deliberately invoked at once */
}

static unsigned long rcu_no_completed(void)
{
	return 0;
}

static struct rcu_torture_ops rcu_busted_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= rcu_torture_read_unlock,
	.get_gp_seq	= rcu_no_completed,
	.deferred_free	= rcu_busted_torture_deferred_free,
	.sync		= synchronize_rcu_busted,
	.exp_sync	= synchronize_rcu_busted,
	.call		= call_rcu_busted,
	.irq_capable	= 1,
	.name		= "busted",
};

/* Every flavor that can be tortured; srcu and tasks join as they land. */
static struct rcu_torture_ops *torture_ops[] = {
	&rcu_ops, &rcu_busted_ops,
};

/* ===== boost test ========================================================================== */

/*
 * Priority-boost test, as Linux's: every test_boost_interval seconds, one
 * SCHED_FIFO-1 kthread per CPU, bound to it, spins for test_boost_duration
 * seconds without sleeping, starting a polled grace period whenever the
 * last one has ended. The readers (SCHED_NORMAL) that the spinners
 * preempted inside rcu_read_lock() cannot run again before the window
 * ends, so every grace period would wait for them: only priority boosting
 * (CONFIG_RCU_BOOST: rcub at rcutree.kthread_prio >= 2 lends them its
 * priority after CONFIG_RCU_BOOST_DELAY ms) lets grace periods end inside
 * the window. A grace period that, once every CPU has reported, is still
 * pending test_boost_duration - 0.5 s later is a boost failure (rtbf);
 * one held up by a CPU instead is not boosting's fault and only noted.
 * The grace-period kthread must outrank the spinners (priority >= 2), or
 * it would be starved too: otherwise the test is skipped, as in Linux.
 */
static unsigned long boost_starttime;	/* jiffies: start of the next window */
static DEFINE_MUTEX(boost_mutex);	/* who moves boost_starttime on */
static DEFINE_SPINLOCK(boost_stats_lock);	/* the two figures below */
static unsigned long boost_gp_max_jiffies;	/* longest GP seen inside a window */
static unsigned long boost_gps;		/* GPs that ended inside windows */
static bool boost_tested;		/* this run has boosters */

static bool rcu_torture_can_boost(void)
{
	static bool warned;
	int prio;

	if (!(test_boost == 1 && cur_ops->can_boost) && test_boost != 2)
		return false;
	if (!cur_ops->start_gp_poll || !cur_ops->poll_gp_state)
		return false;
	prio = rcu_torture_gp_kthreads_prio();
	if (prio < 2) {
		if (!warned)
			pr_alert("%s: WARN: RCU kthread priority too low to test boosting.  Skipping RCU boost test. Try passing rcutree.kthread_prio > 1 on the kernel command line.\n",
				 KBUILD_MODNAME);
		warned = true;
		return false;
	}
	return true;
}

/*
 * Called while the grace period gp_state is pending; *start is when it
 * began to count. True (and rtbf bumped) once it is overdue with only
 * preempted readers left to blame.
 */
static bool rcu_torture_boost_failed(unsigned long gp_state, unsigned long *start)
{
	static unsigned long last_persist;
	static int dbg_done;
	unsigned long mininterval = test_boost_duration * HZ - HZ / 2;
	unsigned long end = jiffies, j, lp;
	int cpu;

	if (end - *start > mininterval) {
		smp_mb();	/* the time check before the grace-period check */
		if (cur_ops->poll_gp_state(gp_state))
			return false;	/* ended after all, just in time */
		if (cur_ops->check_boost_failed && !cur_ops->check_boost_failed(gp_state, &cpu)) {
			/* A CPU (or nothing) holds it up: not boosting's fault. Once per window. */
			j = jiffies;
			lp = READ_ONCE(last_persist);
			if (time_after(j, lp + mininterval) && cmpxchg(&last_persist, lp, j) == lp) {
				if (cpu < 0)
					pr_info("Boost inversion persisted: QS from all CPUs\n");
				else
					pr_info("Boost inversion persisted: No QS from CPU %d\n", cpu);
			}
			return false;
		}
		VERBOSE_TOROUT_STRING("rcu_torture_boost boosting failed");
		WRITE_ONCE(n_rcu_torture_boost_failure, n_rcu_torture_boost_failure + 1);
		if (!xchg(&dbg_done, 1)) {
			pr_info("Boost inversion thread ->rt_priority %u gp_state %lu jiffies %lu\n",
				current->rt_priority, gp_state, end - *start);
			pr_info("Boost inversion: GP %lu %s.\n", gp_state,
				cur_ops->poll_gp_state(gp_state) ? "ended already" : "still pending");
		}
		return true;
	}
	/* While some CPU still owes a quiescent state, boosting is not yet on the hook. */
	if (cur_ops->check_boost_failed && !cur_ops->check_boost_failed(gp_state, NULL))
		*start = jiffies;
	return false;
}

static int rcu_torture_boost(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };	/* Linux's sched_set_fifo_low() */
	unsigned long endtime, gp_state = 0, gp_state_time = 0, gp_start = 0, oldstarttime;

	VERBOSE_TOROUT_STRING("rcu_torture_boost started");
	if (sched_setscheduler_nocheck(current, SCHED_FIFO, &sp) < 0) {
		VERBOSE_TOROUT_STRING("rcu_torture_boost RT prio failed!");
		WRITE_ONCE(n_rcu_torture_boost_rterror, n_rcu_torture_boost_rterror + 1);
		goto cleanup;
	}
	do {
		bool failed = false, gp_initiated = false;

		/* Sleep until the next window. */
		oldstarttime = READ_ONCE(boost_starttime);
		while (time_before(jiffies, oldstarttime)) {
			schedule_timeout_interruptible(oldstarttime - jiffies);
			stutter_wait("rcu_torture_boost");
			if (torture_must_stop())
				goto checkwait;
		}

		/* The window: spin, keeping one grace period in flight. */
		endtime = oldstarttime + test_boost_duration * HZ;
		while (time_before(jiffies, endtime)) {
			if (gp_initiated && !failed && !cur_ops->poll_gp_state(gp_state))
				failed = rcu_torture_boost_failed(gp_state, &gp_state_time);
			if (!gp_initiated || cur_ops->poll_gp_state(gp_state)) {
				if (gp_initiated) {
					unsigned long d = jiffies - gp_start;

					spin_lock(&boost_stats_lock);
					boost_gps++;
					if (d > boost_gp_max_jiffies)
						boost_gp_max_jiffies = d;
					spin_unlock(&boost_stats_lock);
				}
				gp_state = cur_ops->start_gp_poll();
				gp_initiated = true;
				gp_state_time = gp_start = jiffies;
			}
			if (stutter_wait("rcu_torture_boost") && cur_ops->poll_gp_state(gp_state))
				gp_initiated = false;	/* it ended while we slept: when is unknown */
			if (torture_must_stop())
				goto checkwait;
		}
		/* A grace period still pending at the end of the window counts too. */
		if (gp_initiated && !failed && !cur_ops->poll_gp_state(gp_state))
			rcu_torture_boost_failed(gp_state, &gp_state_time);

		/* The first booster out sets the next window's start. */
		while (oldstarttime == READ_ONCE(boost_starttime) && !kthread_should_stop()) {
			if (mutex_trylock(&boost_mutex)) {
				if (oldstarttime == boost_starttime) {
					WRITE_ONCE(boost_starttime, jiffies + test_boost_interval * HZ);
					WRITE_ONCE(n_rcu_torture_boosts, n_rcu_torture_boosts + 1);
				}
				mutex_unlock(&boost_mutex);
				break;
			}
			schedule_timeout_uninterruptible(HZ / 20);
		}
checkwait:
		stutter_wait("rcu_torture_boost");
	} while (!torture_must_stop());
cleanup:
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(HZ / 20);
	torture_kthread_stopping("rcu_torture_boost");
	return 0;
}

/*
 * One booster per online CPU, bound to it and kept out of the shuffler
 * (Linux creates them from its CPU-hotplug callback, to the same effect).
 */
static int rcu_torture_boost_init(void)
{
	unsigned int cpu;

	boost_starttime = jiffies + test_boost_interval * HZ;
	boost_gp_max_jiffies = 0;
	boost_gps = 0;
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		VERBOSE_TOROUT_STRING("Creating rcu_torture_boost task");
		t = kthread_create_on_cpu(rcu_torture_boost, NULL, cpu, "rcu_torture_boost_%u");
		if (!t) {
			VERBOSE_TOROUT_STRING("rcu_torture_boost task create failed");
			n_rcu_torture_boost_ktrerror++;
			return -ENOMEM;
		}
		boost_tasks[cpu] = t;
		wake_up_process(t);
	}
	return 0;
}

/*
 * Our own figures (Linux has no such line): windows run, grace periods
 * that ended inside them and the longest (a boosted reader's delay plus
 * the boost delay, when boosting was needed), and readers the rcub
 * kthreads boosted since boot (Tree RCU's rcu_node ->n_boosts).
 */
static void rcu_torture_boost_summary(void)
{
	unsigned long n_boosted = 0;

#ifdef CONFIG_TREE_RCU
	n_boosted = rcu_get_n_boosts();
#endif
	pr_alert("%s" TORTURE_FLAG " Boost test: windows %ld gps %lu longest-gp %lu ms readers-boosted %lu rtbf %ld\n",
		 torture_type, READ_ONCE(n_rcu_torture_boosts), boost_gps,
		 boost_gp_max_jiffies * 1000 / HZ, n_boosted, READ_ONCE(n_rcu_torture_boost_failure));
}

static void rcu_torture_boost_cleanup(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		torture_stop_kthread(rcu_torture_boost, boost_tasks[cpu]);
}

/* ===== fqs kthread ========================================================================= */

/* Bursts of forced quiescent-state scans, to hit the races around them. */
static int rcu_torture_fqs(void *arg)
{
	VERBOSE_TOROUT_STRING("rcu_torture_fqs task started");
	do {
		unsigned long resume = jiffies + fqs_stutter * HZ;
		long burst;

		while (time_before(jiffies, resume) && !kthread_should_stop())
			schedule_timeout_interruptible(1);
		for (burst = fqs_duration; burst > 0 && !kthread_should_stop();
		     burst -= fqs_holdoff ? fqs_holdoff : 1) {
			cur_ops->fqs();
			udelay(fqs_holdoff);
			cond_resched();
		}
		stutter_wait("rcu_torture_fqs");
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_fqs");
	return 0;
}

/* ===== writer and fake writers ============================================================== */

static int rcu_torture_writer(void *arg)
{
	bool gp_cond1 = gp_cond, gp_exp1 = gp_exp, gp_normal1 = gp_normal;
	bool gp_poll1 = gp_poll, gp_sync1 = gp_sync;
	bool cookie_checks = cur_ops->get_gp_state && cur_ops->poll_gp_state;
	struct rcu_torture *rp, *old_rp;
	unsigned long cookie = 0, gp_snap;
	int synctype[5], nsynctypes = 0;
	DEFINE_TORTURE_RANDOM(rand);
	int i, idx;

	VERBOSE_TOROUT_STRING("rcu_torture_writer task started");
	set_user_nice(current, 0);
	/* None chosen: use every primitive the flavor has. */
	if (!gp_cond1 && !gp_exp1 && !gp_normal1 && !gp_poll1 && !gp_sync1)
		gp_cond1 = gp_exp1 = gp_normal1 = gp_poll1 = gp_sync1 = true;
	if (gp_cond1 && cur_ops->get_gp_state && cur_ops->cond_sync) {
		synctype[nsynctypes++] = RTWS_COND_GET;
		pr_info("%s: Testing conditional GPs.\n", __func__);
	} else if (gp_cond && (!cur_ops->get_gp_state || !cur_ops->cond_sync)) {
		pr_alert("%s: gp_cond without primitives.\n", __func__);
	}
	if (gp_exp1 && cur_ops->exp_sync) {
		synctype[nsynctypes++] = RTWS_EXP_SYNC;
		pr_info("%s: Testing expedited GPs.\n", __func__);
	} else if (gp_exp && !cur_ops->exp_sync) {
		pr_alert("%s: gp_exp without primitives.\n", __func__);
	}
	if (gp_normal1 && cur_ops->deferred_free) {
		synctype[nsynctypes++] = RTWS_DEF_FREE;
		pr_info("%s: Testing asynchronous GPs.\n", __func__);
	} else if (gp_normal && !cur_ops->deferred_free) {
		pr_alert("%s: gp_normal without primitives.\n", __func__);
	}
	if (gp_poll1 && cur_ops->start_gp_poll && cur_ops->poll_gp_state) {
		synctype[nsynctypes++] = RTWS_POLL_GET;
		pr_info("%s: Testing polling GPs.\n", __func__);
	} else if (gp_poll && (!cur_ops->start_gp_poll || !cur_ops->poll_gp_state)) {
		pr_alert("%s: gp_poll without primitives.\n", __func__);
	}
	if (gp_sync1 && cur_ops->sync) {
		synctype[nsynctypes++] = RTWS_SYNC;
		pr_info("%s: Testing normal GPs.\n", __func__);
	} else if (gp_sync && !cur_ops->sync) {
		pr_alert("%s: gp_sync without primitives.\n", __func__);
	}
	if (WARN_ONCE(nsynctypes == 0, "rcu_torture_writer: No update-side primitives.\n")) {
		rcu_torture_writer_state = RTWS_STOPPING;
		torture_kthread_stopping("rcu_torture_writer");
		return 0;
	}

	do {
		rcu_torture_writer_state = RTWS_FIXED_DELAY;
		schedule_timeout_uninterruptible(1);
		rp = rcu_torture_alloc();
		if (!rp)
			continue;
		rp->rtort_pipe_count = 0;
		rcu_torture_writer_state = RTWS_DELAY;
		udelay(torture_random(&rand) & 0x3ff);
		rcu_torture_writer_state = RTWS_REPLACE;
		old_rp = rcu_torture_current;
		rp->rtort_mbtest = 1;
		rcu_assign_pointer(rcu_torture_current, rp);
		smp_wmb();	/* the old element's updates come after the publication */
		if (old_rp) {
			i = old_rp->rtort_pipe_count;
			if (i > RCU_TORTURE_PIPE_LEN)
				i = RCU_TORTURE_PIPE_LEN;
			atomic_inc(&rcu_torture_wcount[i]);
			WRITE_ONCE(old_rp->rtort_pipe_count, old_rp->rtort_pipe_count + 1);
			/*
			 * A polling cookie taken now, inside a reader, must not be
			 * complete yet. (Linux dropped its check that the cookie is
			 * complete after the synchronous waits below: a grace period
			 * that overlaps an older polled phase need not complete it.)
			 */
			if (cookie_checks) {
				idx = cur_ops->readlock();
				cookie = cur_ops->get_gp_state();
				WARN_ONCE(cur_ops->poll_gp_state(cookie),
					  "%s: Cookie check 1 failed %s(%d) %lu->%lu\n",
					  __func__, rcu_torture_writer_state_getname(),
					  rcu_torture_writer_state, cookie, cur_ops->get_gp_state());
				cur_ops->readunlock(idx);
			}
			switch (synctype[torture_random(&rand) % nsynctypes]) {
			case RTWS_DEF_FREE:
				rcu_torture_writer_state = RTWS_DEF_FREE;
				cur_ops->deferred_free(old_rp);
				break;
			case RTWS_EXP_SYNC:
				rcu_torture_writer_state = RTWS_EXP_SYNC;
				cur_ops->exp_sync();
				rcu_torture_pipe_update(old_rp);
				break;
			case RTWS_COND_GET:
				rcu_torture_writer_state = RTWS_COND_GET;
				gp_snap = cur_ops->get_gp_state();
				i = torture_random(&rand) % 16;
				if (i)
					schedule_timeout_interruptible(i);
				udelay(torture_random(&rand) % 1000);
				rcu_torture_writer_state = RTWS_COND_SYNC;
				cur_ops->cond_sync(gp_snap);
				rcu_torture_pipe_update(old_rp);
				break;
			case RTWS_POLL_GET:
				rcu_torture_writer_state = RTWS_POLL_GET;
				gp_snap = cur_ops->start_gp_poll();
				rcu_torture_writer_state = RTWS_POLL_WAIT;
				while (!cur_ops->poll_gp_state(gp_snap)) {
					i = torture_random(&rand) % 16;
					if (i)
						schedule_timeout_interruptible(i);
					udelay(torture_random(&rand) % 1000);
				}
				rcu_torture_pipe_update(old_rp);
				break;
			case RTWS_SYNC:
				rcu_torture_writer_state = RTWS_SYNC;
				cur_ops->sync();
				rcu_torture_pipe_update(old_rp);
				break;
			default:
				WARN_ON_ONCE(1);
				break;
			}
		}
		WRITE_ONCE(rcu_torture_current_version, rcu_torture_current_version + 1);
		rcu_torture_writer_state = RTWS_STUTTER;
		stutter_wait("rcu_torture_writer");
	} while (!torture_must_stop());
	WRITE_ONCE(rcu_torture_current, NULL);	/* tells the stats kthread we are done */
	rcu_torture_writer_state = RTWS_STOPPING;
	torture_kthread_stopping("rcu_torture_writer");
	return 0;
}

/*
 * Fake writers: call the update-side primitives at random, concurrently
 * with the writer and each other, with rcu_barrier() now and then.
 */
static int rcu_torture_fakewriter(void *arg)
{
	DEFINE_TORTURE_RANDOM(rand);
	unsigned long cookie;

	VERBOSE_TOROUT_STRING("rcu_torture_fakewriter task started");
	set_user_nice(current, 19);
	do {
		unsigned long r;

		schedule_timeout_uninterruptible(1 + torture_random(&rand) % 10);
		udelay(torture_random(&rand) & 0x3ff);
		r = torture_random(&rand);
		if (cur_ops->cb_barrier && r % (nfakewriters * 8) == 0) {
			cur_ops->cb_barrier();
		} else if ((r & 0x300) == 0x100 && (gp_cond || !(gp_normal || gp_exp)) &&
			   cur_ops->get_gp_state && cur_ops->cond_sync) {
			cookie = cur_ops->get_gp_state();
			schedule_timeout_uninterruptible(torture_random(&rand) % 4);
			cur_ops->cond_sync(cookie);
		} else if ((r & 0x300) == 0x200 && (gp_poll || !(gp_normal || gp_exp)) &&
			   cur_ops->start_gp_poll && cur_ops->poll_gp_state) {
			cookie = cur_ops->start_gp_poll();
			while (!cur_ops->poll_gp_state(cookie) && !torture_must_stop())
				schedule_timeout_uninterruptible(1);
		} else if (gp_normal == gp_exp) {
			if (cur_ops->sync && (r & 0x80))
				cur_ops->sync();
			else if (cur_ops->exp_sync)
				cur_ops->exp_sync();
		} else if (gp_normal && cur_ops->sync) {
			cur_ops->sync();
		} else if (cur_ops->exp_sync) {
			cur_ops->exp_sync();
		}
		stutter_wait("rcu_torture_fakewriter");
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_fakewriter");
	return 0;
}

/* ===== readers =================================================================================== */

/*
 * Memory-ordering check across readers (rtmbkf: failures/tries). Reader A
 * notes reader B's read count and hangs a request on the element it is
 * reading; once that element has aged a grace period, reader C (chosen by
 * A) reads B's count again: it must not be below what A saw, since
 * everything before a grace period is visible to everything after it.
 */
static void rcu_torture_reader_do_mbchk(long myid, struct rcu_torture *rtp,
					struct torture_random_state *trsp)
{
	struct rcu_torture_reader_check *me, *assigner, *chked, *chker;
	int rdrchked, rdrchker;
	unsigned long loops;

	if (myid < 0 || nrealreaders < 3)
		return;	/* not from timers; needs three distinct readers */
	me = &rcu_torture_reader_mbchk[myid];
	WRITE_ONCE(me->rtc_myloops, me->rtc_myloops + 1);

	/* Try to hand out a check. */
	rdrchked = torture_random(trsp) % nrealreaders;
	rdrchker = torture_random(trsp) % nrealreaders;
	chked = &rcu_torture_reader_mbchk[rdrchked];
	chker = &rcu_torture_reader_mbchk[rdrchker];
	if (rdrchked != myid && rdrchked != rdrchker && rdrchker != myid &&
	    smp_load_acquire(&me->rtc_chkrdr) < 0 &&
	    !READ_ONCE(rtp->rtort_chkp) && !smp_load_acquire(&chker->rtc_assigner)) {
		me->rtc_chkloops = READ_ONCE(chked->rtc_myloops);
		me->rtc_chkrdr = rdrchked;
		if (cmpxchg(&chker->rtc_assigner, NULL, me) != NULL)
			me->rtc_chkrdr = -1;	/* someone else got there first */
		else if (cmpxchg(&rtp->rtort_chkp, NULL, me) != NULL) {
			(void)cmpxchg(&chker->rtc_assigner, me, NULL);
			me->rtc_chkrdr = -1;
		}
	}

	/* Do a check handed to us, once its grace period has ended. */
	assigner = READ_ONCE(me->rtc_assigner);
	if (!assigner || !smp_load_acquire(&assigner->rtc_ready))
		return;
	rdrchked = assigner->rtc_chkrdr;
	if (WARN_ON_ONCE(rdrchked < 0))
		return;
	chked = &rcu_torture_reader_mbchk[rdrchked];
	loops = READ_ONCE(chked->rtc_myloops);
	atomic_inc(&n_rcu_torture_mbchk_tries);
	if (ULONG_CMP_LT(loops, assigner->rtc_chkloops))
		atomic_inc(&n_rcu_torture_mbchk_fail);
	assigner->rtc_ready = 0;
	smp_store_release(&me->rtc_assigner, NULL);
	smp_store_release(&assigner->rtc_chkrdr, -1);
}

/*
 * One read: dereference the current element under the flavor's read lock,
 * linger, and record its pipeline age and how many grace periods passed.
 * Returns false before the writer has published anything.
 */
static bool rcu_torture_one_read(struct torture_random_state *trsp, long myid)
{
	bool cookie_checks = cur_ops->get_gp_state && cur_ops->poll_gp_state;
	unsigned long started, completed, cookie = 0, flags;
	struct rcu_torture *p;
	int pipe_count, idx;

	WARN_ON_ONCE(!rcu_is_watching());
	idx = cur_ops->readlock();
	if (cookie_checks)
		cookie = cur_ops->get_gp_state();
	started = cur_ops->get_gp_seq();
	p = rcu_dereference(rcu_torture_current);
	if (!p) {
		cur_ops->readunlock(idx);
		return false;	/* the writer has not started yet */
	}
	if (READ_ONCE(p->rtort_mbtest) == 0)
		atomic_inc(&n_rcu_torture_mberror);
	rcu_torture_reader_do_mbchk(myid, p, trsp);
	cur_ops->read_delay(trsp);
	local_irq_save(flags);	/* the timer readers count on this CPU too */
	pipe_count = READ_ONCE(p->rtort_pipe_count);
	if (pipe_count > RCU_TORTURE_PIPE_LEN)
		pipe_count = RCU_TORTURE_PIPE_LEN;
	completed = cur_ops->get_gp_seq() - started;
	if (completed > RCU_TORTURE_PIPE_LEN)
		completed = RCU_TORTURE_PIPE_LEN;
	(*this_cpu_ptr(&rcu_torture_count))[pipe_count]++;
	(*this_cpu_ptr(&rcu_torture_batch))[completed]++;
	local_irq_restore(flags);
	if (cookie_checks)
		WARN_ONCE(cur_ops->poll_gp_state(cookie),
			  "%s: Cookie check 2 failed %s(%d) %lu->%lu\n", __func__,
			  rcu_torture_writer_state_getname(), rcu_torture_writer_state,
			  cookie, cur_ops->get_gp_state());
	cur_ops->readunlock(idx);
	return true;
}

static DEFINE_PER_CPU(struct torture_random_state, rcu_torture_timer_rand);

static void rcu_torture_timer_cb(struct rcu_head *rhp)
{
	kfree(rhp);
}

/* A reader in a timer handler, which also queues a callback from interrupt context. */
static void rcu_torture_timer(struct timer_list *unused)
{
	atomic_long_inc(&n_rcu_torture_timers);
	(void)rcu_torture_one_read(this_cpu_ptr(&rcu_torture_timer_rand), -1);
	if (cur_ops->call && !torture_must_stop_irq()) {
		struct rcu_head *rhp = kmalloc(sizeof(*rhp), GFP_ATOMIC);

		if (rhp)
			cur_ops->call(rhp, rcu_torture_timer_cb);
	}
}

static int rcu_torture_reader(void *arg)
{
	unsigned long lastsleep = jiffies;
	long myid = (long)arg;
	DEFINE_TORTURE_RANDOM(rand);
	struct timer_list t;
	bool timers = irqreader && cur_ops->irq_capable;

	VERBOSE_TOROUT_STRING("rcu_torture_reader task started");
	set_user_nice(current, 19);
	if (timers)
		timer_setup(&t, rcu_torture_timer, 0);
	do {
		if (timers && !timer_pending(&t))
			mod_timer(&t, jiffies + 1);
		if (!rcu_torture_one_read(&rand, myid) && !torture_must_stop())
			schedule_timeout_interruptible(HZ);
		if (time_after(jiffies, lastsleep) && !torture_must_stop()) {
			schedule_timeout_interruptible(1);
			lastsleep = jiffies + 10;
		}
		stutter_wait("rcu_torture_reader");
	} while (!torture_must_stop());
	if (timers)
		del_timer_sync(&t);
	torture_kthread_stopping("rcu_torture_reader");
	return 0;
}

/* ===== statistics ================================================================================ */

static void rcu_torture_stats_print(void)
{
	long pipesummary[RCU_TORTURE_PIPE_LEN + 1] = { 0 };
	long batchsummary[RCU_TORTURE_PIPE_LEN + 1] = { 0 };
	static unsigned long rtcv_snap = ULONG_MAX, stutter_snap;
	static bool splatted;
	struct rcu_torture *rtcp;
	char buf[512];
	int cpu, i, n;

	for_each_possible_cpu(cpu) {
		for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++) {
			pipesummary[i] += READ_ONCE(per_cpu(rcu_torture_count, cpu)[i]);
			batchsummary[i] += READ_ONCE(per_cpu(rcu_torture_batch, cpu)[i]);
		}
	}
	/* The oldest age seen; reads of recycled elements (index PIPE_LEN) count too. */
	for (i = RCU_TORTURE_PIPE_LEN; i >= 0; i--)
		if (pipesummary[i])
			break;

	/* Each line is built whole, so concurrent console output cannot split it. */
	rtcp = READ_ONCE(rcu_torture_current);
	n = snprintf(buf, sizeof(buf),
		     "%s%s rtc: %p ver: %lu tfle: %d rta: %d rtaf: %d rtf: %d ",
		     torture_type, TORTURE_FLAG, rtcp, READ_ONCE(rcu_torture_current_version),
		     list_empty(&rcu_torture_freelist), atomic_read(&n_rcu_torture_alloc),
		     atomic_read(&n_rcu_torture_alloc_fail), atomic_read(&n_rcu_torture_free));
	n += snprintf(buf + n, sizeof(buf) - n,
		      "rtmbe: %d rtmbkf: %d/%d rtbe: %ld rtbke: %ld rtbre: %ld ",
		      atomic_read(&n_rcu_torture_mberror), atomic_read(&n_rcu_torture_mbchk_fail),
		      atomic_read(&n_rcu_torture_mbchk_tries), n_rcu_torture_barrier_error,
		      n_rcu_torture_boost_ktrerror, n_rcu_torture_boost_rterror);
	n += snprintf(buf + n, sizeof(buf) - n, "rtbf: %ld rtb: %ld nt: %ld ",
		      n_rcu_torture_boost_failure, n_rcu_torture_boosts,
		      atomic_long_read(&n_rcu_torture_timers));
	n += snprintf(buf + n, sizeof(buf) - n, "barrier: %ld/%ld:%ld ",
		      READ_ONCE(n_barrier_successes), READ_ONCE(n_barrier_attempts),
		      READ_ONCE(n_rcu_torture_barrier_error));
	snprintf(buf + n, sizeof(buf) - n, "read-exits: %ld", READ_ONCE(n_read_exits));
	pr_alert("%s\n", buf);

	n = snprintf(buf, sizeof(buf), "%s%s ", torture_type, TORTURE_FLAG);
	if (atomic_read(&n_rcu_torture_mberror) || atomic_read(&n_rcu_torture_mbchk_fail) ||
	    n_rcu_torture_barrier_error || n_rcu_torture_boost_ktrerror ||
	    n_rcu_torture_boost_rterror || n_rcu_torture_boost_failure || i > 1) {
		n += snprintf(buf + n, sizeof(buf) - n, "!!! ");
		atomic_inc(&n_rcu_torture_error);
	}
	n += snprintf(buf + n, sizeof(buf) - n, "Reader Pipe: ");
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %ld", pipesummary[i]);
	pr_alert("%s\n", buf);

	n = snprintf(buf, sizeof(buf), "%s%s Reader Batch: ", torture_type, TORTURE_FLAG);
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %ld", batchsummary[i]);
	pr_alert("%s\n", buf);

	n = snprintf(buf, sizeof(buf), "%s%s Free-Block Circulation: ", torture_type, TORTURE_FLAG);
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %d", atomic_read(&rcu_torture_wcount[i]));
	pr_alert("%s\n", buf);

	/*
	 * The writer made no progress in a whole interval: say where it is.
	 * A stutter pause in the interval is not a stall.
	 */
	if (rtcv_snap == READ_ONCE(rcu_torture_current_version) && rtcp &&
	    stutter_snap == torture_stutter_pauses()) {
		int flags = 0;
		unsigned long gp_seq = 0;
		struct task_struct *wtp = READ_ONCE(writer_task);

		if (cur_ops->gp_data)
			cur_ops->gp_data(&flags, &gp_seq);
		pr_alert("??? Writer stall state %s(%d) g%lu f%#x ->state %#lx cpu %d\n",
			 rcu_torture_writer_state_getname(), rcu_torture_writer_state,
			 gp_seq, flags, wtp ? (unsigned long)task_state(wtp) : ~0UL,
			 wtp ? (int)task_cpu(wtp) : -1);
		if (!splatted) {
			sched_show_tasks();	/* once: where everyone is */
			splatted = true;
		}
	}
	rtcv_snap = READ_ONCE(rcu_torture_current_version);
	stutter_snap = torture_stutter_pauses();
}

static int rcu_torture_stats(void *arg)
{
	VERBOSE_TOROUT_STRING("rcu_torture_stats task started");
	do {
		schedule_timeout_interruptible(stat_interval * HZ);
		if (!torture_must_stop())
			rcu_torture_stats_print();
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_stats");
	return 0;
}

static void rcu_torture_print_module_parms(struct rcu_torture_ops *ops, const char *tag)
{
	pr_alert("%s" TORTURE_FLAG
		 "--- %s: nreaders=%d nfakewriters=%d "
		 "stat_interval=%d verbose=%d test_no_idle_hz=%d "
		 "shuffle_interval=%d stutter=%d irqreader=%d "
		 "fqs_duration=%d fqs_holdoff=%d fqs_stutter=%d "
		 "test_boost=%d/%d test_boost_interval=%d "
		 "test_boost_duration=%d shutdown_secs=%d "
		 "stall_cpu=%d stall_cpu_holdoff=%d stall_cpu_irqsoff=%d "
		 "stall_cpu_block=%d "
		 "n_barrier_cbs=%d "
		 "onoff_interval=%d onoff_holdoff=%d "
		 "read_exit_delay=%d read_exit_burst=%d\n",
		 torture_type, tag, nrealreaders, nfakewriters,
		 stat_interval, verbose, test_no_idle_hz, shuffle_interval,
		 stutter, irqreader, fqs_duration, fqs_holdoff, fqs_stutter,
		 test_boost, ops ? ops->can_boost : 0, test_boost_interval, test_boost_duration,
		 shutdown_secs,
		 stall_cpu, stall_cpu_holdoff, stall_cpu_irqsoff, stall_cpu_block,
		 n_barrier_cbs, onoff_interval, onoff_holdoff,
		 read_exit_delay, read_exit_burst);
}

/* ===== CPU stall ==================================================================================== */

static unsigned int rcu_torture_last_online_cpu(void)
{
	unsigned int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last;
}

/* After the holdoff, spin inside a reader (irqs off if asked) so a stall warning must appear. */
/*
 * Ours, not Linux's: make sure a grace period is in progress before the
 * stall begins. A stall is only reported while one is pending, and with
 * no load balancing here the updaters, and even the grace-period kthread,
 * may all be queued on the CPU about to stall, so that none would start
 * during it. Called inside the reader (no quiescent state from here on):
 * ask for a grace period, whose kthread's wakeup lands on an idle CPU
 * since this one is busy, and give it up to a second to start; its
 * force-quiescent-state scans then find the stall from that CPU.
 */
static void rcu_torture_stall_start_gp(void)
{
	u64 give_up = local_clock() + NSEC_PER_SEC;
	unsigned long gp_seq;
	int flags;

	if (!cur_ops->start_gp_poll || !cur_ops->gp_data)
		return;
	cur_ops->start_gp_poll();
	do {
		cur_ops->gp_data(&flags, &gp_seq);
		if (rcu_seq_state(gp_seq))
			return;
		cpu_relax();
	} while (local_clock() < give_up);
}

static int rcu_torture_stall(void *args)
{
	VERBOSE_TOROUT_STRING("rcu_torture_stall task started");
	if (stall_cpu_holdoff > 0) {
		VERBOSE_TOROUT_STRING("rcu_torture_stall begin holdoff");
		schedule_timeout_interruptible(stall_cpu_holdoff * HZ);
		VERBOSE_TOROUT_STRING("rcu_torture_stall end holdoff");
	}
	if (!kthread_should_stop() && stall_cpu > 0) {
		/* local_clock(): the jiffies may stop here if this CPU keeps time. */
		u64 stop_at = local_clock() + (u64)stall_cpu * NSEC_PER_SEC;
		int idx;

		VERBOSE_TOROUT_STRING("rcu_torture_stall begin CPU stall");
		idx = cur_ops->readlock();
		rcu_torture_stall_start_gp();
		if (stall_cpu_irqsoff)
			local_irq_disable();
		else
			preempt_disable();
		pr_alert("rcu_torture_stall start on CPU %d.\n", raw_smp_processor_id());
		while (local_clock() < stop_at)
			cpu_relax();
		if (stall_cpu_irqsoff)
			local_irq_enable();
		else
			preempt_enable();
		cur_ops->readunlock(idx);
	}
	pr_alert("rcu_torture_stall end.\n");
	while (!kthread_should_stop())
		schedule_timeout_interruptible(10 * HZ);
	return 0;
}

/* ===== forward progress ============================================================================ */

/* A callback that requeues itself until told to stop: GPs must go on regardless. */
struct fwd_cb_state {
	struct rcu_head rh;
	int stop;
};

static void rcu_torture_fwd_prog_cb(struct rcu_head *rhp)
{
	struct fwd_cb_state *fcsp = container_of(rhp, struct fwd_cb_state, rh);

	if (READ_ONCE(fcsp->stop)) {
		WRITE_ONCE(fcsp->stop, 2);
		return;
	}
	cur_ops->call(&fcsp->rh, rcu_torture_fwd_prog_cb);
}

/* A flood callback: after each grace period it goes back on the flooder's list. */
struct rcu_fwd_cb {
	struct rcu_head rh;
	struct rcu_fwd_cb *rfc_next;
	struct rcu_fwd *rfc_rfp;
	int rfc_gps;
};

#define MAX_FWD_CB_JIFFIES	(8 * HZ)	/* longest flood */
#define MIN_FWD_CB_LAUNDERS	3		/* a callback must go around this often... */
#define MIN_FWD_CBS_LAUNDERED	100		/* ...this many times for the flood to end */
#define FWD_CBS_HIST_DIV	10		/* histogram buckets per second */
#define N_LAUNDERS_HIST		(2 * MAX_FWD_CB_JIFFIES / (HZ / FWD_CBS_HIST_DIV))
/* Outstanding flood callbacks at most (memory is small here); the flood waits above it. */
#define MAX_FWD_CBS_OUTSTANDING	200000

struct rcu_launder_hist {
	long n_launders;
	unsigned long launder_gp_seq;
};

struct rcu_fwd {
	spinlock_t rcu_fwd_lock;
	struct rcu_fwd_cb *rcu_fwd_cb_head;
	struct rcu_fwd_cb **rcu_fwd_cb_tail;
	long n_launders_cb;
	unsigned long rcu_fwd_startat;
	struct rcu_launder_hist n_launders_hist[N_LAUNDERS_HIST];
	unsigned long rcu_launder_gp_seq_start;
};

static struct rcu_fwd *rcu_fwds;
static bool rcu_fwd_emergency_stop;

static void rcu_torture_fwd_cb_hist(struct rcu_fwd *rfp)
{
	unsigned long gps, gps_old;
	char buf[768];
	int i, j, n;

	for (i = ARRAY_SIZE(rfp->n_launders_hist) - 1; i > 0; i--)
		if (rfp->n_launders_hist[i].n_launders > 0)
			break;
	n = snprintf(buf, sizeof(buf), "%s: Callback-invocation histogram (duration %lu jiffies):",
		     __func__, jiffies - rfp->rcu_fwd_startat);
	gps_old = rfp->rcu_launder_gp_seq_start;
	for (j = 0; j <= i; j++) {
		gps = rfp->n_launders_hist[j].launder_gp_seq;
		n += snprintf(buf + n, sizeof(buf) - n, " %ds/%d: %ld:%ld", j + 1, FWD_CBS_HIST_DIV,
			      rfp->n_launders_hist[j].n_launders, (long)(gps - gps_old));
		gps_old = gps;
	}
	pr_alert("%s\n", buf);
}

static void rcu_torture_fwd_cb_cr(struct rcu_head *rhp)
{
	struct rcu_fwd_cb *rfcp = container_of(rhp, struct rcu_fwd_cb, rh);
	struct rcu_fwd *rfp = rfcp->rfc_rfp;
	struct rcu_fwd_cb **rfcpp;
	unsigned long flags;
	int i;

	rfcp->rfc_next = NULL;
	rfcp->rfc_gps++;
	spin_lock_irqsave(&rfp->rcu_fwd_lock, flags);
	rfcpp = rfp->rcu_fwd_cb_tail;
	rfp->rcu_fwd_cb_tail = &rfcp->rfc_next;
	WRITE_ONCE(*rfcpp, rfcp);
	WRITE_ONCE(rfp->n_launders_cb, rfp->n_launders_cb + 1);
	i = (jiffies - rfp->rcu_fwd_startat) / (HZ / FWD_CBS_HIST_DIV);
	if (i >= (int)ARRAY_SIZE(rfp->n_launders_hist))
		i = ARRAY_SIZE(rfp->n_launders_hist) - 1;
	rfp->n_launders_hist[i].n_launders++;
	rfp->n_launders_hist[i].launder_gp_seq = cur_ops->get_gp_seq();
	spin_unlock_irqrestore(&rfp->rcu_fwd_lock, flags);
}

/* Free the callbacks back on the flooder's list; returns how many. */
static unsigned long rcu_torture_fwd_prog_cbfree(struct rcu_fwd *rfp)
{
	unsigned long flags, freed = 0;
	struct rcu_fwd_cb *rfcp;

	for (;;) {
		spin_lock_irqsave(&rfp->rcu_fwd_lock, flags);
		rfcp = rfp->rcu_fwd_cb_head;
		if (!rfcp) {
			spin_unlock_irqrestore(&rfp->rcu_fwd_lock, flags);
			break;
		}
		rfp->rcu_fwd_cb_head = rfcp->rfc_next;
		if (!rfp->rcu_fwd_cb_head)
			rfp->rcu_fwd_cb_tail = &rfp->rcu_fwd_cb_head;
		spin_unlock_irqrestore(&rfp->rcu_fwd_lock, flags);
		kfree(rfcp);
		freed++;
		cond_resched();
	}
	return freed;
}

/* A tight loop of short readers with only cond_resched(): grace periods must still end. */
static void rcu_torture_fwd_prog_nr(struct rcu_fwd *rfp, int *tested, int *tested_tries)
{
	static DEFINE_TORTURE_RANDOM(trs);
	unsigned long cver, gps, dur, stopat;
	struct fwd_cb_state fcs;
	bool selfpropcb = false;
	int idx, sd, sd4;

	if (!cur_ops->sync)
		return;
	if (cur_ops->call && cur_ops->cb_barrier)
		selfpropcb = true;
	WRITE_ONCE(rcu_fwd_cb_nodelay, true);
	cur_ops->sync();	/* readers from now on see the flag */
	if (selfpropcb) {
		WRITE_ONCE(fcs.stop, 0);
		cur_ops->call(&fcs.rh, rcu_torture_fwd_prog_cb);
	}
	cver = READ_ONCE(rcu_torture_current_version);
	gps = cur_ops->get_gp_seq();
	sd = cur_ops->stall_dur() + 1;
	sd4 = (sd + fwd_progress_div - 1) / fwd_progress_div;
	dur = sd4 + torture_random(&trs) % (sd - sd4);
	WRITE_ONCE(rfp->rcu_fwd_startat, jiffies);
	stopat = rfp->rcu_fwd_startat + dur;
	while (time_before(jiffies, stopat) && !shutdown_time_arrived() &&
	       !READ_ONCE(rcu_fwd_emergency_stop) && !torture_must_stop()) {
		idx = cur_ops->readlock();
		udelay(10);
		cur_ops->readunlock(idx);
		if (!fwd_progress_need_resched || need_resched())
			cond_resched();
	}
	(*tested_tries)++;
	if (!time_before(jiffies, stopat) && !shutdown_time_arrived() &&
	    !READ_ONCE(rcu_fwd_emergency_stop) && !torture_must_stop()) {
		(*tested)++;
		cver = READ_ONCE(rcu_torture_current_version) - cver;
		gps = cur_ops->get_gp_seq() - gps;
		WARN_ON(!cver && gps < 2);
		pr_alert("%s: Duration %ld cver %ld gps %ld\n", __func__, dur, cver, gps);
	}
	if (selfpropcb) {
		WRITE_ONCE(fcs.stop, 1);
		cur_ops->sync();	/* a running callback finishes */
		cur_ops->cb_barrier();	/* and a queued one is invoked */
		WARN_ON(READ_ONCE(fcs.stop) != 2);
	}
	schedule_timeout_uninterruptible(HZ / 10);
	WRITE_ONCE(rcu_fwd_cb_nodelay, false);
}

/* Flood call_rcu(), reusing callbacks once invoked: grace periods must keep up. */
static void rcu_torture_fwd_prog_cr(struct rcu_fwd *rfp)
{
	long n_launders = 0, n_launders_cb_snap, n_launders_sa = 0, n_max_cbs = 0, n_max_gps = 0;
	unsigned long cver, gps, stopat, stoppedat;
	struct rcu_fwd_cb *rfcp, *rfcpn;
	int i;

	if (READ_ONCE(rcu_fwd_emergency_stop) || !cur_ops->call)
		return;
	WRITE_ONCE(rcu_fwd_cb_nodelay, true);
	cur_ops->sync();
	WRITE_ONCE(rfp->rcu_fwd_startat, jiffies);
	stopat = rfp->rcu_fwd_startat + MAX_FWD_CB_JIFFIES;
	rfp->n_launders_cb = 0;
	for (i = 0; i < (int)ARRAY_SIZE(rfp->n_launders_hist); i++)
		rfp->n_launders_hist[i].n_launders = 0;
	cver = READ_ONCE(rcu_torture_current_version);
	gps = cur_ops->get_gp_seq();
	rfp->rcu_launder_gp_seq_start = gps;
	while (time_before(jiffies, stopat) && !shutdown_time_arrived() &&
	       !READ_ONCE(rcu_fwd_emergency_stop) && !torture_must_stop()) {
		rfcp = READ_ONCE(rfp->rcu_fwd_cb_head);
		rfcpn = rfcp ? READ_ONCE(rfcp->rfc_next) : NULL;
		if (rfcpn) {
			/* Reuse an invoked callback (keep the last: the tail points at it). */
			if (rfcp->rfc_gps >= MIN_FWD_CB_LAUNDERS &&
			    ++n_max_gps >= MIN_FWD_CBS_LAUNDERED)
				break;
			rfp->rcu_fwd_cb_head = rfcpn;
			n_launders++;
			n_launders_sa++;
		} else if (n_max_cbs - READ_ONCE(rfp->n_launders_cb) + n_launders >=
			   MAX_FWD_CBS_OUTSTANDING) {
			schedule_timeout_uninterruptible(1);	/* memory bound: let GPs catch up */
			continue;
		} else {
			rfcp = kmalloc(sizeof(*rfcp), GFP_KERNEL);
			if (!rfcp) {
				pr_alert("%s: out of memory after %ld callbacks, stopping the flood\n",
					 __func__, n_max_cbs);
				WRITE_ONCE(rcu_fwd_emergency_stop, true);
				break;
			}
			n_max_cbs++;
			n_launders_sa = 0;
			rfcp->rfc_gps = 0;
			rfcp->rfc_rfp = rfp;
		}
		cur_ops->call(&rfcp->rh, rcu_torture_fwd_cb_cr);
		cond_resched();
	}
	stoppedat = jiffies;
	n_launders_cb_snap = READ_ONCE(rfp->n_launders_cb);
	cver = READ_ONCE(rcu_torture_current_version) - cver;
	gps = cur_ops->get_gp_seq() - gps;
	cur_ops->cb_barrier();	/* every flood callback has been invoked */
	(void)rcu_torture_fwd_prog_cbfree(rfp);
	if (!torture_must_stop() && !READ_ONCE(rcu_fwd_emergency_stop) &&
	    !shutdown_time_arrived()) {
		WARN_ON(n_max_gps < MIN_FWD_CBS_LAUNDERED);
		pr_alert("%s Duration %lu barrier: %lu pending %ld n_launders: %ld n_launders_sa: %ld n_max_gps: %ld n_max_cbs: %ld cver %ld gps %ld\n",
			 __func__, stoppedat - rfp->rcu_fwd_startat, jiffies - stoppedat,
			 n_launders + n_max_cbs - n_launders_cb_snap, n_launders, n_launders_sa,
			 n_max_gps, n_max_cbs, cver, gps);
		rcu_torture_fwd_cb_hist(rfp);
	}
	schedule_timeout_uninterruptible(HZ);	/* let the callbacks drain */
	WRITE_ONCE(rcu_fwd_cb_nodelay, false);
}

static int rcu_torture_fwd_prog(void *args)
{
	struct rcu_fwd *rfp = args;
	int tested = 0, tested_tries = 0;

	VERBOSE_TOROUT_STRING("rcu_torture_fwd_progress task started");
	set_user_nice(current, 19);
	do {
		schedule_timeout_interruptible(fwd_progress_holdoff * HZ);
		WRITE_ONCE(rcu_fwd_emergency_stop, false);
		if (torture_must_stop())
			break;
		rcu_torture_fwd_prog_nr(rfp, &tested, &tested_tries);
		rcu_torture_fwd_prog_cr(rfp);
		stutter_wait("rcu_torture_fwd_prog");
	} while (!torture_must_stop());
	/* A short run may hold no complete attempt; several failed ones are suspicious. */
	WARN_ON(!tested && tested_tries >= 5);
	pr_alert("%s: tested %d tested_tries %d\n", __func__, tested, tested_tries);
	torture_kthread_stopping("rcu_torture_fwd_prog");
	return 0;
}

static int rcu_torture_fwd_prog_init(void)
{
	struct rcu_fwd *rfp;

	if (!fwd_progress)
		return 0;
	if ((!cur_ops->sync && !cur_ops->call) || !cur_ops->stall_dur ||
	    cur_ops->stall_dur() <= 0 || cur_ops == &rcu_busted_ops) {
		VERBOSE_TOROUT_STRING("rcu_torture_fwd_prog_init: Disabled, unsupported by RCU flavor under test");
		return 0;
	}
	if (stall_cpu > 0) {
		VERBOSE_TOROUT_STRING("rcu_torture_fwd_prog_init: Disabled, conflicts with CPU-stall testing");
		return 0;
	}
	rfp = kzalloc(sizeof(*rfp), GFP_KERNEL);
	if (!rfp)
		return -ENOMEM;
	spin_lock_init(&rfp->rcu_fwd_lock);
	rfp->rcu_fwd_cb_tail = &rfp->rcu_fwd_cb_head;
	rcu_fwds = rfp;
	return torture_create_kthread(rcu_torture_fwd_prog, rfp, fwd_prog_task);
}

static void rcu_torture_fwd_prog_cleanup(void)
{
	torture_stop_kthread(rcu_torture_fwd_prog, fwd_prog_task);
	kfree(rcu_fwds);
	rcu_fwds = NULL;
}

/* ===== rcu_barrier() ================================================================================= */

static atomic_t barrier_cbs_count;	/* callbacks still to be queued this phase */
static bool barrier_phase;
static atomic_t barrier_cbs_invoked;
static struct wait_queue_head *barrier_cbs_wq;
static DECLARE_WAIT_QUEUE_HEAD(barrier_wq);

static void rcu_torture_barrier_cbf(struct rcu_head *rcu)
{
	atomic_inc(&barrier_cbs_invoked);
}

/* Cross call: queue the callback on the target CPU itself. */
static void rcu_torture_barrier1cb(void *rcu_void)
{
	cur_ops->call(rcu_void, rcu_torture_barrier_cbf);
}

/* One per CPU number: queue one callback on "its" CPU at each phase. */
static int rcu_torture_barrier_cbs(void *arg)
{
	long myid = (long)arg;
	bool lastphase = false, newphase;
	struct rcu_head rcu;

	VERBOSE_TOROUT_STRING("rcu_torture_barrier_cbs task started");
	set_user_nice(current, 19);
	do {
		wait_event(barrier_cbs_wq[myid],
			   (newphase = smp_load_acquire(&barrier_phase)) != lastphase ||
			   torture_must_stop());
		lastphase = newphase;
		if (torture_must_stop())
			break;
		if (smp_call_function_single(myid, rcu_torture_barrier1cb, &rcu, 1))
			cur_ops->call(&rcu, rcu_torture_barrier_cbf);	/* no such CPU: here */
		if (atomic_dec_and_test(&barrier_cbs_count))
			wake_up(&barrier_wq);
	} while (!torture_must_stop());
	if (cur_ops->cb_barrier)
		cur_ops->cb_barrier();	/* our rcu_head is on the stack */
	torture_kthread_stopping("rcu_torture_barrier_cbs");
	return 0;
}

/* Each phase: all callbacks queued, then rcu_barrier() must find every one invoked. */
static int rcu_torture_barrier(void *arg)
{
	int i;

	VERBOSE_TOROUT_STRING("rcu_torture_barrier task starting");
	do {
		atomic_set(&barrier_cbs_invoked, 0);
		atomic_set(&barrier_cbs_count, n_barrier_cbs);
		smp_store_release(&barrier_phase, !barrier_phase);
		for (i = 0; i < n_barrier_cbs; i++)
			wake_up(&barrier_cbs_wq[i]);
		wait_event(barrier_wq, atomic_read(&barrier_cbs_count) == 0 || torture_must_stop());
		if (torture_must_stop())
			break;
		n_barrier_attempts++;
		cur_ops->cb_barrier();
		if (atomic_read(&barrier_cbs_invoked) != n_barrier_cbs) {
			n_rcu_torture_barrier_error++;
			pr_err("barrier_cbs_invoked = %d, n_barrier_cbs = %d\n",
			       atomic_read(&barrier_cbs_invoked), n_barrier_cbs);
			WARN_ON(1);
			/* Wait by hand for the stragglers before the next phase reuses the heads. */
			i = 0;
			do {
				if (WARN_ON(i++ > HZ))
					i = -(int)(~0U >> 1);	/* warn once */
				schedule_timeout_interruptible(1);
				cur_ops->cb_barrier();
			} while (atomic_read(&barrier_cbs_invoked) != n_barrier_cbs &&
				 !torture_must_stop());
			smp_mb();
			if (!torture_must_stop())
				pr_err("Recovered: barrier_cbs_invoked = %d\n",
				       atomic_read(&barrier_cbs_invoked));
		} else {
			n_barrier_successes++;
		}
		schedule_timeout_interruptible(HZ / 10);
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_barrier");
	return 0;
}

static int rcu_torture_barrier_init(void)
{
	int i, ret;

	if (n_barrier_cbs <= 0)
		return 0;
	if (!cur_ops->call || !cur_ops->cb_barrier) {
		pr_alert("%s" TORTURE_FLAG " Call or barrier ops missing for %s,\n",
			 torture_type, cur_ops->name);
		pr_alert("%s" TORTURE_FLAG " RCU barrier testing omitted from run.\n", torture_type);
		return 0;
	}
	atomic_set(&barrier_cbs_count, 0);
	atomic_set(&barrier_cbs_invoked, 0);
	barrier_cbs_tasks = kcalloc(n_barrier_cbs, sizeof(barrier_cbs_tasks[0]), GFP_KERNEL);
	barrier_cbs_wq = kcalloc(n_barrier_cbs, sizeof(barrier_cbs_wq[0]), GFP_KERNEL);
	if (!barrier_cbs_tasks || !barrier_cbs_wq)
		return -ENOMEM;
	for (i = 0; i < n_barrier_cbs; i++) {
		init_waitqueue_head(&barrier_cbs_wq[i]);
		ret = torture_create_kthread(rcu_torture_barrier_cbs, (void *)(long)i,
					     barrier_cbs_tasks[i]);
		if (ret)
			return ret;
	}
	return torture_create_kthread(rcu_torture_barrier, NULL, barrier_task);
}

static void rcu_torture_barrier_cleanup(void)
{
	torture_stop_kthread(rcu_torture_barrier, barrier_task);
	if (barrier_cbs_tasks) {
		for (int i = 0; i < n_barrier_cbs; i++)
			torture_stop_kthread(rcu_torture_barrier_cbs, barrier_cbs_tasks[i]);
		kfree(barrier_cbs_tasks);
		barrier_cbs_tasks = NULL;
	}
	kfree(barrier_cbs_wq);
	barrier_cbs_wq = NULL;
}

/* ===== read-then-exit ================================================================================= */

static bool read_exit_child_stop;
static bool read_exit_child_stopped;
static DECLARE_WAIT_QUEUE_HEAD(read_exit_wq);

/* A kthread that does one read on its way out (readers racing with task exit). */
static int rcu_torture_read_exit_child(void *trsp_in)
{
	set_user_nice(current, 19);
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	(void)rcu_torture_one_read(trsp_in, -1);
	return 0;
}

static int rcu_torture_read_exit(void *unused)
{
	DEFINE_TORTURE_RANDOM(trs);
	struct task_struct *tsp;
	int count = 0;

	set_user_nice(current, 19);
	VERBOSE_TOROUT_STRING("rcu_torture_read_exit: Start of test");
	do {
		if (++count > read_exit_burst) {
			VERBOSE_TOROUT_STRING("rcu_torture_read_exit: End of episode");
			rcu_barrier();
			for (int i = 0; i < read_exit_delay; i++) {
				schedule_timeout_uninterruptible(HZ);
				if (READ_ONCE(read_exit_child_stop))
					break;
			}
			if (!READ_ONCE(read_exit_child_stop))
				VERBOSE_TOROUT_STRING("rcu_torture_read_exit: Start of episode");
			count = 0;
		}
		if (READ_ONCE(read_exit_child_stop))
			break;
		tsp = kthread_run(rcu_torture_read_exit_child, &trs, "rcu_torture_read_exit_child");
		if (!tsp) {
			VERBOSE_TOROUT_ERRSTRING("out of memory");
			break;
		}
		cond_resched();
		kthread_stop(tsp);
		WRITE_ONCE(n_read_exits, n_read_exits + 1);
		stutter_wait("rcu_torture_read_exit");
	} while (!READ_ONCE(read_exit_child_stop));
	smp_store_release(&read_exit_child_stopped, true);
	wake_up(&read_exit_wq);
	while (!torture_must_stop())
		schedule_timeout_uninterruptible(1);
	torture_kthread_stopping("rcu_torture_read_exit");
	return 0;
}

static int rcu_torture_read_exit_init(void)
{
	if (read_exit_burst <= 0)
		return 0;
	read_exit_child_stop = false;
	read_exit_child_stopped = false;
	return torture_create_kthread(rcu_torture_read_exit, NULL, read_exit_task);
}

static void rcu_torture_read_exit_cleanup(void)
{
	if (!read_exit_task)
		return;
	WRITE_ONCE(read_exit_child_stop, true);
	smp_mb();
	wait_event(read_exit_wq, smp_load_acquire(&read_exit_child_stopped));
	torture_stop_kthread(rcu_torture_read_exit, read_exit_task);
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
	rcu_torture_read_exit_cleanup();
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
	if (boost_tested)
		rcu_torture_boost_summary();
	failed = atomic_read(&n_rcu_torture_error) || n_rcu_torture_barrier_error ||
		 n_rcu_torture_boost_failure;
	rcu_torture_print_module_parms(cur_ops, failed ? "End of test: FAILURE" :
						       "End of test: SUCCESS");
	if (failed)
		kernel_note_test_failure();	/* the power-off exit status says so */
	torture_cleanup_end();
}

static void rcu_test_debug_objects(void)
{
	pr_alert("%s: !CONFIG_DEBUG_OBJECTS_RCU_HEAD, not testing duplicate call_rcu()\n",
		 KBUILD_MODNAME);
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
	for (i = 0; i < (long)ARRAY_SIZE(torture_ops); i++) {
		if (!strcmp(torture_type, torture_ops[i]->name)) {
			cur_ops = torture_ops[i];
			break;
		}
	}
	if (!cur_ops) {
		char buf[128];
		int n = 0;

		pr_alert("rcu-torture: invalid torture type: \"%s\"\n", torture_type);
		for (i = 0; i < (long)ARRAY_SIZE(torture_ops); i++)
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
	rcu_torture_current = NULL;
	rcu_torture_current_version = 0;
	atomic_set(&n_rcu_torture_alloc, 0);
	atomic_set(&n_rcu_torture_alloc_fail, 0);
	atomic_set(&n_rcu_torture_free, 0);
	atomic_set(&n_rcu_torture_mberror, 0);
	atomic_set(&n_rcu_torture_mbchk_fail, 0);
	atomic_set(&n_rcu_torture_mbchk_tries, 0);
	atomic_set(&n_rcu_torture_error, 0);
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
		firsterr = torture_stutter_init(stutter * HZ, stutter * HZ);
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
	if (object_debug)
		rcu_test_debug_objects();
	torture_init_end();
	return 0;

unwind:
	torture_init_end();
	rcu_torture_cleanup();
	kernel_note_test_failure();	/* the test could not run: not a pass */
	if (shutdown_secs)
		kernel_power_off();
	return firsterr;
}
late_initcall(rcu_torture_init);
