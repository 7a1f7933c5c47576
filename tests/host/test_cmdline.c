/*
 * Tests for lib/cmdline.c: every type, ranges and clamping, quoting, names,
 * prefixes and aliases, unknown arguments, and the exact warning texts.
 */
#include <stdarg.h>
#include <stdlib.h>

#define KPARAM_SUBSYS "test"
#include <kernel/param.h>
#include <kernel/bitmap.h>
#include <kernel/sprintf.h>
#include <kernel/string.h>
#include "test.h"

/* Captured parse_cmdline() warnings: one line per call, joined with '\n'. */
static char warnings[4096];

static void capture_warn(const char *line)
{
	size_t used = strlen(warnings);

	scnprintf(warnings + used, sizeof(warnings) - used, "%s\n", line);
}

static int v_int, v_clamp, v_neg;
static unsigned int v_uint;
static long v_long;
static unsigned long v_ulong, v_uclamp;
static bool v_bool;
static char v_str[8];
static DECLARE_BITMAP(v_cpus, 128);
static DECLARE_BITMAP(v_small, 16);
static long v_perf, v_lclamp;

#define P(n, sub, t, v, lo, hi, sz, fl) \
	{ .name = n, .subsys = sub, .type = t, .var = v, .min = lo, .max = hi, .size = sz, .flags = fl }


static struct kernel_param params[] = {
	P("rcutree.blimit", "rcu", KPARAM_INT, &v_int, 1, 100, 0, 0),
	P("rcutree.clamped", "rcu", KPARAM_INT, &v_clamp, 2, 64, 0, KPARAM_F_CLAMP),
	P("neg_int", "kernel", KPARAM_INT, &v_neg, 1, 0, 0, KPARAM_F_CLAMP),
	P("smp.uint", "smp", KPARAM_UINT, &v_uint, 1, 0, 0, 0),
	P("long_param", "kernel", KPARAM_LONG, &v_long, -1000, 1000, 0, 0),
	P("ulong_param", "kernel", KPARAM_ULONG, &v_ulong, 1, 0, 0, 0),
	P("uclamp", "kernel", KPARAM_ULONG, &v_uclamp, 10, 20, 0, KPARAM_F_CLAMP),
	P("rcutree.use_softirq", "rcu", KPARAM_BOOL, &v_bool, 1, 0, 0, 0),
	P("str_param", "kernel", KPARAM_STRING, v_str, 1, 0, sizeof(v_str), 0),
	P("rcu_nocbs", "rcu", KPARAM_CPULIST, v_cpus, 1, 0, 128, 0),
	P("small_cpus", "smp", KPARAM_CPULIST, v_small, 1, 0, 16, 0),
	P("rcuperf.nreaders", "rcu", KPARAM_LONG, &v_perf, -1, 64, 0, 0),
	P("lclamp", "kernel", KPARAM_LONG, &v_lclamp, 1, 0, 0, KPARAM_F_CLAMP),
	{ .name = "rcupdate.rcu_task_ipi_delay", .subsys = "rcu", .type = KPARAM_UNIMPL,
	  .var = &kparam_unimpl_sink, .min = 1, .max = 0, .desc = "no Tasks Trace RCU yet" },
	{ .name = "threadirqs", .subsys = "kernel", .type = KPARAM_UNIMPL,
	  .var = &kparam_unimpl_sink, .min = 1, .max = 0, .desc = "no threaded interrupts" },
};

char kparam_unimpl_sink;

/* Declared in the tree, not in this build: as scripts/kparams.py writes them. */
static const struct kparam_absent absent[] = {
	KPARAM_ABSENT("rcutorture.nreaders", "rcu", KPARAM_INT, "CONFIG_RCU_TORTURE_TEST", KPARAM_F_TEST)
	KPARAM_ABSENT("rcutorture.fwd_progress", "rcu", KPARAM_BOOL, "CONFIG_RCU_TORTURE_TEST", KPARAM_F_TEST)
	KPARAM_ABSENT("rcutree.dump_tree", "rcu", KPARAM_BOOL, "Tiny RCU", KPARAM_F_FLAVOR)
	KPARAM_ABSENT("rcutree.qhimark", "rcu", KPARAM_LONG, "Tiny RCU", KPARAM_F_FLAVOR)
	KPARAM_ABSENT("nohz_full", "tick", KPARAM_STRING, "CONFIG_NO_HZ_FULL", 0)
	KPARAM_ABSENT("rcuperf.kfree_mult", "rcu", KPARAM_INT, "CONFIG_RCU_PERF_TEST", 0)
};

