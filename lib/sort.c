/*
 * sort_u64(): heapsort of an array of u64 samples, ascending. Bounded time
 * and stack whatever the input, which is what the boot benchmarks want
 * (kernel/rcu/torture, kernel/rcu/test/gp_bench.c, kernel/sched/test/bench.c,
 * kernel/test/ipi_bench.c). Also built for the host tests.
 */
#include <kernel/sort.h>

/* Restore the max-heap property below root in a[0..n). */
static void sift_down(u64 *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
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

void sort_u64(u64 *a, size_t n)
{
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n - 1; end > 0; end--) {
		u64 tmp = a[0];

		a[0] = a[end];
		a[end] = tmp;
		sift_down(a, 0, end);
	}
}
