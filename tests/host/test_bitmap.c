/*
 * Tests for lib/bitmap.c: operations, bit searches, and the CPU-list
 * parser/printer including round trips for every size 1..200.
 */
#include <kernel/bitmap.h>
#include <kernel/errno.h>
#include <stdlib.h>
#include "test.h"

#define MAXBITS	256

/* Reference answer: a bitmap as one char per bit. */
static void to_bools(const unsigned long *map, unsigned nbits, char *b)
{
	unsigned i;

	for (i = 0; i < nbits; i++)
		b[i] = test_bit(i, map);
}

static unsigned long rng_state = 88172645463325252UL;

static unsigned long rnd(void)
{
	return test_xorshift(&rng_state);
}

static void random_map(unsigned long *map, unsigned nbits)
{
	unsigned i, density = rnd() % 4;

	bitmap_zero(map, nbits);
	for (i = 0; i < nbits; i++) {
		if (density == 0 ? rnd() % 8 == 0 : density == 1 ? rnd() % 2 : rnd() % 8 != 0)
			__set_bit(i, map);
	}
}

static void test_bit_ops(void)
{
	DECLARE_BITMAP(m, 130);

	bitmap_zero(m, 130);
	CHECK(bitmap_empty(m, 130));
	__set_bit(0, m);
	__set_bit(64, m);
	__set_bit(129, m);
	CHECK(test_bit(0, m) && test_bit(64, m) && test_bit(129, m) && !test_bit(1, m));
	CHECK_EQ(bitmap_weight(m, 130), 3);
	CHECK_EQ(bitmap_weight(m, 129), 2);
	CHECK(!bitmap_empty(m, 130));
	CHECK(bitmap_empty(m + 1, 0));
	__clear_bit(64, m);
	CHECK(!test_bit(64, m));
	CHECK_EQ(find_first_bit(m, 130), 0);
	CHECK_EQ(find_next_bit(m, 130, 1), 129);
	CHECK_EQ(find_next_bit(m, 129, 1), 129);
	CHECK_EQ(find_next_bit(m, 130, 130), 130);
	CHECK_EQ(find_next_bit(m, 130, 500), 130);
	CHECK_EQ(find_first_zero_bit(m, 130), 1);
	bitmap_fill(m, 130);
	CHECK(bitmap_full(m, 130));
	CHECK_EQ(m[2], 3);	/* fill leaves the bits past nbits clear */
	CHECK_EQ(bitmap_weight(m, 130), 130);
	CHECK_EQ(find_first_zero_bit(m, 130), 130);
	bitmap_clear(m, 60, 10);
	CHECK_EQ(find_next_zero_bit(m, 130, 3), 60);
	CHECK_EQ(find_next_bit(m, 130, 60), 70);
	bitmap_set(m, 62, 2);
	CHECK_EQ(bitmap_weight(m, 130), 122);
	bitmap_fill(m, 0);
	bitmap_fill(m, 64);
	CHECK_EQ(m[0], ~0UL);
}

static void test_set_ops(void)
{
	DECLARE_BITMAP(a, 100);
	DECLARE_BITMAP(b, 100);
	DECLARE_BITMAP(d, 100);
	unsigned i;

	bitmap_zero(a, 100);
	bitmap_zero(b, 100);
	bitmap_set(a, 0, 50);
	bitmap_set(b, 40, 60);
	CHECK(bitmap_and(d, a, b, 100));
	CHECK_EQ(bitmap_weight(d, 100), 10);
	CHECK_EQ(find_first_bit(d, 100), 40);
	bitmap_or(d, a, b, 100);
	CHECK(bitmap_full(d, 100));
	CHECK(bitmap_andnot(d, a, b, 100));
	CHECK_EQ(bitmap_weight(d, 100), 40);
	CHECK(!bitmap_andnot(d, a, a, 100));
	CHECK(bitmap_empty(d, 100));
	bitmap_copy(d, a, 100);
	CHECK(bitmap_equal(d, a, 100));
	d[1] |= 1UL << 63;	/* bit 127, beyond nbits: ignored */
	CHECK(bitmap_equal(d, a, 100));
	CHECK(!bitmap_equal(d, a, 128));
	/* and/andnot only report bits below nbits. */
	bitmap_zero(a, 100);
	bitmap_zero(b, 100);
	a[1] = b[1] = 1UL << 40;	/* bit 104 */
	CHECK(!bitmap_and(d, a, b, 100));
	CHECK(!bitmap_andnot(d, a, d, 100));
	for (i = 0; i < 100; i++)
		CHECK(!test_bit(i, d));
}

