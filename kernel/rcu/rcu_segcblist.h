/*
 * The segmented callback list: one singly linked list of rcu_heads cut
 * into four segments by tail pointers. From the head:
 *   DONE       callbacks whose grace period has ended: ready to invoke
 *   WAIT       waiting for the grace period recorded in gp_seq[WAIT]
 *   NEXT_READY waiting for the later grace period in gp_seq[NEXT_READY]
 *   NEXT       just queued, no grace period assigned yet
 * Advancing moves segments whose grace period ended into DONE;
 * accelerating assigns NEXT's callbacks the earliest grace period that can
 * serve them. Pure logic (no locking: the caller serialises; the owning
 * CPU with interrupts off, in Tree RCU), also compiled for the host tests.
 */
#ifndef _KERNEL_RCU_SEGCBLIST_H
#define _KERNEL_RCU_SEGCBLIST_H

#include <kernel/types.h>
#include <rcu/segcblist_types.h>

void rcu_cblist_init(struct rcu_cblist *rclp);
void rcu_cblist_enqueue(struct rcu_cblist *rclp, struct rcu_head *rhp);
struct rcu_head *rcu_cblist_dequeue(struct rcu_cblist *rclp);

void rcu_segcblist_init(struct rcu_segcblist *rsclp);
static inline long rcu_segcblist_n_cbs(const struct rcu_segcblist *rsclp) { return rsclp->len; }
static inline bool rcu_segcblist_empty(const struct rcu_segcblist *rsclp) { return !rsclp->head; }
/* Callbacks in segment seg (RCU_DONE_TAIL .. RCU_NEXT_TAIL). */
static inline long rcu_segcblist_seglen(const struct rcu_segcblist *rsclp, int seg) { return rsclp->seglen[seg]; }
bool rcu_segcblist_ready_cbs(const struct rcu_segcblist *rsclp);	/* DONE non-empty */
bool rcu_segcblist_pend_cbs(const struct rcu_segcblist *rsclp);	/* WAIT..NEXT non-empty */
/* No callbacks in the segments after seg (seg itself may hold some). */
bool rcu_segcblist_restempty(const struct rcu_segcblist *rsclp, int seg);
/* Append to NEXT. */
void rcu_segcblist_enqueue(struct rcu_segcblist *rsclp, struct rcu_head *rhp);
/*
 * Entrain rhp behind the last non-empty segment (so it is invoked after
 * every callback already queued: rcu_barrier). Returns false on an empty list.
 */
bool rcu_segcblist_entrain(struct rcu_segcblist *rsclp, struct rcu_head *rhp);
/*
 * Move all of DONE's callbacks to the end of rclp (the caller invokes a
 * batch and puts the rest back). They leave seglen[DONE] but stay in len
 * until the caller subtracts the ones it invoked with rcu_segcblist_add_len().
 */
/*
 * Change the count (v < 0: after invoking extracted callbacks), fully
 * ordered on both sides for rcu_barrier()'s lockless look (see the .c).
 */
void rcu_segcblist_add_len(struct rcu_segcblist *rsclp, long v);
void rcu_segcblist_extract_done_cbs(struct rcu_segcblist *rsclp, struct rcu_cblist *rclp);
/* Put back callbacks that were extracted but not invoked, at the head of DONE. */
void rcu_segcblist_insert_done_cbs(struct rcu_segcblist *rsclp, struct rcu_cblist *rclp);
/*
 * Empty the whole list (CPU hotplug hands it to another CPU): DONE's
 * callbacks to the end of donep, the pending ones to the end of pendp,
 * each in order. len and every segment go to zero; gp_seq[] is kept.
 */
void rcu_segcblist_extract_all(struct rcu_segcblist *rsclp, struct rcu_cblist *donep,
			       struct rcu_cblist *pendp);
/* Move every segment whose grace period (gp_seq <= seq) has ended into DONE. */
void rcu_segcblist_advance(struct rcu_segcblist *rsclp, unsigned long seq);
/*
 * Assign grace-period number `seq` to NEXT's callbacks (merging with a
 * segment that already waits for seq). Returns true if callbacks now wait
 * for a grace period that must be requested.
 */
bool rcu_segcblist_accelerate(struct rcu_segcblist *rsclp, unsigned long seq);
/* The grace period the oldest pending (non-DONE) callback waits for; false if none assigned. */
bool rcu_segcblist_nextgp(const struct rcu_segcblist *rsclp, unsigned long *lp);

#endif
