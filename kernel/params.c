/*
 * Boot-parameter glue: runs the generic parser (lib/cmdline.c) over the
 * command line with every KPARAM the image contains, and prints its
 * warnings through printk. Prefixes listed here are "known": an unknown
 * parameter under one of them is reported instead of being passed on,
 * and one whose test this kernel was built without names the Kconfig
 * option it needs.
 */
#include <kernel/param.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/boot.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <kernel/console.h>

/* What a test parameter says on a kernel built without its test. */
#define NEEDS_TEST(opt)	(opt " (CONFIG_KERNEL_TESTS; make test_defconfig)")
#define TORTURE_NEEDS	(IS_ENABLED(CONFIG_RCU_TORTURE_TEST) ? NULL :		\
			 NEEDS_TEST("CONFIG_RCU_TORTURE_TEST"))
#define PERF_NEEDS	(IS_ENABLED(CONFIG_RCU_PERF_TEST) ? NULL : NEEDS_TEST("CONFIG_RCU_PERF_TEST"))

static const struct kparam_prefix known_prefixes[] = {
	{ "rcutree.", "rcu", NULL, NULL },
	{ "rcupdate.", "rcu", NULL, NULL },
	{ "srcutree.", "srcu", NULL, NULL },
	{ "rcutorture.", "rcu", NULL, TORTURE_NEEDS },
	{ "rcuperf.", "rcu", NULL, PERF_NEEDS },
	{ "rcuscale.", "rcu", "rcuperf.", PERF_NEEDS },	/* Linux's name since 5.11 */
	{ "refscale.", "rcu", NULL,
	  IS_ENABLED(CONFIG_RCU_REF_SCALE_TEST) ? NULL : NEEDS_TEST("CONFIG_RCU_REF_SCALE_TEST") },
	{ "locktorture.", "lock", NULL,
	  IS_ENABLED(CONFIG_LOCK_TORTURE_TEST) ? NULL : NEEDS_TEST("CONFIG_LOCK_TORTURE_TEST") },
	{ "scftorture.", "scftorture", NULL,
	  IS_ENABLED(CONFIG_SCF_TORTURE_TEST) ? NULL : NEEDS_TEST("CONFIG_SCF_TORTURE_TEST") },
	{ "torture.", "torture", NULL,	/* kernel/torture.c, shared by the torture tests */
	  IS_ENABLED(CONFIG_TORTURE_TEST) ? NULL : NEEDS_TEST("CONFIG_RCU_TORTURE_TEST, CONFIG_LOCK_TORTURE_TEST or CONFIG_SCF_TORTURE_TEST") },
	{ "smp.", "smp", NULL, NULL },
	{ "sched.", "sched", NULL, NULL },
	{ "user.", "user", NULL, NULL },
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

/*
 * Linux's early parameters, applied before the rest: nr_cpus= caps
 * nr_cpu_ids, which bounds every other parameter's CPU list, and the
 * console's log level (quiet, loglevel=, ignore_loglevel) then decides
 * which of the parameters' own lines are shown. This pass warns about
 * nothing; the full pass below parses them again and warns.
 */
static void parse_early_params(size_t n)
{
	static const char *const early[] = { "nr_cpus", "quiet", "loglevel", "ignore_loglevel" };

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < ARRAY_SIZE(early); j++)
			if (!strcmp(__start___kparam[i].name, early[j]))
				parse_cmdline(boot_info.cmdline, &__start___kparam[i], 1, NULL, 0,
					      nr_cpu_ids, NULL, 0, NULL);
	smp_setup_nr_cpu_ids();
	printk_setup_params();
}

bool kparam_given(const char *name)
{
	for (const struct kernel_param *p = __start___kparam; p < __stop___kparam; p++)
		if (!strcmp(p->name, name))
			return p->given;
	return false;
}

void parse_boot_params(void)
{
	static char unknown[COMMAND_LINE_SIZE];
	size_t n = __stop___kparam - __start___kparam;

	kparam_check_unique(__start___kparam, n);
	parse_early_params(n);
	parse_cmdline(boot_info.cmdline, __start___kparam, n, known_prefixes,
		      ARRAY_SIZE(known_prefixes), nr_cpu_ids, unknown, sizeof(unknown),
		      kparam_printk_warn);
	if (unknown[0])
		printk(KERN_NOTICE "Unknown kernel command line parameters \"%s\", will be passed to user space.\n",
		       unknown);
	console_setup_params();
}
