/*
 * Tests for lib/vsprintf.c: thousands of format/value combinations
 * compared with libc's snprintf, plus the kernel-only %p extensions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <limits.h>

/* libc's snprintf, reachable before sprintf.h renames it to the kernel's. */
static int (*const libc_snprintf)(char *, size_t, const char *, ...) = snprintf;

#include <kernel/sprintf.h>
#include <kernel/bitmap.h>
#include <kernel/compiler.h>
#include <kernel/kallsyms.h>
#include "test.h"

static unsigned long compared;

/* Format with both implementations at several buffer sizes; report mismatches. */
#define COMPARE(fmt, ...) do {							\
	char _k[256], _l[256];							\
	const char *_fmt = (fmt);	/* non-literal: no -Wformat on odd specs */ \
	static const size_t _sizes[] = { 256, 0, 1, 2, 5 };			\
	size_t _i;								\
	for (_i = 0; _i < ARRAY_SIZE(_sizes); _i++) {				\
		memset(_k, '@', sizeof(_k));					\
		memset(_l, '@', sizeof(_l));					\
		int _kr = snprintf(_k, _sizes[_i], _fmt, __VA_ARGS__);		\
		int _lr = libc_snprintf(_l, _sizes[_i], _fmt, __VA_ARGS__);	\
		compared++;							\
		if (_kr != _lr || memcmp(_k, _l, sizeof(_k))) {			\
			printf("# %s:%d: \"%s\" size %zu: kernel %d \"%.*s\" libc %d \"%.*s\"\n", \
			       __FILE__, __LINE__, _fmt, _sizes[_i], _kr,	\
			       (int)(_i ? _sizes[_i] : sizeof(_k)), _k, _lr,	\
			       (int)(_i ? _sizes[_i] : sizeof(_l)), _l);		\
			test_failed = 1;					\
			break;							\
		}								\
	}									\
} while (0)

static const char *const flag_sets[] = { "", "-", "0", "+", " ", "#", "-0", "+0", "#0", "-#", "+ ", "- +#0" };
static const char *const widths[] = { "", "1", "5", "12", "25" };
static const char *const precs[] = { "", ".", ".0", ".1", ".3", ".12", ".22" };

/* Walk every flag/width/precision combination for one conversion. */
#define FOR_EACH_SPEC(buf, lenmod, conv)					\
	for (size_t _f = 0; _f < ARRAY_SIZE(flag_sets); _f++)			\
	for (size_t _w = 0; _w < ARRAY_SIZE(widths); _w++)			\
	for (size_t _p = 0; _p < ARRAY_SIZE(precs); _p++)			\
	if (libc_snprintf(buf, sizeof(buf), "<%%%s%s%s%s%c>", flag_sets[_f],	\
			  widths[_w], precs[_p], lenmod, conv) > 0)

static void test_signed(void)
{
	static const long long vals[] = {
		0, 1, -1, 7, -42, 100, 32767, -32768, 65535, INT_MAX, INT_MIN,
		LLONG_MAX, LLONG_MIN, 1234567890123LL, -987654321LL, 255, 128, -129,
	};
	static const char convs[] = "di";
	char fmt[64];
	size_t v, c;

	for (v = 0; v < ARRAY_SIZE(vals); v++)
		for (c = 0; c < 2; c++) {
			FOR_EACH_SPEC(fmt, "", convs[c]) COMPARE(fmt, (int)vals[v]);
			FOR_EACH_SPEC(fmt, "hh", convs[c]) COMPARE(fmt, (signed char)vals[v]);
			FOR_EACH_SPEC(fmt, "h", convs[c]) COMPARE(fmt, (short)vals[v]);
			FOR_EACH_SPEC(fmt, "l", convs[c]) COMPARE(fmt, (long)vals[v]);
			FOR_EACH_SPEC(fmt, "ll", convs[c]) COMPARE(fmt, vals[v]);
			FOR_EACH_SPEC(fmt, "z", convs[c]) COMPARE(fmt, (ssize_t)vals[v]);
			FOR_EACH_SPEC(fmt, "t", convs[c]) COMPARE(fmt, (ptrdiff_t)vals[v]);
			FOR_EACH_SPEC(fmt, "j", convs[c]) COMPARE(fmt, (intmax_t)vals[v]);
		}
}

