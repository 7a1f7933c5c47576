/*
 * The soft-lockup detector's KTAP suite "watchdog" (kernel/sched/watchdog.c),
 * run at boot with watchdog.selftest=1 and a small watchdog_thresh (1: a
 * report after 2 s). On the last online CPU a SCHED_NORMAL kthread wakes
 * every millisecond, so one waits whenever it cannot run, while a hog
 * spins for 2 * watchdog_thresh + 1.5 s: a SCHED_FIFO 1 one (the CPU
 * switches, but to no SCHED_NORMAL task: "RT starvation"), then a
 * SCHED_NORMAL one with preemption disabled (no switch at all: "soft
 * lockup"). Each must be reported once, naming the hog; the console shows
 * the report's lines and the hog's function in its backtrace, which
 * tests/boot/20-sched.sh checks.
 */
#define KPARAM_SUBSYS "watchdog"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/atomic.h>
#include <kernel/smp.h>
#include <kernel/preempt.h>
#include <kernel/processor.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <sched/watchdog.h>
#include <time/time.h>
#include <time/delay.h>

static bool watchdog_selftest;
KPARAM_BOOL("watchdog.selftest", watchdog_selftest,
	    "run the soft-lockup detector's self-test (KTAP suite \"watchdog\") at boot");

static atomic_t wd_victim_steps;
static unsigned int wd_hog_ms;

static int wd_victim_fn(void *unused)
{
	while (!kthread_should_stop()) {
		atomic_inc(&wd_victim_steps);
		msleep(1);
	}
	return 0;
}

/* Spins wd_hog_ms with preemption on (RT starvation when FIFO). */
static __noinline int wd_rt_hog_fn(void *unused)
{
	unsigned long end = jiffies + msecs_to_jiffies(wd_hog_ms);

	while (time_before(jiffies, end))
		cpu_relax();
	ktest_wait_stop();
	return 0;
}

/* Spins wd_hog_ms with preemption off: no switch at all (soft lockup). */
static __noinline int wd_stuck_hog_fn(void *unused)
{
	unsigned long end = jiffies + msecs_to_jiffies(wd_hog_ms);

	preempt_disable();
	while (time_before(jiffies, end))
		cpu_relax();
	preempt_enable();
	ktest_wait_stop();
	return 0;
}

static void wd_run(int (*hog_fn)(void *), bool fifo, const char *what)
{
	struct sched_param sp = { .sched_priority = 1 };
	unsigned int cpu = ktest_last_online_cpu();
	struct task_struct *victim, *hog;
	unsigned long before, after;
	int thresh = watchdog_get_thresh(), pid = 0, steps, hog_pid;

	if (thresh < 1 || thresh > 3) {
		ktap_skip("needs watchdog_thresh=1..3 (a report within 6 s)");
		return;
	}
	wd_hog_ms = thresh * 2000 + 1500;
	victim = ktest_kthread(wd_victim_fn, NULL, cpu, "wd_victim/%u");
	hog = ktest_kthread(hog_fn, NULL, cpu, fifo ? "wd_rt_hog/%u" : "wd_stuck_hog/%u");
	if (!victim || !hog)
		return;
	hog_pid = hog->pid;	/* hog is freed once stopped */
	if (fifo)
		sched_setscheduler_nocheck(hog, SCHED_FIFO, &sp);
	wake_up_process(victim);
	msleep(20);
	before = watchdog_reports(NULL);
	wake_up_process(hog);
	msleep(wd_hog_ms + 500);	/* on this CPU too, this task waits the hog out */
	after = watchdog_reports(&pid);
	steps = atomic_read(&wd_victim_steps);
	ktest_stop(hog, 2000, NULL);
	ktest_stop(victim, 2000, NULL);
	ktap_diag("%s hog pid %d on CPU %u for %u ms: %lu report(s), last naming pid %d; victim steps %d",
		  what, hog_pid, cpu, wd_hog_ms, after - before, pid, steps);
	KTAP_EXPECT_MSG(after - before == 1, "%lu reports, wanted 1", after - before);
	KTAP_EXPECT_MSG(pid == hog_pid, "the report named pid %d, not the hog's %d", pid, hog_pid);
}

static void watchdog_rt_starvation(void)
{
	wd_run(wd_rt_hog_fn, true, "FIFO 1");
}

static void watchdog_soft_lockup(void)
{
	wd_run(wd_stuck_hog_fn, false, "preempt-off");
}

static const struct ktap_case watchdog_cases[] = {
	KTAP_CASE(watchdog_rt_starvation),
	KTAP_CASE(watchdog_soft_lockup),
};
KTAP_SUITE(watchdog, watchdog_cases, &watchdog_selftest);
