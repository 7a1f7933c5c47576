/*
 * Tasks Rude RCU self-tests: the KTAP suite "rcu_tasks_rude", run after
 * the initcalls when the command line says rcutree.tasks_rude_selftest=1
 * (our own test-only parameter, beside rcutree.tasks_selftest;
 * CONFIG_RCU_TASKS_RUDE_SELFTEST, i.e. RCU_SELFTEST on a TASKS_RUDE_RCU
 * kernel).
 *
 * The reader is a kthread bound to the last CPU that disables preemption
 * (or interrupts) and spins for a while. The cases check that a
 * synchronize_rcu_tasks_rude() called on CPU 0 meanwhile returns only
 * after the region ended; that callbacks run once, and not before a
 * reader that was running when they were queued has ended; that
 * rcu_barrier_tasks_rude() waits for them; that a CPU taken offline while
 * a grace period waits for its reader neither hangs the grace period nor
 * lets it end early, and that the CPU, back online, is waited for again;
 * and, with a short rcupdate.rcu_task_stall_timeout, the stall warning.
 * The last case prints synchronize_rcu_tasks_rude() latencies as figures.
 *
 * Every wait is bounded. State a stuck thread may still touch is static,
 * one instance per case, so it is never freed under it.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include <rcu/tasks_rude.h>
#include <rcu/tasks.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <kernel/cpu.h>
#include <kernel/barrier.h>
#include <kernel/atomic.h>
#include <time/time.h>
#include <time/delay.h>

static bool rcu_tasks_rude_selftest;
KPARAM_BOOL("rcutree.tasks_rude_selftest", rcu_tasks_rude_selftest,
	    "run the Tasks Rude RCU self-tests (KTAP suite \"rcu_tasks_rude\") at boot");

#define RTR_WAIT_MS	10000	/* a grace period with no reader left, a thread's job */
#define RTR_HOLD_MS	300	/* how long a reader keeps preemption or interrupts off */
#define RTR_NCBS	32	/* callbacks per case */
#define RTR_NLAT	10	/* synchronize_rcu_tasks_rude() calls timed for the figure */

/* --- readers ---------------------------------------------------------------------------- */

struct rtr_reader {
	struct task_struct *t;
	unsigned int hold_ms;		/* spin this long at most */
	bool irqs;			/* interrupts off rather than preemption */
	bool stop;			/* the test says: end the region now */
	bool done;			/* set as the last access inside the region */
	struct completion started, stopped;
};

static int rtr_reader_fn(void *arg)
{
	struct rtr_reader *r = arg;
	unsigned long flags = 0;
	u64 t0;

	if (r->irqs)
		local_irq_save(flags);
	else
		preempt_disable();
	complete(&r->started);
	t0 = local_clock();
	while (!READ_ONCE(r->stop) && local_clock() - t0 < (u64)r->hold_ms * NSEC_PER_MSEC)
		cpu_relax();
	WRITE_ONCE(r->done, true);
	if (r->irqs)
		local_irq_restore(flags);
	else
		preempt_enable();
	complete(&r->stopped);
	ktest_wait_stop();
	return 0;
}

/* Start r on cpu and wait until it is inside its region; false (reported) if it never was. */
static bool rtr_reader_start(struct rtr_reader *r, unsigned int cpu, bool irqs, unsigned int hold_ms)
{
	init_completion(&r->started);
	init_completion(&r->stopped);
	r->hold_ms = hold_ms;
	r->irqs = irqs;
	r->stop = false;
	r->done = false;
	r->t = ktest_kthread(rtr_reader_fn, r, cpu, "rtr_reader/%u");
	if (!r->t)
		return false;
	wake_up_process(r->t);
	return KTAP_EXPECT_MSG(ktest_wait(&r->started, RTR_WAIT_MS), "reader never started");
}

/* End r's region (if not over) and stop its thread. */
static void rtr_reader_finish(struct rtr_reader *r)
{
	WRITE_ONCE(r->stop, true);
	KTAP_EXPECT_MSG(ktest_wait(&r->stopped, RTR_WAIT_MS), "reader never left its region");
	ktest_stop_if(r->t, READ_ONCE(r->done), RTR_WAIT_MS);
}

/* The cases with a reader need a CPU other than CPU 0, where the updater runs. */
static bool rtr_need_two_cpus(void)
{
	if (num_online_cpus() >= 2 && ktest_last_online_cpu() != 0)
		return true;
	ktap_skip("needs 2 CPUs");
	return false;
}

/* --- grace periods and hotplug operations in the background ------------------------- */

