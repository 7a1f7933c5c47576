/*
 * The segmented callback list (see rcu_segcblist.h) and the plain FIFO
 * that callbacks are extracted into for invocation. Pure list surgery:
 * the caller serialises every call on one list (the owning CPU with
 * interrupts off, in Tree RCU) and supplies the grace-period numbers.
 *
 * Representation: tails[i] points at the ->next field of the last
 * callback of segment i, or at the previous segment's tail (&head for
 * DONE) when segment i is empty. So segment i holds the callbacks from
 * *tails[i-1] up to and including the one owning tails[i], and
 * *tails[RCU_NEXT_TAIL] is always NULL. seglen[] and len count exactly
 * the callbacks currently on the list: extracted ones are no longer
 * counted until insert_done_cbs() puts them back.
 *
 * Among the pending segments, an empty WAIT or NEXT_READY segment is
 * never followed by a non-empty WAIT/NEXT_READY segment: accelerate()
 * fills them in order and advance() compacts them. The gp_seq[] of an
 * empty segment means nothing and is never read.
 */
#include "rcu_segcblist.h"
#include "rcu.h"

void rcu_cblist_init(struct rcu_cblist *rclp)
{
	rclp->head = NULL;
	rclp->tail = &rclp->head;
	rclp->len = 0;
}

void rcu_cblist_enqueue(struct rcu_cblist *rclp, struct rcu_head *rhp)
{
	rhp->next = NULL;
	*rclp->tail = rhp;
	rclp->tail = &rhp->next;
	rclp->len++;
}

/* The oldest callback, or NULL when the FIFO is empty. */
struct rcu_head *rcu_cblist_dequeue(struct rcu_cblist *rclp)
{
	struct rcu_head *rhp = rclp->head;

	if (!rhp)
		return NULL;
	rclp->len--;
	rclp->head = rhp->next;
	if (!rclp->head)
		rclp->tail = &rclp->head;
	return rhp;
}

void rcu_segcblist_init(struct rcu_segcblist *rsclp)
{
	int i;

	rsclp->head = NULL;
	for (i = 0; i < RCU_CBLIST_NSEGS; i++) {
		rsclp->tails[i] = &rsclp->head;
		rsclp->gp_seq[i] = 0;
		rsclp->seglen[i] = 0;
	}
	rsclp->len = 0;
	rsclp->enabled = true;
}

/* Does segment seg hold no callbacks? */
static bool rcu_segcblist_segempty(const struct rcu_segcblist *rsclp, int seg)
{
	if (seg == RCU_DONE_TAIL)
		return rsclp->tails[RCU_DONE_TAIL] == &rsclp->head;
	return rsclp->tails[seg - 1] == rsclp->tails[seg];
}

bool rcu_segcblist_ready_cbs(const struct rcu_segcblist *rsclp)
{
	return rsclp->enabled && !rcu_segcblist_segempty(rsclp, RCU_DONE_TAIL);
}

bool rcu_segcblist_pend_cbs(const struct rcu_segcblist *rsclp)
{
	return rsclp->enabled && !rcu_segcblist_restempty(rsclp, RCU_DONE_TAIL);
}

bool rcu_segcblist_restempty(const struct rcu_segcblist *rsclp, int seg)
{
	return !READ_ONCE(*READ_ONCE(rsclp->tails[seg]));
}

/*
 * Every change of ->len is fully ordered against the caller's accesses on
 * both sides, because tree_sync.c:rcu_barrier() reads a CPU's ->len
 * without its lock and skips the CPU when it reads 0:
 *  - 1 -> 0 (rcu_do_batch() after invoking the last callback): the
 *    smp_mb() before the store orders the callbacks' accesses before the
 *    0 a skipping rcu_barrier() may read; pairs with the smp_mb() after
 *    rcu_barrier()'s scan, so its caller's later accesses (freeing what
 *    the callback used, unloading its code) come after the callback.
 *  - 0 -> 1 (call_rcu()): the smp_mb() after the store orders it before
 *    the caller's later accesses; pairs with the smp_mb() before
 *    rcu_barrier()'s scan, so a call_rcu() that returned before an
 *    rcu_barrier() began (as its caller can tell) is seen and waited for.
 * The locked readers (SRCU's srcu_barrier(), NOCB's entrain under
 * ->nocb_lock) hold the lock the writer held and need neither. Modelled
 * under weak memory in tools/model/rcu/rcu_wmm.pml (MUT_LEN_MB_BEFORE,
 * MUT_LEN_MB_AFTER).
 */
