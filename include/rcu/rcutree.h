/*
 * What only Tree RCU offers the rest of the kernel: CPU bring-up (tests see
 * it through <rcu/torture.h>). Tiny RCU's counterpart, with stubs for what
 * it lacks, is <rcu/rcutiny.h>; both come in through <rcu/hooks.h>.
 */
#ifndef _RCU_RCUTREE_H
#define _RCU_RCUTREE_H

#include <kernel/types.h>

/*
 * A full-state polling cookie (<rcu/rcupdate.h>): where the normal grace
 * periods (rcu_state.gp_seq) and the expedited ones
 * (rcu_state.expedited_sequence) stood, each as the value its counter
 * will have once a full grace period of that kind has run.
 */
struct rcu_gp_oldstate {
	unsigned long rgos_norm;
	unsigned long rgos_exp;
};

/* A CPU coming online (before it is marked online), interrupts off. */
void rcu_cpu_starting(unsigned int cpu);
/*
 * CPU hotplug, in Linux's order (kernel/cpu.c calls them):
 * rcutree_offline_cpu() on the controlling CPU before the CPU goes (parks
 * rcuc/N); rcu_report_dead() on the dying CPU itself, its last act with
 * interrupts off (its last quiescent state; it leaves its leaf's
 * ->qsmaskinitnext); rcutree_migrate_callbacks() on the controlling CPU
 * once it is dead (its callbacks go to a CPU that stays, unless it is
 * offloaded, when its rcuo kthreads keep them); rcutree_online_cpu()
 * once it is back (unparks rcuc/N). rcutree_can_offline(): false if no
 * other online CPU could adopt cpu's callbacks.
 */
void rcutree_offline_cpu(unsigned int cpu);
void rcu_report_dead(unsigned int cpu);
void rcutree_migrate_callbacks(unsigned int cpu);
void rcutree_online_cpu(unsigned int cpu);
bool rcutree_can_offline(unsigned int cpu);
/* Power-off: per CPU, queued + adopted == invoked + orphaned + pending; prints the verdict. */
bool rcu_check_cb_accounting(void);
/* The grace-period state as a stall warning shows it (SysRq-y, the monitor's `rcu`). */
void rcu_show_gp_state(void);

#endif
