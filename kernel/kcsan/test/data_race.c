/*
 * KCSAN's KTAP suite "kcsan" (CONFIG_KCSAN_SELFTEST), run at boot with
 * kcsan.selftest=1: the planted racy counter of issue 29.
 *
 *   kcsan_plain_counter      kthreads on the first and last online CPU both
 *                            increment a plain counter (kcsan_test_plain_inc):
 *                            KCSAN must find the race and print
 *                            "BUG: KCSAN: data-race in kcsan_test_plain_inc /
 *                            kcsan_test_plain_inc" (tests/boot/65-kcsan.sh
 *                            checks the console).
 *   kcsan_marked_counter     the same with READ_ONCE()/WRITE_ONCE(): racy
 *                            (increments get lost) but marked, so no report,
 *                            while watchpoints are set elsewhere all along
 *   kcsan_data_race_counter  the same inside data_race(): no report
 *
 * This file is instrumented like any other; the counters of the runtime
 * (kcsan_test_races_at()) say whether a race on the counter was found.
 */
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include <kernel/kcsan.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <time/time.h>
#include <time/delay.h>

static bool kcsan_selftest;
KPARAM_BOOL("kcsan.selftest", kcsan_selftest,
	    "run KCSAN's self-test (KTAP suite \"kcsan\": the planted racy counter) at boot");

static long kcsan_test_counter;
static bool kcsan_test_stop;
static struct completion kcsan_test_done[2];

/* The planted race: a plain read-modify-write of a counter shared by two CPUs. */
static __noinline void kcsan_test_plain_inc(void)
{
	kcsan_test_counter++;
}

/* Marked: still loses increments, but READ_ONCE/WRITE_ONCE are not data races. */
static __noinline void kcsan_test_marked_inc(void)
{
	WRITE_ONCE(kcsan_test_counter, READ_ONCE(kcsan_test_counter) + 1);
}

/* An intended race, as a statistic would be: data_race() tells KCSAN so. */
static __noinline void kcsan_test_data_race_inc(void)
{
	data_race(kcsan_test_counter++);
}

struct kcsan_test_arg {
	void (*inc)(void);
	struct completion *done;
};

static int kcsan_test_thread(void *data)
{
	struct kcsan_test_arg *a = data;

	while (!READ_ONCE(kcsan_test_stop)) {
		for (int i = 0; i < 1000; i++)
			a->inc();
		cond_resched();
	}
	complete(a->done);
	ktest_wait_stop();
	return 0;
}

/*
 * Run inc on two CPUs for at most max_ms (when stop_on_report: until a race
 * on the counter was found and a report printed; a race whose writer
 * stored only after the watch ended is found but, as in Linux, not
 * reported, since the value did not change). Returns the races found on
 * the counter.
 */
static unsigned long kcsan_test_run(void (*inc)(void), unsigned int max_ms, bool stop_on_report,
				    unsigned long *watchpoints)
{
	unsigned int cpus[2] = { 0, ktest_last_online_cpu() };
	struct kcsan_test_arg args[2];
	struct task_struct *p[2];
	unsigned long races0 = kcsan_test_races_at(), wp0 = kcsan_nr_watchpoints_set();
	unsigned long reports0 = kcsan_nr_reports();
	unsigned long end = jiffies + msecs_to_jiffies(max_ms);
	bool ok[2];

	WRITE_ONCE(kcsan_test_stop, false);
	for (int i = 0; i < 2; i++) {
		init_completion(&kcsan_test_done[i]);
		args[i].inc = inc;
		args[i].done = &kcsan_test_done[i];
		p[i] = ktest_kthread(kcsan_test_thread, &args[i], cpus[i], "kcsan_racer/%u");
	}
	for (int i = 0; i < 2; i++)
		if (p[i])
			wake_up_process(p[i]);
	while (time_before(jiffies, end)) {
		if (stop_on_report && kcsan_test_races_at() != races0 &&
		    kcsan_nr_reports() != reports0)
			break;
		msleep(10);
	}
	WRITE_ONCE(kcsan_test_stop, true);
	for (int i = 0; i < 2; i++) {
		ok[i] = p[i] && ktest_wait(&kcsan_test_done[i], 5000);
		if (p[i])
			ktest_stop_if(p[i], ok[i], 5000);
	}
	*watchpoints = kcsan_nr_watchpoints_set() - wp0;
	return kcsan_test_races_at() - races0;
}

static bool kcsan_test_two_cpus(void)
{
	if (ktest_last_online_cpu() == 0) {
		ktap_skip("needs 2 CPUs");
		return false;
	}
	kcsan_test_watch_addr(&kcsan_test_counter, sizeof(kcsan_test_counter));
	return true;
}

static void kcsan_plain_counter(void)
{
	unsigned long reports0 = kcsan_nr_reports(), races, wps;

	if (!kcsan_test_two_cpus())
		return;
	races = kcsan_test_run(kcsan_test_plain_inc, 5000, true, &wps);
	ktap_diag("races on the counter: %lu, watchpoints set: %lu", races, wps);
	KTAP_EXPECT(races > 0);
	/* Reported, not only counted: the report is what tests/boot/65-kcsan.sh reads. */
	KTAP_EXPECT(kcsan_nr_reports() > reports0);
}

/* A counter incremented so that KCSAN must see no race: none found, while it kept watching. */
static void kcsan_expect_no_race(void (*inc)(void))
{
	unsigned long races, wps;

	if (!kcsan_test_two_cpus())
		return;
	races = kcsan_test_run(inc, 3000, false, &wps);
	ktap_diag("races on the counter: %lu, watchpoints set: %lu", races, wps);
	KTAP_EXPECT(races == 0);
	KTAP_EXPECT(wps > 0);	/* KCSAN was watching meanwhile */
}

static void kcsan_marked_counter(void)
{
	kcsan_expect_no_race(kcsan_test_marked_inc);
}

static void kcsan_data_race_counter(void)
{
	kcsan_expect_no_race(kcsan_test_data_race_inc);
}

static const struct ktap_case kcsan_cases[] = {
	KTAP_CASE(kcsan_plain_counter),
	KTAP_CASE(kcsan_marked_counter),
	KTAP_CASE(kcsan_data_race_counter),
};
KTAP_SUITE(kcsan, kcsan_cases, &kcsan_selftest);
