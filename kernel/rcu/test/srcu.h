/*
 * What the files of the "srcu" KTAP suite share (srcu.c: the
 * helpers, the reader cases and the case list; srcu_cbs.c: the
 * callback, barrier, polling, cleanup and exp_holdoff cases; srcu_exp.c:
 * the expedited wait that runs its grace period in the caller).
 */
#ifndef _RCU_TEST_SRCU_H
#define _RCU_TEST_SRCU_H

#include <rcu/srcu.h>
#include <rcu/rcupdate.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/atomic.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <time/time.h>
#include <time/delay.h>
#include <mm/slab.h>

/* Budgets: generous, for TCG on a loaded host. */
#define SST_GP_MS	10000	/* one grace period, barrier or reader exit */
#define SST_STOP_MS	5000	/* kthread_stop() returns */
#define SST_READER_MS	50	/* the sleeping reader's nap */
#define SST_SETTLE_MS	10	/* time for a wrong grace period to end, where none may */

#ifdef CONFIG_TREE_SRCU
#include "../srcutree.h"
/* The running grace period has flipped: it now waits for the retired index only. */
static inline bool sst_gp_flipped(struct srcu_struct *ssp)
{
	return rcu_seq_state(READ_ONCE(ssp->srcu_gp_seq)) == SRCU_STATE_SCAN2;
}
/* Whether the domain still has its per-CPU data (Tiny SRCU has none to free: always true). */
static inline bool sst_domain_has_data(struct srcu_struct *ssp)
{
	return READ_ONCE(ssp->sda) != NULL;
}
#else
static inline bool sst_gp_flipped(struct srcu_struct *ssp)
{
	return READ_ONCE(ssp->srcu_gp_waiting);
}
static inline bool sst_domain_has_data(struct srcu_struct *ssp)
{
	return true;
}
#endif

/* A reader kthread: enters, sleeps hold_ms, waits for release if asked, leaves. */
struct sst_reader {
	struct srcu_struct *ssp;
	unsigned int hold_ms;
	bool wait_release;
	int release;		/* set by the case: leave now */
	int leaving;		/* set by the reader just before srcu_read_unlock() */
	int idx;
	u64 t_lock;
	struct completion entered, done;
	struct task_struct *p;
};

/* An update-side call in a kthread, so that the case can watch it and bound it. */
enum { SST_SYNC, SST_SYNC_EXP, SST_BARRIER };
struct sst_async {
	struct srcu_struct *ssp;
	int kind;
	int *flag;		/* snapshot *flag when the call returns (NULL: none) */
	int flag_at_end;
	u64 t_start, t_end;
	struct completion done;
	struct task_struct *p;
};

struct srcu_struct *sst_new_domain(void);
void sst_free_domain(struct srcu_struct *ssp);
struct sst_reader *sst_reader_start(struct srcu_struct *ssp, unsigned int hold_ms,
				    bool wait_release);
bool sst_reader_finish(struct sst_reader *r);
struct sst_async *sst_async_start(struct srcu_struct *ssp, int kind, int *flag);
bool sst_async_wait(struct sst_async *a, unsigned int ms);
bool sst_call(struct srcu_struct *ssp, int kind);
bool sst_wait_flipped(struct srcu_struct *ssp);
bool sst_wait_cookie(struct srcu_struct *ssp, unsigned long cookie);

/* srcu_cbs.c */
void srcu_callbacks_once(void);
void srcu_barrier_waits(void);
void srcu_polling(void);
void srcu_cleanup_busy_refused(void);
void srcu_exp_holdoff_effect(void);
/* srcu_exp.c */
void srcu_exp_wait_in_caller(void);

#endif
