/*
 * The flavor interface of RCU's torture and performance tests
 * (kernel/rcu/torture/): what every RCU flavor tells them about its grace
 * periods beyond the public API of <rcu/rcupdate.h>. Tree RCU implements
 * it in kernel/rcu/tree_torture.c (the stall timeout in update.c), Tiny
 * RCU in kernel/rcu/tiny.c. What a flavor lacks is a static inline stub
 * here returning a neutral value, so the tests need no #ifdef.
 */
#ifndef _RCU_TORTURE_H
#define _RCU_TORTURE_H

#include <rcu/rcupdate.h>

/* The grace-period state: flags (0 under Tiny RCU) and sequence number. */
void rcutorture_get_gp_data(int *flags, unsigned long *gp_seq);
/* Whether a sequence number from rcutorture_get_gp_data() is inside a grace period. */
bool rcutorture_gp_seq_in_progress(unsigned long gp_seq);
/* Ask for the current grace period's quiescent states now (the fqs kthread). */
void rcu_force_quiescent_state(void);
/* Jiffies before a grace period is reported as a stall (the forward-progress test's yardstick). */
unsigned long rcu_jiffies_till_stall_check(void);

/*
 * The boost test: the grace-period kthread's SCHED_FIFO priority (0:
 * SCHED_NORMAL), whether boosting is to blame for a grace period that
 * outlived its window (else the CPU holding it up goes to *cpup, -1 if
 * none), and readers boosted so far. Tiny RCU never boosts: no kthread
 * priority, boosting always to blame (as Linux), nothing boosted.
 */
/*
 * What grace periods have cost so far, for the boot benchmark's scale
 * figures (kernel/rcu/test/gp_bench.c takes the difference of two
 * snapshots): the grace-period kthread's CPU time, its forced-quiescent-
 * state scans, and how often the rcu_node locks (the funnel and the
 * quiescent-state reports) were found held. Tiny RCU has none of these.
 */
struct rcu_gp_cost {
	u64 gp_kthread_ns;
	unsigned long fqs_scans;
	unsigned long leaf_lock_acq, leaf_lock_cont;
	unsigned long root_lock_acq, root_lock_cont;
	int levels;			/* rcu_node levels; 0 under Tiny RCU */
};

/*
 * For the in-kernel tests (kernel/rcu/test/), which see a flavor only
 * through this header: whether a CPU's callbacks are offloaded to rcuo
 * kthreads (rcu_nocbs=), and the dyntick-idle credits the grace-period
 * kthread has given it (quiescent states found from its idle counter).
 * Tiny RCU offloads nothing and gives no credits.
 */
/*
 * Expedited grace periods: the count completed so far (Linux's
 * rcu_exp_batches_completed(), rcu_state.expedited_sequence), and whether
 * the rcu_exp_poll kthread is idle (no expedited poll request pending, no
 * grace period run for one: tests that count expedited grace periods must
 * not see one of its own start or end later). Tiny RCU has neither.
 */
#ifdef CONFIG_TREE_RCU
unsigned long rcu_exp_batches_completed(void);
bool rcu_exp_poll_idle(void);
bool rcu_cpu_is_offloaded(int cpu);
unsigned long rcu_cpu_dynticks_credits(int cpu);
void rcu_get_gp_cost(struct rcu_gp_cost *c);
int rcu_get_gp_kthreads_prio(void);
bool rcu_check_boost_fail(unsigned long gp_state, int *cpup);
unsigned long rcu_get_n_boosts(void);
#else
static inline unsigned long rcu_exp_batches_completed(void) { return 0; }
static inline bool rcu_exp_poll_idle(void) { return true; }
static inline bool rcu_cpu_is_offloaded(int cpu) { return false; }
static inline unsigned long rcu_cpu_dynticks_credits(int cpu) { return 0; }
static inline void rcu_get_gp_cost(struct rcu_gp_cost *c) { *c = (struct rcu_gp_cost){ 0 }; }
static inline int rcu_get_gp_kthreads_prio(void) { return 0; }
static inline bool rcu_check_boost_fail(unsigned long gp_state, int *cpup)
{
	if (cpup)
		*cpup = -1;
	return true;
}
static inline unsigned long rcu_get_n_boosts(void) { return 0; }
#endif

#endif
