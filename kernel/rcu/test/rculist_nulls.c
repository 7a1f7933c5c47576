/*
 * The "rcu_api" suite's nulls-list cases (<rcu/rculist_nulls.h>): the
 * primitives on one thread, then a small hash table whose objects move
 * between chains under readers on every other CPU, without a grace period
 * (their memory is never freed during the test: SLAB_TYPESAFE_BY_RCU's
 * contract). Readers look up keys that never move; a reader carried off
 * its chain by a moving object ends on another chain's marker and must
 * restart, so with the restart no lookup may fail.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "api_extra.h"
#include <rcu/rculist_nulls.h>

struct rln_obj {
	unsigned long key;		/* READ_ONCE by readers: movers change it */
	struct hlist_nulls_node node;
};

#define RLN_BUCKETS	4
#define RLN_MOVERS	12
#define RLN_WALK_MAX	4096	/* elements one lookup may meet beyond one per move meanwhile */

static struct {
	struct hlist_nulls_head tbl[RLN_BUCKETS];
	struct rln_obj stable[RLN_BUCKETS];	/* key i in bucket i, never moved */
	struct rln_obj mover[RLN_MOVERS];	/* keys >= RLN_BUCKETS, moved around */
	unsigned long moves;
	atomic_long_t lookups, restarts, missing, too_long;
} rln;

/*
 * One thread: an empty chain is its marker; head and tail insertion;
 * a walk's cursor ends on the chain's marker; deletion keeps ->next and
 * poisons ->pprev; del_init unhashes; a fake node looks hashed; the safe
 * walk may unlink as it goes.
 */
void rcu_api_hlist_nulls(void)
{
	static struct rln_obj o[3];
	struct hlist_nulls_head h;
	struct hlist_nulls_node *pos;
	struct rln_obj *obj;
	unsigned long keys[4];
	int n = 0;

	INIT_HLIST_NULLS_HEAD(&h, 5);
	KTAP_EXPECT(hlist_nulls_empty(&h) && is_a_nulls(h.first) && get_nulls_value(h.first) == 5);
	for (int i = 0; i < 3; i++)
		o[i].key = i;
	hlist_nulls_add_head_rcu(&o[0].node, &h);
	hlist_nulls_add_head_rcu(&o[1].node, &h);	/* 1 0 */
	hlist_nulls_add_tail_rcu(&o[2].node, &h);	/* 1 0 2 */
	rcu_read_lock();
	hlist_nulls_for_each_entry_rcu(obj, pos, &h, node)
		if (n < 4)
			keys[n++] = obj->key;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 3 && keys[0] == 1 && keys[1] == 0 && keys[2] == 2, "%d objects", n);
	KTAP_EXPECT(is_a_nulls(pos) && get_nulls_value(pos) == 5);
	KTAP_EXPECT(o[2].node.pprev == &o[0].node.next && o[0].node.pprev == &o[1].node.next);
	hlist_nulls_del_rcu(&o[0].node);		/* 1 2 */
	KTAP_EXPECT(o[0].node.next == &o[2].node && o[0].node.pprev == LIST_POISON2);
	KTAP_EXPECT(o[2].node.pprev == &o[1].node.next);
	hlist_nulls_del_init_rcu(&o[2].node);		/* 1 */
	KTAP_EXPECT(hlist_nulls_unhashed(&o[2].node) && hlist_nulls_unhashed_lockless(&o[2].node));
	KTAP_EXPECT(is_a_nulls(o[1].node.next) && get_nulls_value(o[1].node.next) == 5);
	hlist_nulls_del_init_rcu(&o[2].node);		/* unhashed: no effect */
	hlist_nulls_add_fake(&o[2].node);
	KTAP_EXPECT(!hlist_nulls_unhashed(&o[2].node) && is_a_nulls(o[2].node.next));
	hlist_nulls_add_tail_rcu(&o[0].node, &h);	/* 1 0 */
	n = 0;
	hlist_nulls_for_each_entry_safe(obj, pos, &h, node) {
		hlist_nulls_del_rcu(&obj->node);
		n++;
	}
	KTAP_EXPECT(n == 2 && hlist_nulls_empty(&h) && get_nulls_value(h.first) == 5);
}

