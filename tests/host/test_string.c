/*
 * Tests for lib/string.c. The kernel's copies are built from the same
 * source with symbols renamed to k_* (see the Makefile), so they can be
 * compared with libc in the same program.
 */
#include <kernel/compiler.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <stdlib.h>
#include "test.h"

void *k_memcpy(void *dst, const void *src, size_t n);
void *k_memmove(void *dst, const void *src, size_t n);
void *k_memset(void *s, int c, size_t n);
int k_memcmp(const void *a, const void *b, size_t n);
size_t k_strlen(const char *s);
size_t k_strnlen(const char *s, size_t maxlen);
int k_strcmp(const char *a, const char *b);
int k_strncmp(const char *a, const char *b, size_t n);
char *k_strchr(const char *s, int c);
char *k_strrchr(const char *s, int c);
char *k_strstr(const char *haystack, const char *needle);
size_t k_strspn(const char *s, const char *accept);
size_t k_strcspn(const char *s, const char *reject);
ssize_t k_strscpy(char *dst, const char *src, size_t count);

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + seed);
}

/* Every alignment and length pair up to 40 bytes, plus guard bytes. */
static void test_memcpy_memset(void)
{
	unsigned char src[64], a[80], b[80];
	size_t soff, doff, n;

	fill_pattern(src, sizeof(src), 3);
	for (soff = 0; soff < 8; soff++)
		for (doff = 0; doff < 8; doff++)
			for (n = 0; n <= 40; n++) {
				memset(a, 0xee, sizeof(a));
				memset(b, 0xee, sizeof(b));
				CHECK(k_memcpy(a + doff, src + soff, n) == a + doff);
				memcpy(b + doff, src + soff, n);
				CHECK(!memcmp(a, b, sizeof(a)));
				CHECK(k_memset(a + doff, 0x5a + (int)n, n) == a + doff);
				memset(b + doff, 0x5a + (int)n, n);
				CHECK(!memcmp(a, b, sizeof(a)));
			}
}

/* Overlapping moves in both directions at every distance. */
static void test_memmove(void)
{
	unsigned char a[96], b[96];
	size_t s, d, n;

	for (s = 0; s < 24; s++)
		for (d = 0; d < 24; d++)
			for (n = 0; n <= 48; n += 3) {
				fill_pattern(a, sizeof(a), 1);
				fill_pattern(b, sizeof(b), 1);
				CHECK(k_memmove(a + d, a + s, n) == a + d);
				memmove(b + d, b + s, n);
				CHECK(!memcmp(a, b, sizeof(a)));
			}
}

static void test_compare(void)
{
	static const char *const strs[] = {
		"", "a", "ab", "abc", "abd", "b", "\xff", "ab\xff", "abc\0x", "ABC",
	};
	size_t i, j, n;

	for (i = 0; i < ARRAY_SIZE(strs); i++) {
		CHECK_EQ(k_strlen(strs[i]), strlen(strs[i]));
		for (n = 0; n < 5; n++)
			CHECK_EQ(k_strnlen(strs[i], n), strnlen(strs[i], n));
		for (j = 0; j < ARRAY_SIZE(strs); j++) {
			CHECK_EQ(sign(k_strcmp(strs[i], strs[j])), sign(strcmp(strs[i], strs[j])));
			for (n = 0; n < 5; n++) {
				CHECK_EQ(sign(k_strncmp(strs[i], strs[j], n)),
					 sign(strncmp(strs[i], strs[j], n)));
				if (n <= strlen(strs[i]) && n <= strlen(strs[j]))
					CHECK_EQ(sign(k_memcmp(strs[i], strs[j], n)),
						 sign(memcmp(strs[i], strs[j], n)));
			}
		}
	}
}

static void test_search(void)
{
	const char *s = "rcutree.blimit=10 rcu_nocbs=1-3";
	static const char *const needles[] = { "", "r", "rcu", "=1", "1-3", "x", "rcu_nocbs=1-34" };
	static const int chars[] = { 'r', '=', '3', 'z', '\0', ' ' };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(needles); i++) {
		CHECK(k_strstr(s, needles[i]) == strstr(s, needles[i]));
		CHECK(k_strstr("", needles[i]) == strstr("", needles[i]));
		CHECK_EQ(k_strspn(s, needles[i]), strspn(s, needles[i]));
		CHECK_EQ(k_strcspn(s, needles[i]), strcspn(s, needles[i]));
	}
	for (i = 0; i < ARRAY_SIZE(chars); i++) {
		CHECK(k_strchr(s, chars[i]) == strchr(s, chars[i]));
		CHECK(k_strrchr(s, chars[i]) == strrchr(s, chars[i]));
	}
}

static void test_strscpy(void)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	CHECK_EQ(k_strscpy(buf, "abc", sizeof(buf)), 3);
	CHECK_STREQ(buf, "abc");
	CHECK_EQ(k_strscpy(buf, "1234567", sizeof(buf)), 7);
	CHECK_STREQ(buf, "1234567");
	CHECK_EQ(k_strscpy(buf, "12345678", sizeof(buf)), -E2BIG);
	CHECK_STREQ(buf, "1234567");
	CHECK_EQ(k_strscpy(buf, "", sizeof(buf)), 0);
	CHECK_STREQ(buf, "");
	buf[0] = 'q';
	CHECK_EQ(k_strscpy(buf, "abc", 0), -E2BIG);
	CHECK_EQ(buf[0], 'q');
	CHECK_EQ(k_strscpy(buf, "abc", 1), -E2BIG);
	CHECK_STREQ(buf, "");
	/* The host build's strscpy (the one lib/ code links against) agrees. */
	CHECK_EQ(strscpy(buf, "abcdefghij", 4), -E2BIG);
	CHECK_STREQ(buf, "abc");
}

static const struct test_case tests[] = {
	TEST_CASE(test_memcpy_memset),
	TEST_CASE(test_memmove),
	TEST_CASE(test_compare),
	TEST_CASE(test_search),
	TEST_CASE(test_strscpy),
};

TEST_MAIN("test_string", tests)
