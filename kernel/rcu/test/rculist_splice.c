/*
 * The "rcu_api" suite's cases for the <rcu/rculist.h> forms added after
 * the basics: list_splice_init_rcu()/list_splice_tail_init_rcu(),
 * hlist_add_before_rcu()/hlist_add_behind_rcu() and the SRCU walks
 * (list_for_each_entry_srcu(), hlist_for_each_entry_srcu()). Each is
 * checked on one thread for its effect, then under readers on every other
 * CPU; removed elements are poisoned by their free callback, so a reader
 * that meets one inside its read-side section reports a grace period
 * that ended too early, and every walk is bounded, so a reader carried
 * off its own list (a splice without its grace period) reports that too.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "api_extra.h"
#include <rcu/srcu.h>

struct rls_elem {
	unsigned long magic;
	unsigned long seq;
	struct list_head node;
	struct hlist_node hnode;
	struct rcu_head rh;
};

#define RLS_BATCH	4	/* elements per splice */
#define RLS_DST_MAX	16	/* the destination list is trimmed to this */
#define RLS_HLIST_LEN	12
#define RLS_WALK_MAX	256	/* beyond what updates explain (rls_check()) */

static struct {
	struct list_head src, dst;
	struct hlist_head hhead;
	unsigned long seq, splices, dst_len, hlen, updates;
	atomic_long_t alloc_fail, bad, too_long, order_bad;
	unsigned long bad_magic;
} rls;

static struct rls_elem *rls_new(void)
{
	struct rls_elem *e = kmalloc(sizeof(*e), GFP_KERNEL);

	if (!e) {
		atomic_long_inc(&rls.alloc_fail);
		return NULL;
	}
	e->magic = RAT_LIVE;	/* published by the rcu_assign_pointer() that links e */
	e->seq = ++rls.seq;
	INIT_HLIST_NODE(&e->hnode);
	return e;
}

static void rls_free_cb(struct rcu_head *rh)
{
	struct rls_elem *e = container_of(rh, struct rls_elem, rh);

	memset(e, 0x6b, sizeof(*e));	/* RAT_DEAD: a reader still on e would see it */
	kfree(e);
}

/*
 * One element met by a reader: a live magic, and a walk no longer than
 * RLS_WALK_MAX plus one element per update made since it began (u0): an
 * element inserted just ahead of the reader, again and again, legitimately
 * keeps a slow reader walking; more than that means it left its list.
 */
static bool rls_check(struct rls_elem *e, unsigned long *n, unsigned long u0)
{
	unsigned long m = READ_ONCE(e->magic);

	if (m != RAT_LIVE) {
		if (atomic_long_inc_return(&rls.bad) == 1)
			rls.bad_magic = m;
		return false;	/* its links may be poison too */
	}
	if (++*n > RLS_WALK_MAX + (READ_ONCE(rls.updates) - u0)) {
		atomic_long_inc(&rls.too_long);
		return false;
	}
	return true;
}

static void rls_reset(void)
{
	memset(&rls, 0, sizeof(rls));
	INIT_LIST_HEAD(&rls.src);
	INIT_LIST_HEAD(&rls.dst);
}

/* Free what is left, in a grace period's time (readers are gone by then anyway). */
static void rls_drain(bool hlist)
{
	struct rls_elem *e, *t;
	struct hlist_node *tmp;

	list_for_each_entry_safe(e, t, &rls.src, node) {
		list_del_rcu(&e->node);
		call_rcu(&e->rh, rls_free_cb);
	}
	list_for_each_entry_safe(e, t, &rls.dst, node) {
		list_del_rcu(&e->node);
		call_rcu(&e->rh, rls_free_cb);
	}
	if (hlist)
		for (struct hlist_node *p = rls.hhead.first; p && (tmp = p->next, 1); p = tmp) {
			e = hlist_entry(p, struct rls_elem, hnode);
			hlist_del_rcu(&e->hnode);
			call_rcu(&e->rh, rls_free_cb);
		}
	rst_barrier();
}

