/*
 * The types of the segmented callback list (kernel/rcu/rcu_segcblist.h has
 * the operations and the description of the segments). Public because
 * SRCU's per-CPU srcu_data embeds one (<rcu/srcutree.h>), as in Linux's
 * include/linux/rcu_segcblist.h.
 */
#ifndef _RCU_SEGCBLIST_TYPES_H
#define _RCU_SEGCBLIST_TYPES_H

#include <kernel/types.h>
#include <rcu/types.h>

#define RCU_DONE_TAIL		0
#define RCU_WAIT_TAIL		1
#define RCU_NEXT_READY_TAIL	2
#define RCU_NEXT_TAIL		3
#define RCU_CBLIST_NSEGS	4

struct rcu_segcblist {
	struct rcu_head *head;
	struct rcu_head **tails[RCU_CBLIST_NSEGS];
	unsigned long gp_seq[RCU_CBLIST_NSEGS];
	long len;			/* all callbacks on the list (not those extracted) */
	long seglen[RCU_CBLIST_NSEGS];
	bool enabled;
};

/* A simple FIFO of callbacks extracted from a segmented list. */
struct rcu_cblist {
	struct rcu_head *head;
	struct rcu_head **tail;
	long len;
};

#endif