static const struct kparam_prefix prefixes[] = {
	{ "rcutree.", "rcu", NULL },
	{ "rcuperf.", "rcu", NULL },
	{ "rcuscale.", "rcu", "rcuperf." },
	{ "smp.", "smp", NULL },
	{ "rcutorture.", "rcu", NULL },
};

static char unknown[64];

static void reset(void)
{
	size_t i;

	v_int = 10, v_clamp = 8, v_neg = -5, v_uint = 3, v_long = -7;
	v_ulong = 5, v_uclamp = 15, v_bool = false, v_perf = -1;
	strscpy(v_str, "def", sizeof(v_str));
	bitmap_zero(v_cpus, 128);
	bitmap_zero(v_small, 16);
	__set_bit(1, v_cpus);
	for (i = 0; i < ARRAY_SIZE(params); i++)
		params[i].given = false;
	warnings[0] = '\0';
}

/* Parse with 8 CPUs; returns the warning count. */
static int parse(const char *cmdline)
{
	reset();
	return parse_cmdline(cmdline, params, ARRAY_SIZE(params), prefixes, ARRAY_SIZE(prefixes),
			     absent, ARRAY_SIZE(absent), 8, unknown, sizeof(unknown), capture_warn);
}

static const char *cpus_text(const unsigned long *map, unsigned nbits)
{
	static char buf[64];

	bitmap_print_list(buf, sizeof(buf), map, nbits);
	return buf;
}

static void test_numbers(void)
{
	CHECK_EQ(parse("rcutree.blimit=42 smp.uint=0x10 long_param=-999 ulong_param=18446744073709551615"), 0);
	CHECK_EQ(v_int, 42);
	CHECK_EQ(v_uint, 16);
	CHECK_EQ(v_long, -999);
	CHECK(v_ulong == ~0UL);
	CHECK(params[0].given && params[3].given && params[4].given && params[5].given);
	CHECK(!params[1].given);
	CHECK_STREQ(warnings, "");
	CHECK_STREQ(unknown, "");
	CHECK_EQ(parse("rcutree.blimit=010 smp.uint=4294967295"), 0);
	CHECK_EQ(v_int, 8);
	CHECK_EQ(v_uint, 4294967295U);
}

static void test_number_errors(void)
{
	CHECK_EQ(parse("rcutree.blimit=abc"), 1);
	CHECK_EQ(v_int, 10);
	CHECK(!params[0].given);
	CHECK_STREQ(warnings, "rcu: rcutree.blimit: invalid value 'abc' (not a number), using 10\n");
	CHECK_EQ(parse("rcutree.blimit=0 rcutree.blimit=101 rcutree.blimit="), 3);
	CHECK_STREQ(warnings,
		    "rcu: rcutree.blimit: invalid value '0' (out of range 1..100), using 10\n"
		    "rcu: rcutree.blimit: invalid value '101' (out of range 1..100), using 10\n"
		    "rcu: rcutree.blimit: invalid value '' (not a number), using 10\n");
	CHECK_EQ(parse("rcutree.blimit"), 1);
	CHECK_STREQ(warnings, "rcu: rcutree.blimit: invalid value '' (missing value), using 10\n");
	CHECK_EQ(parse("smp.uint=-1 smp.uint=4294967296 long_param=5x"), 3);
	CHECK_EQ(v_uint, 3);
	CHECK_STREQ(warnings,
		    "smp: smp.uint: invalid value '-1' (not a number), using 3\n"
		    "smp: smp.uint: invalid value '4294967296' (out of range 0..4294967295), using 3\n"
		    "kernel: long_param: invalid value '5x' (not a number), using -7\n");
	CHECK_EQ(parse("ulong_param=18446744073709551616"), 1);
	CHECK_STREQ(warnings, "kernel: ulong_param: invalid value '18446744073709551616' "
		    "(out of range 0..18446744073709551615), using 5\n");
	CHECK_EQ(parse("long_param=-99999999999999999999 rcuperf.nreaders=9223372036854775808"), 2);
	CHECK_STREQ(warnings,
		    "kernel: long_param: invalid value '-99999999999999999999' (out of range -1000..1000), using -7\n"
		    "rcu: rcuperf.nreaders: invalid value '9223372036854775808' (out of range -1..64), using -1\n");
}

