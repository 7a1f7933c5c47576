/*
 * The one dispatcher of the RCU debugging options' planted bugs (see
 * planted_bugs.h): rcu_debug_test=NAME commits the bug NAME of whichever
 * option's group has it, once boot is done (late_initcall); a group's own
 * parameter (rcutree.debug_objects_test=, rcutree.eqs_debug_test=) does the
 * same within its group. An unknown name gets one warning listing the
 * names that parameter accepts in this build, and nothing is committed.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include "planted_bugs.h"

static char rcu_debug_test[24];
KPARAM_STRING("rcu_debug_test", rcu_debug_test,
	      "test only: commit one planted RCU-debugging bug after boot (Documentation/RCU/debugging.md)");

static const struct rcu_planted_group *const planted_groups[] = {
#ifdef CONFIG_RCU_PROVE_TEST
	&rcu_prove_bugs,
#endif
#ifdef CONFIG_DEBUG_OBJECTS_RCU_HEAD
	&rcu_debug_objects_bugs,
#endif
#ifdef CONFIG_RCU_EQS_DEBUG
	&rcu_eqs_debug_bugs,
#endif
};

static const struct rcu_planted_bug *planted_find(const struct rcu_planted_group *g,
						  const char *name)
{
	for (unsigned int i = 0; i < g->nr; i++)
		if (!strcmp(name, g->bugs[i].name))
			return &g->bugs[i];
	return NULL;
}

/* Appends "a, b or c" style: the final name joined with " or ". */
static void planted_list_group(char *buf, size_t len, const struct rcu_planted_group *g,
			       unsigned int *seen, unsigned int total)
{
	for (unsigned int i = 0; i < g->nr; i++, (*seen)++) {
		size_t used = strlen(buf);
		const char *sep = !*seen ? "" : *seen + 1 == total ? " or " : ", ";

		snprintf(buf + used, len - used, "%s%s", sep, g->bugs[i].name);
	}
}

/* @only: the group an alias is limited to, or NULL for every group. */
static void planted_warn(const char *param, const char *value, const struct rcu_planted_group *only)
{
	unsigned int total = 0, seen = 0;
	char names[320] = "";

	for (unsigned int i = 0; i < ARRAY_SIZE(planted_groups); i++)
		if (!only || only == planted_groups[i])
			total += planted_groups[i]->nr;
	for (unsigned int i = 0; i < ARRAY_SIZE(planted_groups); i++)
		if (!only || only == planted_groups[i])
			planted_list_group(names, sizeof(names), planted_groups[i], &seen, total);
	pr_warn("%s: invalid value '%s' (not %s), using none\n", param, value, names);
}

static int rcu_planted_bugs_init(void)
{
	const struct rcu_planted_bug *b;

	for (unsigned int i = 0; i < ARRAY_SIZE(planted_groups); i++) {
		const struct rcu_planted_group *g = planted_groups[i];

		if (!g->alias || !g->alias_value[0])
			continue;
		b = planted_find(g, g->alias_value);
		if (b)
			g->plant(b);
		else
			planted_warn(g->alias, g->alias_value, g);
	}
	if (!rcu_debug_test[0])
		return 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(planted_groups); i++) {
		b = planted_find(planted_groups[i], rcu_debug_test);
		if (b) {
			planted_groups[i]->plant(b);
			return 0;
		}
	}
	planted_warn("rcu_debug_test", rcu_debug_test, NULL);
	return 0;
}
late_initcall(rcu_planted_bugs_init);
