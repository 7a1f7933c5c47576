/*
 * Tree RCU's rcutree.* boot parameters, and rcu_params_init(): called
 * first thing in rcu_init() to fill in the computed defaults, check the
 * values against each other, print the boot banner with one indented
 * line per non-default setting (Linux's wording and order, so a
 * Linux-trained eye and Linux's log greps find them), and compute the
 * rcu_node tree's shape into rcu_state.geo.
 *
 * Single values out of range are handled by the parameter parser when
 * the command line is read (one warning each, from the ranges in
 * tree_param_list.h, the only place they are written); this file
 * handles what depends on other values or on nr_cpu_ids.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <kernel/param.h>
#include <kernel/printk.h>
#include <time/time.h>
#include <kernel/cpumask.h>
#include <kernel/bug.h>
#include <sched/sched.h>

/* Default FQS delays: 1 jiffy, +1 above HZ=250, +1 above HZ=500, +1 per 256 CPUs. */
#define RCU_JIFFIES_TILL_FORCE_QS	(1 + (HZ > 250) + (HZ > 500))
#define RCU_JIFFIES_FQS_DIV		256

/* Tree capacity with the Kconfig fanouts: the build fails if NR_CPUS does not fit. */
#define RCU_CAP_1	(CONFIG_RCU_FANOUT_LEAF)
#define RCU_CAP_2	(RCU_CAP_1 * CONFIG_RCU_FANOUT)
#define RCU_CAP_3	(RCU_CAP_2 * CONFIG_RCU_FANOUT)
#define RCU_CAP_4	(RCU_CAP_3 * CONFIG_RCU_FANOUT)
#if NR_CPUS <= RCU_CAP_1
#define RCU_BUILD_LVLS	1
#elif NR_CPUS <= RCU_CAP_2
#define RCU_BUILD_LVLS	2
#elif NR_CPUS <= RCU_CAP_3
#define RCU_BUILD_LVLS	3
#elif NR_CPUS <= RCU_CAP_4
#define RCU_BUILD_LVLS	4
#else
#error "CONFIG_RCU_FANOUT insufficient for NR_CPUS"
#define RCU_BUILD_LVLS	RCU_NUM_LVLS
#endif

/* The values (defaults from the list), then one KPARAM entry per field. */
struct rcu_tree_params rcu_params = {
#define RCU_TREE_PARAM_INIT(decl, ctype, ktype, name, def, min, max, desc)	.name = (def),
	RCU_TREE_PARAMS(RCU_TREE_PARAM_INIT)
#undef RCU_TREE_PARAM_INIT
};