void rcu_segcblist_add_len(struct rcu_segcblist *rsclp, long v)
{
	smp_mb();	/* the caller's earlier accesses (callbacks run) before the new count */
	WRITE_ONCE(rsclp->len, rsclp->len + v);
	smp_mb();	/* the new count before the caller's later accesses */
}

void rcu_segcblist_enqueue(struct rcu_segcblist *rsclp, struct rcu_head *rhp)
{
	rhp->next = NULL;
	WRITE_ONCE(*rsclp->tails[RCU_NEXT_TAIL], rhp);
	WRITE_ONCE(rsclp->tails[RCU_NEXT_TAIL], &rhp->next);
	rsclp->seglen[RCU_NEXT_TAIL]++;
	rcu_segcblist_add_len(rsclp, 1);	/* fully ordered: see above */
}

/*
 * rhp joins the last non-empty segment, so it is invoked after every
 * callback already queued and waits for the same grace period as the
 * newest of them (none, if that is NEXT; none at all, if DONE).
 */
bool rcu_segcblist_entrain(struct rcu_segcblist *rsclp, struct rcu_head *rhp)
{
	int i;

	if (!rsclp->len)
		return false;
	for (i = RCU_NEXT_TAIL; i > RCU_DONE_TAIL; i--)
		if (!rcu_segcblist_segempty(rsclp, i))
			break;
	rhp->next = NULL;
	WRITE_ONCE(*rsclp->tails[i], rhp);
	rsclp->seglen[i]++;
	/* Every empty segment after i now ends where i does. */
	for (; i < RCU_CBLIST_NSEGS; i++)
		WRITE_ONCE(rsclp->tails[i], &rhp->next);
	rcu_segcblist_add_len(rsclp, 1);
	return true;
}

/*
 * DONE's callbacks are appended to rclp, in order. len still counts them
 * until the caller has invoked them (rcu_segcblist_add_len()), so that
 * rcu_barrier() and "any callbacks here?" checks see callbacks in flight.
 */
void rcu_segcblist_extract_done_cbs(struct rcu_segcblist *rsclp, struct rcu_cblist *rclp)
{
	struct rcu_head **done_tail = rsclp->tails[RCU_DONE_TAIL];
	long n = rsclp->seglen[RCU_DONE_TAIL];
	int i;

	if (done_tail == &rsclp->head)
		return;
	*rclp->tail = rsclp->head;
	rclp->tail = done_tail;
	rclp->len += n;
	WRITE_ONCE(rsclp->head, *done_tail);
	*done_tail = NULL;		/* cut the extracted run off the rest */
	/* Segments that ended where DONE did are empty now: they end at the head. */
	for (i = RCU_DONE_TAIL; i < RCU_CBLIST_NSEGS && rsclp->tails[i] == done_tail; i++)
		WRITE_ONCE(rsclp->tails[i], &rsclp->head);
	rsclp->seglen[RCU_DONE_TAIL] = 0;
}

/*
 * All of rclp's callbacks go in front of DONE's, in order; rclp is left
 * empty. They were never taken out of len, so len does not change.
 */
void rcu_segcblist_insert_done_cbs(struct rcu_segcblist *rsclp, struct rcu_cblist *rclp)
{
	int i;

	if (!rclp->head)
		return;
	*rclp->tail = rsclp->head;
	WRITE_ONCE(rsclp->head, rclp->head);
	/* Segments that were empty at the head now end after the inserted run. */
	for (i = RCU_DONE_TAIL; i < RCU_CBLIST_NSEGS && rsclp->tails[i] == &rsclp->head; i++)
		WRITE_ONCE(rsclp->tails[i], rclp->tail);
	rsclp->seglen[RCU_DONE_TAIL] += rclp->len;
	rcu_cblist_init(rclp);
}

void rcu_segcblist_extract_all(struct rcu_segcblist *rsclp, struct rcu_cblist *donep,
			       struct rcu_cblist *pendp)
{
	struct rcu_head **done_tail = rsclp->tails[RCU_DONE_TAIL];
	struct rcu_cblist *to = done_tail == &rsclp->head ? pendp : donep;
	struct rcu_head *rhp = rsclp->head, *next;
	int i;

