/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * wait queues and completions: wait_event_timeout() and a
 * completion ping-pong between two CPUs.
 */
#include "suite.h"
#include <time/tick.h>

/* --- wait_event_timeout ------------------------------------------------------------ */

static DECLARE_WAIT_QUEUE_HEAD(st_wq);
static bool st_wq_flag;
static struct timer_list st_wq_timer;

static void st_wq_timer_fn(struct timer_list *t)
{
	WRITE_ONCE(st_wq_flag, true);
	wake_up(&st_wq);
}

void sched_wait_event_timeout(void)
{
	unsigned long to = msecs_to_jiffies(20), j0;
	long ret;
	u64 t0, dt, lag;

	WRITE_ONCE(st_wq_flag, false);
	j0 = jiffies;
	t0 = local_clock();
	ret = wait_event_timeout(st_wq, READ_ONCE(st_wq_flag), to);
	dt = local_clock() - t0;
	KTAP_EXPECT_MSG(ret == 0, "timed-out wait returned %ld", ret);
	/*
	 * The timeout ends when jiffies reaches j0 + to, that is once the clock
	 * passes the start of jiffy j0 plus `to` ticks. jiffies trails the
	 * clock (by the part of the jiffy gone, and by more when the tick that
	 * advances it comes late, as when the host deschedules the vCPU or
	 * QEMU's timer thread): the wait is at least to ticks minus that lag.
	 * (A fixed "to - 1 ticks" failed at 16.5 ms for 20 on a loaded host.)
	 */
	lag = t0 - tick_jiffies_to_clock(j0);
	KTAP_EXPECT_MSG(dt + lag >= to * TICK_NSEC,
			"20 ms timeout returned after %llu us, jiffies %llu us behind the clock",
			dt / NSEC_PER_USEC, lag / NSEC_PER_USEC);
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

void sched_completion_pingpong(void)
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
