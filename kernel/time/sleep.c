/*
 * Sleeping for a time: schedule_timeout() and the msleep family, on an
 * on-stack timer that wakes the sleeper. Sleeps that must last at least a
 * given time aim at an absolute clock time: the first jiffy that does not
 * begin before it (jiffies follows the clock, see tick.c).
 */
#include <time/delay.h>
#include <kernel/might_sleep.h>
#include <time/tick.h>
#include <time/timer.h>
#include <kernel/printk.h>
#include <sched/sched.h>

struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct process_timer *pt = from_timer(pt, t, timer);

	wake_up_process(pt->task);
}

/*
 * Linux semantics: the caller has set current's state; sleep until woken
 * or `timeout` jiffies have passed. Returns the jiffies left (0 if the
 * timeout elapsed). MAX_SCHEDULE_TIMEOUT sleeps with no timer.
 */
long schedule_timeout(long timeout)
{
	struct process_timer pt;
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		printk(KERN_ERR "schedule_timeout: wrong timeout value %lx\n", (unsigned long)timeout);
		dump_stack();
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + timeout;
	pt.task = current;
	timer_setup_on_stack(&pt.timer, process_timeout, 0);
	mod_timer(&pt.timer, expire);
	schedule();
	del_timer_sync(&pt.timer);	/* the callback may still run on the CPU we slept on */
	destroy_timer_on_stack(&pt.timer);
	timeout = (long)(expire - jiffies);
	return timeout < 0 ? 0 : timeout;
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

/* Sleep in `state` until local_clock() has reached `end` (wakeups before that go back to sleep). */
static void sleep_until_clock(u64 end, unsigned int state)
{
	unsigned long until = tick_clock_to_jiffies_ceil(end);
	long left;

	while ((left = (long)(until - jiffies)) > 0) {
		__set_current_state(state);
		schedule_timeout(left);
	}
}

void msleep(unsigned int msecs)
{
	might_sleep();
	sleep_until_clock(local_clock() + msecs * NSEC_PER_MSEC, TASK_UNINTERRUPTIBLE);
}

unsigned long msleep_interruptible(unsigned int msecs)
{
	sleep_until_clock(local_clock() + msecs * NSEC_PER_MSEC, TASK_INTERRUPTIBLE);
	return 0;
}

void usleep_range(unsigned long min, unsigned long max)
{
	(void)max;
	if (min < USLEEP_SPIN_US) {
		udelay(min);
		return;
	}
	sleep_until_clock(local_clock() + min * NSEC_PER_USEC, TASK_UNINTERRUPTIBLE);
}