/* Look up a stable key, restarting when the walk ended on another chain's marker. */
static void rln_read(unsigned int cpu)
{
	static u32 seed[NR_CPUS];
	unsigned long key, slot, n = 0, m0 = READ_ONCE(rln.moves);
	struct hlist_nulls_node *pos;
	struct rln_obj *obj;

	seed[cpu] = seed[cpu] * 1664525u + 1013904223u + cpu;
	key = (seed[cpu] >> 16) % RLN_BUCKETS;
	slot = key % RLN_BUCKETS;
	rcu_read_lock();
again:
	hlist_nulls_for_each_entry_rcu(obj, pos, &rln.tbl[slot], node) {
		if (READ_ONCE(obj->key) == key)
			goto found;
		/*
		 * Linger on each object (barrier(), not cpu_relax(): PAUSE
		 * ends a vCPU's turn under TCG), so that objects move under
		 * readers often enough for walks to end on another chain.
		 */
		for (int i = 0; i < 200; i++)
			barrier();
		if (++n > RLN_WALK_MAX + (READ_ONCE(rln.moves) - m0)) {	/* as rls_check() */
			atomic_long_inc(&rln.too_long);
			goto out;
		}
	}
	if (get_nulls_value(pos) != slot) {
		atomic_long_inc(&rln.restarts);
		goto again;
	}
	atomic_long_inc(&rln.missing);
	goto out;
found:
	atomic_long_inc(&rln.lookups);
out:
	rcu_read_unlock();
}

/* Move one object to the head of another chain, with a new key that hashes there. */
static void rln_update(void)
{
	static u32 rnd = 0x7f4a7c15;
	struct rln_obj *m;
	unsigned long key;

	rnd = rnd * 1664525u + 1013904223u;
	m = &rln.mover[(rnd >> 8) % RLN_MOVERS];
	key = RLN_BUCKETS + ((rnd >> 16) % 64);
	hlist_nulls_del_rcu(&m->node);
	WRITE_ONCE(m->key, key);
	hlist_nulls_add_head_rcu(&m->node, &rln.tbl[key % RLN_BUCKETS]);
	WRITE_ONCE(rln.moves, rln.moves + 1);
}

void rcu_api_hlist_nulls_readers(void)
{
	unsigned long reads;
	bool ok;

	memset(&rln, 0, sizeof(rln));
	for (int b = 0; b < RLN_BUCKETS; b++)
		INIT_HLIST_NULLS_HEAD(&rln.tbl[b], b);
	for (int i = 0; i < RLN_MOVERS; i++) {
		rln.mover[i].key = RLN_BUCKETS + i;
		hlist_nulls_add_head_rcu(&rln.mover[i].node, &rln.tbl[rln.mover[i].key % RLN_BUCKETS]);
	}
	/* Stable objects last in their chains, so moving objects stand before them. */
	for (int b = 0; b < RLN_BUCKETS; b++) {
		rln.stable[b].key = b;
		hlist_nulls_add_tail_rcu(&rln.stable[b].node, &rln.tbl[b]);
	}
	atomic_long_set(&rln.lookups, 0);
	atomic_long_set(&rln.restarts, 0);
	atomic_long_set(&rln.missing, 0);
	atomic_long_set(&rln.too_long, 0);
	ok = rat_concurrent(rln_update, rln_read, &reads);
	ktap_diag("%lu moves, %ld lookups found, %ld restarts on a foreign marker", rln.moves,
		  atomic_long_read(&rln.lookups), atomic_long_read(&rln.restarts));
	KTAP_EXPECT_MSG(atomic_long_read(&rln.missing) == 0,
			"%ld lookups missed a key that never moved", atomic_long_read(&rln.missing));
	KTAP_EXPECT_MSG(atomic_long_read(&rln.too_long) == 0, "%ld lookups never ended",
			atomic_long_read(&rln.too_long));
	KTAP_EXPECT_MSG(ok && rln.moves > 0 && atomic_long_read(&rln.lookups) > 0,
			"no moves or no lookups");
	if (ok)
		rst_barrier();	/* readers gone before the static objects are reused */
}
