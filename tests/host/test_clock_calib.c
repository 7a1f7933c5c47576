/*
 * Tests for clock_calib() (<time/clock_calib.h>, kernel/time/clock_calib.c), the
 * TSC calibration's logic, against simulated counters: a 2300 MHz TSC and a
 * PIT (16 bits, 1.193182 MHz) or ACPI PM timer (24 bits, 3.579545 MHz), read
 * by a vCPU that the host deschedules: it runs for run_ns, then is stalled
 * for stall_ns while real time (and both counters) move on. The campaign of
 * issue 29 saw "tsc: Detected 45968.159 MHz" for a 2300 MHz TSC that way.
 */
#include <time/clock_calib.h>
#include "test.h"

#define TSC_KHZ		2300000ULL
#define PIT_HZ		1193182ULL
#define PM_HZ		3579545ULL

static u64 now_ns, run_ns, stall_ns, next_stall;

/* Every access costs cost_ns of real time; the vCPU may be stalled after it. */
static void run(u64 cost_ns)
{
	now_ns += cost_ns;
	if (stall_ns && now_ns >= next_stall) {
		now_ns += stall_ns;
		next_stall = now_ns + run_ns;
	}
}

static u64 sim_cycles(void)
{
	run(20);
	return (u64)((unsigned __int128)now_ns * TSC_KHZ / 1000000);
}

static u64 sim_pit(void)
{
	run(2000);	/* three port accesses under TCG */
	return (u64)((unsigned __int128)now_ns * PIT_HZ / 1000000000) & 0xffff;
}

static u64 sim_pm(void)
{
	run(700);
	return (u64)((unsigned __int128)now_ns * PM_HZ / 1000000000) & 0xffffff;
}

static const struct clock_calib_ref pit = { "PIT", PIT_HZ, 16, sim_pit, sim_cycles };
static const struct clock_calib_ref pm = { "PMTIMER", PM_HZ, 24, sim_pm, sim_cycles };

/*
 * Calibrate with the vCPU run/stall pattern given; the result must be
 * within 0.5% of the truth, or (allow_none) report that no try was usable.
 * Otherwise a result with no usable try is the least disturbed try's, as
 * the kernel takes it from the PM timer (a stall would have to last its
 * whole 4.7 s period to hide a wrap).
 */
static int check(const struct clock_calib_ref *ref, u64 window, u64 run_for, u64 stall_for,
		 bool allow_none, const char *what)
{
	struct clock_calib_result res;
	u64 err;

	now_ns = 1000000000ULL;
	run_ns = run_for;
	stall_ns = stall_for;
	next_stall = now_ns + run_ns;
	clock_calib(ref, window, 64, &res);
	if (allow_none && !res.used) {
		printf("# %s: %s: no usable try in %u (rejected, as it should be)\n",
		       ref->name, what, res.tries);
		return 0;
	}
	if (!res.used)
		res.khz = res.fallback_khz;
	err = res.khz > TSC_KHZ ? res.khz - TSC_KHZ : TSC_KHZ - res.khz;
	printf("# %s: %s: %llu kHz (truth %llu), %u tries, %u used\n", ref->name, what,
	       (unsigned long long)res.khz, TSC_KHZ, res.tries, res.used);
	return err * 200 > TSC_KHZ;	/* off by more than 0.5% */
}

#define PIT_W	(PIT_HZ / 100)	/* 10 ms, as arch/x86_64/kernel/tsc.c (the old code: 30 ms) */
#define PM_W	(PM_HZ / 100)	/* 10 ms, as arch/x86_64/kernel/tsc.c */

static void test_no_stalls(void)
{
	CHECK(check(&pit, PIT_W, 0, 0, false, "no stalls") == 0);
	CHECK(check(&pm, PM_W, 0, 0, false, "no stalls") == 0);
}

/* CFS on a loaded host: a few ms of run, a few tens of ms waiting. */
static void test_short_stalls(void)
{
	CHECK(check(&pit, PIT_W, 3000000, 20000000, true, "run 3 ms, stall 20 ms") == 0);
	CHECK(check(&pm, PM_W, 3000000, 20000000, false, "run 3 ms, stall 20 ms") == 0);
}

/* Starved: stalls long enough to hide whole PIT periods (55 ms) between two reads. */
static void test_stalls_hiding_pit_wraps(void)
{
	CHECK(check(&pit, PIT_W, 2000000, 600000000, true, "run 2 ms, stall 600 ms") == 0);
	CHECK(check(&pit, PIT_W, 25000000, 250000000, true, "run 25 ms, stall 250 ms") == 0);
	CHECK(check(&pm, PM_W, 2000000, 600000000, false, "run 2 ms, stall 600 ms") == 0);
}

static const struct test_case tests[] = {
	TEST_CASE(test_no_stalls), TEST_CASE(test_short_stalls),
	TEST_CASE(test_stalls_hiding_pit_wraps),
};

TEST_MAIN("test_clock_calib", tests)