static void test_clamp(void)
{
	CHECK_EQ(parse("rcutree.clamped=1000"), 1);
	CHECK_EQ(v_clamp, 64);
	CHECK(params[1].given);
	CHECK_STREQ(warnings, "rcu: rcutree.clamped: value 1000 out of range 2..64, using 64\n");
	CHECK_EQ(parse("rcutree.clamped=-3"), 1);
	CHECK_EQ(v_clamp, 2);
	CHECK_STREQ(warnings, "rcu: rcutree.clamped: value -3 out of range 2..64, using 2\n");
	CHECK_EQ(parse("rcutree.clamped=33"), 0);
	CHECK_EQ(v_clamp, 33);
	CHECK_EQ(parse("rcutree.clamped=junk"), 1);
	CHECK_EQ(v_clamp, 8);
	CHECK_STREQ(warnings, "rcu: rcutree.clamped: invalid value 'junk' (not a number), using 8\n");
	/* Unbounded: clamped to the type's limits, even past 64 bits. */
	CHECK_EQ(parse("neg_int=-99999999999"), 1);
	CHECK_EQ(v_neg, -2147483648);
	CHECK_STREQ(warnings, "kernel: neg_int: value -99999999999 out of range "
		    "-2147483648..2147483647, using -2147483648\n");
	CHECK_EQ(parse("neg_int=99999999999999999999999"), 1);
	CHECK_EQ(v_neg, 2147483647);
	CHECK_EQ(parse("lclamp=-99999999999999999999"), 1);
	CHECK(v_lclamp == INT64_MIN);
	CHECK_STREQ(warnings, "kernel: lclamp: value -99999999999999999999 out of range "
		    "-9223372036854775808..9223372036854775807, using -9223372036854775808\n");
	CHECK_EQ(parse("lclamp=99999999999999999999"), 1);
	CHECK(v_lclamp == INT64_MAX);
	CHECK_EQ(parse("uclamp=3 "), 1);
	CHECK_EQ(v_uclamp, 10);
	CHECK_STREQ(warnings, "kernel: uclamp: value 3 out of range 10..20, using 10\n");
	CHECK_EQ(parse("uclamp=99999999999999999999999"), 1);
	CHECK_EQ(v_uclamp, 20);
}

static void test_bool(void)
{
	CHECK_EQ(parse("rcutree.use_softirq"), 0);
	CHECK(v_bool && params[7].given);
	CHECK_EQ(parse("rcutree.use_softirq=1"), 0);
	CHECK(v_bool);
	CHECK_EQ(parse("rcutree.use_softirq=Y rcutree.use_softirq=off"), 0);
	CHECK(!v_bool);
	CHECK_EQ(parse("rcutree.use_softirq=on"), 0);
	CHECK(v_bool);
	CHECK_EQ(parse("rcutree.use_softirq=maybe"), 1);
	CHECK(!v_bool && !params[7].given);
	CHECK_STREQ(warnings, "rcu: rcutree.use_softirq: invalid value 'maybe' (not a boolean), using N\n");
	CHECK_EQ(parse("rcutree.use_softirq="), 1);
	CHECK_STREQ(warnings, "rcu: rcutree.use_softirq: invalid value '' (not a boolean), using N\n");
}