#define RCU_TREE_PARAM_DECL(decl, ctype, ktype, name, def, min, max, desc)	\
	decl("rcutree." #name, rcu_params.name, ktype, min, max, desc);
RCU_TREE_PARAMS(RCU_TREE_PARAM_DECL)
#undef RCU_TREE_PARAM_DECL

/* update.c: the rcupdate.* lines of the boot list. */

/*
 * Linux's sanitize_kthread_prio(): boosting needs a real-time priority
 * (2 when rcutorture is built in, so its priority-1 hogs can be beaten);
 * the message keeps Linux's function name so its greps find it. The
 * range 0-99 is the declaration's (tree_param_list.h), applied by the
 * parser.
 */
static void rcu_sanitize_kthread_prio(void)
{
	int in = rcu_params.kthread_prio;

	if (IS_ENABLED(CONFIG_RCU_BOOST) && rcu_params.kthread_prio < 2 &&
	    IS_ENABLED(CONFIG_RCU_TORTURE_TEST))
		rcu_params.kthread_prio = 2;
	else if (IS_ENABLED(CONFIG_RCU_BOOST) && rcu_params.kthread_prio < 1)
		rcu_params.kthread_prio = 1;
	if (rcu_params.kthread_prio != in)
		pr_alert("sanitize_kthread_prio: Limited prio to %d from %d\n",
			 rcu_params.kthread_prio, in);
}

void rcu_kthread_set_prio(struct task_struct *t)
{
	struct sched_param sp = { .sched_priority = rcu_params.kthread_prio };

	if (rcu_params.kthread_prio > 0)
		sched_setscheduler_nocheck(t, SCHED_FIFO, &sp);
}

/*
 * Values a single parameter's range cannot express. Each value's own
 * range lives only in its declaration (tree_param_list.h), which the
 * parser applies: the boot command line is the only writer.
 */
static void rcu_params_check(void)
{
	rcu_sanitize_kthread_prio();
	if (rcu_params.qlowmark >= rcu_params.qhimark) {
		pr_warn("rcutree.qlowmark: value %ld not below rcutree.qhimark=%ld, using %ld\n",
			rcu_params.qlowmark, rcu_params.qhimark, rcu_params.qhimark / 2);
		rcu_params.qlowmark = rcu_params.qhimark / 2;
	}
}

/*
 * Shape the rcu_node tree for nr_cpu_ids CPUs. A leaf fanout too small
 * for this many CPUs within RCU_NUM_LVLS levels falls back to the Kconfig
 * value, which the build has checked against NR_CPUS.
 */
static void rcu_params_geometry(void)
{
	int leaf = rcu_params.rcu_fanout_leaf;

	if (!rcu_geometry_compute(&rcu_state.geo, nr_cpu_ids, CONFIG_RCU_FANOUT, leaf,
				  rcu_params.rcu_fanout_exact))
		return;
	rcu_params.rcu_fanout_leaf = CONFIG_RCU_FANOUT_LEAF;
	pr_warn("rcutree.rcu_fanout_leaf: value %d too small for nr_cpu_ids=%u with CONFIG_RCU_FANOUT=%d, using %d\n",
		leaf, nr_cpu_ids, CONFIG_RCU_FANOUT, rcu_params.rcu_fanout_leaf);
	if (rcu_geometry_compute(&rcu_state.geo, nr_cpu_ids, CONFIG_RCU_FANOUT,
				 rcu_params.rcu_fanout_leaf, rcu_params.rcu_fanout_exact))
		panic("rcu: no rcu_node geometry for nr_cpu_ids=%u", nr_cpu_ids);
}

/* The implementation banner and the settings that differ from their defaults. */
static void rcu_bootup_announce(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RCU))
		pr_info("Preemptible hierarchical RCU implementation.\n");
	else
		pr_info("Hierarchical RCU implementation.\n");
	if (CONFIG_RCU_FANOUT != 64)
		pr_info("\tCONFIG_RCU_FANOUT set to non-default value of %d.\n", CONFIG_RCU_FANOUT);
	if (rcu_params.rcu_fanout_exact)
		pr_info("\tHierarchical RCU autobalancing is disabled.\n");
	if (IS_ENABLED(CONFIG_RCU_FAST_NO_HZ))
		pr_info("\tRCU dyntick-idle grace-period acceleration is enabled.\n");
	if (IS_ENABLED(CONFIG_RCU_STRICT_GRACE_PERIOD))	/* Linux 6.1's words */
		pr_info("\tRCU strict (and thus non-scalable) grace periods enabled.\n");
	if (RCU_BUILD_LVLS >= 4)
		pr_info("\tFour(or more)-level hierarchy is enabled.\n");
	if (CONFIG_RCU_FANOUT_LEAF != 16)
		pr_info("\tBuild-time adjustment of leaf fanout to %d.\n", CONFIG_RCU_FANOUT_LEAF);
	if (rcu_params.rcu_fanout_leaf != CONFIG_RCU_FANOUT_LEAF)
		pr_info("\tBoot-time adjustment of leaf fanout to %d.\n",
			rcu_params.rcu_fanout_leaf);
	if (nr_cpu_ids != NR_CPUS)
		pr_info("\tRCU restricting CPUs from NR_CPUS=%d to nr_cpu_ids=%u.\n", NR_CPUS, nr_cpu_ids);
#ifdef CONFIG_RCU_BOOST
	pr_info("\tRCU priority boosting: priority %d delay %d ms.\n", rcu_params.kthread_prio,
		CONFIG_RCU_BOOST_DELAY);
