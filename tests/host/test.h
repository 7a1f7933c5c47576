/*
 * Minimal host test harness: CHECK macros that report file:line and keep
 * going, and test_main() printing "ok N name"/"not ok N name" lines and a
 * "# prog: N passed, N failed" summary.
 */
#ifndef _HOST_TEST_H
#define _HOST_TEST_H

#include <stdio.h>
#include <string.h>

struct test_case {
	const char *name;
	void (*fn)(void);
};

#define TEST_CASE(fn)	{ #fn, fn }

/* Set by a failing CHECK in the current test case. */
extern int test_failed;

#define CHECK(cond) do {							\
	if (!(cond)) {								\
		printf("# %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
		test_failed = 1;						\
	}									\
} while (0)

#define CHECK_EQ(a, b) do {							\
	long long _a = (long long)(a), _b = (long long)(b);			\
	if (_a != _b) {								\
		printf("# %s:%d: CHECK_EQ(%s, %s) failed: %lld != %lld\n",	\
		       __FILE__, __LINE__, #a, #b, _a, _b);			\
		test_failed = 1;						\
	}									\
} while (0)

#define CHECK_STREQ(a, b) do {							\
	const char *_a = (a), *_b = (b);					\
	if (!_a || !_b || strcmp(_a, _b)) {					\
		printf("# %s:%d: CHECK_STREQ(%s, %s) failed: \"%s\" != \"%s\"\n", \
		       __FILE__, __LINE__, #a, #b, _a ? _a : "(null)",		\
		       _b ? _b : "(null)");					\
		test_failed = 1;						\
	}									\
} while (0)

/* Run every case; returns the process exit status (non-zero on failure). */
static inline int test_main(const char *prog, const struct test_case *tests, size_t n)
{
	size_t i, passed = 0, failed = 0;

	for (i = 0; i < n; i++) {
		test_failed = 0;
		tests[i].fn();
		printf("%sok %zu %s\n", test_failed ? "not " : "", i + 1, tests[i].name);
		if (test_failed)
			failed++;
		else
			passed++;
		fflush(stdout);
	}
	printf("# %s: %zu passed, %zu failed\n", prog, passed, failed);
	return failed ? 1 : 0;
}

#define TEST_MAIN(prog, tests)							\
	int test_failed;							\
	int main(void) { return test_main(prog, tests, sizeof(tests) / sizeof(tests[0])); }

/* xorshift64: the tests' reproducible pseudo-random numbers; *state must start non-zero. */
static inline unsigned long test_xorshift(unsigned long *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#endif