	for (; rhp; rhp = next) {
		next = rhp->next;
		rcu_cblist_enqueue(to, rhp);
		if (&rhp->next == done_tail)
			to = pendp;	/* the last of DONE: the rest are pending */
	}
	WRITE_ONCE(rsclp->head, NULL);
	for (i = 0; i < RCU_CBLIST_NSEGS; i++) {
		WRITE_ONCE(rsclp->tails[i], &rsclp->head);
		rsclp->seglen[i] = 0;
	}
	WRITE_ONCE(rsclp->len, 0);
}

/*
 * seq is a completed grace-period number (a leaf rcu_node's gp_seq).
 * WAIT and NEXT_READY segments whose gp_seq it has reached join DONE, in
 * order, stopping at the first that must still wait; the survivors slide
 * down so that they start at WAIT. NEXT is untouched.
 */
void rcu_segcblist_advance(struct rcu_segcblist *rsclp, unsigned long seq)
{
	int i, j;

	if (!rcu_segcblist_pend_cbs(rsclp))
		return;
	for (i = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++) {
		if (!rcu_segcblist_segempty(rsclp, i) && ULONG_CMP_LT(seq, rsclp->gp_seq[i]))
			break;
		WRITE_ONCE(rsclp->tails[RCU_DONE_TAIL], rsclp->tails[i]);
		rsclp->seglen[RCU_DONE_TAIL] += rsclp->seglen[i];
		rsclp->seglen[i] = 0;
	}
	if (i == RCU_WAIT_TAIL)
		return;

	/* Slide segments i..NEXT_READY down to WAIT.. (j < i throughout). */
	for (j = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++, j++) {
		WRITE_ONCE(rsclp->tails[j], rsclp->tails[i]);
		rsclp->gp_seq[j] = rsclp->gp_seq[i];
		rsclp->seglen[j] = rsclp->seglen[i];
	}
	/* The freed slots are empty: they end where the previous segment does. */
	for (; j < RCU_NEXT_TAIL; j++) {
		WRITE_ONCE(rsclp->tails[j], rsclp->tails[j - 1]);
		rsclp->seglen[j] = 0;
	}
}

/*
 * seq is the grace-period number (an rcu_seq_snap() of the global
 * gp_seq) after which NEXT's callbacks may be invoked. Find the newest
 * non-empty WAIT/NEXT_READY segment waiting for an earlier grace period
 * than seq: it and everything before it keep their numbers. Every later
 * segment - those already waiting for seq or a later grace period, plus
 * NEXT - merges into the slot right after it, labelled seq. Nothing
 * happens when there is nothing to label or no free slot (both WAIT and
 * NEXT_READY wait for earlier grace periods: a later advance() frees one).
 */
bool rcu_segcblist_accelerate(struct rcu_segcblist *rsclp, unsigned long seq)
{
	int i, j;

	if (rcu_segcblist_restempty(rsclp, RCU_DONE_TAIL))
		return false;
	for (i = RCU_NEXT_READY_TAIL; i > RCU_DONE_TAIL; i--)
		if (!rcu_segcblist_segempty(rsclp, i) && ULONG_CMP_LT(rsclp->gp_seq[i], seq))
			break;
	if (rcu_segcblist_restempty(rsclp, i) || ++i >= RCU_NEXT_TAIL)
		return false;

	for (j = i + 1; j < RCU_CBLIST_NSEGS; j++) {
		rsclp->seglen[i] += rsclp->seglen[j];
		rsclp->seglen[j] = 0;
	}
	/* Segment i takes everything up to NEXT's tail; those after it are empty. */
	for (j = i; j < RCU_NEXT_TAIL; j++) {
		WRITE_ONCE(rsclp->tails[j], rsclp->tails[RCU_NEXT_TAIL]);
		rsclp->gp_seq[j] = seq;
	}
	return true;
}

bool rcu_segcblist_nextgp(const struct rcu_segcblist *rsclp, unsigned long *lp)
{
	int i;

	if (!rcu_segcblist_pend_cbs(rsclp))
		return false;
	for (i = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++) {
		if (!rcu_segcblist_segempty(rsclp, i)) {
			*lp = rsclp->gp_seq[i];
			return true;
		}
	}
	return false;
}