static void rls_report(bool ok, unsigned long reads)
{
	ktap_diag("%lu updates, %lu reads", rls.updates, reads);
	KTAP_EXPECT_MSG(atomic_long_read(&rls.bad) == 0,
			"%ld reads of removed (poisoned) elements, first magic %#lx",
			atomic_long_read(&rls.bad), rls.bad_magic);
	KTAP_EXPECT_MSG(atomic_long_read(&rls.too_long) == 0,
			"%ld walks longer than %d elements plus the updates meanwhile: a reader left its list",
			atomic_long_read(&rls.too_long), RLS_WALK_MAX);
	KTAP_EXPECT_MSG(atomic_long_read(&rls.order_bad) == 0, "%ld updates left a wrong order",
			atomic_long_read(&rls.order_bad));
	KTAP_EXPECT_MSG(atomic_long_read(&rls.alloc_fail) == 0, "%ld allocations failed",
			atomic_long_read(&rls.alloc_fail));
	KTAP_EXPECT_MSG(ok && rls.updates > 0, "no updates were made");
}

/* --- splice ---------------------------------------------------------------------------- */

static void rls_sync_count(void)
{
	rls.splices++;
	synchronize_rcu();
}

/*
 * One thread: splicing an empty list does nothing (not even sync); the
 * init form puts the source's elements, in order, in front of the
 * destination's, the tail form behind them; the source is left empty.
 */
void rcu_api_list_splice(void)
{
	struct rls_elem *e;
	unsigned long seqs[8];
	int n = 0;

	rls_reset();
	list_splice_init_rcu(&rls.src, &rls.dst, rls_sync_count);
	KTAP_EXPECT(rls.splices == 0 && list_empty(&rls.dst));
	for (int i = 0; i < 2; i++)		/* dst: 1 2 */
		if ((e = rls_new()))
			list_add_tail_rcu(&e->node, &rls.dst);
	for (int i = 0; i < 2; i++)		/* src: 3 4 */
		if ((e = rls_new()))
			list_add_tail_rcu(&e->node, &rls.src);
	list_splice_init_rcu(&rls.src, &rls.dst, rls_sync_count);	/* dst: 3 4 1 2 */
	KTAP_EXPECT(rls.splices == 1 && list_empty(&rls.src));
	for (int i = 0; i < 2; i++)		/* src: 5 6 */
		if ((e = rls_new()))
			list_add_tail_rcu(&e->node, &rls.src);
	list_splice_tail_init_rcu(&rls.src, &rls.dst, rls_sync_count);	/* dst: 3 4 1 2 5 6 */
	KTAP_EXPECT(rls.splices == 2 && list_empty(&rls.src));
	rcu_read_lock();
	list_for_each_entry_rcu(e, &rls.dst, node)
		if (n < 8)
			seqs[n++] = e->seq;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 6 && seqs[0] == 3 && seqs[1] == 4 && seqs[2] == 1 && seqs[3] == 2 &&
			seqs[4] == 5 && seqs[5] == 6, "dst holds %d elements, first %lu", n,
			n ? seqs[0] : 0);
	/* ->prev links too: walking backwards gives the reverse order. */
	n = 0;
	for (struct list_head *p = rls.dst.prev; p != &rls.dst && n < 8; p = p->prev)
		seqs[n++] = list_entry(p, struct rls_elem, node)->seq;
	KTAP_EXPECT(n == 6 && seqs[0] == 6 && seqs[5] == 3);
	KTAP_EXPECT(atomic_long_read(&rls.alloc_fail) == 0);
	rls_drain(false);
}

static void rls_walk(struct list_head *head)
{
	unsigned long n = 0, u0 = READ_ONCE(rls.updates);
	struct rls_elem *e;

	rcu_read_lock();
	list_for_each_entry_rcu(e, head, node)
		if (!rls_check(e, &n, u0))
			break;
	rcu_read_unlock();
}

static void rls_splice_read(unsigned int cpu)
{
	rls_walk(&rls.src);
	rls_walk(&rls.dst);
}

