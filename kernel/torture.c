/*
 * Helpers shared by the torture tests (see <kernel/torture.h>): random
 * numbers, Linux's sub-jiffy sleeps, test-kthread bookkeeping, the
 * shuffler, stutter and the timed shutdown. Built when a torture test is
 * (CONFIG_TORTURE_TEST).
 */
#include <kernel/torture.h>
#include <kernel/torture_sleep.h>
#include <rcu/tasks.h>
#include <time/tick.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <mm/slab.h>
#include <kernel/errno.h>
#include <kernel/reboot.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <locking/mutex.h>

int torture_verbose;
const char *torture_type_name = "?";

/* DONTSTOP while running; STOP once cleanup has begun (from shutdown or a failed start). */
enum { FULLSTOP_DONTSTOP, FULLSTOP_STOP };
static int fullstop = FULLSTOP_DONTSTOP;
static DEFINE_MUTEX(fullstop_mutex);
static bool torture_running;

/* ===== random numbers ======================================================== */

/*
 * xorshift64*: a few instructions, good enough to pick delays and branches.
 * Seeded lazily from the clock and the state's address (so two threads
 * starting together differ), and reseeded every 10000 draws so that a
 * long run does not settle into one fixed interleaving.
 */
unsigned long torture_random(struct torture_random_state *trsp)
{
	u64 x = trsp->trs_state;

	if (--trsp->trs_count < 0 || !x) {
		x ^= local_clock() ^ ((u64)(unsigned long)trsp << 17);
		if (!x)
			x = 0x9e3779b97f4a7c15ULL;
		trsp->trs_count = 10000;
	}
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	trsp->trs_state = x;
	return (unsigned long)((x * 0x2545f4914f6cdd1dULL) >> 16);
}

/* ===== sleeps ================================================================ */

int torture_hrtimeout_ns(u64 baset_ns, u32 fuzzt_ns, struct torture_random_state *trsp)
{
	u64 want = baset_ns, now, boundary, first;
	unsigned long j, k;
	u32 r;

	if (trsp && fuzzt_ns)
		want += (torture_random(trsp) >> 3) % fuzzt_ns;
	j = jiffies;
	now = local_clock();
	/*
	 * A timeout of one jiffy runs at the tick that takes jiffies past j, the
	 * clock's next boundary after j's (plus this CPU's skew_tick offset: it
	 * is this CPU's tick that runs the timer). If jiffies lags the clock, that
	 * tick is due at once.
	 */
	boundary = tick_jiffies_to_clock(j + 1) + tick_skew_offset();
	first = boundary > now ? boundary - now : 1;
	r = trsp ? (u32)torture_random(trsp) : (u32)(now * 0x9e3779b97f4a7c15ULL >> 32);
	k = torture_sleep_ticks(want, first, TICK_NSEC, r);
	if (!k) {
		cond_resched();
		return 0;
	}
	schedule_timeout_uninterruptible((long)k);
	return 0;
}

int torture_hrtimeout_us(u32 baset_us, u32 fuzzt_ns, struct torture_random_state *trsp)
{
	return torture_hrtimeout_ns((u64)baset_us * NSEC_PER_USEC, fuzzt_ns, trsp);
}

/* As Linux's: baset_j jiffies plus up to one more, at random. */
int torture_hrtimeout_jiffies(u32 baset_j, struct torture_random_state *trsp)
{
	return torture_hrtimeout_ns((u64)baset_j * TICK_NSEC, TICK_NSEC, trsp);
}

/* ===== test lifetime ========================================================= */

bool torture_init_begin(const char *ttype, int verbose)
{
	mutex_lock(&fullstop_mutex);
	if (torture_running) {
		pr_alert("torture_init_begin: Refusing %s init: %s running.\n",
			 ttype, torture_type_name);
		mutex_unlock(&fullstop_mutex);
		return false;
	}
	torture_running = true;
	torture_type_name = ttype;
	torture_verbose = verbose;
	WRITE_ONCE(fullstop, FULLSTOP_DONTSTOP);
	return true;	/* fullstop_mutex stays held until torture_init_end() */
}

void torture_init_end(void)
{
	mutex_unlock(&fullstop_mutex);
}

int torture_init_abort(void (*cleanup)(void), int err, bool power_off)
{
	torture_init_end();
	cleanup();
	kernel_note_test_failure();	/* the test could not run: not a pass */
	if (power_off)
		kernel_power_off();
	return err;
}

bool torture_cleanup_begin(void)
{
	mutex_lock(&fullstop_mutex);
	if (READ_ONCE(fullstop) != FULLSTOP_DONTSTOP) {
		mutex_unlock(&fullstop_mutex);
		return true;
	}
	WRITE_ONCE(fullstop, FULLSTOP_STOP);
	mutex_unlock(&fullstop_mutex);
	return false;
}

