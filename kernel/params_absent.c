/*
 * The boot parameters declared in the tree but not built into this
 * kernel, one KPARAM_ABSENT() entry each, generated at build time by
 * scripts/kparams.py from every KPARAM*()/torture_param*() declaration
 * and the Kconfig condition it sits under (its file's Kbuild line, an
 * #ifdef around it), read against this build's .config. A Tree RCU
 * parameter on a Tiny kernel thus says
 *
 *   rcu: rcutree.blimit=3 does not apply to Tiny RCU, ignored
 *
 * and one whose option is off says "not in this kernel: needs CONFIG_X",
 * while a misspelt name, declared nowhere, is still an unknown parameter.
 * Nothing lists the names by hand: adding a parameter anywhere adds it
 * here for the builds that lack its file.
 */
#include <kernel/param.h>

const struct kparam_absent kparam_absent[] = {
#include <generated/kparam_absent.h>
	{ NULL }	/* a build that lacks nothing still has an array */
};
const size_t kparam_nabsent = ARRAY_SIZE(kparam_absent) - 1;
