/*
 * test_ubsan=CASE (CONFIG_TEST_UBSAN): planted undefined behaviour, one
 * instance per UBSAN check, committed after boot (late_initcall) so the
 * boot test can check each report. Cases carry the names of Linux's
 * lib/test_ubsan.c; each case's function runs twice, and the report must
 * appear once (one site, reported once). "all" runs every case but
 * unreachable, whose report ends in a panic and so is only run when named
 * alone. The undefined operations are kept harmless: the out-of-bounds
 * index lands inside the same structure, and the quotient of the division
 * by zero is unused, so the compiler emits the check but no division that
 * would fault. Another value gets kernel/params.c's style of warning,
 * "kernel: test_ubsan: invalid value ..., using none". This object is
 * always instrumented (kernel/debug/test/Kbuild).
 */
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/compiler.h>

static char test_ubsan[24];
KPARAM_STRING("test_ubsan", test_ubsan,
	      "test only: commit planted undefined behaviour after boot (dev-tools/ubsan.md)");

/* volatile: the compiler must not see the values, or it would fold the UB away. */
static volatile int ubsan_shift_by = 40;
static volatile int ubsan_minus_one = -1;
static volatile int ubsan_minus_two = -2;
static volatile int ubsan_int_max = INT_MAX;
static volatile int ubsan_index = 5;
static volatile int ubsan_zero;
static volatile unsigned char ubsan_byte = 3;

/* A value neither the compiler nor sparse can fold into the expression using it. */
static __noinline int ubsan_value(const volatile int *p)
{
	return *p;
}

#define UBSAN_TEST(config) \
	pr_info("test_ubsan: %s (%s=%s)\n", __func__, #config, IS_ENABLED(config) ? "y" : "n")

/* Four sites, one for each of the runtime's shift reports. */
static __noinline void test_ubsan_shift_out_of_bounds(void)
{
	volatile int r;

	UBSAN_TEST(CONFIG_UBSAN_SHIFT);
	r = 1 << ubsan_shift_by;	/* 40 >= 32 bits of int */
	r = 1 << ubsan_value(&ubsan_minus_one);	/* negative exponent */
	r = ubsan_minus_two << 1;	/* left shift of a negative value */
	r = ubsan_int_max << 4;		/* the result does not fit */
	(void)r;
}

static __noinline void test_ubsan_out_of_bounds(void)
{
	/* arr is not the last member, so GCC checks it (a trailing array may be flexible). */
	static struct {
		int arr[4];
		int after[4];
	} s;
	volatile int r;

	UBSAN_TEST(CONFIG_UBSAN_BOUNDS);
	r = s.arr[ubsan_index];		/* reads s.after[1] */
	(void)r;
}

static __noinline void test_ubsan_load_invalid_value_bool(void)
{
	volatile bool *p = (volatile bool *)&ubsan_byte;
	volatile bool r;

	UBSAN_TEST(CONFIG_UBSAN_BOOL);
	r = *p;				/* a _Bool holding 3 */
	(void)r;
}

enum ubsan_test_enum { UBSAN_TEST_A, UBSAN_TEST_B, UBSAN_TEST_C };

/*
 * GCC 12 instruments enum loads only in C++: in C this case gives no
 * report (Documentation/dev-tools/ubsan.md); it is here so a compiler
 * that does check it is tested too.
 */
static __noinline void test_ubsan_load_invalid_value_enum(void)
{
	volatile enum ubsan_test_enum e;
	volatile enum ubsan_test_enum r;

	UBSAN_TEST(CONFIG_UBSAN_ENUM);
	memcpy((void *)&e, (const void *)&ubsan_shift_by, sizeof(e));	/* 40 */
	r = e;
	(void)r;
}

static __noinline void test_ubsan_divrem_overflow(void)
{
	int quotient;

	UBSAN_TEST(CONFIG_UBSAN_DIV_ZERO);
	quotient = 16 / ubsan_zero;	/* unused: checked, never divided */
	(void)quotient;
}

static __noinline void test_ubsan_unreachable(void)
{
	UBSAN_TEST(CONFIG_UBSAN_UNREACHABLE);
	if (ubsan_index == 5)
		__builtin_unreachable();
}

static const struct {
	const char *name;
	void (*fn)(void);
	bool in_all;
} ubsan_cases[] = {
	{ "shift", test_ubsan_shift_out_of_bounds, true },
	{ "out_of_bounds", test_ubsan_out_of_bounds, true },
	{ "load_invalid_value_bool", test_ubsan_load_invalid_value_bool, true },
	{ "load_invalid_value_enum", test_ubsan_load_invalid_value_enum, true },
	{ "divrem_overflow", test_ubsan_divrem_overflow, true },
	{ "unreachable", test_ubsan_unreachable, false },
};

static int test_ubsan_init(void)
{
	bool all = !strcmp(test_ubsan, "all"), found = false;

	if (!test_ubsan[0])
		return 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(ubsan_cases); i++) {
		if (all ? !ubsan_cases[i].in_all : strcmp(test_ubsan, ubsan_cases[i].name))
			continue;
		found = true;
		ubsan_cases[i].fn();
		ubsan_cases[i].fn();	/* the same site again: no second report */
	}
	if (!found)
		pr_warn("kernel: test_ubsan: invalid value '%s' (not all, shift, out_of_bounds, "
			"load_invalid_value_bool, load_invalid_value_enum, divrem_overflow or "
			"unreachable), using none\n", test_ubsan);
	else
		pr_info("test_ubsan: done\n");
	return 0;
}
late_initcall(test_ubsan_init);
