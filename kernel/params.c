/*
 * Boot-parameter glue: runs the generic parser (lib/cmdline.c) over the
 * command line with every KPARAM the image contains, and prints its
 * warnings through printk. Prefixes listed here are "known": an unknown
 * parameter under one of them is reported instead of being passed on.
 */
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/boot.h>
#include <kernel/cpumask.h>

static const struct kparam_prefix known_prefixes[] = {
	{ "rcutree.", "rcu", NULL },
	{ "rcupdate.", "rcu", NULL },
	{ "srcutree.", "srcu", NULL },
	{ "rcutorture.", "rcu", NULL },
	{ "rcuperf.", "rcu", NULL },
	{ "rcuscale.", "rcu", "rcuperf." },	/* Linux's name since 5.11 */
	{ "refscale.", "rcu", NULL },
	{ "torture.", "torture", NULL },
	{ "smp.", "smp", NULL },
	{ "sched.", "sched", NULL },
};

/*
 * parse_cmdline()'s warnings go to the console at KERN_WARNING, one line
 * each, cut at 511 characters (a too-long value is quoted in full).
 */
static void kparam_printk_warn(const char *line)
{
	printk(KERN_WARNING "%.511s\n", line);
}

void parse_boot_params(void)
{
	static char unknown[COMMAND_LINE_SIZE];
	size_t n = __stop___kparam - __start___kparam;

	parse_cmdline(boot_info.cmdline, __start___kparam, n, known_prefixes,
		      ARRAY_SIZE(known_prefixes), nr_cpu_ids, unknown, sizeof(unknown),
		      kparam_printk_warn);
	if (unknown[0])
		printk(KERN_NOTICE "Unknown kernel command line parameters \"%s\", will be passed to user space.\n",
		       unknown);
}
