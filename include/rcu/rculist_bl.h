/*
 * RCU forms of the bit-locked hlists (<kernel/list_bl.h>), as Linux's
 * <linux/rculist_bl.h>. Updaters hold the bucket's bit lock
 * (hlist_bl_lock()), readers walk in rcu_read_lock() with
 * hlist_bl_for_each_entry_rcu(), masking the lock bit out of ->first.
 * Deletion keeps ->next, poisons ->pprev, as the other RCU lists.
 */
#ifndef _RCU_RCULIST_BL_H
#define _RCU_RCULIST_BL_H

#include <kernel/list_bl.h>
#include <rcu/rcupdate.h>

/* Store ->first with the lock bit the holder has set, publishing n. */
static inline void hlist_bl_set_first_rcu(struct hlist_bl_head *h, struct hlist_bl_node *n)
{
	LIST_BL_BUG_ON((unsigned long)n & LIST_BL_LOCKMASK);
	LIST_BL_BUG_ON(((unsigned long)h->first & LIST_BL_LOCKMASK) != LIST_BL_LOCKMASK);
	/* publish: n's fields first */
	rcu_assign_pointer(*(struct hlist_bl_node __rcu **)&h->first,
			   (struct hlist_bl_node *)((unsigned long)n | LIST_BL_LOCKMASK));
}

/* ->first for a reader (or the lock holder), the lock bit masked out. */
static inline struct hlist_bl_node *hlist_bl_first_rcu(struct hlist_bl_head *h)
{
	return (struct hlist_bl_node *)
		((unsigned long)rcu_dereference_check(*(struct hlist_bl_node __rcu **)&h->first,
						      hlist_bl_is_locked(h)) & ~LIST_BL_LOCKMASK);
}

/* Unlink n if linked and mark it unhashed; ->next stays intact. Bucket locked. */
static inline void hlist_bl_del_init_rcu(struct hlist_bl_node *n)
{
	if (!hlist_bl_unhashed(n)) {
		__hlist_bl_del(n);
		WRITE_ONCE(n->pprev, NULL);
	}
}

/* Unlink n; ->next stays intact for readers on it, ->pprev is poisoned. Bucket locked. */
static inline void hlist_bl_del_rcu(struct hlist_bl_node *n)
{
	__hlist_bl_del(n);
	n->pprev = LIST_POISON2;
}

/* Add n at the front of h. Bucket locked. */
static inline void hlist_bl_add_head_rcu(struct hlist_bl_node *n, struct hlist_bl_head *h)
{
	struct hlist_bl_node *first = hlist_bl_first(h);

	n->next = first;
	if (first)
		first->pprev = &n->next;
	n->pprev = &h->first;
	hlist_bl_set_first_rcu(h, n);
}

/* Walk a bucket under rcu_read_lock(). tpos: the object; pos: the node cursor. */
#define hlist_bl_for_each_entry_rcu(tpos, pos, head, member)			\
	for (pos = hlist_bl_first_rcu(head);					\
	     pos && ({ tpos = hlist_bl_entry(pos, __typeof__(*(tpos)), member); 1; }); \
	     pos = rcu_dereference_raw(*(struct hlist_bl_node __rcu **)&(pos)->next))

#endif