static void test_string(void)
{
	CHECK_EQ(parse("str_param=abc"), 0);
	CHECK_STREQ(v_str, "abc");
	CHECK_EQ(parse("str_param=1234567"), 0);
	CHECK_STREQ(v_str, "1234567");
	CHECK_EQ(parse("str_param=12345678"), 1);
	CHECK_STREQ(v_str, "def");
	CHECK_STREQ(warnings, "kernel: str_param: invalid value '12345678' (too long), using def\n");
	CHECK_EQ(parse("str_param="), 0);
	CHECK_STREQ(v_str, "");
	CHECK(params[8].given);
	/* Control characters in warnings become '?', keeping each warning one line. */
	CHECK_EQ(parse("str_param=\"a\tb\nc\" rcutree.blimit=\"1\n2\" str_param=12345678"), 2);
	CHECK_STREQ(v_str, "a\tb\nc");
	CHECK_STREQ(warnings, "rcu: rcutree.blimit: invalid value '1?2' (not a number), using 10\n"
		    "kernel: str_param: invalid value '12345678' (too long), using a?b?c\n");
	CHECK_EQ(parse("str_param= str_param"), 1);
	CHECK_STREQ(warnings, "kernel: str_param: invalid value '' (missing value), using (empty)\n");
}

static void test_cpulist(void)
{
	CHECK_EQ(parse("rcu_nocbs=1-3,5"), 0);
	CHECK_STREQ(cpus_text(v_cpus, 128), "1-3,5");
	CHECK(params[9].given);
	CHECK_EQ(parse("rcu_nocbs=all"), 0);
	CHECK_STREQ(cpus_text(v_cpus, 128), "0-7");	/* nr_cpu_ids = 8 */
	CHECK_EQ(parse("rcu_nocbs=2-N"), 0);
	CHECK_STREQ(cpus_text(v_cpus, 128), "2-7");
	CHECK_EQ(parse("rcu_nocbs=0-7:1/2"), 0);
	CHECK_STREQ(cpus_text(v_cpus, 128), "0,2,4,6");
	CHECK_EQ(parse("rcu_nocbs=none"), 0);
	CHECK_STREQ(cpus_text(v_cpus, 128), "");
	CHECK_EQ(parse("rcu_nocbs="), 0);
	CHECK_STREQ(cpus_text(v_cpus, 128), "");
	CHECK_EQ(parse("rcu_nocbs=8"), 1);
	CHECK_STREQ(cpus_text(v_cpus, 128), "1");
	CHECK_STREQ(warnings, "rcu: rcu_nocbs: invalid value '8' (CPU number out of range 0-7), using 1\n");
	CHECK_EQ(parse("rcu_nocbs=1-x"), 1);
	CHECK_STREQ(warnings, "rcu: rcu_nocbs: invalid value '1-x' (bad CPU list), using 1\n");
	CHECK_EQ(parse("small_cpus=3 small_cpus=5-9"), 1);
	CHECK_STREQ(cpus_text(v_small, 16), "3");
	CHECK_STREQ(warnings, "smp: small_cpus: invalid value '5-9' (CPU number out of range 0-7), using 3\n");
	CHECK_EQ(parse("small_cpus=1- small_cpus"), 2);
	CHECK_STREQ(warnings, "smp: small_cpus: invalid value '1-' (bad CPU list), using (empty)\n"
		    "smp: small_cpus: invalid value '' (missing value), using (empty)\n");
	/* The capacity bounds the list when it is below nr_cpu_ids. */
	reset();
	CHECK_EQ(parse_cmdline("small_cpus=all", params, ARRAY_SIZE(params), prefixes,
			       ARRAY_SIZE(prefixes), NULL, 0, 64, unknown, sizeof(unknown), capture_warn), 0);
	CHECK_STREQ(cpus_text(v_small, 16), "0-15");
	CHECK_EQ(parse_cmdline("small_cpus=16", params, ARRAY_SIZE(params), prefixes,
			       ARRAY_SIZE(prefixes), NULL, 0, 64, unknown, sizeof(unknown), capture_warn), 1);
}