/* Compare find_next_bit/zero_bit and for_each_set_bit with a naive scan. */
static void test_search_random(void)
{
	unsigned long map[BITS_TO_LONGS(MAXBITS)];
	char ref[MAXBITS];
	unsigned nbits, off, bit, count, iter;

	for (iter = 0; iter < 300; iter++) {
		nbits = 1 + rnd() % MAXBITS;
		random_map(map, nbits);
		to_bools(map, nbits, ref);
		for (off = 0; off <= nbits; off++) {
			unsigned n1 = off, n0 = off;

			while (n1 < nbits && !ref[n1])
				n1++;
			while (n0 < nbits && ref[n0])
				n0++;
			CHECK_EQ(find_next_bit(map, nbits, off), n1);
			CHECK_EQ(find_next_zero_bit(map, nbits, off), n0);
		}
		count = 0;
		for_each_set_bit(bit, map, nbits) {
			CHECK(ref[bit]);
			count++;
		}
		CHECK_EQ(count, bitmap_weight(map, nbits));
	}
}

struct parse_case {
	const char *s;
	unsigned nbits;
	int ret;
	const char *list;	/* expected result printed back, if ret == 0 */
};

static void test_parselist(void)
{
	static const struct parse_case cases[] = {
		{ "", 8, 0, "" }, { "none", 8, 0, "" }, { " , ,", 8, 0, "" },
		{ "0", 8, 0, "0" }, { "1-3,7", 8, 0, "1-3,7" }, { "7,1-3", 8, 0, "1-3,7" },
		{ "0-7:2/4", 8, 0, "0-1,4-5" }, { "0-1023:2/256", 1024, 0, "0-1,256-257,512-513,768-769" },
		{ "0-6:2/4", 8, 0, "0-1,4-5" }, { "1-6:3/4", 8, 0, "1-3,5-6" }, { "0-7:0/4", 8, 0, "" },
		{ "all", 8, 0, "0-7" }, { "all:1/2", 8, 0, "0,2,4,6" }, { "N", 8, 0, "7" },
		{ "2-N", 8, 0, "2-7" }, { "N-N", 1, 0, "0" }, { "0-N:1/3", 10, 0, "0,3,6,9" },
		{ "0,0,0-0", 8, 0, "0" }, { "3 , 5\n", 8, 0, "3,5" }, { " 1\t2", 8, 0, "1-2" },
		{ "none,2", 8, 0, "2" }, { "0-63", 64, 0, "0-63" }, { "63-64", 65, 0, "63-64" },
		{ "8", 8, -ERANGE, NULL }, { "0-8", 8, -ERANGE, NULL }, { "all", 0, -ERANGE, NULL },
		{ "N", 0, -ERANGE, NULL }, { "4294967295", 8, -ERANGE, NULL },
		{ "4294967296", 8, -ERANGE, NULL }, { "99999999999999999999999", 8, -ERANGE, NULL },
		{ "3-1", 8, -EINVAL, NULL }, { "1-", 8, -EINVAL, NULL }, { "-1", 8, -EINVAL, NULL },
		{ "a", 8, -EINVAL, NULL }, { "1x", 8, -EINVAL, NULL }, { "1-3x", 8, -EINVAL, NULL },
		{ "0-7:2", 8, -EINVAL, NULL }, { "0-7:2/", 8, -EINVAL, NULL }, { "0-7:3/2", 8, -EINVAL, NULL },
		{ "0-7:1/0", 8, -EINVAL, NULL }, { "3:1/2", 8, -EINVAL, NULL }, { "0-7:1/2x", 8, -EINVAL, NULL },
		{ "allx", 8, -EINVAL, NULL }, { "nonex", 8, -EINVAL, NULL }, { "1--2", 8, -EINVAL, NULL },
		{ "1;2", 8, -EINVAL, NULL }, { "+1", 8, -EINVAL, NULL }, { "0x1", 8, -EINVAL, NULL },
		{ "9-3", 8, -EINVAL, NULL },	/* syntax before range, as Linux */
	};
	unsigned long map[BITS_TO_LONGS(1024)];
	char buf[128];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct parse_case *c = &cases[i];

		ret = bitmap_parselist(c->s, map, c->nbits);
		if (ret != c->ret) {
			printf("# parselist(\"%s\", %u) = %d, want %d\n", c->s, c->nbits, ret, c->ret);
			test_failed = 1;
			continue;
		}
		if (ret)
			continue;
		bitmap_print_list(buf, sizeof(buf), map, c->nbits);
		if (strcmp(buf, c->list)) {
			printf("# parselist(\"%s\", %u) -> \"%s\", want \"%s\"\n", c->s, c->nbits, buf, c->list);
			test_failed = 1;
		}
	}
}

