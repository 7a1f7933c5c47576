/*
 * Tests for the pure parts of mm/: the physical range lists (memrange.c)
 * and the buddy free lists (buddy.c), compiled straight into this program.
 * A random alloc/free workload checks alignment, that no page is handed
 * out twice or from a hole, and that freeing everything merges back to
 * the same free lists as at the start.
 */
#include "../../mm/memrange.c"
#include "../../mm/buddy.c"
#include <stdlib.h>
#include "test.h"

#define A	4096ULL

static void test_normalize(void)
{
	struct mem_range r[] = {
		{ 0x200000, 0x300000 },
		{ 0x1001, 0x1fff },		/* empty once aligned inward */
		{ 0x100000, 0x200800 },		/* touches and overlaps the first */
		{ 0x800, 0x9fc00 },		/* aligned inward: 0x1000-0x9f000 */
		{ 0x10000000, 0x20000000 },
		{ 0x12000000, 0x13000000 },	/* inside the previous one */
	};
	unsigned int n = memrange_normalize(r, 6, A);

	CHECK_EQ(n, 3);
	CHECK_EQ(r[0].start, 0x1000);
	CHECK_EQ(r[0].end, 0x9f000);
	CHECK_EQ(r[1].start, 0x100000);
	CHECK_EQ(r[1].end, 0x300000);
	CHECK_EQ(r[2].start, 0x10000000);
	CHECK_EQ(r[2].end, 0x20000000);
	CHECK_EQ(memrange_total(r, n), 0x9e000 + 0x200000 + 0x10000000);
	CHECK_EQ(memrange_normalize(r, 0, A), 0);
}

static void test_subtract(void)
{
	struct mem_range r[4] = { { 0x0, 0x100000 }, { 0x200000, 0x400000 } };
	u64 lost = 0;
	unsigned int n = 2;

	/* Widened outward to whole pages; splits the second range. */
	n = memrange_subtract(r, n, 4, 0x300001, 0x300fff, A, &lost);
	CHECK_EQ(n, 3);
	CHECK_EQ(r[1].end, 0x300000);
	CHECK_EQ(r[2].start, 0x301000);
	CHECK_EQ(r[2].end, 0x400000);
	/* Cut the head of the first and the whole middle one, and a tail. */
	n = memrange_subtract(r, n, 4, 0, 0x1000, A, &lost);
	CHECK_EQ(r[0].start, 0x1000);
	n = memrange_subtract(r, n, 4, 0x1ff000, 0x300000, A, &lost);
	CHECK_EQ(n, 2);
	CHECK_EQ(r[1].start, 0x301000);
	n = memrange_subtract(r, n, 4, 0x3ff800, 0x500000, A, &lost);
	CHECK_EQ(r[1].end, 0x3ff000);
	/* One hole spanning both: nothing of the kind left in between. */
	n = memrange_subtract(r, n, 4, 0x80000, 0x302000, A, &lost);
	CHECK_EQ(n, 2);
	CHECK_EQ(r[0].end, 0x80000);
	CHECK_EQ(r[1].start, 0x302000);
	CHECK_EQ(lost, 0);
	/* No room for a split: the upper piece is dropped and counted. */
	n = memrange_subtract(r, n, 2, 0x10000, 0x11000, A, &lost);
	CHECK_EQ(n, 2);
	CHECK_EQ(r[0].end, 0x10000);
	CHECK_EQ(lost, 0x80000 - 0x11000);
	/* Empty and disjoint holes change nothing. */
	CHECK_EQ(memrange_subtract(r, n, 4, 0x5000, 0x5000, A, &lost), 2);
	CHECK_EQ(memrange_subtract(r, n, 4, 0x900000, 0xa00000, A, &lost), 2);
	/* Covering everything empties the list. */
	CHECK_EQ(memrange_subtract(r, n, 4, 0, ~0ULL - 0x2000, A, &lost), 0);
}

static unsigned long rng = 0x9e3779b97f4a7c15UL;

static unsigned long rnd(void)
{
	return test_xorshift(&rng);
}

#define NPAGES	5000UL
#define HOLE_LO	1500UL	/* [HOLE_LO, HOLE_HI) stays reserved */
#define HOLE_HI	1537UL