static void test_quotes_and_names(void)
{
	CHECK_EQ(parse("str_param=\"a b\" long-param=5"), 0);
	CHECK_STREQ(v_str, "a b");
	CHECK_EQ(v_long, 5);
	CHECK_EQ(parse("\"str_param=x y z\""), 0);
	CHECK_STREQ(v_str, "x y z");
	CHECK_EQ(parse("str_param=\"\""), 0);
	CHECK_STREQ(v_str, "");
	CHECK_EQ(parse("rcu-nocbs=4 rcutree.use-softirq small-cpus=2"), 0);
	CHECK_STREQ(cpus_text(v_cpus, 128), "4");
	CHECK(v_bool);
	CHECK_STREQ(cpus_text(v_small, 16), "2");
	/* '.' is not '-': no match, and "rcutree-" is not a known prefix. */
	CHECK_EQ(parse("rcutree-use.softirq"), 0);
	CHECK(!v_bool);
	CHECK_STREQ(unknown, "rcutree-use.softirq");
	/* Whitespace of any kind separates; leading/trailing is ignored. */
	CHECK_EQ(parse("\t rcutree.blimit=7\n\nsmp.uint=9  "), 0);
	CHECK_EQ(v_int, 7);
	CHECK_EQ(v_uint, 9);
	CHECK_EQ(parse("str_param=a=b"), 0);
	CHECK_STREQ(v_str, "a=b");
	CHECK_EQ(parse(""), 0);
	CHECK_EQ(parse("   "), 0);
	CHECK_EQ(parse_cmdline(NULL, params, ARRAY_SIZE(params), NULL, 0, NULL, 0, 8, NULL, 0, capture_warn), 0);
	/* Without a callback the warning is counted, not reported. */
	warnings[0] = '\0';
	CHECK_EQ(parse_cmdline("rcutree.blimit=abc", params, ARRAY_SIZE(params), NULL, 0, NULL, 0, 8, NULL, 0,
			       NULL), 1);
	CHECK_STREQ(warnings, "");
}

static void test_prefixes(void)
{
	CHECK_EQ(parse("rcuscale.nreaders=4"), 0);
	CHECK_EQ(v_perf, 4);
	CHECK(params[11].given);
	CHECK_EQ(parse("rcuperf.nreaders=5 rcuscale-nreaders=6"), 0);
	CHECK_EQ(v_perf, 5);	/* "rcuscale-" is not the alias prefix "rcuscale." */
	CHECK_STREQ(unknown, "rcuscale-nreaders=6");
	CHECK_EQ(parse("rcuscale.nreaders=100"), 1);
	CHECK_STREQ(warnings, "rcu: rcuperf.nreaders: invalid value '100' (out of range -1..64), using -1\n");
	CHECK_EQ(parse("rcutree.bogus=1 rcuscale.nothing smp.x=\"a b\""), 3);
	CHECK_STREQ(warnings, "rcu: unknown parameter 'rcutree.bogus' ignored\n"
		    "rcu: unknown parameter 'rcuscale.nothing' ignored\n"
		    "smp: unknown parameter 'smp.x' ignored\n");
	CHECK_STREQ(unknown, "");
	/*
	 * Names declared in the tree but not built in (KPARAM_ABSENT()) say why, with the value
	 * as the type reads it; a misspelt one under the same prefix is still unknown; none is
	 * passed on.
	 */
	CHECK_EQ(parse("rcutorture.nreaders=4 rcutorture.fwd_progress rcutorture.nreaderz=1"), 3);
	CHECK_STREQ(warnings, "rcu: rcutorture.nreaders=4: not in this kernel: needs CONFIG_RCU_TORTURE_TEST "
		    "(CONFIG_KERNEL_TESTS; make test_defconfig), ignored\n"
		    "rcu: rcutorture.fwd_progress=Y: not in this kernel: needs CONFIG_RCU_TORTURE_TEST "
		    "(CONFIG_KERNEL_TESTS; make test_defconfig), ignored\n"
		    "rcu: unknown parameter 'rcutorture.nreaderz' ignored\n");
	CHECK_STREQ(unknown, "");
	/* Through the alias prefix too, spelt with dashes. */
	CHECK_EQ(parse("rcuscale.kfree-mult=2"), 1);
	CHECK_STREQ(warnings, "rcu: rcuperf.kfree_mult=2: not in this kernel: needs CONFIG_RCU_PERF_TEST, ignored\n");
	CHECK_EQ(parse("rcutree.dump_tree rcutree.qhimark=x rcutree.qhimark=0x10 rcutree.dump_trees nohz_full=1-3 "
		       "rcutree.qhimark"), 6);
	CHECK_STREQ(warnings, "rcu: rcutree.dump_tree=Y does not apply to Tiny RCU, ignored\n"
		    "rcu: rcutree.qhimark=x does not apply to Tiny RCU, ignored\n"
		    "rcu: rcutree.qhimark=16 does not apply to Tiny RCU, ignored\n"
		    "rcu: unknown parameter 'rcutree.dump_trees' ignored\n"
		    "tick: nohz_full=1-3: not in this kernel: needs CONFIG_NO_HZ_FULL, ignored\n"
		    "rcu: rcutree.qhimark does not apply to Tiny RCU, ignored\n");
	CHECK_STREQ(unknown, "");
}

