/*
 * Boot parameters: each is declared once, next to the variable it sets,
 * with KPARAM*(), which records name, type, range and description in the
 * __kparam section; parse_cmdline() applies the command line to the table.
 *
 * Whether a parameter is in this kernel is the Kconfig condition its
 * declaration sits under (the Kbuild line building its file, an #ifdef
 * around it). scripts/kparams.py reads the declarations of the whole tree
 * with those conditions and generates, for each build, the
 * KPARAM_ABSENT() entries of the names declared but not built
 * (kernel/params_absent.c): such a name gets one line saying why
 * ("does not apply to Tiny RCU", "not in this kernel: needs CONFIG_X"),
 * a name declared nowhere stays "unknown". Nothing else lists parameters.
 */
#ifndef _KERNEL_PARAM_H
#define _KERNEL_PARAM_H

#include <kernel/compiler.h>

enum kparam_type {
	KPARAM_INT,		/* int */
	KPARAM_UINT,		/* unsigned int */
	KPARAM_LONG,		/* long */
	KPARAM_ULONG,		/* unsigned long */
	KPARAM_BOOL,		/* bool; a bare "name" means true */
	KPARAM_STRING,		/* char array of size bytes */
	KPARAM_CPULIST,		/* unsigned long bitmap of size bits */
	KPARAM_UNIMPL,		/* a Linux parameter this kernel lacks: any value, one warning */
};

/* Out-of-range numbers are clamped (with a warning) instead of rejected. */
#define KPARAM_F_CLAMP	0x1
/* A test parameter (KPARAM_TEST below): only in kernels with CONFIG_KERNEL_TESTS. */
#define KPARAM_F_TEST	0x2

struct kernel_param {
	const char *name;	/* full name as typed: "rcutree.blimit", "rcu_nocbs" */
	const char *subsys;	/* warning prefix: "rcu", "smp", "kernel" */
	enum kparam_type type;
	void *var;
	long long min, max;	/* inclusive range; min > max: the type's limits only */
	size_t size;		/* STRING: buffer bytes; CPULIST: bitmap capacity in bits */
	const char *desc;
	unsigned flags;		/* KPARAM_F_* */
	bool given;		/* set when the command line gave an accepted value */
};

/* A file may #define KPARAM_SUBSYS "rcu" before including this header. */
#ifndef KPARAM_SUBSYS
#define KPARAM_SUBSYS	"kernel"
#endif

/*
 * A file of test code (a self-test, a torture test, a delay knob that
 * widens a race window) #defines KPARAM_TEST before its first #include:
 * its parameters are test parameters (KPARAM_F_TEST), which fail to build
 * into a kernel without CONFIG_KERNEL_TESTS, and scripts/kparams.py check
 * (scripts/check-contracts.sh) fails when the mark and the file's Kconfig
 * conditions disagree.
 */
#ifdef KPARAM_TEST
#define __KPARAM_FILE_FLAGS	KPARAM_F_TEST
#else
#define __KPARAM_FILE_FLAGS	0
#endif
#ifdef __HOST_TEST__
#define __kparam_test_ok(flags)	1
#else
#define __kparam_test_ok(flags)	(!((flags) & KPARAM_F_TEST) || IS_ENABLED(CONFIG_KERNEL_TESTS))
#endif

/* Catch a variable whose size does not match the declared type at build time. */
#define __kparam_size_ok(type, sz)						\
	((type) == KPARAM_INT || (type) == KPARAM_UINT ? (sz) == sizeof(int) :	\
	 (type) == KPARAM_LONG || (type) == KPARAM_ULONG ? (sz) == sizeof(long) : \
	 (type) == KPARAM_BOOL ? (sz) == sizeof(bool) : 1)

#define __KPARAM_PASTE2(a, b)	a##b
#define __KPARAM_PASTE(a, b)	__KPARAM_PASTE2(a, b)

#define __KPARAM(_name, _var, _type, _min, _max, _size, _flags, _desc, _id)	\
	_Static_assert(__kparam_size_ok(_type, sizeof(_var)),			\
		       "KPARAM " _name ": variable size does not match type");	\
	_Static_assert(__kparam_test_ok((_flags) | __KPARAM_FILE_FLAGS),	\
		       "KPARAM " _name ": a test parameter needs CONFIG_KERNEL_TESTS"); \
	static struct kernel_param _id __used __section("__kparam") __aligned(8) = { \
		.name = _name, .subsys = KPARAM_SUBSYS, .type = _type,		\
		.var = (void *)&(_var), .min = _min, .max = _max,		\
		.size = _size, .desc = _desc, .flags = (_flags) | __KPARAM_FILE_FLAGS, \
	}

#define __kparam_default_size(type, var)					\
	((type) == KPARAM_CPULIST ? sizeof(var) * 8 : sizeof(var))

/* KPARAM("rcutree.blimit", blimit, KPARAM_LONG, 1, 10000, "max callbacks per batch"); */
#define KPARAM(name, var, type, min, max, desc)					\
	__KPARAM(name, var, type, min, max, __kparam_default_size(type, var), 0, desc, \
		 __KPARAM_PASTE(__kparam_, __COUNTER__))