/* A word of canaries after the map: parselist must not touch it. */
static void test_parselist_bounds(void)
{
	unsigned long map[BITS_TO_LONGS(MAXBITS) + 1];
	unsigned nbits, words;
	char s[32];

	for (nbits = 1; nbits <= 200; nbits++) {
		words = BITS_TO_LONGS(nbits);
		memset(map, 0xa5, sizeof(map));
		CHECK_EQ(bitmap_parselist("all", map, nbits), 0);
		CHECK_EQ(bitmap_weight(map, nbits), nbits);
		CHECK_EQ(map[words - 1] & ~BITMAP_LAST_WORD_MASK(nbits), 0);
		CHECK_EQ(map[words], 0xa5a5a5a5a5a5a5a5UL);
		snprintf(s, sizeof(s), "%u", nbits);
		CHECK_EQ(bitmap_parselist(s, map, nbits), -ERANGE);
		snprintf(s, sizeof(s), "0-%u:1/7", nbits - 1);
		CHECK_EQ(bitmap_parselist(s, map, nbits), 0);
		CHECK_EQ(bitmap_weight(map, nbits), (nbits + 6) / 7);
		CHECK_EQ(map[words], 0xa5a5a5a5a5a5a5a5UL);
	}
}

static void test_print_list(void)
{
	DECLARE_BITMAP(m, 70);
	char buf[16];

	bitmap_zero(m, 70);
	CHECK_EQ(bitmap_print_list(buf, sizeof(buf), m, 70), 0);
	CHECK_STREQ(buf, "");
	bitmap_set(m, 0, 4);
	__set_bit(7, m);
	__set_bit(9, m);
	__set_bit(10, m);
	__set_bit(69, m);
	CHECK_EQ(bitmap_print_list(buf, sizeof(buf), m, 70), 13);
	CHECK_STREQ(buf, "0-3,7,9-10,69");
	/* Truncation: scnprintf semantics, always NUL-terminated. */
	CHECK_EQ(bitmap_print_list(buf, 6, m, 70), 5);
	CHECK_STREQ(buf, "0-3,7");
	CHECK_EQ(bitmap_print_list(buf, 0, m, 70), 0);
}

/* print(parse(x)) is canonical, and parse(print(map)) == map, for many sizes. */
static void test_roundtrip(void)
{
	unsigned long map[BITS_TO_LONGS(MAXBITS)], back[BITS_TO_LONGS(MAXBITS)];
	char buf[1024], buf2[1024];
	unsigned nbits, iter;

	for (nbits = 1; nbits <= 200; nbits++) {
		for (iter = 0; iter < 20; iter++) {
			random_map(map, nbits);
			bitmap_print_list(buf, sizeof(buf), map, nbits);
			if (bitmap_parselist(buf, back, nbits) || !bitmap_equal(map, back, nbits)) {
				printf("# roundtrip failed: nbits %u \"%s\"\n", nbits, buf);
				test_failed = 1;
				return;
			}
			bitmap_print_list(buf2, sizeof(buf2), back, nbits);
			CHECK_STREQ(buf, buf2);
		}
	}
}

static const struct test_case tests[] = {
	TEST_CASE(test_bit_ops),
	TEST_CASE(test_set_ops),
	TEST_CASE(test_search_random),
	TEST_CASE(test_parselist),
	TEST_CASE(test_parselist_bounds),
	TEST_CASE(test_print_list),
	TEST_CASE(test_roundtrip),
};

TEST_MAIN("test_bitmap", tests)
