/*
 * Tiny RCU's side of the flavor split (Tree's is <rcu/rcutree.h>): stubs
 * for the hooks Tiny RCU has no mechanism for, so their callers need no
 * #ifdef. Included through <rcu/hooks.h> and <rcu/rcupdate.h>.
 */
#ifndef _RCU_RCUTINY_H
#define _RCU_RCUTINY_H

/*
 * A full-state polling cookie (<rcu/rcupdate.h>): one word, as in Linux.
 * Every Tiny grace period is a normal and an expedited one at once.
 */
struct rcu_gp_oldstate {
	unsigned long rgos_norm;
};

/* One CPU, online from the start: nothing joins the grace periods later. */
static inline void rcu_cpu_starting(unsigned int cpu) { (void)cpu; }
/* No CPU hotplug (one CPU): nothing moves, the power-off line of Tree RCU has no counterpart. */
static inline bool rcu_check_cb_accounting(void) { return true; }
/* No tree and no per-CPU state: the statistics say all there is (gp_seq, callbacks). */
void rcu_show_stats(void);
static inline void rcu_show_gp_state(void) { rcu_show_stats(); }

#endif