/* Fill the source, splice it to the front or back of the destination, trim the destination. */
static void rls_splice_update(void)
{
	struct rls_elem *e, *first = NULL, *last = NULL;
	bool tail = rls.updates & 1;

	for (int i = 0; i < RLS_BATCH; i++) {
		e = rls_new();
		if (!e)
			return;
		list_add_tail_rcu(&e->node, &rls.src);
		if (!first)
			first = e;
		last = e;
	}
	if (tail)
		list_splice_tail_init_rcu(&rls.src, &rls.dst, synchronize_rcu);
	else
		list_splice_init_rcu(&rls.src, &rls.dst, synchronize_rcu);
	rls.dst_len += RLS_BATCH;
	if (!list_empty(&rls.src) ||
	    (tail ? rls.dst.prev != &last->node : rls.dst.next != &first->node))
		atomic_long_inc(&rls.order_bad);
	while (rls.dst_len > RLS_DST_MAX) {
		e = list_first_entry(&rls.dst, struct rls_elem, node);
		list_del_rcu(&e->node);
		call_rcu(&e->rh, rls_free_cb);
		rls.dst_len--;
	}
	WRITE_ONCE(rls.updates, rls.updates + 1);
}

/*
 * Readers walk both lists while the updater splices batches from one to
 * the other (a grace period each, synchronize_rcu()) and frees elements
 * trimmed from the destination with call_rcu().
 */
void rcu_api_list_splice_readers(void)
{
	unsigned long reads;
	bool ok;

	rls_reset();
	ok = rat_concurrent(rls_splice_update, rls_splice_read, &reads);
	rls_report(ok, reads);
	if (ok)
		rls_drain(false);
}

/* --- hlist_add_before_rcu() / hlist_add_behind_rcu() ------------------------------------- */

static struct rls_elem *rls_hlist_nth(unsigned long i)
{
	struct rls_elem *e;

	hlist_for_each_entry(e, &rls.hhead, hnode)
		if (!i--)
			return e;
	return NULL;
}

static void rls_hlist_read(unsigned int cpu)
{
	unsigned long n = 0, u0 = READ_ONCE(rls.updates);
	struct rls_elem *e;

	rcu_read_lock();
	hlist_for_each_entry_rcu(e, &rls.hhead, hnode)
		if (!rls_check(e, &n, u0))
			break;
	rcu_read_unlock();
}

/* Insert before or behind a random element, then remove another (call_rcu() frees it). */
static void rls_hlist_update(void)
{
	static u32 rnd = 0x2545f491;
	struct rls_elem *e, *at;

	rnd = rnd * 1664525u + 1013904223u;
	e = rls_new();
	if (!e)
		return;
	at = rls_hlist_nth((rnd >> 8) % rls.hlen);
	if (rnd & (1u << 30))
		hlist_add_before_rcu(&e->hnode, &at->hnode);
	else
		hlist_add_behind_rcu(&e->hnode, &at->hnode);
	if ((rnd & (1u << 30)) ? at->hnode.pprev != &e->hnode.next : e->hnode.pprev != &at->hnode.next)
		atomic_long_inc(&rls.order_bad);
	at = rls_hlist_nth((rnd >> 16) % (rls.hlen + 1));
	hlist_del_rcu(&at->hnode);
	call_rcu(&at->rh, rls_free_cb);
	WRITE_ONCE(rls.updates, rls.updates + 1);
}

/*
 * One thread: before the first, behind the last and in the middle, the
 * order and the back links; then the same list under readers, an element
 * inserted and one removed per update.
 */
