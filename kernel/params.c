/*
 * Boot-parameter glue: runs the generic parser (lib/cmdline.c) over the
 * command line with every KPARAM the image contains, and prints its
 * warnings through printk. Prefixes listed here are "known": an unknown
 * parameter under one of them is reported instead of being passed on.
 */
#include <kernel/param.h>
#include <kernel/string.h>
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
	{ "user.", "user", NULL },
};

/*
 * parse_cmdline()'s warnings go to the console at KERN_WARNING, one line
 * each, cut at 511 characters (a too-long value is quoted in full).
 */
static void kparam_printk_warn(const char *line)
{
	printk(KERN_WARNING "%.511s\n", line);
}

/* KPARAM_UNIMPL()'s variable: Linux parameters this kernel lacks set nothing. */
char kparam_unimpl_sink;

/*
 * A name registered twice (an implemented parameter whose KPARAM_UNIMPL()
 * line was left behind, say) would let the first one found win silently.
 */
static void kparam_check_unique(const struct kernel_param *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(p[i].name, p[j].name))
				printk(KERN_ERR "params: %s registered twice\n", p[i].name);
}

void parse_boot_params(void)
{
	static char unknown[COMMAND_LINE_SIZE];
	size_t n = __stop___kparam - __start___kparam;

	kparam_check_unique(__start___kparam, n);
	parse_cmdline(boot_info.cmdline, __start___kparam, n, known_prefixes,
		      ARRAY_SIZE(known_prefixes), nr_cpu_ids, unknown, sizeof(unknown),
		      kparam_printk_warn);
	if (unknown[0])
		printk(KERN_NOTICE "Unknown kernel command line parameters \"%s\", will be passed to user space.\n",
		       unknown);
}
