/*
 * The "rcu_api" suite's bit-locked list cases (<rcu/rculist_bl.h>): the
 * primitives and the lock bit on one thread, then two buckets updated
 * under their bit locks (by the updater, and now and then by readers, so
 * the lock is contended) while readers on every other CPU walk them in
 * read-side sections: no reader may meet a freed (poisoned) element or a
 * link with the lock bit still in it, and no two CPUs may hold one
 * bucket's lock at once.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "api_extra.h"
#include <rcu/rculist_bl.h>

struct rlb_elem {
	unsigned long magic;
	unsigned long key;
	struct hlist_bl_node node;
	struct rcu_head rh;
};

#define RLB_BUCKETS	2
#define RLB_LEN		8	/* elements per bucket, kept */
#define RLB_WALK_MAX	256	/* insertions are at the head, behind a reader: no chase */

static struct {
	struct hlist_bl_head tbl[RLB_BUCKETS];
	int holders[RLB_BUCKETS];		/* CPUs inside a bucket's lock (must stay <= 1) */
	unsigned long updates, key;
	atomic_long_t bad, bit_seen, too_long, excl, alloc_fail, reader_updates;
	unsigned long bad_magic;
} rlb;

/*
 * One thread: the head's lock bit while locked and not after; ->first
 * keeps the bit through insertions and deletions made under the lock;
 * readers' first pointer and walk never show it; del keeps ->next,
 * del_init unhashes.
 */
void rcu_api_hlist_bl(void)
{
	static struct rlb_elem a = { .key = 1 }, b = { .key = 2 };
	struct hlist_bl_head h;
	struct hlist_bl_node *pos;
	struct rlb_elem *e;
	unsigned long keys[4];
	int n = 0;

	INIT_HLIST_BL_HEAD(&h);
	KTAP_EXPECT(hlist_bl_empty(&h) && !hlist_bl_is_locked(&h));
	hlist_bl_lock(&h);
	KTAP_EXPECT(hlist_bl_is_locked(&h) && hlist_bl_empty(&h));
	hlist_bl_add_head_rcu(&a.node, &h);
	hlist_bl_add_head_rcu(&b.node, &h);		/* b a */
	KTAP_EXPECT(((unsigned long)h.first & LIST_BL_LOCKMASK) && hlist_bl_first(&h) == &b.node);
	hlist_bl_unlock(&h);
	KTAP_EXPECT(!hlist_bl_is_locked(&h) && h.first == &b.node && !hlist_bl_empty(&h));
	rcu_read_lock();
	KTAP_EXPECT(hlist_bl_first_rcu(&h) == &b.node);
	hlist_bl_for_each_entry_rcu(e, pos, &h, node)
		if (n < 4)
			keys[n++] = e->key;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 2 && keys[0] == 2 && keys[1] == 1, "%d elements", n);
	hlist_bl_lock(&h);
	hlist_bl_del_rcu(&b.node);			/* a */
	KTAP_EXPECT(b.node.next == &a.node && b.node.pprev == LIST_POISON2);
	KTAP_EXPECT(hlist_bl_is_locked(&h) && hlist_bl_first(&h) == &a.node &&
		    a.node.pprev == &h.first);
	hlist_bl_del_init_rcu(&a.node);
	KTAP_EXPECT(hlist_bl_unhashed(&a.node) && hlist_bl_is_locked(&h) && hlist_bl_empty(&h));
	hlist_bl_unlock(&h);
	KTAP_EXPECT(h.first == NULL);
	KTAP_EXPECT(bit_spin_trylock(0, (unsigned long *)&h) && hlist_bl_is_locked(&h));
	KTAP_EXPECT(!bit_spin_trylock(0, (unsigned long *)&h));
	bit_spin_unlock(0, (unsigned long *)&h);
	KTAP_EXPECT(!hlist_bl_is_locked(&h));
}

static void rlb_free_cb(struct rcu_head *rh)
{
	struct rlb_elem *e = container_of(rh, struct rlb_elem, rh);

	memset(e, 0x6b, sizeof(*e));
	kfree(e);
}

/* Under bucket b's lock: replace a random element with a new one at the head. */
static bool rlb_update_bucket(unsigned int b, u32 rnd)
{
	struct rlb_elem *n = kmalloc(sizeof(*n), GFP_KERNEL), *e, *victim = NULL;
	struct hlist_bl_node *pos;
	unsigned int i = 0;

	if (!n) {
		atomic_long_inc(&rlb.alloc_fail);
		return false;
	}
	n->magic = RAT_LIVE;
	hlist_bl_lock(&rlb.tbl[b]);
	if (++rlb.holders[b] != 1)
		atomic_long_inc(&rlb.excl);
	n->key = ++rlb.key;
	hlist_bl_for_each_entry(e, pos, &rlb.tbl[b], node)
		if (i++ == rnd % RLB_LEN)
			victim = e;
	hlist_bl_add_head_rcu(&n->node, &rlb.tbl[b]);
	if (victim)
		hlist_bl_del_rcu(&victim->node);
	rlb.updates++;
	rlb.holders[b]--;
	hlist_bl_unlock(&rlb.tbl[b]);
	if (victim)
		call_rcu(&victim->rh, rlb_free_cb);
	return true;
}

