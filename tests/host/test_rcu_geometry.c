/*
 * Tests for kernel/rcu/tree_geometry.c: Linux's known shapes, input
 * validation, the level count and node counts across nr_cpu_ids
 * 1..8192 (Linux's largest x86-64 NR_CPUS) x fanout 2..64 x leaf fanout
 * 2..64 (balanced and exact), Linux's shapes at NR_CPUS=4096 and 8192, and
 * the full structure (every CPU in exactly one leaf, children tile their
 * parent, masks fit in 64 bits) exhaustively for small CPU counts and for
 * a random sample of the rest.
 */
#include "../../kernel/rcu/tree_geometry.h"
#include <kernel/compiler.h>
#include <kernel/errno.h>
#include <stdlib.h>
#include "test.h"

#define MAX_CPUS	8192

/* Independent capacity: CPUs a tree of `levels` levels can hold. */
static long capacity(int levels, int fanout, int leaf)
{
	long c = leaf;

	while (--levels > 0)
		c *= fanout;
	return c;
}

static long ceil_div(long a, long b)
{
	return (a + b - 1) / b;
}

/* cap[d]: CPUs a node d levels above the leaves holds. */
static void fill_caps(long cap[RCU_NUM_LVLS], int fanout, int leaf)
{
	for (int d = 0; d < RCU_NUM_LVLS; d++)
		cap[d] = capacity(d + 1, fanout, leaf);
}

/* The level count rcu_geometry_compute() must choose, or -EINVAL. */
static int levels_for(const long cap[RCU_NUM_LVLS], int n)
{
	for (int levels = 1; levels <= RCU_NUM_LVLS; levels++)
		if (n <= cap[levels - 1])
			return levels;
	return -EINVAL;
}

static void report(int n, int fanout, int leaf, bool exact)
{
	printf("# nr_cpu_ids=%d fanout=%d leaf=%d exact=%d\n", n, fanout, leaf, exact);
}

/*
 * The cheap checks, O(levels): level and node counts, spreads, and that
 * the last node of each level still has CPUs (spans ascend contiguously,
 * so then none is empty) while the nodes reach every CPU.
 */
static void check_shape(const struct rcu_geometry *g, const long cap[RCU_NUM_LVLS], int n,
			int fanout, int leaf, bool exact)
{
	int i, sum = 0, lvls = g->levels;
	long stride = 1, below = n;

	CHECK_EQ(g->nr_cpu_ids, n);
	CHECK_EQ(g->fanout, fanout);
	CHECK_EQ(g->leaf_fanout, leaf);
	CHECK_EQ(lvls, levels_for(cap, n));
	CHECK_EQ(g->num_rcu_lvl[0], 1);
	for (i = 0; i < lvls; i++) {
		CHECK_EQ(g->level_offset[i], sum);
		CHECK_EQ(g->num_rcu_lvl[i], ceil_div(n, cap[lvls - 1 - i]));
		sum += g->num_rcu_lvl[i];
	}
	CHECK_EQ(g->num_nodes, sum);
	for (i = lvls - 1; i >= 0; i--) {
		int max = i == lvls - 1 ? leaf : fanout;

		if (exact)
			CHECK_EQ(g->levelspread[i], max);
		else
			CHECK_EQ(g->levelspread[i], ceil_div(below, g->num_rcu_lvl[i]));
		CHECK(g->levelspread[i] >= 1 && g->levelspread[i] <= max);
		below = g->num_rcu_lvl[i];
		stride *= g->levelspread[i];
		/* The level reaches every CPU, and its last node has some. */
		CHECK(g->num_rcu_lvl[i] * stride >= n);
		CHECK((g->num_rcu_lvl[i] - 1) * stride < n);
	}
}

