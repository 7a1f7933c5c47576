/*
 * RCU forms of the nulls-terminated hlists (<kernel/list_nulls.h>), as
 * Linux's <linux/rculist_nulls.h>. The usual user: a hash table whose
 * objects are reused (moved to another chain, re-keyed) without a grace
 * period, their memory staying of the same type (SLAB_TYPESAFE_BY_RCU).
 * A reader then may be carried onto another chain by an object that moved
 * under it, so a lookup that finds nothing checks the marker it ended on
 * and restarts if it is not its own chain's:
 *
 *	rcu_read_lock();
 *   again:
 *	hlist_nulls_for_each_entry_rcu(obj, pos, &table[slot], node)
 *		if (obj->key == key)
 *			goto found;		(re-check the key after taking a reference)
 *	if (get_nulls_value(pos) != slot)
 *		goto again;
 *
 * Deletion leaves ->next intact (a reader on the object walks on) and
 * poisons only ->pprev, as the plain RCU hlists do.
 */
#ifndef _RCU_RCULIST_NULLS_H
#define _RCU_RCULIST_NULLS_H

#include <kernel/list_nulls.h>
#include <rcu/rcupdate.h>

#define hlist_nulls_first_rcu(head)	(*((struct hlist_nulls_node __rcu **)&(head)->first))
#define hlist_nulls_next_rcu(node)	(*((struct hlist_nulls_node __rcu **)&(node)->next))

/* Unlink n if linked and mark it unhashed; ->next stays intact. */
static inline void hlist_nulls_del_init_rcu(struct hlist_nulls_node *n)
{
	if (!hlist_nulls_unhashed(n)) {
		__hlist_nulls_del(n);
		WRITE_ONCE(n->pprev, NULL);
	}
}

/* Unlink n; ->next stays intact for readers on it, ->pprev is poisoned. */
static inline void hlist_nulls_del_rcu(struct hlist_nulls_node *n)
{
	__hlist_nulls_del(n);
	WRITE_ONCE(n->pprev, LIST_POISON2);
}

/* Add n at the front of h. Caller holds the bucket's updaters' lock. */
static inline void hlist_nulls_add_head_rcu(struct hlist_nulls_node *n, struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *first = h->first;

	n->next = first;
	WRITE_ONCE(n->pprev, &h->first);
	rcu_assign_pointer(hlist_nulls_first_rcu(h), n);	/* publish: n's fields first */
	if (!is_a_nulls(first))
		WRITE_ONCE(first->pprev, &n->next);
}

/* Add n at the end of h (a walk to find it). Caller holds the bucket's updaters' lock. */
static inline void hlist_nulls_add_tail_rcu(struct hlist_nulls_node *n, struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *i, *last = NULL;

	for (i = h->first; !is_a_nulls(i); i = i->next)
		last = i;
	if (last) {
		n->next = last->next;	/* the chain's marker */
		n->pprev = &last->next;
		rcu_assign_pointer(hlist_nulls_next_rcu(last), n);	/* publish: n's fields first */
	} else {
		hlist_nulls_add_head_rcu(n, h);
	}
}

/* Make n look hashed to hlist_nulls_unhashed() without being on any chain. */
static inline void hlist_nulls_add_fake(struct hlist_nulls_node *n)
{
	n->pprev = &n->next;
	n->next = (struct hlist_nulls_node *)NULLS_MARKER(NULL);
}

/*
 * Walk a chain under rcu_read_lock(). tpos: the object; pos: the cursor,
 * which afterwards holds the marker the walk ended on (get_nulls_value()).
 * The barrier() makes the compiler reload the head on every restart.
 */
#define hlist_nulls_for_each_entry_rcu(tpos, pos, head, member)		\
	for (({ barrier(); }),							\
	     pos = rcu_dereference_raw(hlist_nulls_first_rcu(head));		\
	     !is_a_nulls(pos) &&						\
	     ({ tpos = hlist_nulls_entry(pos, __typeof__(*(tpos)), member); 1; }); \
	     pos = rcu_dereference_raw(hlist_nulls_next_rcu(pos)))

/* The same, reading ->next before the body runs, so the body may unlink tpos. */
#define hlist_nulls_for_each_entry_safe(tpos, pos, head, member)		\
	for (({ barrier(); }),							\
	     pos = rcu_dereference_raw(hlist_nulls_first_rcu(head));		\
	     !is_a_nulls(pos) &&						\
	     ({ tpos = hlist_nulls_entry(pos, __typeof__(*(tpos)), member);	\
		pos = rcu_dereference_raw(hlist_nulls_next_rcu(pos)); 1; });)

#endif
