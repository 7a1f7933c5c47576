/*
 * Shape of the rcu_node combining tree: how many levels, how many nodes
 * per level, and which CPUs each node covers. Pure logic, also compiled
 * for the host tests.
 *
 * Leaves cover up to leaf_fanout CPUs, inner nodes up to fanout children,
 * at most RCU_NUM_LVLS levels. Balanced (the default) spreads the CPUs
 * actually present evenly over the nodes each level needs; exact
 * (rcutree.rcu_fanout_exact=1) fills every node to its fanout in order.
 */
#ifndef _KERNEL_RCU_TREE_GEOMETRY_H
#define _KERNEL_RCU_TREE_GEOMETRY_H

#include <kernel/types.h>

#define RCU_NUM_LVLS	4

struct rcu_geometry {
	int levels;			/* 1..RCU_NUM_LVLS; level 0 is the root */
	int num_rcu_lvl[RCU_NUM_LVLS];	/* nodes at each level */
	int level_offset[RCU_NUM_LVLS];	/* index of each level's first node in the flat array */
	int levelspread[RCU_NUM_LVLS];	/* children (CPUs at the leaf level) per node */
	int num_nodes;
	int nr_cpu_ids;
	int fanout, leaf_fanout;
};

/*
 * Compute the geometry. Returns 0, or -EINVAL when leaf_fanout/fanout are
 * out of 2..64 or the tree would need more than RCU_NUM_LVLS levels (the
 * geometry is then left unset: the caller falls back to a valid leaf fanout).
 */
int rcu_geometry_compute(struct rcu_geometry *g, int nr_cpu_ids, int fanout,
			 int leaf_fanout, bool exact);
/* CPUs covered by node `idx` (0-based within `level`): [*lo, *hi]; *hi < *lo if none. */
void rcu_geometry_node_span(const struct rcu_geometry *g, int level, int idx, int *lo, int *hi);
/* Index (within level+1) of the first child of node idx at level; -1 for leaves. */
int rcu_geometry_first_child(const struct rcu_geometry *g, int level, int idx);
/* Parent's index (within level-1) of node idx at level; -1 for the root. */
int rcu_geometry_parent(const struct rcu_geometry *g, int level, int idx);
/* Leaf index holding cpu. */
int rcu_geometry_leaf_of(const struct rcu_geometry *g, int cpu);

#endif