static void torture_shuffle_cleanup(void);
static void torture_stutter_cleanup(void);
static void torture_shutdown_cleanup(void);

void torture_cleanup_end(void)
{
	torture_shutdown_cleanup();
	torture_shuffle_cleanup();
	torture_stutter_cleanup();
	mutex_lock(&fullstop_mutex);
	torture_running = false;
	mutex_unlock(&fullstop_mutex);
}

bool torture_must_stop_irq(void)
{
	return READ_ONCE(fullstop) != FULLSTOP_DONTSTOP;
}

bool torture_must_stop(void)
{
	return torture_must_stop_irq() || kthread_should_stop();
}

void torture_kthread_stopping(const char *title)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s is stopping", title);
	VERBOSE_TOROUT_STRING(buf);
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
}

/* ===== kthreads and the shuffler ============================================== */

/*
 * The shuffler's list of test kthreads: a fixed array is plenty (readers,
 * fake writers and helpers of one test), and needs no allocation.
 */
#define TORTURE_MAX_SHUFFLE	256
static struct task_struct *shuffle_tasks[TORTURE_MAX_SHUFFLE];
static int n_shuffle_tasks;
static DEFINE_MUTEX(shuffle_task_mutex);
static struct task_struct *shuffler_task;
static long shuffle_interval;	/* jiffies */
static int shuffle_idle_cpu = -1;	/* the CPU kept free of test kthreads, -1: none */
static unsigned long n_shuffles;

void torture_shuffle_task_register(struct task_struct *tp)
{
	mutex_lock(&shuffle_task_mutex);
	if (n_shuffle_tasks < TORTURE_MAX_SHUFFLE)
		shuffle_tasks[n_shuffle_tasks++] = tp;
	mutex_unlock(&shuffle_task_mutex);
}

static void torture_shuffle_task_unregister(struct task_struct *tp)
{
	mutex_lock(&shuffle_task_mutex);
	for (int i = 0; i < n_shuffle_tasks; i++) {
		if (shuffle_tasks[i] == tp) {
			shuffle_tasks[i] = shuffle_tasks[--n_shuffle_tasks];
			break;
		}
	}
	mutex_unlock(&shuffle_task_mutex);
}

int _torture_create_kthread(int (*fn)(void *arg), void *arg, const char *s,
			    const char *m, const char *f, struct task_struct **tp)
{
	VERBOSE_TOROUT_STRING(m);
	*tp = kthread_create(fn, arg, "%s", s);
	if (!*tp) {
		TOROUT_ERRSTRING(f);
		return -ENOMEM;
	}
	torture_shuffle_task_register(*tp);
	wake_up_process(*tp);
	return 0;
}

void _torture_stop_kthread(const char *m, struct task_struct **tp)
{
	if (!*tp)
		return;
	VERBOSE_TOROUT_STRING(m);
	torture_shuffle_task_unregister(*tp);
	kthread_stop(*tp);
	*tp = NULL;
}

/*
 * One shuffle: pick the next online CPU to keep idle (with one extra step
 * per round where no CPU is kept idle), and confine every test kthread to
 * the others. The idle CPU can then enter dyntick-idle while the test runs,
 * which is what test_no_idle_hz asks to exercise.
 */
static void torture_shuffle_tasks(void)
{
	struct cpumask mask;

	if (num_online_cpus() <= 1)
		return;
	cpumask_copy(&mask, cpu_online_mask);
	shuffle_idle_cpu = cpumask_next(shuffle_idle_cpu, &mask);
	if (shuffle_idle_cpu >= (int)nr_cpu_ids)
		shuffle_idle_cpu = -1;
	else
		cpumask_clear_cpu(shuffle_idle_cpu, &mask);
	mutex_lock(&shuffle_task_mutex);
	for (int i = 0; i < n_shuffle_tasks; i++)
		set_cpus_allowed_ptr(shuffle_tasks[i], &mask);
	mutex_unlock(&shuffle_task_mutex);
	set_cpus_allowed_ptr(current, &mask);
	n_shuffles++;
}

static int torture_shuffle(void *arg)
{
	VERBOSE_TOROUT_STRING("torture_shuffle task started");
	do {
		schedule_timeout_interruptible(shuffle_interval);
		if (!torture_must_stop())
			torture_shuffle_tasks();
	} while (!torture_must_stop());
	torture_kthread_stopping("torture_shuffle");
	return 0;
}

int torture_shuffle_init(long shuffint)
{
	shuffle_interval = shuffint > 0 ? shuffint : 1;
	shuffle_idle_cpu = -1;
	return torture_create_kthread(torture_shuffle, NULL, shuffler_task);
}

unsigned long torture_shuffle_count(void)
{
	return READ_ONCE(n_shuffles);
}

