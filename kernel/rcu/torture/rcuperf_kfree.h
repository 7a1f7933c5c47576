/*
 * rcuperf's kfree_rcu() test (rcuperf_kfree.c), as rcuperf.c starts it:
 * with rcuperf.kfree_rcu_test=1 it runs instead of the grace-period test.
 */
#ifndef _RCU_TORTURE_RCUPERF_KFREE_H
#define _RCU_TORTURE_RCUPERF_KFREE_H

#include <kernel/types.h>

/* rcuperf.kfree_rcu_test was given. */
bool rcu_perf_kfree_wanted(void);
/* Start the threads (kfree_nthreads counted against ncpus); power off at the end if shutdown. */
int rcu_perf_kfree_init(bool shutdown, int ncpus);

#endif