struct rtr_async {
	int (*fn)(void *arg);
	void *arg;
	struct task_struct *t;
	struct completion done;
	bool finished;			/* fn returned */
	int ret;
	u64 end_ns;			/* local_clock() when fn returned */
};

static int rtr_async_fn(void *arg)
{
	struct rtr_async *a = arg;

	a->ret = a->fn(a->arg);
	a->end_ns = local_clock();
	WRITE_ONCE(a->finished, true);
	complete(&a->done);
	ktest_wait_stop();
	return 0;
}

/* Run fn(arg) on CPU 0 in a kthread of its own. */
static bool rtr_async_start(struct rtr_async *a, int (*fn)(void *), void *arg, const char *name)
{
	a->fn = fn;
	a->arg = arg;
	a->finished = false;
	init_completion(&a->done);
	a->t = ktest_kthread(rtr_async_fn, a, 0, name);
	if (a->t)
		wake_up_process(a->t);
	return a->t != NULL;
}

static void rtr_async_finish(struct rtr_async *a)
{
	ktest_stop_if(a->t, READ_ONCE(a->finished), RTR_WAIT_MS);
}

static int rtr_sync_fn(void *unused)
{
	synchronize_rcu_tasks_rude();
	return 0;
}

static int rtr_cpu_down_fn(void *arg)
{
	return cpu_down((unsigned long)arg);
}

/*
 * synchronize_rcu_tasks_rude() on CPU 0 (in a helper, so a broken one
 * cannot hang the suite); true if it returned, *ms its duration.
 */
static bool rtr_sync(u64 *ns)
{
	return KTAP_EXPECT_MSG(ktest_call_timeout("rtr_sync", 0, rtr_sync_fn, NULL, RTR_WAIT_MS,
						  NULL, ns),
			       "synchronize_rcu_tasks_rude() did not return");
}

/* --- callbacks --------------------------------------------------------------------------- */

static struct rtr_cbs {
	struct rcu_head rh[RTR_NCBS];
	atomic_t invoked[RTR_NCBS];
	atomic_t n;
	struct rtr_reader *reader;	/* its region must be over when a callback runs */
	atomic_t early;			/* callbacks that ran while it was not */
} rtr_cbs;

static void rtr_cb(struct rcu_head *rh)
{
	unsigned int i = rh - rtr_cbs.rh;

	if (rtr_cbs.reader && !READ_ONCE(rtr_cbs.reader->done))
		atomic_inc(&rtr_cbs.early);
	atomic_inc(&rtr_cbs.invoked[i]);
	atomic_inc(&rtr_cbs.n);
}

static void rtr_cbs_queue(struct rtr_reader *reader)
{
	rtr_cbs.reader = reader;
	atomic_set(&rtr_cbs.n, 0);
	atomic_set(&rtr_cbs.early, 0);
	for (int i = 0; i < RTR_NCBS; i++) {
		atomic_set(&rtr_cbs.invoked[i], 0);
		call_rcu_tasks_rude(&rtr_cbs.rh[i], rtr_cb);
	}
}

/* Every callback ran exactly once. */
static void rtr_cbs_check_once(void)
{
	int twice = 0;

	for (int i = 0; i < RTR_NCBS; i++)
		twice += atomic_read(&rtr_cbs.invoked[i]) > 1;
	KTAP_EXPECT_MSG(atomic_read(&rtr_cbs.n) == RTR_NCBS && !twice,
			"%d of %d callbacks invoked, %d more than once", atomic_read(&rtr_cbs.n),
			RTR_NCBS, twice);
}

/* --- the cases ------------------------------------------------------------------------ */

/*
 * The window: a region with preemption (irqs: interrupts) disabled on
 * the last CPU, begun before synchronize_rcu_tasks_rude() is called on
 * CPU 0, must be over when it returns.
 */
static void rtr_waits_for_region(bool irqs)
{
	static struct rtr_reader rs[2];
	struct rtr_reader *r = &rs[irqs];
	u64 ns;

	if (!rtr_need_two_cpus() || !rtr_reader_start(r, ktest_last_online_cpu(), irqs, RTR_HOLD_MS))
		return;
	if (rtr_sync(&ns)) {
		KTAP_EXPECT_MSG(READ_ONCE(r->done),
				"synchronize_rcu_tasks_rude() returned after %llu ms, inside a region with %s off on CPU %u",
				ns / NSEC_PER_MSEC, irqs ? "interrupts" : "preemption", ktest_last_online_cpu());
		ktap_diag("grace period took %llu ms, reader held %s off for %u ms", ns / NSEC_PER_MSEC,
			  irqs ? "interrupts" : "preemption", RTR_HOLD_MS);
	}
	rtr_reader_finish(r);
}

