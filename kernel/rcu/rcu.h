/*
 * The one internal header every RCU flavor shares (Tree, Tiny, SRCU, Tasks
 * RCU and update.c, which is built for all of them): grace-period sequence
 * numbers, pure logic also compiled for the host tests, and, for the
 * kernel, what update.c exports to the flavors. Tree RCU's own types
 * (rcu_state, rcu_data, rcu_node) stay in tree.h, which only Tree files
 * may include (scripts/check-contracts.sh).
 *
 * A sequence number counts grace-period phases: the low RCU_SEQ_CTR_SHIFT
 * bits hold the state (0 = idle, non-zero = a grace period in progress),
 * the rest count grace periods. rcu_seq_start() moves idle -> in progress,
 * rcu_seq_end() moves to the next idle value. A snapshot taken at any time
 * names the first idle value that lies after a full grace period from
 * now; rcu_seq_done() says whether the counter has reached it. All
 * comparisons tolerate wrap (they subtract, then test the sign).
 */
#ifndef _KERNEL_RCU_RCU_H
#define _KERNEL_RCU_RCU_H

#include <kernel/compiler.h>
#ifndef __HOST_TEST__
#include <kernel/barrier.h>	/* host tests: smp_mb() from tests/host/host_compat.h */
#endif

#define RCU_SEQ_CTR_SHIFT	2
#define RCU_SEQ_STATE_MASK	((1UL << RCU_SEQ_CTR_SHIFT) - 1)

#define ULONG_CMP_GE(a, b)	(ULONG_MAX / 2 >= (unsigned long)((a) - (b)))
#define ULONG_CMP_LT(a, b)	(ULONG_MAX / 2 < (unsigned long)((a) - (b)))
#ifndef ULONG_MAX
#define ULONG_MAX		(~0UL)
#endif

static inline unsigned long rcu_seq_ctr(unsigned long s) { return s >> RCU_SEQ_CTR_SHIFT; }
static inline int rcu_seq_state(unsigned long s) { return s & RCU_SEQ_STATE_MASK; }

/*
 * Caller holds the lock that serialises updates (the root rcu_node's, or the GP kthread).
 * The full barrier after the store orders the new (in-progress) value before
 * everything the grace period then does (node masks, dynticks snapshots,
 * IPIs). It pairs with the smp_mb() that callers put before rcu_seq_snap():
 * tree_sync.c:get_state_synchronize_rcu(), tree_exp.c:synchronize_rcu_expedited().
 * A snapshot that read the old value thus had the caller's prior updates
 * visible before this grace period started looking at CPUs.
 */
static inline void rcu_seq_start(unsigned long *sp)
{
	WRITE_ONCE(*sp, *sp + 1);
	smp_mb();	/* pairs with the smp_mb() before rcu_seq_snap() (see above) */
}
static inline unsigned long rcu_seq_endval(unsigned long *sp)
{
	return (*sp | RCU_SEQ_STATE_MASK) + 1;
}
/*
 * The full barrier before the store orders everything the grace period
 * saw (every quiescent state reported to it) before the end becomes
 * visible. It pairs with the smp_mb() that follows a successful
 * rcu_seq_done(): tree_sync.c:poll_state_synchronize_rcu(),
 * tree_exp.c:rcu_exp_done(). Whoever sees the end then also sees that
 * every reader that predated the grace period is over.
 */
static inline void rcu_seq_end(unsigned long *sp)
{
	smp_mb();	/* pairs with the smp_mb() after rcu_seq_done() (see above) */
	WRITE_ONCE(*sp, rcu_seq_endval(sp));
}
/* The value the counter will hold once a full grace period after now has ended. */
static inline unsigned long rcu_seq_snap(unsigned long *sp)
{
	return (READ_ONCE(*sp) + 2 * RCU_SEQ_STATE_MASK + 1) & ~RCU_SEQ_STATE_MASK;
}
static inline unsigned long rcu_seq_current(unsigned long *sp) { return READ_ONCE(*sp); }
static inline bool rcu_seq_started(unsigned long *sp, unsigned long s)
{
	return ULONG_CMP_LT((s - 1) & ~RCU_SEQ_STATE_MASK, READ_ONCE(*sp));
}
static inline bool rcu_seq_done(unsigned long *sp, unsigned long s)
{
	return ULONG_CMP_GE(READ_ONCE(*sp), s);
}
/*
 * rcu_seq_done() without its half-space tolerance: s counts as not yet
 * reached only while the counter lies in the few values just behind it;
 * anything else, including a counter that has since wrapped past s,
 * means done. For cookies that may be kept indefinitely (the full-state
 * polling API): a cookie older than half the counter space still reads
 * as done, where rcu_seq_done() would take it for one far in the future.
 *
 * How few: a snapshot is at most 2 * RCU_SEQ_STATE_MASK + 1 ahead of the
 * counter it was taken from, and the counter checked may be a copy that
 * trails that one by a grace-period start (the root rcu_node's ->gp_seq
 * against rcu_state.gp_seq: rcu_gp_init() moves the latter first), which
 * puts s up to 2 * RCU_SEQ_STATE_MASK + 2 ahead of it. The window is one
 * more state step than that.
 */
#define RCU_SEQ_DONE_EXACT_WINDOW	(3 * RCU_SEQ_STATE_MASK + 1)
static inline bool rcu_seq_done_exact(unsigned long *sp, unsigned long s)
{
	unsigned long cur = READ_ONCE(*sp);

	return ULONG_CMP_GE(cur, s) || ULONG_CMP_LT(cur, s - RCU_SEQ_DONE_EXACT_WINDOW);
}
/* True if the counter has moved past s by more than one full grace period. */
static inline bool rcu_seq_completed_gp(unsigned long old, unsigned long new)
{
	return ULONG_CMP_LT(old, new & ~RCU_SEQ_STATE_MASK);
}
static inline bool rcu_seq_new_gp(unsigned long old, unsigned long new)
{
	return ULONG_CMP_LT((old + RCU_SEQ_STATE_MASK) & ~RCU_SEQ_STATE_MASK, new);
}

#ifndef __HOST_TEST__
/* ===== update.c: flavor-independent pieces every flavor links ===================== */

/* rcupdate.* stall parameters (CONFIG_RCU_STALL_COMMON, that is Tree RCU: Tiny has no stalls). */
extern int rcu_cpu_stall_timeout;	/* seconds; rcupdate.rcu_cpu_stall_timeout */
extern bool rcu_cpu_stall_suppress;
/* The rcupdate.* banners, printed from Tree RCU's rcu_params_init(). */
void rcupdate_announce_bootup_oddness(void);
#endif /* !__HOST_TEST__ */

#endif
