/*
 * The KTAP suite "rcu_api" (rcupdate.api_selftest=1; kernel/rcu/test/api_extra.c
 * lists its cases): the rest of Linux 6.1's RCU API a user reaches for
 * (rcu_sync, synchronize_rcu_mult(), rcu_head_after_call_rcu(), ...) and
 * the RCU list forms beyond <rcu/rculist.h>'s basics, the list forms
 * under concurrent readers on every other CPU. Every Tree and Tiny build.
 */
#ifndef _RCU_TEST_API_EXTRA_H
#define _RCU_TEST_API_EXTRA_H

#include "common.h"

/* Each concurrent case's update phase; readers stop when it ends. */
#define RAT_UPDATE_MS	150

/*
 * Run update() repeatedly on this CPU for RAT_UPDATE_MS (at least once,
 * and on until every reader has read once) while every other online CPU
 * runs read(cpu) in a loop (on one CPU, a read after each update). False
 * (reported) if a worker did not finish in time. *reads gets the number
 * of read() calls on all CPUs.
 */
bool rat_concurrent(void (*update)(void), void (*read)(unsigned int cpu), unsigned long *reads);

/* A pool element's magic while linked or in a reader's reach, and once its grace period ended. */
#define RAT_LIVE	0x4c49564552435521UL
#define RAT_DEAD	0x6b6b6b6b6b6b6b6bUL

/* rcu_sync.c */
void rcu_api_sync_states(void);
void rcu_api_sync_readers(void);
/* rculist_splice.c */
void rcu_api_list_splice(void);
void rcu_api_list_splice_readers(void);
void rcu_api_hlist_before_behind(void);
void rcu_api_list_srcu(void);
/* rculist_nulls.c */
void rcu_api_hlist_nulls(void);
void rcu_api_hlist_nulls_readers(void);
/* rculist_bl.c */
void rcu_api_hlist_bl(void);
void rcu_api_hlist_bl_readers(void);
/* rwlocks.c: the locks refscale's rwlock and rwsem types measure */
void rcu_api_rwlock(void);
void rcu_api_rwsem(void);
/* stall_reset.c (Tree RCU) */
void rcu_api_stall_reset_tree(void);

#endif
