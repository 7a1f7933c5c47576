/*
 * Linux's RCU boot parameters that this kernel does not implement. A
 * command line written for Linux then gets, for each such parameter, one
 * line saying so (and why) instead of the "unknown parameter" a typo
 * gets, and the parameter is not passed on to user space. Names and the
 * Linux versions they come from are listed in
 * Documentation/admin-guide/kernel-parameters.md ("Linux parameters not
 * implemented"). When one of them is implemented, its line here goes and
 * its real KPARAM takes the name; a name registered twice would be
 * ambiguous, which tests/boot/10-params.sh checks for.
 *
 * A parameter this kernel implements but this build lacks (its option is
 * off) is not listed here: scripts/kparams.py finds it at its declaration
 * and says "not in this kernel: needs CONFIG_X" (kernel/params_absent.c).
 * The two #ifdefs left are data for that script: Linux's Tree RCU and
 * Tree SRCU names, on a Tiny build, "do not apply to Tiny RCU/SRCU".
 */
#define KPARAM_SUBSYS "rcu"
#include <kernel/param.h>

/* Tree RCU (Linux's kernel/rcu/tree.c). */
#ifdef CONFIG_TREE_RCU
KPARAM_UNIMPL("rcutree.use_softirq", "callbacks always run in rcuc/N kthreads, as with use_softirq=0");
KPARAM_UNIMPL("rcutree.qovld", "no callback-overload forcing of quiescent states");
KPARAM_UNIMPL("rcutree.rcu_resched_ns", "callback batches are limited by count only");
KPARAM_UNIMPL("rcutree.rcu_delay_page_cache_fill_msec", "kvfree_rcu() allocates its pages when needed");
KPARAM_UNIMPL("rcutree.jiffies_to_sched_qs", "read-only in Linux; see rcutree.jiffies_till_sched_qs");
#endif /* CONFIG_TREE_RCU */

/* rcupdate.* (Linux's kernel/rcu/update.c and tasks.h). */
KPARAM_UNIMPL("rcupdate.rcu_cpu_stall_ftrace_dump", "no ftrace dump on stalls");
KPARAM_UNIMPL("rcupdate.rcu_cpu_stall_suppress_at_boot", "stall warnings are never suppressed during boot");
KPARAM_UNIMPL("rcupdate.rcu_exp_cpu_stall_timeout", "expedited stalls use rcupdate.rcu_cpu_stall_timeout");
KPARAM_UNIMPL("rcupdate.rcu_cpu_stall_cputime", "Linux 6.2's CPU-time stall report");
KPARAM_UNIMPL("rcupdate.rcu_self_test", "see rcutree.selftest=1 (the KTAP suites)");
KPARAM_UNIMPL("rcupdate.rcu_task_collapse_lim", "Tasks RCU has one callback queue");
KPARAM_UNIMPL("rcupdate.rcu_task_contend_lim", "Tasks RCU has one callback queue");
KPARAM_UNIMPL("rcupdate.rcu_task_enqueue_lim", "Tasks RCU has one callback queue");

/* Tree SRCU (Linux's kernel/rcu/srcutree.c). */
#ifdef CONFIG_TREE_SRCU
#undef KPARAM_SUBSYS
#define KPARAM_SUBSYS "srcu"
KPARAM_UNIMPL("srcutree.big_cpu_lim", "no srcu_node tree: per-CPU counters only");
KPARAM_UNIMPL("srcutree.convert_to_big", "no srcu_node tree: per-CPU counters only");
KPARAM_UNIMPL("srcutree.small_contention_lim", "no srcu_node tree: per-CPU counters only");
KPARAM_UNIMPL("srcutree.srcu_max_nodelay", "fixed reader-wait backoff");
KPARAM_UNIMPL("srcutree.srcu_max_nodelay_phase", "fixed reader-wait backoff");
KPARAM_UNIMPL("srcutree.srcu_retry_check_delay", "fixed reader-wait backoff");
#undef KPARAM_SUBSYS
#define KPARAM_SUBSYS "rcu"
#endif

/* rcutorture, rcuscale (rcuperf here), refscale and the torture core. */
KPARAM_UNIMPL("rcutorture.leakpointer", "no leaked-pointer test");
KPARAM_UNIMPL("rcutorture.stall_cpu_block", "the stall kthread spins");
KPARAM_UNIMPL("rcutorture.stall_gp_kthread", "no grace-period kthread stall test");
KPARAM_UNIMPL("rcutorture.test_boost_cpus", "the boost test runs on every CPU");
#undef KPARAM_SUBSYS
#define KPARAM_SUBSYS "torture"
KPARAM_UNIMPL("torture.ftrace_dump_at_shutdown", "no ftrace");
KPARAM_UNIMPL("torture.verbose_sleep_frequency", "no verbose-output throttling");
KPARAM_UNIMPL("torture.verbose_sleep_duration", "no verbose-output throttling");
KPARAM_UNIMPL("torture.random_shuffle", "the shuffler picks CPUs in turn");
#undef KPARAM_SUBSYS
#define KPARAM_SUBSYS "rcu"
/* Registered under rcuperf.: rcuscale.* reaches them through the prefix alias. */
KPARAM_UNIMPL("rcuperf.writer_holdoff_jiffies", "see rcuperf.writer_holdoff");
KPARAM_UNIMPL("refscale.lookup_instances", "no typesafe-lookup scale types");
KPARAM_UNIMPL("refscale.verbose_batched", "no batched verbose output");
