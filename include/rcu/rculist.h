/*
 * RCU-protected lists over <kernel/list.h>, with Linux's names.
 *
 * Updaters (serialised among themselves by their own lock) publish new
 * elements with rcu_assign_pointer(): every initialising store to an
 * element is visible before the pointer that links it in. Readers walk the
 * list inside rcu_read_lock() with the *_rcu iterators, which load each
 * link with rcu_dereference(). A removed element keeps its ->next (it is
 * not poisoned), so a reader standing on it can still walk forward to the
 * rest of the list; only ->prev / ->pprev, which readers never follow,
 * are poisoned. Free it after a grace period (call_rcu(), kfree_rcu(),
 * synchronize_rcu()).
 */
#ifndef _RCU_RCULIST_H
#define _RCU_RCULIST_H

#include <kernel/list.h>
#include <rcu/rcupdate.h>

/*
 * The ->next field as an __rcu lvalue that rcu_assign_pointer()/rcu_dereference()
 * take. As in Linux, struct list_head itself carries no __rcu (plain lists use
 * it too); the RCU list code reaches the links through these casts instead.
 */
#define list_next_rcu(list)	(*((struct list_head __rcu **)(&(list)->next)))
#define hlist_first_rcu(head)	(*((struct hlist_node __rcu **)(&(head)->first)))
#define hlist_next_rcu(node)	(*((struct hlist_node __rcu **)(&(node)->next)))

/* Initialise a head that readers may already see (no torn stores). */
static inline void INIT_LIST_HEAD_RCU(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	WRITE_ONCE(list->prev, list);
}

/* Link n between two known-adjacent entries; n becomes visible to readers last. */
static inline void __list_add_rcu(struct list_head *n, struct list_head *prev,
				  struct list_head *next)
{
	n->next = next;
	n->prev = prev;
	rcu_assign_pointer(list_next_rcu(prev), n);	/* publish: n's fields first */
	next->prev = n;
}

/* Add n after head (stack order). Caller holds the updaters' lock. */
static inline void list_add_rcu(struct list_head *n, struct list_head *head)
{
	__list_add_rcu(n, head, head->next);
}

/* Add n before head (queue order). Caller holds the updaters' lock. */
static inline void list_add_tail_rcu(struct list_head *n, struct list_head *head)
{
	__list_add_rcu(n, head->prev, head);
}

/*
 * Unlink e. Readers may still be on e: its ->next stays valid (pointing
 * into the list) until the grace period ends; ->prev is poisoned.
 */
static inline void list_del_rcu(struct list_head *e)
{
	__list_del(e->prev, e->next);
	e->prev = LIST_POISON2;
}

/* Put n in old's place in one store visible to readers; old's ->next stays intact. */
static inline void list_replace_rcu(struct list_head *old, struct list_head *n)
{
	n->next = old->next;
	n->prev = old->prev;
	rcu_assign_pointer(list_next_rcu(n->prev), n);
	n->next->prev = n;
	old->prev = LIST_POISON2;
}

/* The element a link points to, the link loaded once with rcu_dereference(). */
#define list_entry_rcu(ptr, type, member)	container_of(rcu_dereference_raw(ptr), type, member)

/* True if the list is empty, for readers (no ordering beyond the load). */
static inline bool list_empty_rcu(const struct list_head *head)
{
	return rcu_access_pointer(list_next_rcu(head)) == head;
}

/* First element or NULL, the link read once (a plain check-then-use would read it twice). */
#define list_first_or_null_rcu(ptr, type, member) ({				\
	struct list_head *__lhead = (ptr);					\
	struct list_head *__lnext = rcu_dereference_raw(list_next_rcu(__lhead)); \
	likely(__lhead != __lnext) ? container_of(__lnext, type, member) : NULL; })

/*
 * The optional lockdep condition of the list walks, as Linux: with
 * CONFIG_PROVE_RCU a walk outside a reader where the condition (for
 * example lockdep_is_held(&updaters_lock)) is false or absent prints the
 * "RCU-list traversed in non-reader section!" splat. `dummy, ## cond, 0`
 * makes the condition 0 when the caller gave none.
 */
#ifdef CONFIG_PROVE_RCU
#define __list_check_rcu(dummy, cond, extra...)					\
	RCU_LOCKDEP_WARN(!(cond) && !rcu_read_lock_held(),			\
			 "RCU-list traversed in non-reader section!")
#else
#define __list_check_rcu(dummy, cond, extra...)	do { } while (0)
#endif

/*
 * Walk a list under rcu_read_lock(), or with the updaters' lock held and
 * the optional trailing argument saying so (Linux's lockdep condition).
 */
