/*
 * Tree RCU's boot parameters under Tiny RCU: accepted, checked like
 * any other (a bad value still gets the parser's warning), then reported
 * once each at rcu_init() as not applying, e.g.
 *
 *   rcu: rcutree.blimit=5 does not apply to Tiny RCU, ignored
 *
 * A command line written for a Tree kernel thus boots a Tiny one with a
 * clear word on each setting it loses, instead of the generic "unknown
 * parameter" line. The names come from tree_param_list.h, the one list
 * Tree RCU declares its own parameters from, each into a sink of the same
 * type as its Tree variable; this file is built only with
 * CONFIG_TINY_RCU, so a Tree kernel's parameters are untouched.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree_param_list.h"
#include <kernel/param.h>
#include <kernel/printk.h>

void rcu_tiny_params_report(void);

#define TINY_SINK(decl, ctype, ktype, name, def, min, max, desc)	ctype name;
#define TINY_SINK_OTHER(prefix, ctype, ktype, name)			ctype name;
static struct {
	RCU_TREE_PARAMS(TINY_SINK)
	RCU_TREE_OTHER_PARAMS(TINY_SINK_OTHER)
} rcu_tiny_ignored;

/*
 * Any value of the type is accepted (min > max): the Tree ranges do not
 * matter here.
 */
#define TINY_IGNORED_OTHER(prefix, ctype, ktype, name)				\
	KPARAM(#prefix "." #name, rcu_tiny_ignored.name, ktype, 1, 0,		\
	       "Tree RCU only: ignored by Tiny RCU");
#define TINY_IGNORED(decl, ctype, ktype, name, def, min, max, desc)		\
	TINY_IGNORED_OTHER(rcutree, ctype, ktype, name)
RCU_TREE_PARAMS(TINY_IGNORED)
RCU_TREE_OTHER_PARAMS(TINY_IGNORED_OTHER)

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
