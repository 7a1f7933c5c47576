/*
 * What only Tree RCU offers the rest of the kernel: CPU bring-up (tests see
 * it through <rcu/torture.h>). Tiny RCU's counterpart, with stubs for what
 * it lacks, is <rcu/rcutiny.h>; both come in through <rcu/hooks.h>.
 */
#ifndef _RCU_RCUTREE_H
#define _RCU_RCUTREE_H

#include <kernel/types.h>

/* A CPU coming online (before it is marked online). */
void rcu_cpu_starting(unsigned int cpu);
/* The grace-period state as a stall warning shows it (SysRq-y, the monitor's `rcu`). */
void rcu_show_gp_state(void);

#endif