void rcu_api_hlist_before_behind(void)
{
	struct rls_elem *e, *a, *b, *c;
	unsigned long seqs[4];
	unsigned long reads;
	int n = 0;
	bool ok;

	rls_reset();
	a = rls_new();
	b = rls_new();
	c = rls_new();
	if (!KTAP_EXPECT_MSG(a && b && c, "no memory"))
		return;
	hlist_add_head_rcu(&b->hnode, &rls.hhead);	/* b */
	hlist_add_before_rcu(&a->hnode, &b->hnode);	/* a b: before the first */
	hlist_add_behind_rcu(&c->hnode, &b->hnode);	/* a b c: behind the last */
	rcu_read_lock();
	hlist_for_each_entry_rcu(e, &rls.hhead, hnode)
		if (n < 4)
			seqs[n++] = e->seq;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 3 && seqs[0] == a->seq && seqs[1] == b->seq && seqs[2] == c->seq,
			"%d elements", n);
	KTAP_EXPECT(a->hnode.pprev == &rls.hhead.first && b->hnode.pprev == &a->hnode.next &&
		    c->hnode.pprev == &b->hnode.next && !c->hnode.next);
	hlist_del_rcu(&b->hnode);
	hlist_add_behind_rcu(&b->hnode, &a->hnode);	/* a b c again, in the middle */
	KTAP_EXPECT(a->hnode.next == &b->hnode && b->hnode.next == &c->hnode &&
		    c->hnode.pprev == &b->hnode.next);
	rls.hlen = 3;
	for (int i = 3; i < RLS_HLIST_LEN; i++) {
		e = rls_new();
		if (!e)
			break;
		hlist_add_head_rcu(&e->hnode, &rls.hhead);
		rls.hlen++;
	}
	ok = rat_concurrent(rls_hlist_update, rls_hlist_read, &reads);
	rls_report(ok, reads);
	if (ok)
		rls_drain(true);
}

/* --- the SRCU walks -------------------------------------------------------------------- */

#ifdef CONFIG_SRCU
DEFINE_STATIC_SRCU(rls_srcu);

static void rls_srcu_free(struct rls_elem *e)
{
	call_srcu(&rls_srcu, &e->rh, rls_free_cb);
}

/* Both SRCU walks in one SRCU reader that also sleeps (an RCU reader could not). */
static void rls_srcu_read(unsigned int cpu)
{
	unsigned long n = 0, u0 = READ_ONCE(rls.updates);
	int idx = srcu_read_lock(&rls_srcu);
	struct rls_elem *e;

	list_for_each_entry_srcu(e, &rls.dst, node, srcu_read_lock_held(&rls_srcu)) {
		if (!rls_check(e, &n, u0))
			break;
		if (n == 2)
			cond_resched();
	}
	n = 0;
	u0 = READ_ONCE(rls.updates);
	hlist_for_each_entry_srcu(e, &rls.hhead, hnode, srcu_read_lock_held(&rls_srcu))
		if (!rls_check(e, &n, u0))
			break;
	srcu_read_unlock(&rls_srcu, idx);
}

/* Replace the first list element and the first hlist element; free both after SRCU's GP. */
static void rls_srcu_update(void)
{
	struct rls_elem *e = rls_new(), *h = rls_new(), *old;

	if (!e || !h) {
		kfree(e);
		kfree(h);
		return;
	}
	old = list_first_entry(&rls.dst, struct rls_elem, node);
	list_replace_rcu(&old->node, &e->node);
	rls_srcu_free(old);
	old = hlist_entry(rls.hhead.first, struct rls_elem, hnode);
	hlist_add_behind_rcu(&h->hnode, &old->hnode);
	hlist_del_rcu(&old->hnode);
	rls_srcu_free(old);
	WRITE_ONCE(rls.updates, rls.updates + 1);
}

static int rls_do_srcu_barrier(void *unused) { srcu_barrier(&rls_srcu); return 0; }

/*
 * Lists read inside srcu_read_lock() (the readers sleep in the middle of
 * a walk), updated with elements freed by call_srcu(): the walks'
 * lockdep condition is srcu_read_lock_held(), which lockdep-RCU checks.
 */
void rcu_api_list_srcu(void)
{
	struct rls_elem *e;
	unsigned long reads;
	bool ok;

	rls_reset();
	for (int i = 0; i < 8; i++) {
		e = rls_new();
		if (!e)
			break;
		list_add_tail_rcu(&e->node, &rls.dst);
		e = rls_new();
		if (!e)
			break;
		hlist_add_head_rcu(&e->hnode, &rls.hhead);
	}
	ok = rat_concurrent(rls_srcu_update, rls_srcu_read, &reads);
	rls_report(ok, reads);
	if (!ok || !rst_call(rls_do_srcu_barrier, NULL, RST_GP_MS, "srcu_barrier()", NULL))
		return;
	rls_drain(true);
}
#else
void rcu_api_list_srcu(void)
{
	ktap_skip("CONFIG_SRCU is off");
}
#endif