/* The full structure through the accessors, O(nr_cpu_ids + nodes). */
static void check_structure(const struct rcu_geometry *g)
{
	static int owner[MAX_CPUS];
	int n = g->nr_cpu_ids, leaves = g->levels - 1, lvl, j, cpu, lo, hi, plo, phi;

	/* Root: all CPUs, no parent. */
	rcu_geometry_node_span(g, 0, 0, &lo, &hi);
	CHECK_EQ(lo, 0);
	CHECK_EQ(hi, n - 1);
	CHECK_EQ(rcu_geometry_parent(g, 0, 0), -1);

	/* Every CPU in exactly one leaf, which leaf_of() names; leaf masks fit. */
	for (cpu = 0; cpu < n; cpu++)
		owner[cpu] = -1;
	for (j = 0; j < g->num_rcu_lvl[leaves]; j++) {
		rcu_geometry_node_span(g, leaves, j, &lo, &hi);
		CHECK(lo <= hi);
		CHECK(hi - lo + 1 <= g->leaf_fanout);
		CHECK(hi - lo < 64);
		CHECK_EQ(rcu_geometry_first_child(g, leaves, j), -1);
		for (cpu = lo; cpu <= hi && cpu >= 0 && cpu < n; cpu++) {
			CHECK_EQ(owner[cpu], -1);
			owner[cpu] = j;
			CHECK_EQ(rcu_geometry_leaf_of(g, cpu), j);
		}
	}
	for (cpu = 0; cpu < n; cpu++)
		CHECK(owner[cpu] >= 0);

	/* Each child inside its parent; each parent tiled by its children, in order. */
	for (lvl = 0; lvl < leaves; lvl++) {
		int nchild = g->num_rcu_lvl[lvl + 1], next = 0;

		for (j = 0; j < g->num_rcu_lvl[lvl]; j++) {
			int fc = rcu_geometry_first_child(g, lvl, j), c, expect_lo;

			rcu_geometry_node_span(g, lvl, j, &plo, &phi);
			CHECK(plo <= phi);
			CHECK_EQ(fc, next);	/* children come in order, none skipped */
			if (fc < 0 || fc >= nchild)
				return;
			expect_lo = plo;
			for (c = fc; c < nchild && rcu_geometry_parent(g, lvl + 1, c) == j; c++) {
				rcu_geometry_node_span(g, lvl + 1, c, &lo, &hi);
				CHECK_EQ(lo, expect_lo);
				CHECK(hi <= phi);
				CHECK(c - fc < g->fanout);
				CHECK(c - fc < 64);	/* grpnum fits the parent's masks */
				CHECK(c - fc < g->levelspread[lvl]);
				expect_lo = hi + 1;
			}
			CHECK(c > fc);
			CHECK_EQ(expect_lo, phi + 1);
			next = c;
		}
		CHECK_EQ(next, nchild);		/* every child has a parent */
	}
}

/* Compute one geometry and check it; returns non-zero on failure. */
static int check_one(const long cap[RCU_NUM_LVLS], int n, int fanout, int leaf, bool exact,
		     bool full)
{
	struct rcu_geometry g;
	int rc = rcu_geometry_compute(&g, n, fanout, leaf, exact);
	int was_failed = test_failed;

	test_failed = 0;
	if (rc != (levels_for(cap, n) > 0 ? 0 : -EINVAL)) {
		CHECK(!"unexpected return value");
	} else if (!rc) {
		check_shape(&g, cap, n, fanout, leaf, exact);
		if (full && !test_failed)
			check_structure(&g);
	}
	if (test_failed)
		report(n, fanout, leaf, exact);
	rc = test_failed;
	test_failed |= was_failed;
	return rc;
}

static int compute_and_check(int n, int fanout, int leaf, bool exact, bool full)
{
	long cap[RCU_NUM_LVLS];

	fill_caps(cap, fanout, leaf);
	return check_one(cap, n, fanout, leaf, exact, full);
}

/* ---- tests ---------------------------------------------------------------- */

/*
 * Linux's rcu_init_geometry() for big machines and forced-deep trees: the
 * level count and nodes per level it computes (capacities leaf * fanout^k;
 * DIV_ROUND_UP(CPUs, capacity) nodes per level), worked out by hand.
 */
static const struct {
	int n, fanout, leaf, levels, nodes[RCU_NUM_LVLS];
} linux_shapes[] = {
	{ 8192, 64, 16, 3, { 1, 8, 512 } },		/* NR_CPUS=8192 (MAXSMP), defaults */
	{ 8192, 8, 16, 4, { 1, 8, 64, 512 } },		/* RCU_FANOUT=8: four full levels */
	{ 4096, 64, 16, 3, { 1, 4, 256 } },		/* NR_CPUS=4096, defaults */
	{ 4096, 16, 16, 3, { 1, 16, 256 } },		/* RCU_FANOUT=16 */
	{ 255, 4, 4, 4, { 1, 4, 16, 64 } },		/* -M pc's most CPUs, forced to four levels */
	{ 255, 64, 2, 3, { 1, 2, 128 } },		/* rcutree.rcu_fanout_leaf=2: 128 CPUs per 2nd-level node */
	{ 128, 4, 2, 4, { 1, 4, 16, 64 } },		/* capacities 2/8/32/128 */
};

