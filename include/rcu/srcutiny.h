/*
 * Tiny SRCU (kernel/rcu/srcutiny.c), picked by <rcu/srcu.h> with Tiny RCU
 * (one CPU, no preemption): two reader nesting counters per domain and a
 * grace period that flips between them and waits for the old one to
 * drain, run by the srcu_gp kthread (<rcu/srcu_work.h>).
 */
#ifndef _RCU_SRCUTINY_H
#define _RCU_SRCUTINY_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <rcu/types.h>
#include <rcu/srcu_work.h>
#include <locking/lockdep.h>

/*
 * srcu_idx counts grace-period halves: odd while one runs. Readers use
 * counter ((srcu_idx + 1) & 2) >> 1, so a grace period starting at an
 * even srcu_idx waits for counter (srcu_idx & 2) >> 1 and sends new
 * readers to the other one.
 */
struct srcu_struct {
	int srcu_lock_nesting[2];	/* readers inside, per counter */
	unsigned long srcu_idx;		/* grace-period halves so far */
	unsigned long srcu_idx_max;	/* srcu_idx a polled request needs reached */
	bool srcu_gp_running;		/* a grace period holds srcu_gp_cbs */
	bool srcu_gp_waiting;		/* ... and waits for readers: the last unlock queues it */
	struct rcu_head *srcu_cb_head;	/* callbacks for the next grace period */
	struct rcu_head **srcu_cb_tail;
	struct rcu_head *srcu_gp_cbs;	/* callbacks the running grace period serves */
	unsigned long srcu_n_gps;	/* statistics: grace periods */
	struct srcu_work work;
	const char *name;
#ifdef CONFIG_PROVE_RCU
	struct lockdep_map dep_map;	/* readers, for srcu_read_lock_held() */
#endif
};

void srcu_drive_gp(struct srcu_work *work);
void srcu_tiny_reader_done(struct srcu_struct *ssp);

#define __SRCU_STRUCT_INIT(_name)						\
{										\
	.srcu_cb_tail = &_name.srcu_cb_head,					\
	.work = SRCU_WORK_INIT(_name.work, srcu_drive_gp),			\
	.name = #_name,								\
	SRCU_DEP_MAP_INIT(_name)						\
}
#define DEFINE_SRCU(_name)		struct srcu_struct _name = __SRCU_STRUCT_INIT(_name)
#define DEFINE_STATIC_SRCU(_name)	static struct srcu_struct _name = __SRCU_STRUCT_INIT(_name)

/*
 * Only an interrupt can come between reading srcu_idx and counting, and
 * interrupt readers leave before it returns: the grace period (a task)
 * never runs in between, so one scan per grace period suffices.
 */
static inline int __srcu_read_lock(struct srcu_struct *ssp)
{
	int idx = ((READ_ONCE(ssp->srcu_idx) + 1) & 0x2) >> 1;

	WRITE_ONCE(ssp->srcu_lock_nesting[idx], READ_ONCE(ssp->srcu_lock_nesting[idx]) + 1);
	barrier();	/* one CPU: only the compiler could move the critical section up */
	return idx;
}

static inline void __srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	int newval;

	barrier();	/* ... or down */
	newval = READ_ONCE(ssp->srcu_lock_nesting[idx]) - 1;
	WRITE_ONCE(ssp->srcu_lock_nesting[idx], newval);
	if (!newval && READ_ONCE(ssp->srcu_gp_waiting))
		srcu_tiny_reader_done(ssp);
}

#endif
