/*
 * hlists whose head carries its own lock in bit 0 of ->first, as Linux's
 * <linux/list_bl.h>: one word per hash bucket, lock included. Every read
 * of ->first masks the bit (hlist_bl_first()); every store of it keeps
 * the bit as the lock holder has it (set). The RCU forms are in
 * <rcu/rculist_bl.h>.
 */
#ifndef _KERNEL_LIST_BL_H
#define _KERNEL_LIST_BL_H

#include <kernel/list.h>
#include <kernel/bug.h>
#include <locking/bit_spinlock.h>

#define LIST_BL_LOCKMASK	1UL
#define LIST_BL_BUG_ON(x)	BUG_ON(x)

struct hlist_bl_head { struct hlist_bl_node *first; };
struct hlist_bl_node { struct hlist_bl_node *next, **pprev; };

#define INIT_HLIST_BL_HEAD(ptr)	((ptr)->first = NULL)
#define hlist_bl_entry(ptr, type, member)	container_of(ptr, type, member)

static inline void INIT_HLIST_BL_NODE(struct hlist_bl_node *h) { h->next = NULL; h->pprev = NULL; }
static inline bool hlist_bl_unhashed(const struct hlist_bl_node *h) { return !h->pprev; }

static inline struct hlist_bl_node *hlist_bl_first(struct hlist_bl_head *h)
{
	return (struct hlist_bl_node *)((unsigned long)h->first & ~LIST_BL_LOCKMASK);
}

/* Only the lock holder stores ->first, so the stored word has the lock bit set. */
static inline void hlist_bl_set_first(struct hlist_bl_head *h, struct hlist_bl_node *n)
{
	LIST_BL_BUG_ON((unsigned long)n & LIST_BL_LOCKMASK);
	LIST_BL_BUG_ON(((unsigned long)h->first & LIST_BL_LOCKMASK) != LIST_BL_LOCKMASK);
	h->first = (struct hlist_bl_node *)((unsigned long)n | LIST_BL_LOCKMASK);
}

static inline bool hlist_bl_empty(const struct hlist_bl_head *h)
{
	return !((unsigned long)READ_ONCE(h->first) & ~LIST_BL_LOCKMASK);
}

static inline void hlist_bl_add_head(struct hlist_bl_node *n, struct hlist_bl_head *h)
{
	struct hlist_bl_node *first = hlist_bl_first(h);

	n->next = first;
	if (first)
		first->pprev = &n->next;
	n->pprev = &h->first;
	hlist_bl_set_first(h, n);
}

/* Unlink n, keeping the lock bit of whatever word pointed at it (the head's ->first). */
static inline void __hlist_bl_del(struct hlist_bl_node *n)
{
	struct hlist_bl_node *next = n->next, **pprev = n->pprev;

	LIST_BL_BUG_ON((unsigned long)n & LIST_BL_LOCKMASK);
	WRITE_ONCE(*pprev, (struct hlist_bl_node *)((unsigned long)next |
						    ((unsigned long)*pprev & LIST_BL_LOCKMASK)));
	if (next)
		next->pprev = pprev;
}

static inline void hlist_bl_del(struct hlist_bl_node *n)
{
	__hlist_bl_del(n);
	n->next = LIST_POISON1;
	n->pprev = LIST_POISON2;
}

static inline void hlist_bl_lock(struct hlist_bl_head *b) { bit_spin_lock(0, (unsigned long *)b); }
static inline void hlist_bl_unlock(struct hlist_bl_head *b) { __bit_spin_unlock(0, (unsigned long *)b); }
static inline bool hlist_bl_is_locked(struct hlist_bl_head *b)
{
	return bit_spin_is_locked(0, (unsigned long *)b);
}

#define hlist_bl_for_each_entry(tpos, pos, head, member)			\
	for (pos = hlist_bl_first(head);					\
	     pos && ({ tpos = hlist_bl_entry(pos, __typeof__(*(tpos)), member); 1; }); \
	     pos = pos->next)

#endif