static void check_linux_shapes(void)
{
	struct rcu_geometry g;
	int i, l, sum;

	for (i = 0; i < (int)ARRAY_SIZE(linux_shapes); i++) {
		int was = test_failed;

		test_failed = 0;
		CHECK_EQ(rcu_geometry_compute(&g, linux_shapes[i].n, linux_shapes[i].fanout,
					      linux_shapes[i].leaf, false), 0);
		CHECK_EQ(g.levels, linux_shapes[i].levels);
		for (l = 0, sum = 0; l < linux_shapes[i].levels; l++) {
			CHECK_EQ(g.num_rcu_lvl[l], linux_shapes[i].nodes[l]);
			sum += linux_shapes[i].nodes[l];
		}
		CHECK_EQ(g.num_nodes, sum);
		CHECK_EQ(rcu_geometry_leaf_of(&g, linux_shapes[i].n - 1),
			 linux_shapes[i].nodes[linux_shapes[i].levels - 1] - 1);
		if (!test_failed)
			check_structure(&g);
		if (test_failed)
			report(linux_shapes[i].n, linux_shapes[i].fanout, linux_shapes[i].leaf, false);
		test_failed |= was;
	}
}

static void test_known_shapes(void)
{
	struct rcu_geometry g;

	/* NR_CPUS=64, leaf 16, fanout 64: a root over four leaves. */
	CHECK_EQ(rcu_geometry_compute(&g, 64, 64, 16, false), 0);
	CHECK_EQ(g.levels, 2);
	CHECK_EQ(g.num_rcu_lvl[0], 1);
	CHECK_EQ(g.num_rcu_lvl[1], 4);
	CHECK_EQ(g.num_nodes, 5);
	CHECK_EQ(g.level_offset[1], 1);
	CHECK_EQ(g.levelspread[0], 4);
	CHECK_EQ(g.levelspread[1], 16);
	check_structure(&g);

	/* 8 CPUs, leaf 16: the root is the only leaf. */
	CHECK_EQ(rcu_geometry_compute(&g, 8, 64, 16, false), 0);
	CHECK_EQ(g.levels, 1);
	CHECK_EQ(g.num_nodes, 1);
	CHECK_EQ(g.levelspread[0], 8);
	CHECK_EQ(rcu_geometry_leaf_of(&g, 7), 0);
	check_structure(&g);
	CHECK_EQ(rcu_geometry_compute(&g, 8, 64, 16, true), 0);
	CHECK_EQ(g.levels, 1);
	CHECK_EQ(g.levelspread[0], 16);
	check_structure(&g);

	/* 4096 CPUs, leaf 16, fanout 64: caps 16/1024/65536, 1 + 4 + 256 nodes. */
	CHECK_EQ(rcu_geometry_compute(&g, 4096, 64, 16, false), 0);
	CHECK_EQ(g.levels, 3);
	CHECK_EQ(g.num_rcu_lvl[0], 1);
	CHECK_EQ(g.num_rcu_lvl[1], 4);
	CHECK_EQ(g.num_rcu_lvl[2], 256);
	CHECK_EQ(g.num_nodes, 261);
	CHECK_EQ(g.level_offset[2], 5);
	CHECK_EQ(rcu_geometry_leaf_of(&g, 4095), 255);
	CHECK_EQ(rcu_geometry_parent(&g, 2, 255), 3);
	CHECK_EQ(rcu_geometry_parent(&g, 2, 64), 1);
	CHECK_EQ(rcu_geometry_first_child(&g, 1, 2), 128);
	check_structure(&g);

	/* Big and deep shapes, from Linux's rcu_init_geometry() formulas (table below). */
	check_linux_shapes();
	/* ...and 4096 CPUs at fanout 2, leaf 64 (512 max) do not fit. */
	CHECK_EQ(rcu_geometry_compute(&g, 4096, 2, 64, true), -EINVAL);

	/* Fanout 2, leaf 2 (TREE03-like): 16 CPUs need all four levels... */
	CHECK_EQ(rcu_geometry_compute(&g, 16, 2, 2, false), 0);
	CHECK_EQ(g.levels, 4);
	CHECK_EQ(g.num_rcu_lvl[3], 8);
	CHECK_EQ(g.num_nodes, 15);
	check_structure(&g);
	/* ...and 32 do not fit; 17 neither. */
	CHECK_EQ(rcu_geometry_compute(&g, 32, 2, 2, false), -EINVAL);
	CHECK_EQ(rcu_geometry_compute(&g, 17, 2, 2, true), -EINVAL);
}

