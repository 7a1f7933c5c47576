/*
 * Tree RCU's boot parameters under Tiny RCU: accepted, checked like
 * any other (a bad value still gets the parser's warning), then reported
 * once each at rcu_init() as not applying, e.g.
 *
 *   rcu: rcutree.blimit=5 does not apply to Tiny RCU, ignored
 *
 * A command line written for a Tree kernel thus boots a Tiny one with a
 * clear word on each setting it loses, instead of the generic "unknown
 * parameter" line. Each is declared here into a sink of the same type as
 * its Tree variable; this file is built only with CONFIG_TINY_RCU, so a
 * Tree kernel's parameters are untouched. Parameters Tree RCU gains later
 * must be added here, or Tiny reports them as unknown.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include <kernel/param.h>
#include <kernel/printk.h>

void rcu_tiny_params_report(void);

static struct {
	long blimit, qhimark, qlowmark;
	int jiffies_till_first_fqs, jiffies_till_next_fqs, jiffies_till_sched_qs;
	bool rcu_kick_kthreads;
	int rcu_fanout_leaf;
	bool rcu_fanout_exact, dump_tree;
	int kthread_prio;
	int gp_preinit_delay, gp_init_delay, gp_cleanup_delay;
	int stall_test_secs, exp_stall_test_secs;
	bool exp_stall_test_preempted;
	bool preempt_selftest;
	int preempt_hog_ms;
	int rcu_cpu_stall_timeout;
	bool rcu_cpu_stall_suppress, rcu_expedited, rcu_normal, rcu_normal_after_boot;
} rcu_tiny_ignored;

/* Any value of the type is accepted (min > max): the Tree ranges do not matter here. */
#define TINY_IGNORED(name, field, type)						\
	KPARAM(name, rcu_tiny_ignored.field, type, 1, 0, "Tree RCU only: ignored by Tiny RCU")
#define TINY_IGNORED_BOOL(name, field)						\
	KPARAM_BOOL(name, rcu_tiny_ignored.field, "Tree RCU only: ignored by Tiny RCU")

/* kernel/rcu/tree_params.c */
TINY_IGNORED("rcutree.blimit", blimit, KPARAM_LONG);
TINY_IGNORED("rcutree.qhimark", qhimark, KPARAM_LONG);
TINY_IGNORED("rcutree.qlowmark", qlowmark, KPARAM_LONG);
TINY_IGNORED("rcutree.jiffies_till_first_fqs", jiffies_till_first_fqs, KPARAM_INT);
TINY_IGNORED("rcutree.jiffies_till_next_fqs", jiffies_till_next_fqs, KPARAM_INT);
TINY_IGNORED("rcutree.jiffies_till_sched_qs", jiffies_till_sched_qs, KPARAM_INT);
TINY_IGNORED_BOOL("rcutree.rcu_kick_kthreads", rcu_kick_kthreads);
TINY_IGNORED("rcutree.rcu_fanout_leaf", rcu_fanout_leaf, KPARAM_INT);
TINY_IGNORED_BOOL("rcutree.rcu_fanout_exact", rcu_fanout_exact);
TINY_IGNORED_BOOL("rcutree.dump_tree", dump_tree);
TINY_IGNORED("rcutree.kthread_prio", kthread_prio, KPARAM_INT);
TINY_IGNORED("rcutree.gp_preinit_delay", gp_preinit_delay, KPARAM_INT);
TINY_IGNORED("rcutree.gp_init_delay", gp_init_delay, KPARAM_INT);
TINY_IGNORED("rcutree.gp_cleanup_delay", gp_cleanup_delay, KPARAM_INT);
/* kernel/rcu/{rcu_stall_test,exp_stall_test,preempt_selftest}.c (Tree-only tests) */
TINY_IGNORED("rcutree.stall_test_secs", stall_test_secs, KPARAM_INT);
TINY_IGNORED("rcutree.exp_stall_test_secs", exp_stall_test_secs, KPARAM_INT);
TINY_IGNORED_BOOL("rcutree.exp_stall_test_preempted", exp_stall_test_preempted);
TINY_IGNORED_BOOL("rcutree.preempt_selftest", preempt_selftest);
TINY_IGNORED("rcutree.preempt_hog_ms", preempt_hog_ms, KPARAM_INT);
/* kernel/rcu/update.c: no stall warnings and no expediting in Tiny RCU, as in Linux */
TINY_IGNORED("rcupdate.rcu_cpu_stall_timeout", rcu_cpu_stall_timeout, KPARAM_INT);
TINY_IGNORED_BOOL("rcupdate.rcu_cpu_stall_suppress", rcu_cpu_stall_suppress);
TINY_IGNORED_BOOL("rcupdate.rcu_expedited", rcu_expedited);
TINY_IGNORED_BOOL("rcupdate.rcu_normal", rcu_normal);
TINY_IGNORED_BOOL("rcupdate.rcu_normal_after_boot", rcu_normal_after_boot);

/* One line per such parameter the command line gave (rcu_init(), after the banner). */
void rcu_tiny_params_report(void)
{
	const char *lo = (const char *)&rcu_tiny_ignored;
	const char *hi = lo + sizeof(rcu_tiny_ignored);
	char val[64];

	for (struct kernel_param *p = __start___kparam; p < __stop___kparam; p++) {
		if (!p->given || (const char *)p->var < lo || (const char *)p->var >= hi)
			continue;
		kparam_format_value(p, val, sizeof(val));
		pr_warn("%s=%s does not apply to Tiny RCU, ignored\n", p->name, val);
	}
}
