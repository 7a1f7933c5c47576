/*
 * Scheduler self-tests: the KTAP suite "sched", run at boot when the
 * command line says sched.selftest=1. It exercises what RCU relies on:
 * per-CPU kthreads, FIFO priorities and preemption, sleeping and timers,
 * wait queues and completions, mutexes, rt_mutex priority inheritance,
 * migration, and kthread park/stop.
 *
 * Every wait is bounded: a case that does not see what it expects within
 * its budget reports a failure and moves on, never hangs the boot. Threads
 * a failed case abandons stay alive (they are leaked, not freed), which is
 * why everything they touch lives in static storage, or in memory that is
 * freed by whichever side finishes last (ktest_call_timeout()).
 *
 * Thread functions follow one shape: do the work, signal a completion,
 * then wait in ktest_wait_stop() until kthread_stop() (threads never exit on
 * their own, so kthread_stop() never sees a freed task).
 */
#define KPARAM_SUBSYS "sched"
#include "../sched.h"
#include <sched/kthread.h>
#include <sched/completion.h>
#include <sched/mutex.h>
#include <sched/wait.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/tick.h>
#include <kernel/timer.h>
#include <kernel/delay.h>
#include <kernel/atomic.h>
#include <kernel/slab.h>
#include <kernel/errno.h>
#include <kernel/preempt.h>
#include <kernel/string.h>

static bool sched_selftest;
KPARAM_BOOL("sched.selftest", sched_selftest,
	    "run the scheduler self-tests (KTAP suite \"sched\") at boot");

/* Budgets. Generous: QEMU's TCG runs a guest CPU 10-50x slower than hardware. */
#define ST_START_MS	2000	/* a woken thread reports in */
#define ST_STOP_MS	2000	/* kthread_stop()/kthread_park() return */
#define ST_SPIN_NS	(1000 * NSEC_PER_MSEC)	/* longest busy loop */
#define ST_LATENCY_NS	(10 * NSEC_PER_MSEC)	/* "runs within a few ms" */
#define ST_SLEEP_SLACK_MS 50	/* msleep() may overrun this much under TCG */

/* --- helpers ---------------------------------------------------------------- */

static int st_set_fifo(struct task_struct *p, int rt_priority)
{
	struct sched_param sp = { .sched_priority = rt_priority };

	return sched_setscheduler_nocheck(p, SCHED_FIFO, &sp);
}

static void st_cpumask_one(struct cpumask *m, unsigned int cpu)
{
	cpumask_clear(m);
	cpumask_set_cpu(cpu, m);
}

static int st_do_stop(void *p) { return kthread_stop(p); }
static int st_do_park(void *p) { return kthread_park(p); }

/* kthread_stop(p) within ST_STOP_MS; returns false (and reports) if it hangs. */
static bool st_stop(struct task_struct *p, int *ret)
{
	char name[TASK_COMM_LEN];
	bool ok;

	memcpy(name, p->comm, sizeof(name));	/* p may be gone once stopped */
	ok = ktest_call_timeout("st_call", -1, st_do_stop, p, ST_STOP_MS, ret, NULL);
	KTAP_EXPECT_MSG(ok, "kthread_stop(%s) did not return within %u ms", name, ST_STOP_MS);
	return ok;
}

/* Stop threads that reported done; leave the others running (they are stuck). */
static void st_stop_if(struct task_struct *p, bool reported)
{
	if (p && reported)
		st_stop(p, NULL);
	else if (p)
		ktap_diag("leaving %s behind: it never reported", p->comm);
}

/* Poll cond every millisecond for at most ms; true once it holds. */
#define st_poll(cond, ms) ({							\
	u64 __end = local_clock() + (u64)(ms) * NSEC_PER_MSEC;			\
	bool __ok;								\
	while (!(__ok = (cond)) && local_clock() < __end)			\
		msleep(1);							\
	__ok; })

/* --- kthreads on every CPU ------------------------------------------------------ */

static struct st_percpu_slot {
	struct task_struct *p;
	int seen_cpu;
	struct completion ran;
} st_slots[NR_CPUS];

static int st_percpu_fn(void *data)
{
	struct st_percpu_slot *s = data;
	unsigned int cpu = s - st_slots;

	WRITE_ONCE(s->seen_cpu, smp_processor_id());
	complete(&s->ran);
	ktest_wait_stop();
	return 1000 + cpu;
}

static void sched_kthread_every_cpu(void)
{
	unsigned int cpu, n = 0;

	for_each_online_cpu(cpu) {
		struct st_percpu_slot *s = &st_slots[cpu];

		s->seen_cpu = -1;
		init_completion(&s->ran);
		s->p = ktest_kthread(st_percpu_fn, s, cpu, "st_cpu/%u");
		if (s->p)
			wake_up_process(s->p);
	}
	for_each_online_cpu(cpu) {
		struct st_percpu_slot *s = &st_slots[cpu];
		bool ran;
		int ret = 0;

		if (!s->p)
			continue;
		ran = ktest_wait(&s->ran, ST_START_MS);
		KTAP_EXPECT_MSG(ran, "kthread bound to CPU %u never ran", cpu);
		KTAP_EXPECT_MSG(!ran || s->seen_cpu == (int)cpu,
				"kthread bound to CPU %u ran on CPU %d", cpu, s->seen_cpu);
		if (ran && st_stop(s->p, &ret)) {
			KTAP_EXPECT_MSG(ret == (int)(1000 + cpu),
					"kthread_stop() returned %d, expected %u", ret, 1000 + cpu);
			n++;
		} else if (!ran) {
			st_stop_if(s->p, false);
		}
	}
	ktap_diag("%u of %u CPUs ran their bound kthread", n, num_online_cpus());
}

/* --- FIFO preempts a busy SCHED_NORMAL task ---------------------------------------- */

static struct {
	struct completion spinner_started, spinner_done, fifo_ran;
	struct timer_list timer;
	struct task_struct *fifo;
	u64 t_wake, t_run;
	bool ran, spinner_finished, spinner_finished_first;
	int fifo_cpu;
} st_pre;

