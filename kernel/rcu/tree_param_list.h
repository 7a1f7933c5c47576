/*
 * Tree RCU's boot parameters, written once for both flavors.
 *
 * Tree RCU (tree_params.c) expands RCU_TREE_PARAMS into the fields of
 * struct rcu_tree_params and their KPARAM entries; Tiny RCU
 * (tiny_params.c) expands every list below into "does not apply" sinks,
 * so a parameter added here reaches Tiny without a second edit. Only the
 * parameters owned by tree_params.c carry their type, default, range and
 * description here; the others are declared by their own files (the
 * Tree-only tests, update.c), and the list names them for Tiny.
 * scripts/check-contracts.sh fails when a Tree-only rcutree.* or rcupdate.*
 * parameter is missing from these lists.
 *
 * Include it only from kernel/rcu/: the X() arguments name Kconfig
 * values (CONFIG_RCU_FANOUT_LEAF) that exist in Tree builds only, so an
 * expansion that uses the defaults must be a Tree one.
 */
#ifndef _KERNEL_RCU_TREE_PARAM_LIST_H
#define _KERNEL_RCU_TREE_PARAM_LIST_H

#define DEFAULT_RCU_BLIMIT	10	/* callbacks per rcu_do_batch() pass */
#define DEFAULT_RCU_QHIMARK	10000	/* queue length that lifts the limit */
#define DEFAULT_RCU_QLOMARK	100	/* ... and that restores it */

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

/*
 * Y(prefix, ctype, ktype, name): "<prefix>.<name>", declared by the file
 * that owns it. First the Tree-only tests (test/stall.c,
 * test/exp_stall.c, test/preempt.c, test/tasks.c,
 * test/fast_nohz.c), RCU_FAST_NO_HZ's delays (tree_nohz.c), callback
 * offloading's (tree_nocb.c, CONFIG_RCU_NOCB_CPU) and strict grace
 * periods' unlock delay (tree_strict.c), then
 * update.c's stall and expediting parameters: Tiny RCU has neither
 * stall warnings nor expedited grace periods, as in Linux. Last, Tasks
 * RCU's (tasks.c, preemptible kernels only, so never with Tiny RCU).
 */
#define RCU_TREE_OTHER_PARAMS(Y)						\
	Y(rcutree, int, KPARAM_INT, stall_test_secs)				\
	Y(rcutree, bool, KPARAM_BOOL, trace_dump_at_shutdown)			\
	Y(rcutree, int, KPARAM_INT, exp_stall_test_secs)			\
	Y(rcutree, bool, KPARAM_BOOL, exp_stall_test_preempted)			\
	Y(rcutree, bool, KPARAM_BOOL, preempt_selftest)				\
	Y(rcutree, int, KPARAM_INT, preempt_hog_ms)				\
	Y(rcutree, bool, KPARAM_BOOL, tasks_selftest)				\
	Y(rcutree, bool, KPARAM_BOOL, nohz_selftest)				\
	Y(rcutree, bool, KPARAM_BOOL, strict_selftest)				\
	Y(rcutree, bool, KPARAM_BOOL, nohz_full_selftest)			\
	Y(rcutree, int, KPARAM_INT, nohz_full_secs)				\
	Y(rcutree, int, KPARAM_INT, nohz_full_stall_secs)			\
	Y(rcutree, int, KPARAM_INT, rcu_idle_gp_delay)				\
	Y(rcutree, int, KPARAM_INT, rcu_idle_lazy_gp_delay)			\
	Y(rcutree, int, KPARAM_INT, rcu_nocb_leader_stride)			\
	Y(rcutree, int, KPARAM_INT, rcu_nocb_gp_stride)				\
	Y(rcutree, bool, KPARAM_BOOL, enable_rcu_lazy)				\
	Y(rcutree, int, KPARAM_INT, jiffies_lazy_flush)				\
	Y(rcutree, int, KPARAM_INT, lazy_bench)					\
	Y(rcutree, int, KPARAM_INT, rcu_unlock_delay)				\
	Y(rcutree, unsigned int, KPARAM_UINT, trivial_gp_delay_ms)		\
	Y(rcutree, unsigned int, KPARAM_UINT, gp_fold_delay_ms)			\
	Y(rcutree, bool, KPARAM_BOOL, sysrq_rcu)				\
	Y(rcupdate, int, KPARAM_INT, rcu_cpu_stall_timeout)			\
	Y(rcupdate, bool, KPARAM_BOOL, rcu_cpu_stall_suppress)			\
	Y(rcupdate, bool, KPARAM_BOOL, rcu_expedited)				\
	Y(rcupdate, bool, KPARAM_BOOL, rcu_normal)				\
	Y(rcupdate, bool, KPARAM_BOOL, rcu_normal_after_boot)			\
	Y(rcupdate, int, KPARAM_INT, rcu_task_stall_timeout)

#endif
