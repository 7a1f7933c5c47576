/*
 * What only Tree RCU offers the rest of the kernel: CPU bring-up and
 * rcutorture's boost test. Tiny RCU's counterpart, with stubs for what
 * it lacks, is <rcu/rcutiny.h>; both come in through <rcu/hooks.h>.
 */
#ifndef _RCU_RCUTREE_H
#define _RCU_RCUTREE_H

#include <kernel/types.h>

/* rcutorture's boost test: GP kthread priority, is boosting to blame, readers boosted so far. */
int rcu_get_gp_kthreads_prio(void);
bool rcu_check_boost_fail(unsigned long gp_state, int *cpup);
unsigned long rcu_get_n_boosts(void);
/* A CPU coming online (before it is marked online). */
void rcu_cpu_starting(unsigned int cpu);

#endif
