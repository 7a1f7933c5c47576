/*
 * Tree SRCU's data structures and readers (kernel/rcu/srcutree*.c), picked
 * by <rcu/srcu.h> when CONFIG_TREE_RCU: per-CPU reader counters in two
 * banks, per-CPU callback lists, one grace-period state machine per
 * domain driven by the srcu_gp kthread (<rcu/srcu_work.h>).
 *
 * There is no srcu_node combining tree: with NR_CPUS small (64 by default)
 * a grace period sums at most a few hundred counters and funnels requests
 * through one lock per domain; Documentation/RCU/srcu.md says why that is
 * enough here.
 */
#ifndef _RCU_SRCUTREE_H
#define _RCU_SRCUTREE_H

#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/barrier.h>
#include <kernel/preempt.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <locking/spinlock.h>
#include <locking/mutex.h>
#include <sched/completion.h>
#include <sched/wait.h>
#include <rcu/types.h>
#include <rcu/segcblist_types.h>
#include <rcu/srcu_work.h>

struct srcu_struct;

/*
 * One CPU's share of a domain. The counters only ever grow: readers add
 * to lock_count[idx] on the CPU where they enter and to unlock_count[idx]
 * on the CPU where they leave, so only the sums over all CPUs mean
 * anything. The rest is the update side, guarded by ->lock.
 */
struct srcu_data {
	atomic_long_t srcu_lock_count[2];	/* readers entered, per bank */
	atomic_long_t srcu_unlock_count[2];	/* readers left, per bank */

	spinlock_t lock;
	struct rcu_segcblist srcu_cblist;	/* call_srcu() callbacks queued on this CPU */
	unsigned long srcu_gp_seq_needed;	/* furthest grace period asked for from here */
	unsigned long srcu_gp_seq_needed_exp;	/* ... and asked to be expedited */
	struct rcu_head srcu_barrier_head;	/* srcu_barrier()'s callback */
	int cpu;
	struct srcu_struct *ssp;
} __aligned(64);

/*
 * The domain. ->lock guards the grace-period sequence numbers the update
 * side compares (srcu_gp_seq's state changes, *_needed*); the state
 * machine itself runs only in srcu_gp, one step at a time per domain.
 */
struct srcu_struct {
	unsigned long srcu_idx;			/* readers use bank srcu_idx & 1 */
	struct srcu_data *sda;			/* nr_cpu_ids entries, indexed by CPU */
	spinlock_t lock;
	unsigned long srcu_gp_seq;		/* grace periods, <kernel/rcu/rcu.h> encoding */
	unsigned long srcu_gp_seq_needed;	/* latest grace period asked for */
	unsigned long srcu_gp_seq_needed_exp;	/* latest one asked to be expedited */
	u64 srcu_last_gp_end;			/* local_clock() at the last grace period's end */
	unsigned int srcu_n_exp_nodelay;	/* expedited scans without sleeping, this phase */
	bool srcu_gp_exp;			/* the running grace period counts as expedited */
	bool srcu_initialized;			/* update side set up (static domains: on first use) */
	bool sda_is_static;			/* ->sda is the DEFINE_SRCU() array */
	unsigned long srcu_n_gps;		/* statistics: normal grace periods */
	unsigned long srcu_n_exp_gps;		/* statistics: expedited grace periods */
	struct mutex srcu_barrier_mutex;	/* one srcu_barrier() at a time */
	unsigned long srcu_barrier_seq;		/* srcu_barrier() generations, rcu_seq encoding */
	atomic_t srcu_barrier_cpu_cnt;
	struct completion srcu_barrier_completion;
	struct srcu_work work;			/* the grace-period machine's turn in srcu_gp */
	struct wait_queue_head srcu_gp_wq;	/* synchronize_srcu() waiters, woken at each grace period's end */
	const char *name;
#ifdef CONFIG_PROVE_RCU
	struct lockdep_map dep_map;		/* readers, for srcu_read_lock_held() */
#endif
};

/* Grace-period phases: the low bits of ->srcu_gp_seq. */
#define SRCU_STATE_IDLE		0
#define SRCU_STATE_SCAN1	1
#define SRCU_STATE_SCAN2	2

/*
 * The first grace-period number: close below zero, so the counter wraps
 * soon after boot and the wrap-tolerant comparisons are exercised (Linux's
 * SRCU_GP_SEQ_INITIAL_VAL).
 */
#define SRCU_GP_SEQ_INITIAL_VAL	((0UL - 100UL) << 2)

void process_srcu(struct srcu_work *work);

#define __SRCU_STRUCT_INIT(_name, sda_array)					\
{										\
	.sda = (sda_array),							\
	.lock = __SPIN_LOCK_UNLOCKED(_name.lock),				\
	.srcu_gp_seq = SRCU_GP_SEQ_INITIAL_VAL,					\
	.srcu_gp_seq_needed = SRCU_GP_SEQ_INITIAL_VAL,				\
	.srcu_gp_seq_needed_exp = SRCU_GP_SEQ_INITIAL_VAL,			\
	.sda_is_static = true,							\
	.srcu_barrier_mutex = __MUTEX_INITIALIZER(_name.srcu_barrier_mutex),	\
	.srcu_barrier_completion = COMPLETION_INITIALIZER(_name.srcu_barrier_completion), \
	.work = SRCU_WORK_INIT(_name.work, process_srcu),			\
	.srcu_gp_wq = __WAIT_QUEUE_HEAD_INITIALIZER(_name.srcu_gp_wq),	\
	.name = #_name,								\
	SRCU_DEP_MAP_INIT(_name)						\
}

/*
 * A domain defined at build time. Its per-CPU data is a static array with
 * one entry per possible CPU; the update side is set up on first use
 * (readers need nothing: zeroed counters are a valid start).
 */
#define __DEFINE_SRCU(name, is_static)						\
	static struct srcu_data name##_srcu_data[NR_CPUS];			\
	is_static struct srcu_struct name = __SRCU_STRUCT_INIT(name, name##_srcu_data)
#define DEFINE_SRCU(name)		__DEFINE_SRCU(name, /* global */)
#define DEFINE_STATIC_SRCU(name)	__DEFINE_SRCU(name, static)

/*
 * Enter a reader: count it in this CPU's counter of the active bank and
 * return the bank, which the matching srcu_read_unlock() must be given.
 * Preemption is off only between reading the index and counting, so at
 * most one reader per CPU can have read an index that a flip has just
 * retired (the two-scan argument in kernel/rcu/srcutree.c relies on it).
 */
static inline int __srcu_read_lock(struct srcu_struct *ssp)
{
	int idx;

	preempt_disable();
	idx = READ_ONCE(ssp->srcu_idx) & 1;
	atomic_long_inc(&ssp->sda[smp_processor_id()].srcu_lock_count[idx]);
	/*
	 * Full barrier: the count is visible before any load of the critical
	 * section. Pairs with the smp_mb() between the two sums of
	 * srcutree.c:srcu_readers_active_idx_check() and with the ones
	 * around the flip in srcutree.c:srcu_flip().
	 */
	smp_mb__after_atomic();
	preempt_enable();
	return idx;
}

/* Leave a reader entered with bank idx, on whatever CPU we run now. */
static inline void __srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	preempt_disable();
	/*
	 * Full barrier: every access of the critical section happens before
	 * the count that lets a grace period end. Pairs with the smp_mb()
	 * between the two sums of srcutree.c:srcu_readers_active_idx_check().
	 */
	smp_mb__before_atomic();
	atomic_long_inc(&ssp->sda[smp_processor_id()].srcu_unlock_count[idx]);
	preempt_enable();
}

#endif