static void test_unsigned(void)
{
	static const unsigned long long vals[] = {
		0, 1, 7, 8, 15, 16, 255, 256, 0x7fff, 0xffff, 0x12345678, UINT_MAX,
		0x8000000000000000ULL, ULLONG_MAX, 01234567, 0xdeadbeefcafeULL,
	};
	static const char convs[] = "uoxX";
	char fmt[64];
	size_t v, c;

	for (v = 0; v < ARRAY_SIZE(vals); v++)
		for (c = 0; c < 4; c++) {
			FOR_EACH_SPEC(fmt, "", convs[c]) COMPARE(fmt, (unsigned int)vals[v]);
			FOR_EACH_SPEC(fmt, "hh", convs[c]) COMPARE(fmt, (unsigned char)vals[v]);
			FOR_EACH_SPEC(fmt, "h", convs[c]) COMPARE(fmt, (unsigned short)vals[v]);
			FOR_EACH_SPEC(fmt, "l", convs[c]) COMPARE(fmt, (unsigned long)vals[v]);
			FOR_EACH_SPEC(fmt, "ll", convs[c]) COMPARE(fmt, vals[v]);
			FOR_EACH_SPEC(fmt, "z", convs[c]) COMPARE(fmt, (size_t)vals[v]);
			FOR_EACH_SPEC(fmt, "j", convs[c]) COMPARE(fmt, (uintmax_t)vals[v]);
		}
}

static void test_char_string(void)
{
	static const char *const strs[] = { "", "a", "hello", "a longer string of text" };
	static const char *const sfl[] = { "", "-" };
	char fmt[64];
	size_t s, f, w, p;

	for (s = 0; s < ARRAY_SIZE(strs); s++)
		for (f = 0; f < ARRAY_SIZE(sfl); f++)
			for (w = 0; w < ARRAY_SIZE(widths); w++)
				for (p = 0; p < ARRAY_SIZE(precs); p++) {
					libc_snprintf(fmt, sizeof(fmt), "[%%%s%s%ss]", sfl[f], widths[w], precs[p]);
					COMPARE(fmt, strs[s]);
					libc_snprintf(fmt, sizeof(fmt), "[%%%s%sc]", sfl[f], widths[w]);
					COMPARE(fmt, strs[s][0] ? strs[s][0] : 'z');
				}
}

static void test_star_and_misc(void)
{
	static const int ws[] = { -20, -5, -1, 0, 1, 7, 30 };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(ws); i++) {
		for (j = 0; j < ARRAY_SIZE(ws); j++) {
			COMPARE("%*.*d|", ws[i], ws[j], -1234);
			COMPARE("%-*.*x|", ws[i], ws[j], 0xbeefU);
			COMPARE("%0*.*u|", ws[i], ws[j], 99U);
			COMPARE("%*.*s|", ws[i], ws[j], "string");
		}
		COMPARE("%0*d|", ws[i], 42);
		COMPARE("%*c|", ws[i], 'x');
	}
	COMPARE("%%|%s%%%d", "a", 1);
	COMPARE("plain text, no conversions%s", "");
	COMPARE("%d %s %x %c %o %u %lld %hhd", -5, "mixed", 0xabcU, 'q', 8U, 9U, -1LL, 300);
	COMPARE("%-+08d|% 08d|%+.0d|% .0d", 12, 34, 0, 0);
	COMPARE("%#o|%#.0o|%#5o|%#.3o|%#x|%#X|%#.0x", 0U, 0U, 8U, 8U, 0U, 255U, 0U);
}

static void test_return_values(void)
{
	const char *volatile null_str = NULL;	/* hidden from gcc's format checks */
	const char *odd_fmt = "a%yb%";
	char buf[16];

	CHECK_EQ(snprintf(NULL, 0, "%s-%d", "abc", 12345), 9);
	memset(buf, 'x', sizeof(buf));
	CHECK_EQ(snprintf(buf, 4, "%s", "abcdef"), 6);
	CHECK_STREQ(buf, "abc");
	CHECK_EQ(scnprintf(buf, 4, "%s", "abcdef"), 3);
	CHECK_EQ(scnprintf(buf, sizeof(buf), "%s", "abcdef"), 6);
	CHECK_EQ(scnprintf(buf, 0, "%s", "abcdef"), 0);
	CHECK_EQ(scnprintf(buf, 1, "%s", "abcdef"), 0);
	CHECK_STREQ(buf, "");
	CHECK_EQ(sprintf(buf, "%05d|%s", 42, "ok"), 8);
	CHECK_STREQ(buf, "00042|ok");
	CHECK_EQ(snprintf(buf, sizeof(buf), "%s", null_str), 6);
	CHECK_STREQ(buf, "(null)");
	CHECK_EQ(snprintf(buf, sizeof(buf), "%.3s", null_str), 3);
	CHECK_STREQ(buf, "(nu");
	/* Precision bounds the read: the array below has no NUL. */
	{
		char nonul[3] = { 'a', 'b', 'c' };

		CHECK_EQ(snprintf(buf, sizeof(buf), "%.3s", nonul), 3);
		CHECK_STREQ(buf, "abc");
	}
	/* Unknown conversions and a trailing '%' come out verbatim. */
	CHECK_EQ(snprintf(buf, sizeof(buf), odd_fmt, 0), 5);
	CHECK_STREQ(buf, "a%yb%");
}

