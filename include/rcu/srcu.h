/*
 * Sleepable RCU (SRCU), Linux's API. Readers of a domain (struct
 * srcu_struct) may sleep, block on mutexes, be preempted and migrate:
 *
 *	idx = srcu_read_lock(&my_srcu);
 *	p = srcu_dereference(gp, &my_srcu);
 *	...
 *	srcu_read_unlock(&my_srcu, idx);
 *
 * Grace periods are per domain: synchronize_srcu(&my_srcu) waits only for
 * readers of my_srcu, so a slow reader holds up its own domain's updaters
 * and nobody else. The implementation comes from <rcu/srcutree.h> (Tree
 * SRCU, CONFIG_TREE_RCU) or <rcu/srcutiny.h> (Tiny SRCU, CONFIG_TINY_RCU);
 * Documentation/RCU/srcu.md describes both.
 */
#ifndef _RCU_SRCU_H
#define _RCU_SRCU_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <rcu/types.h>
#include <rcu/rcupdate.h>	/* srcu_dereference() is rcu_dereference()'s load and checks */

#ifdef CONFIG_SRCU

#ifdef CONFIG_TINY_RCU
#include <rcu/srcutiny.h>
#else
#include <rcu/srcutree.h>
#endif

/*
 * A dynamically initialised domain: init_srcu_struct() returns 0 or
 * -ENOMEM. cleanup_srcu_struct() frees it, unless it is still in use
 * (readers, callbacks or a grace period in flight): then it WARNs and
 * leaves the domain alone (leaked, never freed under a user).
 */
int init_srcu_struct(struct srcu_struct *ssp);
void cleanup_srcu_struct(struct srcu_struct *ssp);

#ifdef CONFIG_PROVE_RCU
/*
 * Lockdep-RCU: each domain is a pseudo-lock on the reader's held-lock
 * stack (listed by name in the reports), so srcu_read_lock_held() can
 * answer for this very domain (kernel/rcu/lockdep.c).
 */
#define SRCU_DEP_MAP_INIT(_name)	.dep_map = STATIC_LOCKDEP_MAP_INIT(#_name, NULL),
#define srcu_lockdep_init(ssp)	lockdep_init_site(&(ssp)->dep_map, "&ssp->dep_map")
#define srcu_lock_acquire(ssp)	lock_acquire(&(ssp)->dep_map, false, true, LOCKDEP_HERE)
#define srcu_lock_release(ssp)	((void)lock_release(&(ssp)->dep_map, LOCKDEP_HERE))
bool srcu_read_lock_held(const struct srcu_struct *ssp);
#define srcu_dereference_check(p, ssp, c)					\
	({									\
		RCU_LOCKDEP_WARN(!((c) || srcu_read_lock_held(ssp)),		\
				 "suspicious rcu_dereference_check() usage");	\
		rcu_dereference_raw(p);						\
	})
#else
#define SRCU_DEP_MAP_INIT(_name)
#define srcu_lockdep_init(ssp)	do { } while (0)
#define srcu_lock_acquire(ssp)	do { } while (0)
#define srcu_lock_release(ssp)	do { } while (0)
static inline bool srcu_read_lock_held(const struct srcu_struct *ssp) { return true; }
/* x86 keeps dependent loads ordered: as rcu_dereference(), a READ_ONCE (of an __rcu pointer). */
#define srcu_dereference_check(p, ssp, c)	rcu_dereference_raw(p)
#endif

/* Readers: see the file comment. Any context but NMI; the index goes from lock to unlock. */
static inline int srcu_read_lock(struct srcu_struct *ssp)
{
	int idx = __srcu_read_lock(ssp);

	srcu_lock_acquire(ssp);
	return idx;
}

static inline void srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	srcu_lock_release(ssp);
	__srcu_read_unlock(ssp, idx);
}
#define srcu_dereference(p, ssp)		srcu_dereference_check((p), (ssp), 0)
#define srcu_dereference_notrace(p, ssp)	srcu_dereference((p), (ssp))

/*
 * Updaters. call_srcu() may be called from any context but NMI; the
 * callback runs in the srcu_gp kthread after a full grace period of ssp
 * and must not sleep. The others sleep and must not be called from inside
 * a reader of the same domain (that would wait for itself) nor from an
 * SRCU callback.
 */
void call_srcu(struct srcu_struct *ssp, struct rcu_head *rhp, rcu_callback_t func);
void synchronize_srcu(struct srcu_struct *ssp);
void synchronize_srcu_expedited(struct srcu_struct *ssp);
void srcu_barrier(struct srcu_struct *ssp);

/*
 * Polling: get_state_synchronize_srcu() returns a cookie without starting
 * anything; start_poll_synchronize_srcu() also makes sure a grace period
 * will come; poll_state_synchronize_srcu() says whether a full grace
 * period has elapsed since the cookie was taken. SRCU_GET_STATE_COMPLETED
 * is a cookie that is always complete.
 */
#define SRCU_GET_STATE_COMPLETED	0x1
unsigned long get_state_synchronize_srcu(struct srcu_struct *ssp);
unsigned long start_poll_synchronize_srcu(struct srcu_struct *ssp);
bool poll_state_synchronize_srcu(struct srcu_struct *ssp, unsigned long cookie);

/* Grace periods completed so far (rcutorture's srcu_batches_completed()). */
unsigned long srcu_batches_completed(struct srcu_struct *ssp);
/* Grace periods this domain has completed, normal and expedited (Tiny SRCU: all normal). */
void srcu_get_gp_counts(struct srcu_struct *ssp, unsigned long *normal, unsigned long *exp);
/* cleanup_srcu_struct() calls refused (busy domains) since boot, all domains (tests). */
unsigned long srcu_cleanup_refusals(void);
/* The domain's state on one line, Linux's rcutorture format: "<tt><tf> Tree SRCU g...". */
void srcu_torture_stats_print(struct srcu_struct *ssp, const char *tt, const char *tf);

#endif /* CONFIG_SRCU */

#endif