struct block { unsigned long pfn; unsigned int order; };

static void snapshot(const struct buddy_zone *z, unsigned long *counts)
{
	for (unsigned int o = 0; o <= MAX_ORDER; o++)
		counts[o] = z->area[o].nr_free;
}

static void test_buddy_random(void)
{
	static struct page map[NPAGES];
	static char owner[NPAGES];
	static struct block live[NPAGES];
	unsigned long before[MAX_ORDER + 1], after[MAX_ORDER + 1], total;
	struct buddy_zone z;
	unsigned int nlive = 0, i, o;

	buddy_init(&z, map, NPAGES);
	buddy_free_range(&z, 1, HOLE_LO);	/* pfn 0 is never handed over */
	buddy_free_range(&z, HOLE_HI, NPAGES);
	total = (HOLE_LO - 1) + (NPAGES - HOLE_HI);
	CHECK_EQ(z.nr_free, total);
	snapshot(&z, before);

	for (i = 0; i < 200000; i++) {
		if (nlive && (rnd() % 2 || nlive == NPAGES)) {
			unsigned int k = rnd() % nlive;
			struct block b = live[k];

			for (unsigned long p = b.pfn; p < b.pfn + (1UL << b.order); p++)
				owner[p] = 0;
			buddy_free(&z, b.pfn, b.order);
			live[k] = live[--nlive];
		} else {
			unsigned int order = rnd() % 16 ? rnd() % 4 : rnd() % (MAX_ORDER + 1);
			unsigned long pfn = buddy_alloc(&z, order);

			if (pfn == BUDDY_NO_PFN)
				continue;
			CHECK_EQ(pfn & ((1UL << order) - 1), 0);
			CHECK(pfn + (1UL << order) <= NPAGES);
			for (unsigned long p = pfn; p < pfn + (1UL << order); p++) {
				CHECK(p != 0 && (p < HOLE_LO || p >= HOLE_HI));
				CHECK(!owner[p]);
				owner[p] = 1;
			}
			live[nlive++] = (struct block){ pfn, order };
		}
		if (test_failed)
			return;
	}
	while (nlive) {
		nlive--;
		buddy_free(&z, live[nlive].pfn, live[nlive].order);
	}
	CHECK_EQ(z.nr_free, total);
	snapshot(&z, after);
	for (o = 0; o <= MAX_ORDER; o++)
		CHECK_EQ(after[o], before[o]);
	for (i = HOLE_LO; i < HOLE_HI; i++)
		CHECK_EQ(map[i].flags, PG_reserved);
}

static void test_buddy_exhaust(void)
{
	static struct page map[2048];
	static unsigned long pfns[1024];
	struct buddy_zone z;
	unsigned long big, n = 0;

	buddy_init(&z, map, 2048);
	buddy_free_range(&z, 0, 2048);
	CHECK_EQ(z.area[MAX_ORDER].nr_free, 2);
	big = buddy_alloc(&z, MAX_ORDER);
	CHECK_EQ(big % 1024, 0);
	while (n < 1024 && (pfns[n] = buddy_alloc(&z, 0)) != BUDDY_NO_PFN)
		n++;
	CHECK_EQ(n, 1024);
	CHECK_EQ(z.nr_free, 0);
	CHECK_EQ(buddy_alloc(&z, 0), BUDDY_NO_PFN);
	/* Freeing the single pages in any order rebuilds the order-10 block. */
	for (unsigned long i = 0; i < n; i += 2)
		buddy_free(&z, pfns[i], 0);
	for (unsigned long i = 1; i < n; i += 2)
		buddy_free(&z, pfns[i], 0);
	CHECK_EQ(z.area[MAX_ORDER].nr_free, 1);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		CHECK_EQ(z.area[o].nr_free, 0);
	buddy_free(&z, big, MAX_ORDER);
	CHECK_EQ(z.area[MAX_ORDER].nr_free, 2);
	CHECK_EQ(z.nr_free, 2048);
}

static const struct test_case tests[] = {
	TEST_CASE(test_normalize),
	TEST_CASE(test_subtract),
	TEST_CASE(test_buddy_random),
	TEST_CASE(test_buddy_exhaust),
};

TEST_MAIN("test_mm_buddy", tests)