static void torture_shuffle_cleanup(void)
{
	torture_stop_kthread(torture_shuffle, shuffler_task);
	mutex_lock(&shuffle_task_mutex);
	n_shuffle_tasks = 0;
	mutex_unlock(&shuffle_task_mutex);
}

/* ===== stutter =============================================================== */

static struct task_struct *stutter_task;
static bool stutter_pause_test;
static unsigned long stutter_resume_at;	/* jiffies when the current pause ends */
static int stutter_run, stutter_pause;	/* jiffies */
static unsigned long n_stutter_pauses;

/*
 * Sleep out a pause, if one is on. Test kthreads call this between
 * iterations; while paused every CPU can go idle, so the test also covers
 * CPUs entering and leaving dyntick-idle with work queued. Also a
 * reschedule point for the non-preemptible kernel and, as Linux's, a Tasks
 * RCU quiescent state (cond_resched_tasks_rcu_qs()): without it a reader
 * that never sleeps holds Tasks RCU up when CONFIG_FORCE_TASKS_RCU builds
 * it into a non-preemptible kernel (TASKS02).
 */
bool stutter_wait(const char *title)
{
	bool waited = false;

	(void)title;
	cond_resched_tasks_rcu_qs();
	while (READ_ONCE(stutter_pause_test) && !torture_must_stop()) {
		long left = (long)(READ_ONCE(stutter_resume_at) - jiffies);

		waited = true;
		schedule_timeout_interruptible(left > 0 ? left : 1);
	}
	return waited;
}

static int torture_stutter(void *arg)
{
	VERBOSE_TOROUT_STRING("torture_stutter task started");
	/* As Linux's: pause first, then run, and so on. */
	do {
		WRITE_ONCE(stutter_resume_at, jiffies + stutter_pause);
		smp_store_release(&stutter_pause_test, true);
		WRITE_ONCE(n_stutter_pauses, n_stutter_pauses + 1);
		schedule_timeout_interruptible(stutter_pause);
		WRITE_ONCE(stutter_pause_test, false);
		/*
		 * Count the end too: an interval that saw only the end of a pause
		 * (it began just before the interval) was paused, not stuck.
		 */
		WRITE_ONCE(n_stutter_pauses, n_stutter_pauses + 1);
		if (torture_must_stop())
			break;
		schedule_timeout_interruptible(stutter_run);
	} while (!torture_must_stop());
	WRITE_ONCE(stutter_pause_test, false);
	torture_kthread_stopping("torture_stutter");
	return 0;
}

int torture_stutter_init(int s, int sgap)
{
	stutter_pause = s > 0 ? s : 1;
	stutter_run = sgap > 0 ? sgap : 1;
	return torture_create_kthread(torture_stutter, NULL, stutter_task);
}

unsigned long torture_stutter_pauses(void)
{
	return READ_ONCE(n_stutter_pauses);
}

static void torture_stutter_cleanup(void)
{
	torture_stop_kthread(torture_stutter, stutter_task);
	WRITE_ONCE(stutter_pause_test, false);
}

/* ===== timed shutdown ========================================================== */

static struct task_struct *shutdown_task;
static u64 shutdown_at_ns;
static void (*torture_shutdown_hook)(void);

/*
 * Sleep until the deadline, then tear the test down (which prints the
 * verdict and flags a failure for the exit status) and power off. The
 * deadline is on local_clock(), so it holds however the jiffies run.
 */
static int torture_shutdown(void *arg)
{
	VERBOSE_TOROUT_STRING("torture_shutdown task started");
	for (;;) {
		u64 now = local_clock();

		if (now >= shutdown_at_ns || kthread_should_stop())
			break;
		schedule_timeout_interruptible(
			msecs_to_jiffies((shutdown_at_ns - now) / NSEC_PER_MSEC + 1));
	}
	if (kthread_should_stop())
		return 0;	/* the test was torn down some other way */
	VERBOSE_TOROUT_STRING("torture_shutdown task shutting down system");
	shutdown_task = NULL;	/* the cleanup must not try to stop us */
	if (torture_shutdown_hook)
		torture_shutdown_hook();
	else
		VERBOSE_TOROUT_STRING("No torture_shutdown_hook(), skipping.");
	kernel_power_off();
}

int torture_shutdown_init(int ssecs, void (*cleanup)(void))
{
	torture_shutdown_hook = cleanup;
	if (ssecs <= 0)
		return 0;
	shutdown_at_ns = local_clock() + (u64)ssecs * NSEC_PER_SEC;
	return torture_create_kthread(torture_shutdown, NULL, shutdown_task);
}

/* A teardown not started by the shutdown kthread (a failed start) stops it too. */
static void torture_shutdown_cleanup(void)
{
	if (shutdown_task && shutdown_task != current)
		torture_stop_kthread(torture_shutdown, shutdown_task);
}
