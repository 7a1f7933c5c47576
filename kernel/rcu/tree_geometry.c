/*
 * Shape of the rcu_node tree (see tree_geometry.h), computed the way
 * Linux's rcu_init_geometry() and rcu_init_levelspread() do.
 *
 * A node at depth d from the leaves can hold leaf_fanout * fanout^d CPUs
 * (its capacity); the tree gets the fewest levels whose root capacity
 * reaches nr_cpu_ids, and each level as many nodes as it takes to cover
 * nr_cpu_ids CPUs at that level's capacity. levelspread[] then says how
 * many children (CPUs, at the leaves) each node takes. Node idx of a
 * level covers the CPUs [idx * stride, (idx + 1) * stride - 1] clipped to
 * nr_cpu_ids, where stride is the product of the spreads from that level
 * down to the leaves; its parent is idx / levelspread[level - 1].
 *
 * Balanced spreads (ceil(children / nodes) per level) never leave a node
 * without CPUs, never exceed the fanouts and so keep every mask within
 * 64 bits; tests/host/test_rcu_geometry.c checks this for every input.
 */
#include "tree_geometry.h"
#include <kernel/compiler.h>
#include <kernel/errno.h>

#define RCU_GEOMETRY_MIN_FANOUT	2
#define RCU_GEOMETRY_MAX_FANOUT	64	/* one bit per child in an unsigned long */
#define RCU_GEOMETRY_MAX_CPUS	8192	/* Linux's largest x86-64 NR_CPUS (MAXSMP) */

int rcu_geometry_compute(struct rcu_geometry *g, int nr_cpu_ids, int fanout,
			 int leaf_fanout, bool exact)
{
	long cap[RCU_NUM_LVLS];		/* CPUs a node holds, by depth above the leaves */
	int levels, i, nodes = 0, below;
	struct rcu_geometry ng;

	if (fanout < RCU_GEOMETRY_MIN_FANOUT || fanout > RCU_GEOMETRY_MAX_FANOUT ||
	    leaf_fanout < RCU_GEOMETRY_MIN_FANOUT || leaf_fanout > RCU_GEOMETRY_MAX_FANOUT ||
	    nr_cpu_ids < 1 || nr_cpu_ids > RCU_GEOMETRY_MAX_CPUS)
		return -EINVAL;

	cap[0] = leaf_fanout;
	for (i = 1; i < RCU_NUM_LVLS; i++)
		cap[i] = cap[i - 1] * fanout;
	for (levels = 1; levels <= RCU_NUM_LVLS; levels++)
		if (nr_cpu_ids <= cap[levels - 1])
			break;
	if (levels > RCU_NUM_LVLS)
		return -EINVAL;

	ng = (struct rcu_geometry){
		.levels = levels,
		.nr_cpu_ids = nr_cpu_ids,
		.fanout = fanout,
		.leaf_fanout = leaf_fanout,
	};
	/* Level 0 is the root: its capacity is that of depth levels - 1. */
	for (i = 0; i < levels; i++) {
		ng.num_rcu_lvl[i] = DIV_ROUND_UP(nr_cpu_ids, cap[levels - 1 - i]);
		ng.level_offset[i] = nodes;
		nodes += ng.num_rcu_lvl[i];
	}
	ng.num_nodes = nodes;

	/* Spreads, from the leaves up: spread the entities below over this level's nodes. */
	below = nr_cpu_ids;
	for (i = levels - 1; i >= 0; i--) {
		if (exact)
			ng.levelspread[i] = i == levels - 1 ? leaf_fanout : fanout;
		else
			ng.levelspread[i] = DIV_ROUND_UP(below, ng.num_rcu_lvl[i]);
		below = ng.num_rcu_lvl[i];
	}
	*g = ng;
	return 0;
}

/* CPUs spanned by one node of `level`: the product of the spreads from there down. */
static long rcu_geometry_stride(const struct rcu_geometry *g, int level)
{
	long stride = 1;
	int i;

	for (i = g->levels - 1; i >= level; i--)
		stride *= g->levelspread[i];
	return stride;
}

void rcu_geometry_node_span(const struct rcu_geometry *g, int level, int idx, int *lo, int *hi)
{
	long stride, first, last;

	if (level < 0 || level >= g->levels || idx < 0 || idx >= g->num_rcu_lvl[level]) {
		*lo = 0;
		*hi = -1;
		return;
	}
	stride = rcu_geometry_stride(g, level);
	first = idx * stride;
	last = first + stride - 1;
	if (last > g->nr_cpu_ids - 1)
		last = g->nr_cpu_ids - 1;
	if (first > last) {	/* no CPUs (never with the spreads computed above) */
		*lo = 0;
		*hi = -1;
		return;
	}
	*lo = first;
	*hi = last;
}

int rcu_geometry_first_child(const struct rcu_geometry *g, int level, int idx)
{
	if (level < 0 || level >= g->levels - 1)
		return -1;
	return idx * g->levelspread[level];
}

int rcu_geometry_parent(const struct rcu_geometry *g, int level, int idx)
{
	if (level <= 0 || level >= g->levels)
		return -1;
	return idx / g->levelspread[level - 1];
}

int rcu_geometry_leaf_of(const struct rcu_geometry *g, int cpu)
{
	return cpu / g->levelspread[g->levels - 1];
}