static int st_pre_spinner(void *unused)
{
	u64 start = local_clock();

	complete(&st_pre.spinner_started);
	/* Never blocks; only cond_resched() under PREEMPT_NONE lets the FIFO task in. */
	while (!READ_ONCE(st_pre.ran) && local_clock() - start < ST_SPIN_NS) {
		cpu_relax();
		if (!IS_ENABLED(CONFIG_PREEMPTION))
			cond_resched();
	}
	WRITE_ONCE(st_pre.spinner_finished, true);
	complete(&st_pre.spinner_done);
	ktest_wait_stop();
	return 0;
}

static int st_pre_fifo(void *unused)
{
	WRITE_ONCE(st_pre.t_run, local_clock());
	st_pre.fifo_cpu = smp_processor_id();
	st_pre.spinner_finished_first = READ_ONCE(st_pre.spinner_finished);
	WRITE_ONCE(st_pre.ran, true);
	complete(&st_pre.fifo_ran);
	ktest_wait_stop();
	return 0;
}

/* Timer on the spinner's CPU: the wakeup happens right under the spinner. */
static void st_pre_timer_fn(struct timer_list *t)
{
	WRITE_ONCE(st_pre.t_wake, local_clock());
	wake_up_process(st_pre.fifo);
}

/*
 * One attempt: the wakeup latency in *lat; false if something other than
 * the latency went wrong (reported here, and its threads may be left behind).
 */
static bool st_fifo_preempt_once(unsigned int cpu, u64 *lat)
{
	struct task_struct *spinner, *fifo;
	bool started, ran, done, ok;

	init_completion(&st_pre.spinner_started);
	init_completion(&st_pre.spinner_done);
	init_completion(&st_pre.fifo_ran);
	st_pre.ran = st_pre.spinner_finished = false;
	spinner = ktest_kthread(st_pre_spinner, NULL, cpu, "st_spin/%u");
	fifo = ktest_kthread(st_pre_fifo, NULL, cpu, "st_fifo/%u");
	if (!spinner || !fifo)
		return false;	/* leaks the TASK_NEW one: harmless */
	KTAP_EXPECT(st_set_fifo(fifo, 10) == 0);
	KTAP_EXPECT(fifo->prio == MAX_RT_PRIO - 1 - 10);
	st_pre.fifo = fifo;
	wake_up_process(spinner);
	started = ktest_wait(&st_pre.spinner_started, ST_START_MS);
	KTAP_EXPECT_MSG(started, "spinner on CPU %u never started", cpu);
	if (!started)
		return false;
	timer_setup(&st_pre.timer, st_pre_timer_fn, 0);
	st_pre.timer.expires = jiffies + msecs_to_jiffies(5);
	add_timer_on(&st_pre.timer, cpu);
	ran = ktest_wait(&st_pre.fifo_ran, ST_START_MS);
	done = ktest_wait(&st_pre.spinner_done, ST_START_MS);
	KTAP_EXPECT_MSG(ran, "FIFO task never ran on CPU %u", cpu);
	KTAP_EXPECT_MSG(done, "spinner never finished");
	ok = ran && done;
	if (ran) {
		ok &= KTAP_EXPECT_MSG(!st_pre.spinner_finished_first,
				      "FIFO task waited for the SCHED_NORMAL spinner to finish");
		ok &= KTAP_EXPECT(st_pre.fifo_cpu == (int)cpu);
		*lat = st_pre.t_run - st_pre.t_wake;
		ktap_diag("CPU %u: FIFO 10 ran %llu us after its wakeup, a NORMAL task busy (%s)",
			  cpu, *lat / NSEC_PER_USEC,
			  IS_ENABLED(CONFIG_PREEMPTION) ? "PREEMPT" : "PREEMPT_NONE, cond_resched");
	}
	del_timer_sync(&st_pre.timer);
	st_stop_if(fifo, ran);
	st_stop_if(spinner, done);
	return ok;
}

/*
 * The latency is measured in host time: under QEMU a host hiccup can add
 * tens of ms, so the best of three attempts must be within ST_LATENCY_NS.
 */
static void sched_fifo_preempt(void)
{
	unsigned int cpu = ktest_last_online_cpu();
	u64 lat = ~0ULL, best = ~0ULL;

	for (int attempt = 0; attempt < 3 && best >= ST_LATENCY_NS; attempt++) {
		if (!st_fifo_preempt_once(cpu, &lat))
			return;
		best = min(best, lat);
	}
	KTAP_EXPECT_MSG(best < ST_LATENCY_NS, "FIFO task ran %llu us after its wakeup at best",
			best / NSEC_PER_USEC);
}

/* --- run order among queued tasks of different priority ----------------------------- */

#define ST_ORD_TASKS 3
static struct {
	struct task_struct *blocker, *waker, *t[ST_ORD_TASKS];
	struct completion blocker_started, all_queued, ran[ST_ORD_TASKS];
	atomic_t seq;
	int order[ST_ORD_TASKS];
	bool early[ST_ORD_TASKS];
	bool released, queued, blocker_timed_out;
} st_ord;

/* Queued in index order; expected to run as 2 (FIFO 30), 0 (FIFO 10), 1 (NORMAL). */
static const int st_ord_prio[ST_ORD_TASKS] = { 10, 0, 30 };
static const int st_ord_expect[ST_ORD_TASKS] = { 1, 2, 0 };

static int st_ord_fn(void *data)
{
	int i = (long)data;

	st_ord.early[i] = !READ_ONCE(st_ord.released);
	st_ord.order[i] = atomic_inc_return(&st_ord.seq) - 1;
	complete(&st_ord.ran[i]);
	ktest_wait_stop();
	return 0;
}

static void st_ord_queue_all(void)
{
	for (int i = 0; i < ST_ORD_TASKS; i++)
		wake_up_process(st_ord.t[i]);
	WRITE_ONCE(st_ord.released, true);
	WRITE_ONCE(st_ord.queued, true);
	complete(&st_ord.all_queued);
}

/* FIFO 90 on the target CPU: keeps it busy until everyone is queued. */
static int st_ord_blocker(void *data)
{
	u64 start = local_clock();

	complete(&st_ord.blocker_started);
	if (!st_ord.waker)
		st_ord_queue_all();	/* one CPU: queue them from here */
	while (!READ_ONCE(st_ord.released)) {
		if (local_clock() - start > ST_SPIN_NS) {
			st_ord.blocker_timed_out = true;
			break;
		}
		cpu_relax();
		if (!IS_ENABLED(CONFIG_PREEMPTION))
			cond_resched();
	}
	ktest_wait_stop();
	return 0;
}