#endif
	if (rcu_params.blimit != DEFAULT_RCU_BLIMIT)
		pr_info("\tBoot-time adjustment of callback invocation limit to %ld.\n",
			rcu_params.blimit);
	if (rcu_params.qhimark != DEFAULT_RCU_QHIMARK)
		pr_info("\tBoot-time adjustment of callback high-water mark to %ld.\n",
			rcu_params.qhimark);
	if (rcu_params.qlowmark != DEFAULT_RCU_QLOMARK)
		pr_info("\tBoot-time adjustment of callback low-water mark to %ld.\n",
			rcu_params.qlowmark);
	if (rcu_params.jiffies_till_first_fqs >= 0)
		pr_info("\tBoot-time adjustment of first FQS scan delay to %ld jiffies.\n",
			(long)rcu_params.jiffies_till_first_fqs);
	if (rcu_params.jiffies_till_next_fqs >= 0)
		pr_info("\tBoot-time adjustment of subsequent FQS scan delay to %ld jiffies.\n",
			(long)rcu_params.jiffies_till_next_fqs);
	if (rcu_params.jiffies_till_sched_qs >= 0)
		pr_info("\tBoot-time adjustment of scheduler-enlistment delay to %ld jiffies.\n",
			(long)rcu_params.jiffies_till_sched_qs);
	if (rcu_params.rcu_kick_kthreads)
		pr_info("\tKick kthreads if too-long grace period.\n");
	if (rcu_params.gp_preinit_delay)
		pr_info("\tRCU debug GP pre-init slowdown %d jiffies.\n",
			rcu_params.gp_preinit_delay);
	if (rcu_params.gp_init_delay)
		pr_info("\tRCU debug GP init slowdown %d jiffies.\n", rcu_params.gp_init_delay);
	/* Linux prints the cleanup delay with the "init" wording too; kept for log compatibility. */
	if (rcu_params.gp_cleanup_delay)
		pr_info("\tRCU debug GP init slowdown %d jiffies.\n", rcu_params.gp_cleanup_delay);
	/* Callbacks always run in rcuc/N kthreads here (Linux: rcutree.use_softirq=0). */
	pr_info("\tRCU_SOFTIRQ processing moved to rcuc kthreads.\n");
	if (IS_ENABLED(CONFIG_RCU_EQS_DEBUG))
		pr_info("\tRCU debug extended QS entry/exit.\n");
	if (IS_ENABLED(CONFIG_RCU_TRACE))
		pr_info("\tRCU event tracing is enabled.\n");
	rcupdate_announce_bootup_oddness();
}

/*
 * Unset FQS delays get the default for this HZ and CPU count; an unset
 * scheduler-enlistment delay becomes the time of the third FQS scan, but
 * at least a tenth of a second (plus a jiffy per 256 CPUs).
 */
static void rcu_params_fqs_defaults(void)
{
	int d = RCU_JIFFIES_TILL_FORCE_QS + nr_cpu_ids / RCU_JIFFIES_FQS_DIV;
	long j;

	if (rcu_params.jiffies_till_first_fqs < 0)
		rcu_params.jiffies_till_first_fqs = d;
	if (rcu_params.jiffies_till_next_fqs < 0)
		rcu_params.jiffies_till_next_fqs = d;
	if (rcu_params.jiffies_till_sched_qs >= 0)
		return;		/* given: used as is */
	j = rcu_params.jiffies_till_first_fqs + 2L * rcu_params.jiffies_till_next_fqs;
	if (j < HZ / 10 + nr_cpu_ids / RCU_JIFFIES_FQS_DIV)
		j = HZ / 10 + nr_cpu_ids / RCU_JIFFIES_FQS_DIV;
	pr_info("RCU calculated value of scheduler-enlistment delay is %ld jiffies.\n", j);
	rcu_params.jiffies_till_sched_qs = j;
}

/*
 * "rcu_node tree layout dump": one line per level, each node as
 * "grplo:grphi ^grpnum" (its CPUs and its index among its parent's
 * children), in Linux's layout. Printed from the geometry, before
 * rcu_init() builds the nodes.
 */
static void rcu_dump_rcu_node_tree(const struct rcu_geometry *g)
{
	pr_info("rcu_node tree layout dump\n");
	for (int level = 0; level < g->levels; level++) {
		pr_info(" ");
		for (int i = 0; i < g->num_rcu_lvl[level]; i++) {
			int lo, hi, grpnum = 0, parent = rcu_geometry_parent(g, level, i);

			rcu_geometry_node_span(g, level, i, &lo, &hi);
			if (parent >= 0)
				grpnum = i - rcu_geometry_first_child(g, level - 1, parent);
			pr_cont("%d:%d ^%d  ", lo, hi, grpnum);
		}
		pr_cont("\n");
	}
}

void rcu_params_init(void)
{
	rcu_params_check();
	rcu_params_geometry();
	rcu_bootup_announce();
	rcu_params_fqs_defaults();
	rcu_trace_init();	/* RCU_TRACE: the per-CPU event buffers */
	if (rcu_params.rcu_fanout_leaf != CONFIG_RCU_FANOUT_LEAF || nr_cpu_ids != NR_CPUS)
		pr_info("Adjusting geometry for rcu_fanout_leaf=%d, nr_cpu_ids=%u\n",
			rcu_params.rcu_fanout_leaf, nr_cpu_ids);
	if (rcu_params.dump_tree)
		rcu_dump_rcu_node_tree(&rcu_state.geo);
}