static void test_unknown_passthrough(void)
{
	CHECK_EQ(parse("console=ttyS0 foo \"bar=a b\" rcutree.blimit=3 quiet"), 0);
	CHECK_STREQ(unknown, "console=ttyS0 foo \"bar=a b\" quiet");
	CHECK_EQ(v_int, 3);
	/* Arguments that no longer fit are dropped whole. */
	CHECK_EQ(parse("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbb c"), 0);
	CHECK_STREQ(unknown, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa c");
	/* "--" ends the kernel's arguments; a "--" with a value does not. */
	CHECK_EQ(parse("rcutree.blimit=4 -- rcutree.blimit=5 init_arg"), 0);
	CHECK_EQ(v_int, 4);
	CHECK_STREQ(unknown, "");
	CHECK_EQ(parse("--=1 rcutree.blimit=6"), 0);
	CHECK_EQ(v_int, 6);
	CHECK_STREQ(unknown, "--=1");
}

/* A Linux parameter the kernel lacks: one "not implemented" warning, never passed on. */
static void test_unimplemented(void)
{
	char buf[32];

	CHECK_EQ(parse("rcupdate.rcu_task_ipi_delay=1 quiet threadirqs=1-3"), 2);
	CHECK_STREQ(warnings, "rcu: rcupdate.rcu_task_ipi_delay=1: Linux parameter not implemented here (no Tasks Trace RCU yet), ignored\n"
			      "kernel: threadirqs=1-3: Linux parameter not implemented here (no threaded interrupts), ignored\n");
	CHECK_STREQ(unknown, "quiet");
	/* Without a value, and with a control character in a quoted value. */
	CHECK_EQ(parse("rcupdate.rcu_task_ipi_delay threadirqs=\"a\tb\""), 2);
	CHECK_STREQ(warnings, "rcu: rcupdate.rcu_task_ipi_delay: Linux parameter not implemented here (no Tasks Trace RCU yet), ignored\n"
			      "kernel: threadirqs=a?b: Linux parameter not implemented here (no threaded interrupts), ignored\n");
	CHECK(kparam_format_value(&params[14], buf, sizeof(buf)) > 0);	/* threadirqs */
	CHECK_STREQ(buf, "(not implemented)");
}

static void test_repeated(void)
{
	CHECK_EQ(parse("rcutree.blimit=2 rcutree.blimit=3"), 0);
	CHECK_EQ(v_int, 3);
	/* A rejected repeat keeps the earlier accepted value. */
	CHECK_EQ(parse("rcutree.blimit=2 rcutree.blimit=300"), 1);
	CHECK_EQ(v_int, 2);
	CHECK(params[0].given);
	CHECK_STREQ(warnings, "rcu: rcutree.blimit: invalid value '300' (out of range 1..100), using 2\n");
}

static void test_too_long(void)
{
	char line[1200];

	strscpy(line, "rcu_nocbs=", sizeof(line));
	memset(line + 10, '1', 600);
	line[610] = '\0';
	CHECK_EQ(parse(line), 1);
	CHECK_STREQ(cpus_text(v_cpus, 128), "1");
	CHECK(strstr(warnings, "(too long), using 1\n") != NULL);
	CHECK(strstr(warnings, "111...'") != NULL);
}

static void test_format_value(void)
{
	char buf[32];

	reset();
	CHECK_EQ(kparam_format_value(&params[0], buf, sizeof(buf)), 2);
	CHECK_STREQ(buf, "10");
	kparam_format_value(&params[4], buf, sizeof(buf));
	CHECK_STREQ(buf, "-7");
	v_ulong = ~0UL;
	kparam_format_value(&params[5], buf, sizeof(buf));
	CHECK_STREQ(buf, "18446744073709551615");
	kparam_format_value(&params[7], buf, sizeof(buf));
	CHECK_STREQ(buf, "N");
	kparam_format_value(&params[8], buf, sizeof(buf));
	CHECK_STREQ(buf, "def");
	__set_bit(100, v_cpus);
	kparam_format_value(&params[9], buf, sizeof(buf));
	CHECK_STREQ(buf, "1,100");
	CHECK_EQ(kparam_format_value(&params[9], buf, 3), 2);
}

/* The registration macros place entries in the __kparam section. */
static int reg_int = 3;
static bool reg_bool;
static char reg_str[16] = "x";
static DECLARE_BITMAP(reg_cpus, 32);
KPARAM("reg.int", reg_int, KPARAM_INT, 1, 9, "an int");
KPARAM_CLAMP("reg.clamp", reg_int, KPARAM_INT, 1, 9, "clamped int");
KPARAM_BOOL("reg.bool", reg_bool, "a bool");
KPARAM_STRING("reg.str", reg_str, "a string");
KPARAM_CPULIST("reg.cpus", reg_cpus, 20, "a cpu list");

static void test_registration(void)
{
	struct kernel_param *p;
	size_t n = __stop___kparam - __start___kparam;
	int seen = 0;

	CHECK_EQ(n, 5);
	for (p = __start___kparam; p < __stop___kparam; p++) {
		CHECK_STREQ(p->subsys, "test");
		if (!strcmp(p->name, "reg.clamp"))
			{ CHECK(p->flags == KPARAM_F_CLAMP && p->var == &reg_int); seen++; }
		if (!strcmp(p->name, "reg.str"))
			{ CHECK(p->size == 16 && p->type == KPARAM_STRING); seen++; }
		if (!strcmp(p->name, "reg.cpus"))
			{ CHECK(p->size == 20 && p->var == reg_cpus); seen++; }
		if (!strcmp(p->name, "reg.bool"))
			{ CHECK(p->min > p->max && p->type == KPARAM_BOOL); seen++; }
	}
	CHECK_EQ(seen, 4);
	warnings[0] = '\0';
	CHECK_EQ(parse_cmdline("reg.int=4 reg.clamp=20 reg.bool reg.str=hi reg.cpus=all", __start___kparam,
			       n, NULL, 0, NULL, 0, 64, NULL, 0, capture_warn), 1);
	CHECK_EQ(reg_int, 9);
	CHECK(reg_bool);
	CHECK_STREQ(reg_str, "hi");
	CHECK_STREQ(cpus_text(reg_cpus, 32), "0-19");
	CHECK_STREQ(warnings, "test: reg.clamp: value 20 out of range 1..9, using 9\n");
}

static const struct test_case tests[] = {
	TEST_CASE(test_numbers),
	TEST_CASE(test_number_errors),
	TEST_CASE(test_clamp),
	TEST_CASE(test_bool),
	TEST_CASE(test_string),
	TEST_CASE(test_cpulist),
	TEST_CASE(test_quotes_and_names),
	TEST_CASE(test_prefixes),
	TEST_CASE(test_unknown_passthrough),
	TEST_CASE(test_unimplemented),
	TEST_CASE(test_repeated),
	TEST_CASE(test_too_long),
	TEST_CASE(test_format_value),
	TEST_CASE(test_registration),
};

TEST_MAIN("test_cmdline", tests)