/* On another CPU: queue the tasks while the target CPU is busy. */
static int st_ord_waker(void *data)
{
	if (ktest_wait(&st_ord.blocker_started, ST_START_MS))
		st_ord_queue_all();
	ktest_wait_stop();
	return 0;
}

static void sched_fifo_order(void)
{
	unsigned int cpu = ktest_last_online_cpu(), other = cpumask_first(cpu_online_mask);
	bool ok = true, ran[ST_ORD_TASKS];

	memset(&st_ord, 0, sizeof(st_ord));
	init_completion(&st_ord.blocker_started);
	init_completion(&st_ord.all_queued);
	for (int i = 0; i < ST_ORD_TASKS; i++) {
		init_completion(&st_ord.ran[i]);
		st_ord.t[i] = ktest_kthread(st_ord_fn, (void *)(long)i, cpu, "st_ord/%u");
		ok &= st_ord.t[i] != NULL;
		if (st_ord.t[i] && st_ord_prio[i])
			KTAP_EXPECT(st_set_fifo(st_ord.t[i], st_ord_prio[i]) == 0);
	}
	st_ord.blocker = ktest_kthread(st_ord_blocker, NULL, cpu, "st_block/%u");
	ok &= st_ord.blocker != NULL;
	if (other != cpu) {
		st_ord.waker = ktest_kthread(st_ord_waker, NULL, other, "st_waker/%u");
		ok &= st_ord.waker != NULL;
	}
	if (!ok)
		return;
	KTAP_EXPECT(st_set_fifo(st_ord.blocker, 90) == 0);
	if (st_ord.waker)
		wake_up_process(st_ord.waker);
	wake_up_process(st_ord.blocker);
	KTAP_EXPECT_MSG(ktest_wait(&st_ord.all_queued, ST_START_MS), "tasks were never queued");
	for (int i = 0; i < ST_ORD_TASKS; i++) {
		ran[i] = ktest_wait(&st_ord.ran[i], ST_START_MS);
		KTAP_EXPECT_MSG(ran[i], "task %d (prio %d) never ran", i, st_ord_prio[i]);
	}
	KTAP_EXPECT_MSG(!st_ord.blocker_timed_out, "blocker was never released");
	for (int i = 0; i < ST_ORD_TASKS; i++) {
		if (!ran[i])
			continue;
		KTAP_EXPECT_MSG(!st_ord.early[i], "task %d ran while the FIFO 90 blocker spun", i);
		KTAP_EXPECT_MSG(st_ord.order[i] == st_ord_expect[i],
				"task %d (%s %d) ran in position %d, expected %d", i,
				st_ord_prio[i] ? "FIFO" : "NORMAL", st_ord_prio[i], st_ord.order[i],
				st_ord_expect[i]);
	}
	ktap_diag("CPU %u, queued from CPU %u: run order FIFO30 FIFO10 NORMAL = %d %d %d", cpu,
		  st_ord.waker ? other : cpu, st_ord.order[2], st_ord.order[0], st_ord.order[1]);
	for (int i = 0; i < ST_ORD_TASKS; i++)
		st_stop_if(st_ord.t[i], ran[i]);
	st_stop_if(st_ord.blocker, !st_ord.blocker_timed_out);
	if (st_ord.waker)
		st_stop_if(st_ord.waker, READ_ONCE(st_ord.queued));
}

/* --- sleeping ------------------------------------------------------------------- */

static void sched_msleep_accuracy(void)
{
	static const unsigned int ms[] = { 20, 20, 1, 5 };

	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		u64 t0 = local_clock(), dt;

		msleep(ms[i]);
		dt = local_clock() - t0;
		KTAP_EXPECT_MSG(dt >= ms[i] * NSEC_PER_MSEC, "msleep(%u) returned after %llu us",
				ms[i], dt / NSEC_PER_USEC);
		KTAP_EXPECT_MSG(dt < (ms[i] + ST_SLEEP_SLACK_MS) * NSEC_PER_MSEC,
				"msleep(%u) took %llu us", ms[i], dt / NSEC_PER_USEC);
		ktap_diag("msleep(%u) took %llu us", ms[i], dt / NSEC_PER_USEC);
	}
	{
		u64 t0 = local_clock(), dt;

		usleep_range(2000, 3000);
		dt = local_clock() - t0;
		KTAP_EXPECT_MSG(dt >= 2000 * NSEC_PER_USEC &&
				dt < (2 + ST_SLEEP_SLACK_MS) * NSEC_PER_MSEC,
				"usleep_range(2000, 3000) took %llu us", dt / NSEC_PER_USEC);
		ktap_diag("usleep_range(2000, 3000) took %llu us", dt / NSEC_PER_USEC);
	}
}

/* --- timers --------------------------------------------------------------------- */

static struct {
	struct timer_list timer;
	struct completion done;
	unsigned int count, target;
	unsigned long fired_at;
	int cpu;
} st_tmr;

static void st_tmr_once_fn(struct timer_list *t)
{
	WRITE_ONCE(st_tmr.count, st_tmr.count + 1);
	st_tmr.fired_at = jiffies;
	st_tmr.cpu = smp_processor_id();
	complete(&st_tmr.done);
}

static void st_tmr_rearm_fn(struct timer_list *t)
{
	unsigned int n = st_tmr.count + 1;

	WRITE_ONCE(st_tmr.count, n);
	if (n < st_tmr.target)
		mod_timer(t, jiffies + 1);
	else
		complete(&st_tmr.done);
}

