/*
 * Shared by the RCU benchmarks: the
 * "power off once every performance test is done" rule. See rcu_perf_common.h.
 */
#include "rcu_perf_common.h"
#include <kernel/atomic.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>

static atomic_t perf_tests_running;
static bool perf_tests_want_shutdown;

void rcu_perf_test_begin(void)
{
	atomic_inc(&perf_tests_running);
}

void rcu_perf_test_end(bool shutdown)
{
	if (shutdown)
		WRITE_ONCE(perf_tests_want_shutdown, true);
	/*
	 * The flag is written before the count drops, so the last one out sees every
	 * request: atomic_dec_return() is fully ordered, and pairs with the same
	 * decrement of every other test ending (store flag, then drop; last drop, then read).
	 */
	if (atomic_dec_return(&perf_tests_running) == 0 && READ_ONCE(perf_tests_want_shutdown))
		kernel_power_off();
}
