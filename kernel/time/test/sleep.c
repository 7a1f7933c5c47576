/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * msleep() accuracy.
 */
#include "../../sched/test/suite.h"

/* --- sleeping ------------------------------------------------------------------- */

void sched_msleep_accuracy(void)
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