static void sched_timer_once(void)
{
	unsigned long delay = msecs_to_jiffies(10), expires;
	unsigned long slack = msecs_to_jiffies(ST_SLEEP_SLACK_MS);
	bool fired;
	int cpu;

	memset(&st_tmr, 0, sizeof(st_tmr));
	init_completion(&st_tmr.done);
	timer_setup(&st_tmr.timer, st_tmr_once_fn, 0);
	preempt_disable();	/* know which CPU it is armed on */
	cpu = smp_processor_id();
	expires = jiffies + delay;
	KTAP_EXPECT(mod_timer(&st_tmr.timer, expires) == 0);
	preempt_enable();
	KTAP_EXPECT(timer_pending(&st_tmr.timer));
	fired = ktest_wait(&st_tmr.done, 1000);
	KTAP_EXPECT_MSG(fired, "timer armed for jiffy %lu never fired (jiffies now %lu)",
			expires, jiffies);
	if (!fired) {
		del_timer_sync(&st_tmr.timer);
		return;
	}
	KTAP_EXPECT_MSG(time_after_eq(st_tmr.fired_at, expires),
			"timer for jiffy %lu fired early at %lu", expires, st_tmr.fired_at);
	KTAP_EXPECT_MSG(time_before_eq(st_tmr.fired_at, expires + slack),
			"timer for jiffy %lu fired late at %lu", expires, st_tmr.fired_at);
	KTAP_EXPECT_MSG(st_tmr.cpu == cpu, "timer armed on CPU %d ran on CPU %d", cpu, st_tmr.cpu);
	ktap_diag("timer for jiffy +%lu fired at +%lu on CPU %d", delay,
		  st_tmr.fired_at - (expires - delay), st_tmr.cpu);
	msleep(3 * jiffies_to_msecs(delay));
	KTAP_EXPECT_MSG(READ_ONCE(st_tmr.count) == 1, "one-shot timer ran %u times", st_tmr.count);
	KTAP_EXPECT(!timer_pending(&st_tmr.timer));
	KTAP_EXPECT(del_timer_sync(&st_tmr.timer) == 0);
}

static void sched_timer_del_sync(void)
{
	unsigned long delay = msecs_to_jiffies(20);

	memset(&st_tmr, 0, sizeof(st_tmr));
	init_completion(&st_tmr.done);
	timer_setup(&st_tmr.timer, st_tmr_once_fn, 0);
	KTAP_EXPECT(mod_timer(&st_tmr.timer, jiffies + delay) == 0);
	/* Re-arming a pending timer reports that it was pending. */
	KTAP_EXPECT(mod_timer(&st_tmr.timer, jiffies + delay) == 1);
	KTAP_EXPECT(del_timer_sync(&st_tmr.timer) == 1);
	KTAP_EXPECT(!timer_pending(&st_tmr.timer));
	msleep(2 * jiffies_to_msecs(delay) + 10);
	KTAP_EXPECT_MSG(READ_ONCE(st_tmr.count) == 0, "deleted timer ran %u times", st_tmr.count);
	KTAP_EXPECT(del_timer(&st_tmr.timer) == 0);
}

static void sched_timer_rearm(void)
{
	bool done;

	memset(&st_tmr, 0, sizeof(st_tmr));
	init_completion(&st_tmr.done);
	st_tmr.target = 10;
	timer_setup(&st_tmr.timer, st_tmr_rearm_fn, 0);
	mod_timer(&st_tmr.timer, jiffies + 1);
	done = ktest_wait(&st_tmr.done, 2000);
	KTAP_EXPECT_MSG(done, "re-arming timer ran %u of %u times", READ_ONCE(st_tmr.count),
			st_tmr.target);
	if (!done) {
		st_tmr.target = 0;	/* stop re-arming, then wait it out */
		del_timer_sync(&st_tmr.timer);
		del_timer_sync(&st_tmr.timer);
		return;
	}
	msleep(20);
	KTAP_EXPECT_MSG(READ_ONCE(st_tmr.count) == st_tmr.target,
			"re-arming timer ran %u times, expected %u", st_tmr.count, st_tmr.target);
	KTAP_EXPECT(!timer_pending(&st_tmr.timer));
}

/* --- wait_event_timeout ------------------------------------------------------------ */

static DECLARE_WAIT_QUEUE_HEAD(st_wq);
static bool st_wq_flag;
static struct timer_list st_wq_timer;

static void st_wq_timer_fn(struct timer_list *t)
{
	WRITE_ONCE(st_wq_flag, true);
	wake_up(&st_wq);
}

static void sched_wait_event_timeout(void)
{
	unsigned long to = msecs_to_jiffies(20);
	long ret;
	u64 t0, dt;

	WRITE_ONCE(st_wq_flag, false);
	t0 = local_clock();
	ret = wait_event_timeout(st_wq, READ_ONCE(st_wq_flag), to);
	dt = local_clock() - t0;
	KTAP_EXPECT_MSG(ret == 0, "timed-out wait returned %ld", ret);
	/* A jiffy timeout may begin mid-jiffy: at least (to - 1) whole ticks. */
	KTAP_EXPECT_MSG(dt >= (to - 1) * TICK_NSEC, "20 ms timeout returned after %llu us",
			dt / NSEC_PER_USEC);
	KTAP_EXPECT_MSG(dt < (20 + ST_SLEEP_SLACK_MS) * NSEC_PER_MSEC,
			"20 ms timeout took %llu us", dt / NSEC_PER_USEC);
	ktap_diag("wait_event_timeout(false, 20 ms) = %ld after %llu us", ret, dt / NSEC_PER_USEC);

	/* The condition becomes true (from a timer) before the timeout: > 0. */
	timer_setup(&st_wq_timer, st_wq_timer_fn, 0);
	mod_timer(&st_wq_timer, jiffies + msecs_to_jiffies(10));
	t0 = local_clock();
	ret = wait_event_timeout(st_wq, READ_ONCE(st_wq_flag), msecs_to_jiffies(2000));
	dt = local_clock() - t0;
	KTAP_EXPECT_MSG(ret > 0, "wait for a condition set after 10 ms returned %ld", ret);
	KTAP_EXPECT(READ_ONCE(st_wq_flag));
	KTAP_EXPECT_MSG(dt < 500 * NSEC_PER_MSEC, "woken after %llu us", dt / NSEC_PER_USEC);
	ktap_diag("wait_event_timeout(set after 10 ms, 2 s) = %ld after %llu us", ret,
		  dt / NSEC_PER_USEC);
	del_timer_sync(&st_wq_timer);

	/* Already true: returns at once, with a positive value even for timeout 0. */
	KTAP_EXPECT(wait_event_timeout(st_wq, true, 5) == 5);
	KTAP_EXPECT(wait_event_timeout(st_wq, true, 0) == 1);
}

/* --- completion ping-pong between two CPUs -------------------------------------------- */

#define ST_PP_ROUNDS 1000
static struct {
	struct completion ping, pong, done[2];
	unsigned int rounds[2];
} st_pp;

