/*
 * The rcutree.* parameters of struct rcu_tree_params, each declared once
 * here with its type, default, range and description: tree.h expands the
 * list into the struct's fields, tree_params.c into their defaults and
 * KPARAM entries. (Tree RCU's other parameters are declared by the files
 * that own them.) On a Tiny build these names, like every parameter of a
 * Tree-only file, "do not apply to Tiny RCU": scripts/kparams.py reads
 * this list where tree_params.c expands it (kernel/params_absent.c).
 *
 * Include it only from kernel/rcu/: the X() arguments name Kconfig
 * values (CONFIG_RCU_FANOUT_LEAF) that exist in Tree builds only.
 */
#ifndef _KERNEL_RCU_TREE_PARAM_LIST_H
#define _KERNEL_RCU_TREE_PARAM_LIST_H

#define DEFAULT_RCU_BLIMIT	10	/* callbacks per rcu_do_batch() pass */
#define DEFAULT_RCU_QHIMARK	10000	/* queue length that lifts the limit */
#define DEFAULT_RCU_QLOMARK	100	/* ... and that restores it */
#define DEFAULT_RCU_DIVISOR	7	/* a pass may take 1/128 of the backlog */

/*
 * X(decl, ctype, ktype, name, default, min, max, description): the
 * parameter "rcutree.<name>" of C type ctype, declared with the KPARAM
 * macro decl (KPARAM, or KPARAM_CLAMP to clamp out-of-range values).
 * Booleans use KPARAM with min 1 > max 0, as KPARAM_BOOL does.
 *
 * jiffies_till_*: -1 means computed in rcu_params_init() (the first FQS
 * delay is 0 with CONFIG_RCU_STRICT_GRACE_PERIOD, as in Linux); the FQS delays
 * are clamped to at most one second, as Linux does. kthread_prio: the
 * SCHED_FIFO priority of the RCU kthreads (rcu_preempt/rcu_sched always,
 * rcuc/N and rcub/N with RCU_BOOST) and of boosted readers, 0 =
 * SCHED_NORMAL; Linux's default, 1 with boosting. gp_*_delay: testing
 * aids, sleep this many jiffies per rcu_node in that phase of some
 * grace periods.
 */
#define RCU_TREE_PARAMS(X)							\
	X(KPARAM, long, KPARAM_LONG, blimit, DEFAULT_RCU_BLIMIT, 1, 1000000,	\
	  "callbacks one batch may invoke on a CPU")				\
	X(KPARAM, long, KPARAM_LONG, qhimark, DEFAULT_RCU_QHIMARK, 1, 100000000, \
	  "queued callbacks beyond which the batch limit is lifted")		\
	X(KPARAM, long, KPARAM_LONG, qlowmark, DEFAULT_RCU_QLOMARK, 0, 100000000, \
	  "queued callbacks at which the batch limit applies again")		\
	X(KPARAM_CLAMP, int, KPARAM_INT, rcu_divisor, DEFAULT_RCU_DIVISOR, 0, BITS_PER_LONG - 2, \
	  "a batch may invoke the queued callbacks shifted right by this, if more than blimit") \
	X(KPARAM_CLAMP, int, KPARAM_INT, jiffies_till_first_fqs,		\
	  IS_ENABLED(CONFIG_RCU_STRICT_GRACE_PERIOD) ? 0 : -1, 0, HZ,		\
	  "jiffies from grace-period start to the first force-quiescent-state scan") \
	X(KPARAM_CLAMP, int, KPARAM_INT, jiffies_till_next_fqs, -1, 1, HZ,	\
	  "jiffies between force-quiescent-state scans")			\
	X(KPARAM, int, KPARAM_INT, jiffies_till_sched_qs, -1, 0, INT_MAX,	\
	  "grace-period age in jiffies at which holdout CPUs are asked to report") \
	X(KPARAM, bool, KPARAM_BOOL, rcu_kick_kthreads, false, 1, 0,		\
	  "wake the grace-period kthread if it oversleeps (debug)")		\
	X(KPARAM, int, KPARAM_INT, rcu_fanout_leaf, CONFIG_RCU_FANOUT_LEAF, 2, BITS_PER_LONG, \
	  "CPUs per leaf rcu_node")						\
	X(KPARAM, bool, KPARAM_BOOL, rcu_fanout_exact, false, 1, 0,		\
	  "fill rcu_nodes to their fanout instead of balancing them")		\
	X(KPARAM, bool, KPARAM_BOOL, dump_tree, false, 1, 0,			\
	  "print the rcu_node tree at boot")					\
	X(KPARAM, int, KPARAM_INT, kthread_prio, IS_ENABLED(CONFIG_RCU_BOOST) ? 1 : 0, 0, 99, \
	  "SCHED_FIFO priority of RCU kthreads and of boosted readers (0: SCHED_NORMAL)") \
	X(KPARAM_CLAMP, int, KPARAM_INT, gp_preinit_delay, 0, 0, HZ,		\
	  "debug: jiffies of delay before grace-period initialisation")	\
	X(KPARAM_CLAMP, int, KPARAM_INT, gp_init_delay, 0, 0, HZ,		\
	  "debug: jiffies of delay per rcu_node during grace-period initialisation") \
	X(KPARAM_CLAMP, int, KPARAM_INT, gp_cleanup_delay, 0, 0, HZ,		\
	  "debug: jiffies of delay per rcu_node during grace-period cleanup")

#endif
