/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * timers: one-shot firing, del_timer_sync() and re-arming.
 */
#include "../../sched/test/suite.h"

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

void sched_timer_once(void)
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

void sched_timer_del_sync(void)
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

void sched_timer_rearm(void)
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