#define list_for_each_entry_rcu(pos, head, member, cond...)			\
	for (({ __list_check_rcu(dummy, ## cond, 0); }),			\
	     pos = list_entry_rcu(list_next_rcu(head), __typeof__(*(pos)), member); \
	     &(pos)->member != (head);						\
	     pos = list_entry_rcu(list_next_rcu(&(pos)->member), __typeof__(*(pos)), member))

/* Continue after pos (which the caller found in this read-side section). */
#define list_for_each_entry_continue_rcu(pos, head, member)			\
	for (pos = list_entry_rcu(list_next_rcu(&(pos)->member), __typeof__(*(pos)), member); \
	     &(pos)->member != (head);						\
	     pos = list_entry_rcu(list_next_rcu(&(pos)->member), __typeof__(*(pos)), member))

/*
 * The lockdep condition of the SRCU walks: mandatory, since an SRCU
 * reader is not an RCU reader; pass srcu_read_lock_held(&ss) (or the
 * updaters' lock). Linux's message.
 */
#ifdef CONFIG_PROVE_RCU
#define __list_check_srcu(cond)							\
	RCU_LOCKDEP_WARN(!(cond), "RCU-list traversed without holding the required lock!")
#else
#define __list_check_srcu(cond)	do { } while (0)
#endif

/* Walk a list inside srcu_read_lock(); cond says which srcu_struct (or lock) protects it. */
#define list_for_each_entry_srcu(pos, head, member, cond)			\
	for (({ __list_check_srcu(cond); }),					\
	     pos = list_entry_rcu(list_next_rcu(head), __typeof__(*(pos)), member); \
	     &(pos)->member != (head);						\
	     pos = list_entry_rcu(list_next_rcu(&(pos)->member), __typeof__(*(pos)), member))

/*
 * Move the elements of list, which readers may be walking, between prev
 * and next of another list, which readers may be walking too. list is
 * emptied first (readers arriving now find it empty); sync() then waits
 * for readers already inside list's body (synchronize_rcu(), or the
 * flavor's own), because once spliced, the last element leads to the
 * other list's head and a reader of list would never find its own head
 * again. Only then is the body linked in, its own ->next fields first
 * and the pointer that makes it reachable last. Blocks (sync); the caller
 * serialises updaters of both lists.
 */
static inline void __list_splice_init_rcu(struct list_head *list, struct list_head *prev,
					  struct list_head *next, void (*sync)(void))
{
	struct list_head *first = list->next;
	struct list_head *last = list->prev;

	INIT_LIST_HEAD_RCU(list);
	sync();
	last->next = next;
	rcu_assign_pointer(list_next_rcu(prev), first);	/* publish: last->next first */
	first->prev = prev;
	next->prev = last;
}

/* Splice list's elements at the front of head, leaving list empty (see above). */
static inline void list_splice_init_rcu(struct list_head *list, struct list_head *head,
					void (*sync)(void))
{
	if (!list_empty(list))
		__list_splice_init_rcu(list, head, head->next, sync);
}

/* Splice list's elements at the back of head, leaving list empty (see above). */
static inline void list_splice_tail_init_rcu(struct list_head *list, struct list_head *head,
					     void (*sync)(void))
{
	if (!list_empty(list))
		__list_splice_init_rcu(list, head->prev, head, sync);
}

/* --- hlists ----------------------------------------------------------------------- */

/* Add n at the front of h. Caller holds the updaters' lock. */
static inline void hlist_add_head_rcu(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	rcu_assign_pointer(hlist_first_rcu(h), n);	/* publish: n's fields first */
	if (first)
		first->pprev = &n->next;
}

/* Unlink n; its ->next stays intact for readers standing on it, ->pprev is poisoned. */
static inline void hlist_del_rcu(struct hlist_node *n)
{
	__hlist_del(n);
	n->pprev = LIST_POISON2;
}

/* Unlink n if linked and mark it unhashed (hlist_unhashed() true); ->next stays intact. */
static inline void hlist_del_init_rcu(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		WRITE_ONCE(n->pprev, NULL);
	}
}

/* The link that points at n (its predecessor's ->next, or the head's ->first). */
#define hlist_pprev_rcu(node)	(*((struct hlist_node __rcu **)((node)->pprev)))

/*
 * Add n just before next, which is on a list. Readers walking past next's
 * predecessor see either next or n then next. Caller holds the updaters' lock.
 */
static inline void hlist_add_before_rcu(struct hlist_node *n, struct hlist_node *next)
{
	n->pprev = next->pprev;
	n->next = next;
	rcu_assign_pointer(hlist_pprev_rcu(n), n);	/* publish: n's fields first */
	next->pprev = &n->next;
}

/* Add n just after prev, which is on a list. Caller holds the updaters' lock. */
static inline void hlist_add_behind_rcu(struct hlist_node *n, struct hlist_node *prev)
{
	n->next = prev->next;
	n->pprev = &prev->next;
	rcu_assign_pointer(hlist_next_rcu(prev), n);	/* publish: n's fields first */
	if (n->next)
		n->next->pprev = &n->next;
}

/* Walk an hlist under rcu_read_lock(), or where the optional lockdep condition holds. */
#define hlist_for_each_entry_rcu(pos, head, member, cond...)			\
	for (({ __list_check_rcu(dummy, ## cond, 0); }),			\
	     pos = hlist_entry_safe(rcu_dereference_raw(hlist_first_rcu(head)),	\
				    __typeof__(*(pos)), member);		\
	     pos;								\
	     pos = hlist_entry_safe(rcu_dereference_raw(hlist_next_rcu(&(pos)->member)), \
				    __typeof__(*(pos)), member))

/* Walk an hlist inside srcu_read_lock(); cond as for list_for_each_entry_srcu(). */
#define hlist_for_each_entry_srcu(pos, head, member, cond)			\
	for (({ __list_check_srcu(cond); }),					\
	     pos = hlist_entry_safe(rcu_dereference_raw(hlist_first_rcu(head)),	\
				    __typeof__(*(pos)), member);		\
	     pos;								\
	     pos = hlist_entry_safe(rcu_dereference_raw(hlist_next_rcu(&(pos)->member)), \
				    __typeof__(*(pos)), member))

#endif