/*
 * Balanced spreads the CPUs actually present; exact fills nodes in order.
 * 10 CPUs, leaf 4, fanout 2 -> 3 leaves under 2 mid nodes under the root.
 */
static void test_balanced_vs_exact(void)
{
	struct rcu_geometry g;
	int lo, hi;

	CHECK_EQ(rcu_geometry_compute(&g, 10, 2, 4, false), 0);
	CHECK_EQ(g.levels, 3);
	CHECK_EQ(g.num_rcu_lvl[1], 2);
	CHECK_EQ(g.num_rcu_lvl[2], 3);
	CHECK_EQ(g.levelspread[2], 4);	/* ceil(10 / 3) */
	CHECK_EQ(g.levelspread[1], 2);	/* ceil(3 / 2) */
	CHECK_EQ(g.levelspread[0], 2);
	check_structure(&g);

	/* 9 CPUs over 3 leaves: 3 each when balanced, 4/4/1 when exact. */
	CHECK_EQ(rcu_geometry_compute(&g, 9, 2, 4, false), 0);
	CHECK_EQ(g.levelspread[2], 3);
	rcu_geometry_node_span(&g, 2, 2, &lo, &hi);
	CHECK_EQ(lo, 6);
	CHECK_EQ(hi, 8);
	check_structure(&g);
	CHECK_EQ(rcu_geometry_compute(&g, 9, 2, 4, true), 0);
	CHECK_EQ(g.levelspread[2], 4);
	rcu_geometry_node_span(&g, 2, 2, &lo, &hi);
	CHECK_EQ(lo, 8);
	CHECK_EQ(hi, 8);
	check_structure(&g);

	/* 100 CPUs, leaf 16, fanout 64: 7 leaves of 15 (last 10), vs 6 of 16 + 4. */
	CHECK_EQ(rcu_geometry_compute(&g, 100, 64, 16, false), 0);
	CHECK_EQ(g.num_rcu_lvl[1], 7);
	CHECK_EQ(g.levelspread[1], 15);
	CHECK_EQ(g.levelspread[0], 7);
	CHECK_EQ(rcu_geometry_leaf_of(&g, 99), 6);
	CHECK_EQ(rcu_geometry_compute(&g, 100, 64, 16, true), 0);
	CHECK_EQ(g.levelspread[1], 16);
	CHECK_EQ(g.levelspread[0], 64);
	rcu_geometry_node_span(&g, 1, 6, &lo, &hi);
	CHECK_EQ(lo, 96);
	CHECK_EQ(hi, 99);
}