static int st_pp_fn(void *data)
{
	int side = (long)data;

	for (unsigned int i = 0; i < ST_PP_ROUNDS; i++) {
		if (side == 0) {
			complete(&st_pp.ping);
			if (!ktest_wait(&st_pp.pong, 1000))
				break;
		} else {
			if (!ktest_wait(&st_pp.ping, 1000))
				break;
			complete(&st_pp.pong);
		}
		st_pp.rounds[side]++;
	}
	complete(&st_pp.done[side]);
	ktest_wait_stop();
	return 0;
}

static void sched_completion_pingpong(void)
{
	unsigned int a = cpumask_first(cpu_online_mask), b = ktest_last_online_cpu();
	struct task_struct *p[2];
	bool done[2];
	u64 t0, dt;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	memset(&st_pp, 0, sizeof(st_pp));
	init_completion(&st_pp.ping);
	init_completion(&st_pp.pong);
	init_completion(&st_pp.done[0]);
	init_completion(&st_pp.done[1]);
	p[0] = ktest_kthread(st_pp_fn, (void *)0L, a, "st_ping/%u");
	p[1] = ktest_kthread(st_pp_fn, (void *)1L, b, "st_pong/%u");
	if (!p[0] || !p[1])
		return;
	t0 = local_clock();
	wake_up_process(p[1]);
	wake_up_process(p[0]);
	done[0] = ktest_wait(&st_pp.done[0], 20000);
	done[1] = ktest_wait(&st_pp.done[1], 2000);
	dt = local_clock() - t0;
	KTAP_EXPECT_MSG(done[0] && done[1], "ping-pong did not finish");
	KTAP_EXPECT_MSG(st_pp.rounds[0] == ST_PP_ROUNDS && st_pp.rounds[1] == ST_PP_ROUNDS,
			"rounds: CPU %u %u, CPU %u %u of %u", a, st_pp.rounds[0], b,
			st_pp.rounds[1], ST_PP_ROUNDS);
	ktap_diag("CPU %u <-> CPU %u: %u round trips in %llu ms (%llu us each)", a, b,
		  st_pp.rounds[0], dt / NSEC_PER_MSEC, dt / NSEC_PER_USEC / ST_PP_ROUNDS);
	st_stop_if(p[0], done[0]);
	st_stop_if(p[1], done[1]);
}

/* --- mutex: counter increments with a reschedule inside the critical section ------------ */

/*
 * Each thread increments 10000 times unless the deadline passes first: on
 * 2 CPUs under MTTCG on a busy host every handoff to the other CPU waits
 * for the host to run that vCPU thread, and 40000 handoffs have taken 3 to
 * 25 s. Past the deadline each thread stops at its next iteration; the
 * count must still be exact, and every thread must have made progress.
 */
#define ST_MUTEX_THREADS	4
#define ST_MUTEX_LOOPS		10000
#define ST_MUTEX_DEADLINE_NS	(10000 * NSEC_PER_MSEC)
#define ST_MUTEX_MIN_LOOPS	100
static DEFINE_MUTEX(st_mutex);
static struct {
	unsigned long counter;
	unsigned int loops[ST_MUTEX_THREADS];
	struct completion done[ST_MUTEX_THREADS];
	u64 deadline;
	bool overlap;
	int holder;
} st_mtx;

static int st_mutex_fn(void *data)
{
	int me = (long)data + 1;
	unsigned int i;

	for (i = 0; i < ST_MUTEX_LOOPS && local_clock() < st_mtx.deadline; i++) {
		unsigned long v;

		mutex_lock(&st_mutex);
		if (READ_ONCE(st_mtx.holder))
			st_mtx.overlap = true;
		WRITE_ONCE(st_mtx.holder, me);
		v = READ_ONCE(st_mtx.counter);
		cond_resched();
		WRITE_ONCE(st_mtx.counter, v + 1);
		if (READ_ONCE(st_mtx.holder) != me)
			st_mtx.overlap = true;
		WRITE_ONCE(st_mtx.holder, 0);
		mutex_unlock(&st_mutex);
	}
	st_mtx.loops[me - 1] = i;
	complete(&st_mtx.done[me - 1]);
	ktest_wait_stop();
	return 0;
}

