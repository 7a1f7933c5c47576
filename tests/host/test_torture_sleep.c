/*
 * Tests for torture_sleep_ticks() (<kernel/torture_sleep.h>), which turns
 * the torture tests' sub-jiffy sleeps into jiffy timeouts: every choice
 * ends on one of the two jiffy boundaries around the wanted end, and over
 * evenly spread random numbers the mean sleep is the wanted one.
 */
#include <kernel/torture_sleep.h>
#include "test.h"

#define TICK	1000000ULL	/* HZ=1000 */
#define SPREAD	65536		/* r values tried per case, evenly over all u32 */

/* How long a timeout of k jiffies sleeps (0: none). */
static u64 slept(unsigned long k, u64 first)
{
	return k ? first + (k - 1) * TICK : 0;
}

/*
 * For want and first: the mean over SPREAD evenly spread r is want (to
 * within the rounding of r * gap / 2^32), and every sleep ends on a
 * boundary within a jiffy of want, never past the one after it.
 */
static int check_case(u64 want, u64 first)
{
	long double sum = 0, mean;
	int bad = 0;

	for (u64 i = 0; i < SPREAD; i++) {
		u32 r = (u32)(i * (0x100000000ULL / SPREAD) + (0x100000000ULL / SPREAD) / 2);
		unsigned long k = torture_sleep_ticks(want, first, TICK, r);
		u64 s = slept(k, first);

		if (s + TICK <= want || s >= want + TICK)
			bad = 1;
		if (k && s < want && slept(k + 1, first) < want)
			bad = 1;	/* skipped a boundary before the wanted end */
		sum += s;
	}
	mean = sum / SPREAD;
	if (mean < (long double)want - 2.0L * TICK / SPREAD ||
	    mean > (long double)want + 2.0L * TICK / SPREAD) {
		printf("# want %llu first %llu: mean %.1Lf\n", (unsigned long long)want,
		       (unsigned long long)first, mean);
		bad = 1;
	}
	return bad;
}

/* Linux's fixed 500 us writer delay, woken just after a tick and mid-jiffy. */
static void test_mean_sub_jiffy(void)
{
	CHECK(!check_case(500000, 990000));
	CHECK(!check_case(500000, 500000));
	CHECK(!check_case(500000, 1));
	CHECK(!check_case(1, TICK));
	CHECK(!check_case(999999, TICK));
}

/* torture_hrtimeout_jiffies(j): j jiffies plus a fuzz of up to one. */
static void test_mean_jiffies(void)
{
	for (u64 j = 0; j < 16; j++)
		for (u64 first = 1; first <= TICK + TICK / 2; first += 249999)
			CHECK(!check_case(j * TICK + first / 3, first));
	CHECK(!check_case(15 * TICK + 999999, TICK));
}

/* The ends: exactly on a boundary, and r at its extremes. */
static void test_edges(void)
{
	/* Wanted end on the first boundary: always that boundary. */
	CHECK_EQ(torture_sleep_ticks(TICK / 2, TICK / 2, TICK, 0), 1);
	CHECK_EQ(torture_sleep_ticks(TICK / 2, TICK / 2, TICK, 0xffffffffu), 1);
	/* On a later boundary: always that one. */
	CHECK_EQ(torture_sleep_ticks(TICK / 2 + 3 * TICK, TICK / 2, TICK, 0xffffffffu), 4);
	/* Nothing wanted: no sleep. */
	CHECK_EQ(torture_sleep_ticks(0, TICK, TICK, 0xffffffffu), 0);
	/* Just short of the first boundary: nearly always that boundary, never beyond. */
	CHECK_EQ(torture_sleep_ticks(TICK - 1, TICK, TICK, 0xffff0000u), 1);
	CHECK_EQ(torture_sleep_ticks(TICK - 1, TICK, TICK, 0), 1);
	/* A sixteen-jiffy sleep never asks for more than seventeen. */
	CHECK(torture_sleep_ticks(15 * TICK + TICK - 1, TICK, TICK, 0xffffffffu) <= 17);
}

static const struct test_case tests[] = {
	TEST_CASE(test_mean_sub_jiffy),
	TEST_CASE(test_mean_jiffies),
	TEST_CASE(test_edges),
};

TEST_MAIN("test_torture_sleep", tests)
