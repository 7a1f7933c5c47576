/* Tests for lib/kstrtox.c against Linux's kstrto*() semantics. */
#include <kernel/kstrtox.h>
#include <kernel/errno.h>
#include <kernel/compiler.h>
#include <limits.h>
#include "test.h"

struct case_ull { const char *s; unsigned base; int ret; unsigned long long v; };
struct case_ll { const char *s; unsigned base; int ret; long long v; };

static void test_kstrtoull(void)
{
	static const struct case_ull cases[] = {
		{ "0", 10, 0, 0 }, { "1", 10, 0, 1 }, { "+1", 10, 0, 1 },
		{ "123\n", 10, 0, 123 }, { "123\n\n", 10, -EINVAL, 0 },
		{ "", 10, -EINVAL, 0 }, { "\n", 10, -EINVAL, 0 }, { "+", 10, -EINVAL, 0 },
		{ " 1", 10, -EINVAL, 0 }, { "1 ", 10, -EINVAL, 0 }, { "-1", 10, -EINVAL, 0 },
		{ "++1", 10, -EINVAL, 0 }, { "12a", 10, -EINVAL, 0 },
		{ "18446744073709551615", 10, 0, ULLONG_MAX },
		{ "18446744073709551616", 10, -ERANGE, 0 },
		{ "99999999999999999999999x", 10, -ERANGE, 0 },
		{ "0x10", 0, 0, 16 }, { "0X1f", 0, 0, 31 }, { "010", 0, 0, 8 },
		{ "0", 0, 0, 0 }, { "08", 0, -EINVAL, 0 }, { "0x", 0, -EINVAL, 0 },
		{ "0xg", 0, -EINVAL, 0 }, { "0x", 16, -EINVAL, 0 }, { "0x1F", 16, 0, 31 },
		{ "ff", 16, 0, 255 }, { "FF", 16, 0, 255 }, { "0xffffffffffffffff", 0, 0, ULLONG_MAX },
		{ "0x10000000000000000", 0, -ERANGE, 0 }, { "777", 8, 0, 0777 },
		{ "8", 8, -EINVAL, 0 }, { "101", 2, 0, 5 }, { "2", 2, -EINVAL, 0 },
		{ "1", 1, -EINVAL, 0 }, { "1", 17, -EINVAL, 0 },
		{ "1777777777777777777777", 8, 0, ULLONG_MAX },
		{ "2000000000000000000000", 8, -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned long long v = 0xabad1dea;
		int ret = kstrtoull(cases[i].s, cases[i].base, &v);

		if (ret != cases[i].ret || (ret == 0 && v != cases[i].v) || (ret && v != 0xabad1dea)) {
			printf("# kstrtoull(\"%s\", %u) = %d, %llu\n", cases[i].s, cases[i].base, ret, v);
			test_failed = 1;
		}
	}
}

static void test_kstrtoll(void)
{
	static const struct case_ll cases[] = {
		{ "0", 0, 0, 0 }, { "-0", 0, 0, 0 }, { "-1", 0, 0, -1 }, { "+5", 0, 0, 5 },
		{ "-+5", 0, -EINVAL, 0 }, { "+-5", 0, -EINVAL, 0 }, { "--5", 0, -EINVAL, 0 },
		{ "-", 0, -EINVAL, 0 }, { "-0x10", 0, 0, -16 }, { "-010", 0, 0, -8 },
		{ "9223372036854775807", 0, 0, LLONG_MAX },
		{ "9223372036854775808", 0, -ERANGE, 0 },
		{ "-9223372036854775808", 0, 0, LLONG_MIN },
		{ "-9223372036854775809", 0, -ERANGE, 0 },
		{ "-18446744073709551615", 0, -ERANGE, 0 },
		{ "-18446744073709551616", 0, -ERANGE, 0 },
		{ "-12\n", 10, 0, -12 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		long long v = 0x5eed;
		int ret = kstrtoll(cases[i].s, cases[i].base, &v);

		if (ret != cases[i].ret || (ret == 0 && v != cases[i].v) || (ret && v != 0x5eed)) {
			printf("# kstrtoll(\"%s\", %u) = %d, %lld\n", cases[i].s, cases[i].base, ret, v);
			test_failed = 1;
		}
	}
}

static void test_narrow(void)
{
	unsigned int u = 7;
	unsigned long ul = 0;
	long l = 0;
	int i = 7;

	CHECK_EQ(kstrtoint("2147483647", 0, &i), 0);
	CHECK_EQ(i, INT_MAX);
	CHECK_EQ(kstrtoint("-2147483648", 0, &i), 0);
	CHECK_EQ(i, INT_MIN);
	CHECK_EQ(kstrtoint("2147483648", 0, &i), -ERANGE);
	CHECK_EQ(kstrtoint("-2147483649", 0, &i), -ERANGE);
	CHECK_EQ(i, INT_MIN);
	CHECK_EQ(kstrtoint("x", 0, &i), -EINVAL);
	CHECK_EQ(kstrtouint("4294967295", 0, &u), 0);
	CHECK_EQ(u, UINT_MAX);
	CHECK_EQ(kstrtouint("4294967296", 0, &u), -ERANGE);
	CHECK_EQ(kstrtouint("-1", 0, &u), -EINVAL);
	CHECK_EQ(u, UINT_MAX);
	CHECK_EQ(kstrtoul("0x8000000000000000", 0, &ul), 0);
	CHECK(ul == 0x8000000000000000UL);
	CHECK_EQ(kstrtol("-0x8000000000000000", 0, &l), 0);
	CHECK(l == LONG_MIN);
	CHECK_EQ(kstrtol("0x8000000000000000", 0, &l), -ERANGE);
}

static void test_kstrtobool(void)
{
	static const char *const yes[] = { "y", "Y", "1", "on", "ON", "oN", "yes", "t", "true", "e", "E", "1\n" };
	static const char *const no[] = { "n", "N", "0", "off", "OFF", "oF", "no", "f", "false", "d", "D", "0x" };
	static const char *const bad[] = { "", "o", "ox", "2", "x", " y", "-1", "\n" };
	size_t i;
	bool b;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		b = false;
		CHECK_EQ(kstrtobool(yes[i], &b), 0);
		CHECK(b);
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		b = true;
		CHECK_EQ(kstrtobool(no[i], &b), 0);
		CHECK(!b);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		b = true;
		CHECK_EQ(kstrtobool(bad[i], &b), -EINVAL);
		CHECK(b);
	}
	CHECK_EQ(kstrtobool(NULL, &b), -EINVAL);
}

static void test_helpers(void)
{
	unsigned long long v;
	bool overflow;
	char *end;

	CHECK_EQ(parse_integer("123abc", 10, &v, &overflow), 3);
	CHECK_EQ(v, 123);
	CHECK(!overflow);
	CHECK_EQ(parse_integer("123abcg", 16, &v, &overflow), 6);
	CHECK_EQ(v, 0x123abc);
	CHECK_EQ(parse_integer("x", 10, &v, &overflow), 0);
	CHECK_EQ(parse_integer("99999999999999999999,", 10, &v, &overflow), 20);
	CHECK(overflow);
	CHECK_EQ(simple_strtoull("0x1fz", &end, 0), 0x1f);
	CHECK_STREQ(end, "z");
	CHECK_EQ(simple_strtoull("0755", &end, 0), 0755);
	CHECK_EQ(simple_strtoull("42-7", &end, 10), 42);
	CHECK_STREQ(end, "-7");
}

static const struct test_case tests[] = {
	TEST_CASE(test_kstrtoull),
	TEST_CASE(test_kstrtoll),
	TEST_CASE(test_narrow),
	TEST_CASE(test_kstrtobool),
	TEST_CASE(test_helpers),
};

TEST_MAIN("test_kstrtox", tests)