static void rcu_tasks_rude_waits_for_preempt_off(void)
{
	rtr_waits_for_region(false);
}

static void rcu_tasks_rude_waits_for_irqs_off(void)
{
	rtr_waits_for_region(true);
}

/*
 * Callbacks queued while a reader runs on another CPU run once each, all
 * of them after its region (one CPU: no reader, they just run once).
 */
static void rcu_tasks_rude_callbacks_after_gp(void)
{
	static struct rtr_reader r;
	bool reader = num_online_cpus() >= 2 && ktest_last_online_cpu() != 0;
	unsigned long deadline;

	if (reader && !rtr_reader_start(&r, ktest_last_online_cpu(), false, RTR_HOLD_MS))
		return;
	rtr_cbs_queue(reader ? &r : NULL);
	deadline = jiffies + msecs_to_jiffies(RTR_WAIT_MS);
	while (atomic_read(&rtr_cbs.n) < RTR_NCBS && time_before(jiffies, deadline))
		msleep(5);
	rtr_cbs_check_once();
	KTAP_EXPECT_MSG(!atomic_read(&rtr_cbs.early), "%d callbacks ran inside the reader's region",
			atomic_read(&rtr_cbs.early));
	if (reader)
		rtr_reader_finish(&r);
	rtr_cbs.reader = NULL;
}

static int rtr_barrier_fn(void *unused)
{
	rcu_barrier_tasks_rude();
	return 0;
}

/* rcu_barrier_tasks_rude() returns only once every callback queued before it has run. */
static void rcu_tasks_rude_barrier_waits(void)
{
	static struct rtr_reader r;
	bool reader = num_online_cpus() >= 2 && ktest_last_online_cpu() != 0;

	if (reader && !rtr_reader_start(&r, ktest_last_online_cpu(), false, RTR_HOLD_MS))
		return;
	rtr_cbs_queue(reader ? &r : NULL);
	if (KTAP_EXPECT_MSG(ktest_call_timeout("rtr_barrier", 0, rtr_barrier_fn, NULL, RTR_WAIT_MS,
					       NULL, NULL),
			    "rcu_barrier_tasks_rude() did not return")) {
		rtr_cbs_check_once();
		KTAP_EXPECT_MSG(!reader || READ_ONCE(r.done), "the barrier returned inside the reader's region");
	}
	if (reader)
		rtr_reader_finish(&r);
	rtr_cbs.reader = NULL;
}

/*
 * CPU hotplug: the last CPU is taken down while a grace period waits for
 * a reader there. Neither may end before the reader (the grace period
 * holds cpus_read_lock(); the CPU cannot run its stopper inside the
 * region), and neither may hang. Then a grace period with the CPU
 * offline, and, once it is back, one that must wait for a reader on it.
 */
static void rcu_tasks_rude_hotplug_during_gp(void)
{
	static struct rtr_reader r, r2;
	static struct rtr_async gp, down;
	unsigned int cpu = ktest_last_online_cpu();
	u64 ns;
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU)) {
		ktap_skip("needs CONFIG_HOTPLUG_CPU");
		return;
	}
	if (!rtr_need_two_cpus() || !rtr_reader_start(&r, cpu, false, RTR_HOLD_MS))
		return;
	if (rtr_async_start(&gp, rtr_sync_fn, NULL, "rtr_gp")) {
		msleep(30);	/* the grace period is most likely waiting for CPU cpu by now */
		if (rtr_async_start(&down, rtr_cpu_down_fn, (void *)(unsigned long)cpu, "rtr_down")) {
			KTAP_EXPECT_MSG(ktest_wait(&down.done, RTR_WAIT_MS), "cpu_down(%u) did not return", cpu);
			KTAP_EXPECT_MSG(!READ_ONCE(down.finished) || down.ret == 0, "cpu_down(%u): %d", cpu,
					down.ret);
		}
		if (KTAP_EXPECT_MSG(ktest_wait(&gp.done, RTR_WAIT_MS),
				    "the grace period did not end across cpu_down(%u)", cpu))
			KTAP_EXPECT_MSG(READ_ONCE(r.done),
					"the grace period ended inside the reader's region on CPU %u", cpu);
	}
	rtr_reader_finish(&r);
	rtr_async_finish(&down);
	rtr_async_finish(&gp);
	if (cpu_online(cpu))
		return;		/* cpu_down failed: reported above */
	rtr_sync(&ns);		/* with the CPU offline */
	ret = cpu_up(cpu);
	if (!KTAP_EXPECT_MSG(ret == 0, "cpu_up(%u): %d", cpu, ret))
		return;
	/* Back online: a reader there holds the grace period again. */
	if (rtr_reader_start(&r2, cpu, false, RTR_HOLD_MS)) {
		if (rtr_sync(&ns))
			KTAP_EXPECT_MSG(READ_ONCE(r2.done),
					"CPU %u, back online, was not waited for (%llu ms)", cpu,
					ns / NSEC_PER_MSEC);
		rtr_reader_finish(&r2);
	}
}