#define KPARAM_CLAMP(name, var, type, min, max, desc)				\
	__KPARAM(name, var, type, min, max, __kparam_default_size(type, var),	\
		 KPARAM_F_CLAMP, desc, __KPARAM_PASTE(__kparam_, __COUNTER__))
#define KPARAM_BOOL(name, var, desc)						\
	KPARAM(name, var, KPARAM_BOOL, 1, 0, desc)
#define KPARAM_STRING(name, buf, desc)						\
	KPARAM(name, buf, KPARAM_STRING, 1, 0, desc)
#define KPARAM_CPULIST(name, bitmap, nbits, desc)				\
	_Static_assert(sizeof(bitmap) * 8 >= (nbits), "KPARAM " name ": bitmap too small"); \
	__KPARAM(name, bitmap, KPARAM_CPULIST, 1, 0, nbits, 0, desc,		\
		 __KPARAM_PASTE(__kparam_, __COUNTER__))

/*
 * KPARAM_UNIMPL("rcutree.use_softirq", "rcuc kthreads only");: a Linux
 * parameter this kernel does not implement (or not in this configuration).
 * Given on the command line it gets one warning naming it, "not
 * implemented" and the reason, rather than the "unknown parameter" a typo
 * gets, and is not passed on to user space. Its variable is a shared sink.
 */
extern char kparam_unimpl_sink;
#define KPARAM_UNIMPL(name, why)						\
	__KPARAM(name, kparam_unimpl_sink, KPARAM_UNIMPL, 1, 0, 0, 0, why,	\
		 __KPARAM_PASTE(__kparam_, __COUNTER__))

/*
 * A name declared in the tree but not built into this kernel, and why.
 * Generated by scripts/kparams.py (kernel/params_absent.c), never written
 * by hand. A given value is shown as the type reads it ("=Y" for a bare
 * boolean), or as given when the type does not take it (a CPU list or a
 * Linux-only name is a STRING: always as given), then dropped: "<subsys>: <name>=<value>: not in this kernel: needs
 * CONFIG_X, ignored" (with "(CONFIG_KERNEL_TESTS; make test_defconfig)"
 * after the option for a test parameter), or, with KPARAM_F_FLAVOR,
 * "<subsys>: <name>=<value> does not apply to Tiny RCU, ignored".
 */
#define KPARAM_F_FLAVOR	0x4	/* ->needs names the flavor this build is ("Tiny RCU") */
struct kparam_absent {
	const char *name;
	const char *subsys;
	const char *needs;	/* "CONFIG_X", or with KPARAM_F_FLAVOR "Tiny RCU" */
	enum kparam_type type;
	unsigned flags;		/* KPARAM_F_TEST, KPARAM_F_FLAVOR */
};
#define KPARAM_ABSENT(_name, _subsys, _type, _needs, _flags)	{ _name, _subsys, _needs, _type, _flags },
extern const struct kparam_absent kparam_absent[];	/* kernel/params_absent.c */
extern const size_t kparam_nabsent;

/* Did the command line give name an accepted value? (kernel/params.c; after parsing) */
bool kparam_given(const char *name);

/* Bounds of the __kparam section, provided by the linker. */
extern struct kernel_param __start___kparam[], __stop___kparam[];

/*
 * Groups of parameters sharing a name prefix, for warnings and aliases:
 * an undeclared name under a known prefix is reported as unknown, not
 * passed on to user space. (Whether a declared one is in this build is
 * its own declaration's business: KPARAM_ABSENT().)
 */
struct kparam_prefix {
	const char *prefix;	/* "rcutree." */
	const char *subsys;	/* "rcu" */
	const char *alias_of;	/* NULL, or the prefix to look up instead ("rcuperf.") */
};

/*
 * Where parse_cmdline() reports a problem: one complete line, without a
 * trailing newline. The caller decides where it goes: printk in the
 * kernel (kernel/params.c), a capture in host tests.
 */
typedef void (*kparam_warn_fn)(const char *line);

/*
 * Apply cmdline to params[]. Arguments are split like Linux's next_arg()
 * (whitespace-separated, double quotes grouping, "--" ends the kernel's
 * part); '-' and '_' are equal in names; the last occurrence wins. A bad
 * value leaves the variable unchanged and is reported through warn(); so
 * is an unknown name under a known prefix (warn NULL: counted, not
 * reported); so is a name of absent[] (its own line, saying why it is not
 * in this kernel). Other unknown arguments are appended, space-separated and as
 * typed, to unknown_buf (whole arguments only; ones that do not fit are
 * dropped). CPU lists are limited to nr_cpu_ids bits. Returns the number
 * of warnings.
 */
int parse_cmdline(const char *cmdline, struct kernel_param *params, size_t nparams,
		  const struct kparam_prefix *prefixes, size_t nprefixes,
		  const struct kparam_absent *absent, size_t nabsent,
		  unsigned nr_cpu_ids, char *unknown_buf, size_t unknown_size,
		  kparam_warn_fn warn);

/*
 * The current value as text, as it is written on the command line
 * ("Y"/"N" for booleans, "0-3" for CPU lists, "" when empty). Returns the
 * length stored, like scnprintf.
 */
int kparam_format_value(const struct kernel_param *p, char *buf, size_t size);

/* The kernel's own: parse the boot command line into every KPARAM (kernel/params.c). */
void parse_boot_params(void);

#endif