static void test_invalid(void)
{
	static const int bad[][3] = {	/* nr_cpu_ids, fanout, leaf */
		{ 0, 64, 16 }, { -1, 64, 16 }, { 8193, 64, 16 }, { 8, 1, 16 }, { 8, 65, 16 },
		{ 8, 64, 1 }, { 8, 64, 65 }, { 8, 0, 0 }, { 8, -64, 16 }, { 4096, 2, 64 },
	};
	struct rcu_geometry g, before;
	int i, lo, hi;

	for (i = 0; i < (int)ARRAY_SIZE(bad); i++) {
		memset(&g, 0x5a, sizeof(g));
		before = g;
		CHECK_EQ(rcu_geometry_compute(&g, bad[i][0], bad[i][1], bad[i][2], false), -EINVAL);
		CHECK_EQ(rcu_geometry_compute(&g, bad[i][0], bad[i][1], bad[i][2], true), -EINVAL);
		CHECK(!memcmp(&g, &before, sizeof(g)));	/* left unset */
	}
	/* The bounds themselves are valid. */
	CHECK_EQ(rcu_geometry_compute(&g, 1, 2, 2, false), 0);
	CHECK_EQ(rcu_geometry_compute(&g, 4096, 64, 64, false), 0);
	CHECK_EQ(g.levels, 2);
	CHECK_EQ(rcu_geometry_compute(&g, 8192, 64, 64, false), 0);
	CHECK_EQ(g.levels, 3);
	CHECK_EQ(rcu_geometry_compute(&g, 4096, 2, 64, false), -EINVAL);	/* 512 max */
	CHECK_EQ(rcu_geometry_compute(&g, 512, 2, 64, false), 0);
	CHECK_EQ(g.levels, 4);
	/* Out-of-range nodes have no CPUs, no parent, no children. */
	CHECK_EQ(rcu_geometry_compute(&g, 64, 64, 16, false), 0);
	rcu_geometry_node_span(&g, 1, 4, &lo, &hi);
	CHECK(hi < lo);
	rcu_geometry_node_span(&g, 2, 0, &lo, &hi);
	CHECK(hi < lo);
	CHECK_EQ(rcu_geometry_parent(&g, 2, 0), -1);
	CHECK_EQ(rcu_geometry_first_child(&g, 1, 0), -1);
}

/*
 * Return value, level count, node counts, spreads and no empty nodes for
 * a third of all inputs: every nr_cpu_ids meets every fanout and every
 * leaf fanout, and balanced and exact alternate. RCU_GEOMETRY_ALL=1 in
 * the environment checks every input (about 3x as long).
 */
static void test_every_input_shape(void)
{
	const char *all_env = getenv("RCU_GEOMETRY_ALL");
	bool all = all_env && *all_env == '1';
	int n, fanout, leaf, fails = 0, ok = 0, einval = 0;
	long cap[RCU_NUM_LVLS];

	for (fanout = 2; fanout <= 64 && fails < 5; fanout++)
		for (leaf = 2; leaf <= 64; leaf++) {
			fill_caps(cap, fanout, leaf);
			for (n = 1; n <= MAX_CPUS; n++) {
				if (!all && (n + 7 * fanout + 13 * leaf) % 3)
					continue;
				if (levels_for(cap, n) > 0)
					ok++;
				else
					einval++;
				fails += check_one(cap, n, fanout, leaf, (n + fanout + leaf) & 1, false);
			}
		}
	printf("# %d geometries checked, %d rejected (more than %d levels)\n", ok, einval,
	       RCU_NUM_LVLS);
}

/* Full structure for every input with few CPUs, balanced and exact. */
static void test_small_structure(void)
{
	int n, fanout, leaf, fails = 0;

	for (n = 1; n <= 64 && fails < 5; n++)
		for (fanout = 2; fanout <= 64; fanout++)
			for (leaf = 2; leaf <= 64; leaf++) {
				fails += compute_and_check(n, fanout, leaf, false, true);
				fails += compute_and_check(n, fanout, leaf, true, true);
			}
}

/* Full structure for a random sample of all inputs, and for every n at Linux's defaults. */
static void test_sampled_structure(void)
{
	unsigned long s = 0x2545f4914f6cdd1dUL;
	int i, n, fails = 0;

	for (i = 0; i < 5000 && fails < 5; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		fails += compute_and_check(1 + s % MAX_CPUS, 2 + (s >> 16) % 63, 2 + (s >> 32) % 63,
					   (s >> 48) & 1, true);
	}
	for (n = 1; n <= MAX_CPUS && fails < 5; n++) {
		fails += compute_and_check(n, 64, 16, false, true);
		fails += compute_and_check(n, 64, 16, true, true);
		fails += compute_and_check(n, 2, 2, false, true);	/* TREE03 */
	}
}

static const struct test_case tests[] = {
	TEST_CASE(test_known_shapes),
	TEST_CASE(test_balanced_vs_exact),
	TEST_CASE(test_invalid),
	TEST_CASE(test_every_input_shape),
	TEST_CASE(test_small_structure),
	TEST_CASE(test_sampled_structure),
};

TEST_MAIN("test_rcu_geometry", tests)
