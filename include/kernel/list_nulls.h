/*
 * hlists whose end is a "nulls" marker instead of NULL, as Linux's
 * <linux/list_nulls.h>: an odd value carrying a number (typically the
 * bucket's index). A lockless reader of a hash table whose objects may
 * move to another chain while it walks (SLAB_TYPESAFE_BY_RCU-style reuse,
 * no grace period between) can tell, at the end, whether it finished on
 * the chain it started on; if not, it restarts. The RCU forms are in
 * <rcu/rculist_nulls.h>.
 */
#ifndef _KERNEL_LIST_NULLS_H
#define _KERNEL_LIST_NULLS_H

#include <kernel/list.h>

struct hlist_nulls_head { struct hlist_nulls_node *first; };
struct hlist_nulls_node { struct hlist_nulls_node *next, **pprev; };

#define NULLS_MARKER(value)	(1UL | (((long)(value)) << 1))
#define INIT_HLIST_NULLS_HEAD(ptr, nulls)					\
	((ptr)->first = (struct hlist_nulls_node *)NULLS_MARKER(nulls))
#define hlist_nulls_entry(ptr, type, member)	container_of(ptr, type, member)
#define hlist_nulls_entry_safe(ptr, type, member)				\
	({ __typeof__(ptr) ____p = (ptr);					\
	   !is_a_nulls(____p) ? hlist_nulls_entry(____p, type, member) : NULL; })

/* Is ptr an end marker? Objects are at least 2-byte aligned, so their addresses are even. */
static inline bool is_a_nulls(const struct hlist_nulls_node *ptr)
{
	return (unsigned long)ptr & 1;
}

/* The number an end marker carries. */
static inline unsigned long get_nulls_value(const struct hlist_nulls_node *ptr)
{
	return (unsigned long)ptr >> 1;
}

static inline bool hlist_nulls_unhashed(const struct hlist_nulls_node *h) { return !h->pprev; }
/* For readers racing an updater that clears ->pprev (hlist_nulls_del_init_rcu()). */
static inline bool hlist_nulls_unhashed_lockless(const struct hlist_nulls_node *h)
{
	return !READ_ONCE(h->pprev);
}
static inline bool hlist_nulls_empty(const struct hlist_nulls_head *h)
{
	return is_a_nulls(READ_ONCE(h->first));
}

static inline void hlist_nulls_add_head(struct hlist_nulls_node *n, struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *first = h->first;

	n->next = first;
	WRITE_ONCE(n->pprev, &h->first);
	h->first = n;
	if (!is_a_nulls(first))
		WRITE_ONCE(first->pprev, &n->next);
}

/* Unlink n; ->next stays (readers standing on n may still walk on). */
static inline void __hlist_nulls_del(struct hlist_nulls_node *n)
{
	struct hlist_nulls_node *next = n->next, **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (!is_a_nulls(next))
		WRITE_ONCE(next->pprev, pprev);
}

static inline void hlist_nulls_del(struct hlist_nulls_node *n)
{
	__hlist_nulls_del(n);
	WRITE_ONCE(n->pprev, LIST_POISON2);
}

/* tpos: the object; pos: the node cursor, which ends on the chain's marker. */
#define hlist_nulls_for_each_entry(tpos, pos, head, member)			\
	for (pos = (head)->first;						\
	     !is_a_nulls(pos) && ({ tpos = hlist_nulls_entry(pos, __typeof__(*(tpos)), member); 1; }); \
	     pos = pos->next)

#endif