static void rlb_update(void)
{
	static u32 rnd = 0x1b873593;

	rnd = rnd * 1664525u + 1013904223u;
	rlb_update_bucket((rnd >> 4) % RLB_BUCKETS, rnd >> 8);
}

static void rlb_read(unsigned int cpu)
{
	static u32 seed[NR_CPUS];
	struct hlist_bl_node *pos;
	struct rlb_elem *e;
	unsigned long n = 0;

	seed[cpu] = seed[cpu] * 1664525u + 1013904223u + cpu;
	rcu_read_lock();
	for (unsigned int b = 0; b < RLB_BUCKETS; b++) {
		hlist_bl_for_each_entry_rcu(e, pos, &rlb.tbl[b], node) {
			unsigned long m = READ_ONCE(e->magic);

			if ((unsigned long)pos & LIST_BL_LOCKMASK)
				atomic_long_inc(&rlb.bit_seen);
			if (m != RAT_LIVE) {
				if (atomic_long_inc_return(&rlb.bad) == 1)
					rlb.bad_magic = m;
				break;
			}
			if (++n > RLB_WALK_MAX) {
				atomic_long_inc(&rlb.too_long);
				break;
			}
		}
	}
	rcu_read_unlock();
	/* Contend the bit locks now and then. */
	if ((seed[cpu] >> 24) < 16 && rlb_update_bucket((seed[cpu] >> 4) % RLB_BUCKETS, seed[cpu] >> 8))
		atomic_long_inc(&rlb.reader_updates);
}

void rcu_api_hlist_bl_readers(void)
{
	struct hlist_bl_node *pos, *tmp;
	unsigned long reads;
	bool ok;

	memset(&rlb, 0, sizeof(rlb));
	for (unsigned int b = 0; b < RLB_BUCKETS; b++) {
		INIT_HLIST_BL_HEAD(&rlb.tbl[b]);
		for (int i = 0; i < RLB_LEN; i++) {
			struct rlb_elem *e = kmalloc(sizeof(*e), GFP_KERNEL);

			if (!KTAP_EXPECT_MSG(e != NULL, "no memory"))
				return;
			e->magic = RAT_LIVE;
			e->key = ++rlb.key;
			hlist_bl_lock(&rlb.tbl[b]);
			hlist_bl_add_head_rcu(&e->node, &rlb.tbl[b]);
			hlist_bl_unlock(&rlb.tbl[b]);
		}
	}
	ok = rat_concurrent(rlb_update, rlb_read, &reads);
	ktap_diag("%lu updates (%ld by readers), %lu reads", rlb.updates,
		  atomic_long_read(&rlb.reader_updates), reads);
	KTAP_EXPECT_MSG(atomic_long_read(&rlb.bad) == 0,
			"%ld reads of freed (poisoned) elements, first magic %#lx",
			atomic_long_read(&rlb.bad), rlb.bad_magic);
	KTAP_EXPECT_MSG(atomic_long_read(&rlb.bit_seen) == 0, "%ld links read with the lock bit",
			atomic_long_read(&rlb.bit_seen));
	KTAP_EXPECT_MSG(atomic_long_read(&rlb.excl) == 0, "%ld times two CPUs held one bucket lock",
			atomic_long_read(&rlb.excl));
	KTAP_EXPECT_MSG(atomic_long_read(&rlb.too_long) == 0, "%ld walks never ended",
			atomic_long_read(&rlb.too_long));
	KTAP_EXPECT_MSG(atomic_long_read(&rlb.alloc_fail) == 0, "%ld allocations failed",
			atomic_long_read(&rlb.alloc_fail));
	KTAP_EXPECT_MSG(ok && rlb.updates > 0, "no updates were made");
	if (!ok)
		return;
	for (unsigned int b = 0; b < RLB_BUCKETS; b++) {
		hlist_bl_lock(&rlb.tbl[b]);
		for (pos = hlist_bl_first(&rlb.tbl[b]); pos && (tmp = pos->next, 1); pos = tmp) {
			struct rlb_elem *e = hlist_bl_entry(pos, struct rlb_elem, node);

			hlist_bl_del_rcu(pos);
			call_rcu(&e->rh, rlb_free_cb);
		}
		hlist_bl_unlock(&rlb.tbl[b]);
	}
	rst_barrier();
}
