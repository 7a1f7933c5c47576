/*
 * Tests for lib/sort.c: sort_u64() against a reference insertion sort on
 * random, sorted, reversed and constant inputs of every size 0..300.
 */
#include <kernel/sort.h>
#include <stdlib.h>
#include "test.h"


static unsigned long long rng_state = 88172645463325252ULL;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void ref_sort(u64 *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		u64 v = a[i];
		size_t j = i;

		for (; j && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/* kind 0 random, 1 few distinct values, 2 ascending, 3 descending, 4 constant */
static void check_kind(int kind)
{
	static u64 a[300], b[300];

	for (size_t n = 0; n <= 300; n++) {
		for (size_t i = 0; i < n; i++) {
			a[i] = kind == 0 ? rnd() : kind == 1 ? rnd() % 4 : kind == 2 ? i :
			       kind == 3 ? n - i : 7;
			b[i] = a[i];
		}
		sort_u64(a, n);
		ref_sort(b, n);
		CHECK(memcmp(a, b, n * sizeof(u64)) == 0);
	}
}

static void test_random(void) { check_kind(0); }
static void test_few_values(void) { check_kind(1); }
static void test_ascending(void) { check_kind(2); }
static void test_descending(void) { check_kind(3); }
static void test_constant(void) { check_kind(4); }

static void test_extremes(void)
{
	u64 a[] = { ~0ULL, 0, 1, ~0ULL - 1, 0 };

	sort_u64(a, 5);
	CHECK(a[0] == 0 && a[1] == 0 && a[2] == 1 && a[3] == ~0ULL - 1 && a[4] == ~0ULL);
}

static const struct test_case tests[] = {
	TEST_CASE(test_random), TEST_CASE(test_few_values), TEST_CASE(test_ascending),
	TEST_CASE(test_descending), TEST_CASE(test_constant), TEST_CASE(test_extremes),
};

TEST_MAIN("test_sort", tests)