/*
 * With a short rcupdate.rcu_task_stall_timeout, a reader that keeps
 * preemption off longer than it draws the stall warning at that timeout
 * (not before it, and before a second one would be due), and the grace
 * period still ends after it. The parameter is shared by every Tasks
 * flavor, so this holds without CONFIG_TASKS_RCU too (tests/boot/52-tasks-rcu.sh).
 */
static void rcu_tasks_rude_stall_warning(void)
{
	static struct rtr_reader r;
	static struct rtr_async gp;
	int rtst = rcu_tasks_stall_timeout();
	unsigned long n0 = rcu_tasks_rude_stall_warnings(), deadline, t0, dt;

	if (rtst <= 0 || rtst > 5 * HZ) {
		ktap_skip("needs rcupdate.rcu_task_stall_timeout=1..5 s in jiffies");
		return;
	}
	if (!rtr_need_two_cpus())
		return;
	/* Held until told, at most the timeout plus the wait: bounded either way. */
	if (!rtr_reader_start(&r, ktest_last_online_cpu(), false,
			      jiffies_to_msecs(rtst) + RTR_WAIT_MS))
		return;
	t0 = jiffies;	/* before the grace period starts, so before its stall timer is armed */
	if (rtr_async_start(&gp, rtr_sync_fn, NULL, "rtr_gp")) {
		deadline = jiffies + rtst + msecs_to_jiffies(RTR_WAIT_MS);
		while (rcu_tasks_rude_stall_warnings() == n0 && time_before(jiffies, deadline))
			msleep(20);
		dt = jiffies - t0;
		if (KTAP_EXPECT_MSG(rcu_tasks_rude_stall_warnings() > n0, "no stall warning")) {
			ktap_diag("stall warning %lu ms after the grace period was asked for (rcu_task_stall_timeout %lu ms)",
				  jiffies_to_msecs(dt), jiffies_to_msecs(rtst));
			KTAP_EXPECT_MSG(dt >= (unsigned long)rtst && dt < 2UL * rtst,
					"warned after %lu jiffies, not at the timeout of %d", dt, rtst);
		}
		KTAP_EXPECT_MSG(!READ_ONCE(gp.finished), "the grace period ended inside the region");
	}
	rtr_reader_finish(&r);
	if (gp.t)
		KTAP_EXPECT_MSG(ktest_wait(&gp.done, RTR_WAIT_MS),
				"the grace period did not end after the stall");
	rtr_async_finish(&gp);
}

/* Figures: synchronize_rcu_tasks_rude() on an idle system. */
static void rcu_tasks_rude_latency(void)
{
	u64 ns, sum = 0, max = 0;

	for (int i = 0; i < RTR_NLAT; i++) {
		if (!rtr_sync(&ns))
			return;
		sum += ns;
		max = ns > max ? ns : max;
	}
	ktap_diag("synchronize_rcu_tasks_rude() idle, %u CPUs: mean %llu us, max %llu us over %d calls",
		  num_online_cpus(), sum / RTR_NLAT / NSEC_PER_USEC, max / NSEC_PER_USEC, RTR_NLAT);
}

static const struct ktap_case rcu_tasks_rude_cases[] = {
	KTAP_CASE(rcu_tasks_rude_waits_for_preempt_off),
	KTAP_CASE(rcu_tasks_rude_waits_for_irqs_off),
	KTAP_CASE(rcu_tasks_rude_callbacks_after_gp),
	KTAP_CASE(rcu_tasks_rude_barrier_waits),
	KTAP_CASE(rcu_tasks_rude_hotplug_during_gp),
	KTAP_CASE(rcu_tasks_rude_stall_warning),
	KTAP_CASE(rcu_tasks_rude_latency),
};
KTAP_SUITE(rcu_tasks_rude, rcu_tasks_rude_cases, &rcu_tasks_rude_selftest);
