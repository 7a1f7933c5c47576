/*
 * Shared by the RCU benchmarks: sample sorting for percentiles and the
 * "power off once every performance test is done" rule. See rcu_perf_common.h.
 */
#include "rcu_perf_common.h"
#include <kernel/atomic.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>

static void sift_down(u64 *a, unsigned int root, unsigned int n)
{
	for (;;) {
		unsigned int child = 2 * root + 1;
		u64 tmp;

		if (child >= n)
			return;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		tmp = a[root];
		a[root] = a[child];
		a[child] = tmp;
		root = child;
	}
}

void rcu_perf_sort_u64(u64 *a, unsigned int n)
{
	if (n < 2)
		return;
	for (unsigned int i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (unsigned int end = n - 1; end > 0; end--) {
		u64 tmp = a[0];

		a[0] = a[end];
		a[end] = tmp;
		sift_down(a, 0, end);
	}
}

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
