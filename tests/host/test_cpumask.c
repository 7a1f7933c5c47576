/*
 * Tests for the iteration helpers of include/kernel/cpumask.h:
 * for_each_cpu_wrap() must visit each CPU of the mask exactly once, in
 * the order start..NR_CPUS-1 then 0..start-1, for every start (the
 * scheduler's idle pull relies on it to spread CPUs over one mask), and
 * cpumask_assign_cpu() must leave exactly the bit asked for.
 */
#include <kernel/bitmap.h>
#include <stdlib.h>

/*
 * <kernel/atomic.h> reaches <asm/barrier.h>, which host builds do not
 * see; cpumask.h needs only its atomic bit operations, given here.
 */
#define _KERNEL_ATOMIC_H
static inline void set_bit(unsigned nr, unsigned long *map)
{
	__atomic_fetch_or(&map[nr / BITS_PER_LONG], 1UL << (nr % BITS_PER_LONG), __ATOMIC_SEQ_CST);
}
static inline void clear_bit(unsigned nr, unsigned long *map)
{
	__atomic_fetch_and(&map[nr / BITS_PER_LONG], ~(1UL << (nr % BITS_PER_LONG)), __ATOMIC_SEQ_CST);
}
#include <kernel/cpumask.h>
#include "test.h"

unsigned int nr_cpu_ids = NR_CPUS;

static unsigned long rng_state = 0x2545F4914F6CDD1DUL;

static unsigned long rnd(void)
{
	return test_xorshift(&rng_state);
}

/* Walk m from start both ways (the macro and a reference loop); compare. */
static void check_wrap(const struct cpumask *m, unsigned start)
{
	unsigned want[NR_CPUS + 1], got[NR_CPUS + 1], nw = 0, ng = 0, i, cpu;

	for (i = 0; i < NR_CPUS; i++) {
		unsigned c = (start + i) % NR_CPUS;

		if (cpumask_test_cpu(c, m))
			want[nw++] = c;
	}
	for_each_cpu_wrap(cpu, m, start) {
		if (ng > NR_CPUS)
			break;		/* a runaway walk: fail below, do not loop */
		got[ng++] = cpu;
	}
	CHECK_EQ(ng, nw);
	for (i = 0; i < nw && i < ng; i++)
		if (got[i] != want[i]) {
			printf("# start %u: visit %u is CPU %u, want %u\n", start, i, got[i], want[i]);
			test_failed = 1;
			return;
		}
}

static void test_wrap_edges(void)
{
	struct cpumask m;
	unsigned start;

	cpumask_clear(&m);
	for (start = 0; start <= NR_CPUS; start++)
		check_wrap(&m, start % NR_CPUS);	/* empty: no visit */
	for (start = 0; start < NR_CPUS; start++) {
		cpumask_clear(&m);
		cpumask_set_cpu(start, &m);
		check_wrap(&m, start);			/* only the start CPU */
		check_wrap(&m, (start + 1) % NR_CPUS);	/* only the CPU before start */
	}
	cpumask_clear(&m);
	cpumask_set_cpu(0, &m);
	cpumask_set_cpu(NR_CPUS - 1, &m);
	for (start = 0; start < NR_CPUS; start++)
		check_wrap(&m, start);
	/* start past the last CPU (a caller's "cpu + 1"): the plain order. */
	{
		unsigned cpu, n = 0;

		for_each_cpu_wrap(cpu, &m, NR_CPUS)
			CHECK_EQ(cpu, n++ ? NR_CPUS - 1 : 0);
		CHECK_EQ(n, 2);
	}
}

static void test_wrap_random(void)
{
	struct cpumask m;
	unsigned iter, start, i;

	for (iter = 0; iter < 2000; iter++) {
		unsigned density = 1 + rnd() % 8;

		cpumask_clear(&m);
		for (i = 0; i < NR_CPUS; i++)
			if (rnd() % density == 0)
				cpumask_set_cpu(i, &m);
		for (start = 0; start < NR_CPUS; start++)
			check_wrap(&m, start);
	}
}

static void test_assign(void)
{
	struct cpumask m;
	unsigned cpu;

	cpumask_clear(&m);
	for (cpu = 0; cpu < NR_CPUS; cpu += 3)
		cpumask_assign_cpu(cpu, &m, true);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		CHECK_EQ(cpumask_test_cpu(cpu, &m), cpu % 3 == 0);
	cpumask_assign_cpu(3, &m, true);	/* already set: unchanged */
	cpumask_assign_cpu(4, &m, false);	/* already clear: unchanged */
	cpumask_assign_cpu(6, &m, false);
	CHECK(cpumask_test_cpu(3, &m) && !cpumask_test_cpu(4, &m) && !cpumask_test_cpu(6, &m));
	CHECK_EQ(cpumask_weight(&m), (NR_CPUS + 2) / 3 - 1);
}

static const struct test_case tests[] = {
	TEST_CASE(test_wrap_edges),
	TEST_CASE(test_wrap_random),
	TEST_CASE(test_assign),
};

TEST_MAIN("test_cpumask", tests)
