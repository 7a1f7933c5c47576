/* What only Tree RCU offers the rest of the kernel: CPU bring-up (tests: <rcu/torture.h>). */
#ifndef _RCU_RCUTREE_H
#define _RCU_RCUTREE_H

#include <kernel/types.h>

/* A CPU coming online (before it is marked online). */
void rcu_cpu_starting(unsigned int cpu);

#endif
