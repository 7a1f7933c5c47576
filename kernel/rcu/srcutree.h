/*
 * Tree SRCU's internal interface between its files (srcutree.c: the
 * grace-period machine; srcutree_api.c: the update-side API, domain
 * set-up and statistics) and its self-tests (kernel/rcu/test/).
 */
#ifndef _KERNEL_RCU_SRCUTREE_H
#define _KERNEL_RCU_SRCUTREE_H

#include <rcu/srcu.h>
#include "rcu.h"
#include "rcu_segcblist.h"

/* srcutree.exp_holdoff (ns) and srcutree.counter_wrap_check (srcutree_api.c). */
extern unsigned long srcu_exp_holdoff;
extern unsigned long srcu_counter_wrap_check;

/* srcutree.c */
/* Set up ssp's per-CPU update side (not the reader counters). */
void srcu_init_data(struct srcu_struct *ssp);
/*
 * Ask for the grace period s (a snapshot); any context. quiet: the caller
 * runs the machine itself (srcu_wait_gp()); srcu_gp is not woken for it.
 */
void srcu_funnel_gp_start(struct srcu_struct *ssp, unsigned long s, bool do_norm, bool quiet);
/*
 * Synchronous waits, task context, holding ssp->work (srcu_work_hold()):
 * run ssp's pending turns here, until grace period s (a snapshot) ends or
 * a scan finds readers.
 */
void srcu_drive_gp(struct srcu_struct *ssp, unsigned long s);
/* Task context: wait for grace period s, asked for quietly, helping it along (srcutree.c). */
void srcu_wait_gp(struct srcu_struct *ssp, unsigned long s, bool do_norm);
/* Readers of bank idx still inside their critical sections (a racy sum, for reports). */
long srcu_readers_in_bank(struct srcu_struct *ssp, int idx);

#endif