static void test_pointer(void)
{
	char buf[64], ref[64];
	void *p = (void *)0x1234abcdUL;

	snprintf(buf, sizeof(buf), "%p", p);
	CHECK_STREQ(buf, "0x000000001234abcd");
	snprintf(buf, sizeof(buf), "%p", NULL);
	CHECK_STREQ(buf, "0x0000000000000000");
	snprintf(buf, sizeof(buf), "%p", (void *)~0UL);
	CHECK_STREQ(buf, "0xffffffffffffffff");
	libc_snprintf(ref, sizeof(ref), "0x%016lx", (unsigned long)&buf);
	snprintf(buf, sizeof(buf), "%p", (void *)&buf);
	CHECK_STREQ(buf, ref);
	snprintf(buf, sizeof(buf), "[%20p][%-20p]", p, p);
	CHECK_STREQ(buf, "[  0x000000001234abcd][0x000000001234abcd  ]");
	/* Alphanumerics after %p belong to it (Linux); other text is kept. */
	snprintf(buf, sizeof(buf), "%px %pK.", p, p);
	CHECK_STREQ(buf, "0x000000001234abcd 0x000000001234abcd.");
}

static void test_symbol(void)
{
	char buf[64];

	/* No lookup installed: the address in hex. */
	vsprintf_set_symbol_lookup(NULL);
	snprintf(buf, sizeof(buf), "%pS", (void *)0xffffffff8100001aUL);
	CHECK_STREQ(buf, "0xffffffff8100001a");
	vsprintf_set_symbol_lookup(sprint_symbol);	/* kallsyms_stub.c */
	snprintf(buf, sizeof(buf), "%pS", (void *)0xffffffff8100001aUL);
	CHECK_STREQ(buf, "start_kernel+0x1a/0x40");
	snprintf(buf, sizeof(buf), "%ps", (void *)0xffffffff8100001aUL);
	CHECK_STREQ(buf, "start_kernel");
	snprintf(buf, sizeof(buf), "%pS", (void *)0xffffffff81000140UL);
	CHECK_STREQ(buf, "schedule+0x0/0x20");
	snprintf(buf, sizeof(buf), "<%12ps><%-12ps>", (void *)0xffffffff81000140UL,
		 (void *)0xffffffff81000140UL);
	CHECK_STREQ(buf, "<    schedule><schedule    >");
	snprintf(buf, sizeof(buf), "%pS", (void *)0x1000UL);
	CHECK_STREQ(buf, "0x1000");
	CHECK_EQ(snprintf(buf, 5, "%ps!", (void *)0xffffffff81000050UL), 15);
	CHECK_STREQ(buf, "rcu_");
}

static void test_bitmap_list(void)
{
	DECLARE_BITMAP(map, 130) = { 0 };
	char buf[64];

	CHECK_EQ(snprintf(buf, sizeof(buf), "[%*pbl]", 130, map), 2);
	CHECK_STREQ(buf, "[]");
	__set_bit(0, map);
	__set_bit(1, map);
	__set_bit(2, map);
	__set_bit(5, map);
	__set_bit(63, map);
	__set_bit(64, map);
	__set_bit(129, map);
	snprintf(buf, sizeof(buf), "%*pbl", 130, map);
	CHECK_STREQ(buf, "0-2,5,63-64,129");
	/* The width is the bit count: bits at and above it are not shown. */
	snprintf(buf, sizeof(buf), "%*pbl", 64, map);
	CHECK_STREQ(buf, "0-2,5,63");
	snprintf(buf, sizeof(buf), "%*pbl|", 0, map);
	CHECK_STREQ(buf, "|");
	CHECK_EQ(snprintf(buf, 4, "%*pbl", 130, map), 15);
	CHECK_STREQ(buf, "0-2");
}

static void test_coverage_count(void)
{
	/* Guards against the tables above silently shrinking. */
	printf("# compared %lu outputs with libc\n", compared);
	CHECK(compared > 50000);
}

static const struct test_case tests[] = {
	TEST_CASE(test_signed),
	TEST_CASE(test_unsigned),
	TEST_CASE(test_char_string),
	TEST_CASE(test_star_and_misc),
	TEST_CASE(test_return_values),
	TEST_CASE(test_pointer),
	TEST_CASE(test_symbol),
	TEST_CASE(test_bitmap_list),
	TEST_CASE(test_coverage_count),
};

TEST_MAIN("test_vsprintf", tests)
