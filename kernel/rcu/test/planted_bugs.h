/*
 * Planted bugs of the RCU debugging options, one dispatcher for all
 * (kernel/rcu/test/planted_bugs.c). Each option's test file
 * (prove_rcu.c, debug_objects.c, eqs_debug.c) describes its
 * bugs as a group: a table of names and functions, and how one is
 * committed (inline, or from a kthread on some CPU). The dispatcher owns
 * the parameter rcu_debug_test=NAME, which finds NAME in any built group,
 * and a group's own older parameter (rcutree.eqs_debug_test=, ...) as an
 * alias that looks in that group only.
 */
#ifndef _KERNEL_RCU_TEST_PLANTED_BUGS_H
#define _KERNEL_RCU_TEST_PLANTED_BUGS_H

struct rcu_planted_bug {
	const char *name;
	void (*run)(void);
};

struct rcu_planted_group {
	const char *alias;			/* the group's own parameter, or NULL */
	const char *alias_value;		/* that parameter's buffer */
	const struct rcu_planted_bug *bugs;
	unsigned int nr;
	void (*plant)(const struct rcu_planted_bug *bug);
};

/* The groups the dispatcher knows; each exists only with its option. */
extern const struct rcu_planted_group rcu_prove_bugs;		/* CONFIG_RCU_PROVE_TEST */
extern const struct rcu_planted_group rcu_debug_objects_bugs;	/* CONFIG_DEBUG_OBJECTS_RCU_HEAD */
extern const struct rcu_planted_group rcu_eqs_debug_bugs;	/* CONFIG_RCU_EQS_DEBUG */

#endif