static void sched_mutex_counter(void)
{
	struct task_struct *p[ST_MUTEX_THREADS];
	bool done[ST_MUTEX_THREADS];
	unsigned int ncpus = num_online_cpus(), cpu = cpumask_first(cpu_online_mask);
	unsigned long sum = 0;
	u64 t0, dt;

	memset(&st_mtx, 0, sizeof(st_mtx));
	mutex_init(&st_mutex);
	for (int i = 0; i < ST_MUTEX_THREADS; i++) {
		init_completion(&st_mtx.done[i]);
		/* Spread over the CPUs, several per CPU when there are few. */
		p[i] = ktest_kthread(st_mutex_fn, (void *)(long)i, cpu, "st_mutex/%u");
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	t0 = local_clock();
	st_mtx.deadline = t0 + ST_MUTEX_DEADLINE_NS;
	for (int i = 0; i < ST_MUTEX_THREADS; i++)
		if (p[i])
			wake_up_process(p[i]);
	for (int i = 0; i < ST_MUTEX_THREADS; i++) {
		done[i] = p[i] &&
			  ktest_wait(&st_mtx.done[i], ST_MUTEX_DEADLINE_NS / NSEC_PER_MSEC + 5000);
		KTAP_EXPECT_MSG(done[i], "mutex thread %d did not finish", i);
		if (done[i]) {
			sum += st_mtx.loops[i];
			KTAP_EXPECT_MSG(st_mtx.loops[i] >= ST_MUTEX_MIN_LOOPS,
					"mutex thread %d got the lock only %u times", i,
					st_mtx.loops[i]);
		}
	}
	dt = local_clock() - t0;
	KTAP_EXPECT_MSG(st_mtx.counter == sum, "counter %lu, expected %lu", st_mtx.counter, sum);
	KTAP_EXPECT_MSG(!st_mtx.overlap, "two threads were inside the mutex at once");
	KTAP_EXPECT(!mutex_is_locked(&st_mutex));
	KTAP_EXPECT(mutex_trylock(&st_mutex));
	KTAP_EXPECT(!mutex_trylock(&st_mutex));
	mutex_unlock(&st_mutex);
	ktap_diag("%d threads on %u CPUs: %lu locked increments in %llu ms%s", ST_MUTEX_THREADS,
		  min(ncpus, (unsigned int)ST_MUTEX_THREADS), st_mtx.counter, dt / NSEC_PER_MSEC,
		  sum < ST_MUTEX_THREADS * ST_MUTEX_LOOPS ? " (stopped at the deadline)" : "");
	for (int i = 0; i < ST_MUTEX_THREADS; i++)
		st_stop_if(p[i], done[i]);
}

/* --- rt_mutex priority inheritance ----------------------------------------------------- */

#define ST_PI_BOOST_PRIO	(MAX_RT_PRIO - 1 - 50)	/* FIFO 50 */

/*
 * One lock holder: takes `lock`, optionally then blocks on `then`, reports
 * `locked`, waits for `release`, unlocks in reverse order and records its
 * priority right after each unlock.
 */
struct st_pi_actor {
	struct rt_mutex *lock, *then;
	struct completion locked, release, done;
	int prio_after_unlock;
	bool got_then;
};

static int st_pi_actor_fn(void *data)
{
	struct st_pi_actor *a = data;

	rt_mutex_lock(a->lock);
	complete(&a->locked);
	if (a->then) {
		rt_mutex_lock(a->then);		/* blocks: someone holds it */
		a->got_then = true;
		rt_mutex_unlock(a->then);
	} else {
		ktest_wait(&a->release, 5000);	/* bounded even if the test gives up */
	}
	rt_mutex_unlock(a->lock);
	a->prio_after_unlock = current->prio;
	complete(&a->done);
	ktest_wait_stop();
	return 0;
}

static void st_pi_actor_init(struct st_pi_actor *a, struct rt_mutex *lock, struct rt_mutex *then)
{
	memset(a, 0, sizeof(*a));
	a->lock = lock;
	a->then = then;
	init_completion(&a->locked);
	init_completion(&a->release);
	init_completion(&a->done);
}

/* A waiter blocked in rt_mutex_lock() is on the lock's waiter list. */
static bool st_rt_mutex_has_waiters(struct rt_mutex *lock)
{
	return READ_ONCE(lock->waiters.next) != &lock->waiters;
}

static struct {
	struct rt_mutex l1, l2;
	struct st_pi_actor owner, mid, top;
} st_pi;

static void sched_rt_mutex_pi(void)
{
	struct task_struct *o, *w;
	bool locked, boosted, done_o, done_w;

	rt_mutex_init(&st_pi.l1);
	st_pi_actor_init(&st_pi.owner, &st_pi.l1, NULL);
	st_pi_actor_init(&st_pi.top, &st_pi.l1, NULL);
	complete(&st_pi.top.release);	/* the waiter unlocks as soon as it gets the lock */
	o = ktest_kthread(st_pi_actor_fn, &st_pi.owner, -1, "st_pi_owner");
	w = ktest_kthread(st_pi_actor_fn, &st_pi.top, -1, "st_pi_fifo50");
	if (!o || !w)
		return;
	KTAP_EXPECT(st_set_fifo(w, 50) == 0);
	wake_up_process(o);
	locked = ktest_wait(&st_pi.owner.locked, ST_START_MS);
	KTAP_EXPECT_MSG(locked, "owner never took the rt_mutex");
	if (!locked)
		return;
	KTAP_EXPECT(rt_mutex_owner(&st_pi.l1) == o);
	KTAP_EXPECT_MSG(o->prio == DEFAULT_PRIO, "owner prio %d before any waiter", o->prio);
	wake_up_process(w);
	boosted = st_poll(READ_ONCE(o->prio) == ST_PI_BOOST_PRIO, 1000);
	KTAP_EXPECT_MSG(boosted, "owner prio %d with a FIFO 50 waiter, expected %d (queued: %d)",
			READ_ONCE(o->prio), ST_PI_BOOST_PRIO, st_rt_mutex_has_waiters(&st_pi.l1));
	KTAP_EXPECT(!completion_done(&st_pi.top.locked));
	complete(&st_pi.owner.release);
	done_o = ktest_wait(&st_pi.owner.done, ST_START_MS);
	done_w = ktest_wait(&st_pi.top.done, ST_START_MS);
	KTAP_EXPECT_MSG(done_o, "owner did not unlock");
	KTAP_EXPECT_MSG(done_w, "FIFO 50 waiter never got the lock");
	if (done_o)
		KTAP_EXPECT_MSG(st_pi.owner.prio_after_unlock == DEFAULT_PRIO,
				"owner prio %d right after unlock, expected %d",
				st_pi.owner.prio_after_unlock, DEFAULT_PRIO);
	KTAP_EXPECT_MSG(READ_ONCE(o->prio) == DEFAULT_PRIO, "owner prio %d after unlock",
			READ_ONCE(o->prio));
	KTAP_EXPECT(READ_ONCE(w->prio) == ST_PI_BOOST_PRIO);
	KTAP_EXPECT(!rt_mutex_is_locked(&st_pi.l1));
	ktap_diag("owner prio 120 -> %d while FIFO 50 waited, %d after unlock",
		  boosted ? ST_PI_BOOST_PRIO : -1, st_pi.owner.prio_after_unlock);
	st_stop_if(o, done_o);
	st_stop_if(w, done_w);
}

/* A holds L1; B holds L2 and blocks on L1; FIFO 50 C blocks on L2: A runs at C's priority. */
static void sched_rt_mutex_pi_chain(void)
{
	struct task_struct *a, *b, *c;
	bool ok, boosted, done_a, done_b, done_c;

	rt_mutex_init(&st_pi.l1);
	rt_mutex_init(&st_pi.l2);
	st_pi_actor_init(&st_pi.owner, &st_pi.l1, NULL);
	st_pi_actor_init(&st_pi.mid, &st_pi.l2, &st_pi.l1);
	st_pi_actor_init(&st_pi.top, &st_pi.l2, NULL);
	complete(&st_pi.top.release);
	a = ktest_kthread(st_pi_actor_fn, &st_pi.owner, -1, "st_pi_a");
	b = ktest_kthread(st_pi_actor_fn, &st_pi.mid, -1, "st_pi_b");
	c = ktest_kthread(st_pi_actor_fn, &st_pi.top, -1, "st_pi_c");
	if (!a || !b || !c)
		return;
	KTAP_EXPECT(st_set_fifo(c, 50) == 0);
	wake_up_process(a);
	ok = ktest_wait(&st_pi.owner.locked, ST_START_MS);
	KTAP_EXPECT_MSG(ok, "A never took L1");
	if (!ok)
		return;
	wake_up_process(b);
	ok = ktest_wait(&st_pi.mid.locked, ST_START_MS) &&
	     st_poll(st_rt_mutex_has_waiters(&st_pi.l1), 1000);
	KTAP_EXPECT_MSG(ok, "B never blocked on L1");
	if (!ok) {
		complete(&st_pi.owner.release);
		return;
	}
	KTAP_EXPECT_MSG(a->prio == DEFAULT_PRIO, "A prio %d with a SCHED_NORMAL waiter", a->prio);
	wake_up_process(c);
	boosted = st_poll(READ_ONCE(a->prio) == ST_PI_BOOST_PRIO, 1000);
	KTAP_EXPECT_MSG(boosted, "A prio %d at the end of the chain, expected %d",
			READ_ONCE(a->prio), ST_PI_BOOST_PRIO);
	KTAP_EXPECT_MSG(READ_ONCE(b->prio) == ST_PI_BOOST_PRIO, "B prio %d, expected %d",
			READ_ONCE(b->prio), ST_PI_BOOST_PRIO);
	complete(&st_pi.owner.release);
	done_a = ktest_wait(&st_pi.owner.done, ST_START_MS);
	done_b = ktest_wait(&st_pi.mid.done, ST_START_MS);
	done_c = ktest_wait(&st_pi.top.done, ST_START_MS);
	KTAP_EXPECT_MSG(done_a && done_b && done_c, "chain did not unwind: A %d B %d C %d",
			done_a, done_b, done_c);
	KTAP_EXPECT(st_pi.mid.got_then);
	if (done_a)
		KTAP_EXPECT_MSG(st_pi.owner.prio_after_unlock == DEFAULT_PRIO,
				"A prio %d right after unlocking L1",
				st_pi.owner.prio_after_unlock);
	if (done_b)
		KTAP_EXPECT_MSG(st_pi.mid.prio_after_unlock == DEFAULT_PRIO,
				"B prio %d right after unlocking L2", st_pi.mid.prio_after_unlock);
	KTAP_EXPECT(READ_ONCE(a->prio) == DEFAULT_PRIO && READ_ONCE(b->prio) == DEFAULT_PRIO);
	KTAP_EXPECT(!rt_mutex_is_locked(&st_pi.l1) && !rt_mutex_is_locked(&st_pi.l2));
	ktap_diag("chain A<-B<-C(FIFO 50): A boosted to %d", boosted ? ST_PI_BOOST_PRIO : -1);
	st_stop_if(a, done_a);
	st_stop_if(b, done_b);
	st_stop_if(c, done_c);
}

/* --- migration ----------------------------------------------------------------------- */

static struct {
	struct completion started, go, done;
	int cpu_before, cpu_after;
	unsigned int target;
	bool self_move;
} st_mig;

/* Sleeps in `go` until moved (sleeping case), or moves itself. */
static int st_mig_sleeper(void *data)
{
	st_mig.cpu_before = smp_processor_id();
	if (st_mig.self_move) {
		struct cpumask m;

		st_cpumask_one(&m, st_mig.target);
		set_cpus_allowed_ptr(current, &m);
	} else {
		complete(&st_mig.started);
		ktest_wait(&st_mig.go, 5000);
	}
	st_mig.cpu_after = smp_processor_id();
	complete(&st_mig.done);
	ktest_wait_stop();
	return 0;
}

/* Busy until it finds itself on another CPU (bounded). */
static int st_mig_spinner(void *data)
{
	u64 start = local_clock();

	st_mig.cpu_before = smp_processor_id();
	complete(&st_mig.started);
	while (smp_processor_id() == st_mig.cpu_before && local_clock() - start < ST_SPIN_NS) {
		cpu_relax();
		if (!IS_ENABLED(CONFIG_PREEMPTION))
			cond_resched();
	}
	st_mig.cpu_after = smp_processor_id();
	complete(&st_mig.done);
	ktest_wait_stop();
	return 0;
}

/* how: 0 asleep, 1 running, 2 moves itself. */
static void st_migrate(int how)
{
	unsigned int from = cpumask_first(cpu_online_mask), to = ktest_last_online_cpu();
	struct task_struct *p;
	struct cpumask m;
	bool done;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	memset(&st_mig, 0, sizeof(st_mig));
	init_completion(&st_mig.started);
	init_completion(&st_mig.go);
	init_completion(&st_mig.done);
	st_mig.target = to;
	st_mig.self_move = how == 2;
	p = ktest_kthread(how == 1 ? st_mig_spinner : st_mig_sleeper, NULL, -1, "st_migrate");
	if (!p)
		return;
	st_cpumask_one(&m, from);
	KTAP_EXPECT(set_cpus_allowed_ptr(p, &m) == 0);
	wake_up_process(p);
	if (how != 2) {
		bool started = ktest_wait(&st_mig.started, ST_START_MS);

		KTAP_EXPECT_MSG(started, "thread never started");
		if (!started)
			return;
		if (how == 0)
			KTAP_EXPECT_MSG(st_poll(task_state(p) != TASK_RUNNING &&
						!READ_ONCE(p->on_cpu), 1000),
					"thread never went to sleep");
		st_cpumask_one(&m, to);
		KTAP_EXPECT(set_cpus_allowed_ptr(p, &m) == 0);
		if (how == 0) {
			KTAP_EXPECT(task_cpu(p) == to);
			complete(&st_mig.go);
		}
	}
	done = ktest_wait(&st_mig.done, 3000);
	KTAP_EXPECT_MSG(done, "thread never finished");
	KTAP_EXPECT_MSG(st_mig.cpu_before == (int)from, "started on CPU %d, expected %u",
			st_mig.cpu_before, from);
	if (done)
		KTAP_EXPECT_MSG(st_mig.cpu_after == (int)to,
				"%s thread on CPU %d after the move to %u",
				how == 0 ? "sleeping" : how == 1 ? "running" : "self-moving",
				st_mig.cpu_after, to);
	ktap_diag("%s kthread: CPU %d -> CPU %d", how == 0 ? "sleeping" : how == 1 ? "running" :
		  "self-moving", st_mig.cpu_before, done ? st_mig.cpu_after : -1);
	st_stop_if(p, done);
}

static void sched_migrate_sleeping(void) { st_migrate(0); }
static void sched_migrate_running(void) { st_migrate(1); }
static void sched_migrate_self(void) { st_migrate(2); }

/* --- kthread_park/unpark and kthread_stop of a parked and an unwoken thread ---------------- */

static struct {
	unsigned long loops;
	unsigned int parks, unparks;
	struct completion started;
} st_park;

static int st_park_fn(void *data)
{
	complete(&st_park.started);
	while (!kthread_should_stop()) {
		if (kthread_should_park()) {
			st_park.parks++;
			kthread_parkme();
			st_park.unparks++;
			continue;
		}
		WRITE_ONCE(st_park.loops, st_park.loops + 1);
		schedule_timeout_interruptible(1);
	}
	return 42;
}

static void sched_kthread_park(void)
{
	struct task_struct *p;
	int ret = -1, round;

	memset(&st_park, 0, sizeof(st_park));
	init_completion(&st_park.started);
	p = ktest_kthread(st_park_fn, NULL, -1, "st_park");
	if (!p)
		return;
	wake_up_process(p);
	if (!ktest_wait(&st_park.started, ST_START_MS)) {
		KTAP_EXPECT_MSG(false, "thread never started");
		return;
	}
	for (round = 0; round < 3; round++) {
		unsigned long before;
		bool ok = ktest_call_timeout("st_call", -1, st_do_park, p, ST_STOP_MS, &ret, NULL);

		KTAP_EXPECT_MSG(ok, "kthread_park() did not return within %u ms (round %d)",
				ST_STOP_MS, round);
		if (!ok)
			return;
		KTAP_EXPECT(ret == 0);
		KTAP_EXPECT_MSG(task_state(p) == TASK_PARKED, "state %#lx after kthread_park()",
				task_state(p));
		before = READ_ONCE(st_park.loops);
		msleep(10);
		KTAP_EXPECT_MSG(READ_ONCE(st_park.loops) == before, "parked thread kept running");
		kthread_unpark(p);
		KTAP_EXPECT_MSG(st_poll(READ_ONCE(st_park.loops) != before, 1000),
				"unparked thread did not resume (round %d)", round);
	}
	KTAP_EXPECT(st_park.parks == 3 && st_park.unparks == 3);
	/* kthread_stop() of a parked thread unparks it and returns its result. */
	if (ktest_call_timeout("st_call", -1, st_do_park, p, ST_STOP_MS, NULL, NULL)) {
		ret = 0;
		if (st_stop(p, &ret))
			KTAP_EXPECT_MSG(ret == 42, "kthread_stop() of a parked thread returned %d",
					ret);
	} else {
		KTAP_EXPECT_MSG(false, "last kthread_park() did not return");
	}
}

/* Unpark and park again at once: the thread has not left kthread_parkme() yet. */
static int st_do_unpark_park(void *p)
{
	kthread_unpark(p);
	return kthread_park(p);
}

static void sched_kthread_park_again(void)
{
	struct task_struct *p;
	int ret = -1;

	memset(&st_park, 0, sizeof(st_park));
	init_completion(&st_park.started);
	p = ktest_kthread(st_park_fn, NULL, -1, "st_repark");
	if (!p)
		return;
	wake_up_process(p);
	if (!ktest_wait(&st_park.started, ST_START_MS)) {
		KTAP_EXPECT_MSG(false, "thread never started");
		return;
	}
	if (!ktest_call_timeout("st_call", -1, st_do_park, p, ST_STOP_MS, NULL, NULL)) {
		KTAP_EXPECT_MSG(false, "kthread_park() did not return");
		return;
	}
	for (int round = 0; round < 5; round++) {
		bool ok = ktest_call_timeout("st_call", -1, st_do_unpark_park, p, ST_STOP_MS, &ret, NULL);

		KTAP_EXPECT_MSG(ok, "kthread_park() right after kthread_unpark() hung (round %d)",
				round);
		if (!ok)
			return;		/* the thread stays parked for good: leave it */
		KTAP_EXPECT(task_state(p) == TASK_PARKED);
	}
	if (st_stop(p, &ret))
		KTAP_EXPECT(ret == 42);
}

static bool st_unwoken_ran;

static int st_unwoken_fn(void *data)
{
	WRITE_ONCE(st_unwoken_ran, true);
	ktest_wait_stop();
	return 0;
}

static void sched_kthread_stop_unwoken(void)
{
	struct task_struct *p = ktest_kthread(st_unwoken_fn, NULL, -1, "st_unwoken");
	int ret = 0;

	if (!p)
		return;
	st_unwoken_ran = false;
	if (st_stop(p, &ret))
		KTAP_EXPECT_MSG(ret == -EINTR, "kthread_stop() of a never-woken thread returned %d",
				ret);
	KTAP_EXPECT_MSG(!READ_ONCE(st_unwoken_ran), "the thread function ran");
}

static const struct ktap_case sched_cases[] = {
	KTAP_CASE(sched_kthread_every_cpu),
	KTAP_CASE(sched_fifo_preempt),
	KTAP_CASE(sched_fifo_order),
	KTAP_CASE(sched_msleep_accuracy),
	KTAP_CASE(sched_timer_once),
	KTAP_CASE(sched_timer_del_sync),
	KTAP_CASE(sched_timer_rearm),
	KTAP_CASE(sched_wait_event_timeout),
	KTAP_CASE(sched_completion_pingpong),
	KTAP_CASE(sched_mutex_counter),
	KTAP_CASE(sched_rt_mutex_pi),
	KTAP_CASE(sched_rt_mutex_pi_chain),
	KTAP_CASE(sched_migrate_sleeping),
	KTAP_CASE(sched_migrate_running),
	KTAP_CASE(sched_migrate_self),
	KTAP_CASE(sched_kthread_park),
	KTAP_CASE(sched_kthread_park_again),
	KTAP_CASE(sched_kthread_stop_unwoken),
};
KTAP_SUITE(sched, sched_cases, &sched_selftest);
