/*
 * libFuzzer target: arbitrary bytes through parse_cmdline() (every param type),
 * bitmap_parselist() and kstrto*(), trapping when an invariant breaks.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include <kernel/param.h>
#include <kernel/bitmap.h>
#include <kernel/kstrtox.h>
#include <kernel/sprintf.h>
#include <kernel/string.h>

/*
 * Invariants: no writes out of bounds, strings stay terminated, values stay
 * in range, warnings are single lines and counted, CPU lists round-trip.
 */
#define CANARY	0xa5a5a5a5a5a5a5a5UL
#define ENSURE(cond)	do { if (!(cond)) __builtin_trap(); } while (0)

static unsigned nwarn;

/* Every warning is one non-empty line. */
static void count_warn(const char *line)
{
	ENSURE(line[0] && !strchr(line, '\n'));
	nwarn++;
}

/* Each variable is followed by a canary word that must survive. */
static struct { int v; int pad; unsigned long canary; } g_int, g_clamp;
static struct { unsigned v; int pad; unsigned long canary; } g_uint;
static struct { long v; unsigned long canary; } g_long;
static struct { unsigned long v; unsigned long canary; } g_ulong;
static struct { bool v; char pad[7]; unsigned long canary; } g_bool;
static struct { char v[9]; char pad[7]; unsigned long canary; } g_str;
static struct { unsigned long v[2]; unsigned long canary; } g_cpus;	/* 70 bits */

#define P(n, t, v, lo, hi, sz, fl) \
	{ .name = n, .subsys = "fuzz", .type = t, .var = v, .min = lo, .max = hi, .size = sz, .flags = fl }

static struct kernel_param params[] = {
	P("rcutree.int", KPARAM_INT, &g_int.v, -5, 100, 0, 0),
	P("rcutree.clamp", KPARAM_INT, &g_clamp.v, 2, 64, 0, KPARAM_F_CLAMP),
	P("uint", KPARAM_UINT, &g_uint.v, 1, 0, 0, KPARAM_F_CLAMP),
	P("rcuperf.long", KPARAM_LONG, &g_long.v, 1, 0, 0, 0),
	P("ulong", KPARAM_ULONG, &g_ulong.v, 3, 1000, 0, KPARAM_F_CLAMP),
	P("bool", KPARAM_BOOL, &g_bool.v, 1, 0, 0, 0),
	P("str", KPARAM_STRING, g_str.v, 1, 0, sizeof(g_str.v), 0),
	P("cpus", KPARAM_CPULIST, g_cpus.v, 1, 0, 70, 0),
};

/* Names declared elsewhere, not built in (kernel/params_absent.c): one of each kind. */
static const struct kparam_absent absent[] = {
	KPARAM_ABSENT("rcutree.qhimark", "rcu", KPARAM_LONG, "Tiny RCU", KPARAM_F_FLAVOR)
	KPARAM_ABSENT("rcuperf.kfree_mult", "rcu", KPARAM_INT, "CONFIG_RCU_PERF_TEST", KPARAM_F_TEST)
	KPARAM_ABSENT("absent_bool", "kernel", KPARAM_BOOL, "CONFIG_X", 0)
	KPARAM_ABSENT("absent_str", "kernel", KPARAM_STRING, "CONFIG_X", 0)
	KPARAM_ABSENT("absent_ulong", "kernel", KPARAM_ULONG, "CONFIG_X", 0)
};

static const struct kparam_prefix prefixes[] = {
	{ "rcutree.", "rcu", NULL },
	{ "rcuperf.", "rcu", NULL },
	{ "rcuscale.", "rcu", "rcuperf." },
};

static void check_params(void)
{
	ENSURE(g_int.canary == CANARY && g_clamp.canary == CANARY && g_uint.canary == CANARY);
	ENSURE(g_long.canary == CANARY && g_ulong.canary == CANARY && g_bool.canary == CANARY);
	ENSURE(g_str.canary == CANARY && g_cpus.canary == CANARY);
	ENSURE(g_int.v >= -5 && g_int.v <= 100);
	ENSURE(g_clamp.v >= 2 && g_clamp.v <= 64);
	ENSURE(g_ulong.v >= 3 && g_ulong.v <= 1000);
	ENSURE(*(unsigned char *)&g_bool.v <= 1);
	ENSURE(memchr(g_str.v, '\0', sizeof(g_str.v)) != NULL);
	ENSURE((g_cpus.v[1] & ~BITMAP_LAST_WORD_MASK(70)) == 0);
}

static void fuzz_cmdline(const char *s, unsigned nr_cpu_ids)
{
	char unknown[64];
	int ret;

	g_int.v = 1, g_clamp.v = 2, g_uint.v = 0, g_long.v = 0, g_ulong.v = 3, g_bool.v = false;
	strscpy(g_str.v, "init", sizeof(g_str.v));
	memset(g_str.pad, 'x', sizeof(g_str.pad));
	g_cpus.v[0] = g_cpus.v[1] = 0;
	g_int.canary = g_clamp.canary = g_uint.canary = g_long.canary = CANARY;
	g_ulong.canary = g_bool.canary = g_str.canary = g_cpus.canary = CANARY;

	nwarn = 0;
	memset(unknown, 'u', sizeof(unknown));
	ret = parse_cmdline(s, params, sizeof(params) / sizeof(params[0]), prefixes,
			    sizeof(prefixes) / sizeof(prefixes[0]), absent,
			    sizeof(absent) / sizeof(absent[0]), nr_cpu_ids, unknown, sizeof(unknown),
			    count_warn);
	ENSURE(ret >= 0 && (unsigned)ret == nwarn);
	ENSURE(memchr(unknown, '\0', sizeof(unknown)) != NULL);
	check_params();
	ENSURE(nr_cpu_ids >= 70 || find_next_bit(g_cpus.v, 70, nr_cpu_ids) == 70);
}

/* Accepted lists must print back to something that parses to the same map. */
static void fuzz_parselist(const char *s, unsigned nbits)
{
	unsigned long map[BITS_TO_LONGS(256) + 1], back[BITS_TO_LONGS(256)];
	unsigned words = BITS_TO_LONGS(nbits);
	char text[1024];

	memset(map, 0xa5, sizeof(map));
	if (bitmap_parselist(s, map, nbits) == 0) {
		ENSURE(!words || (map[words - 1] & ~BITMAP_LAST_WORD_MASK(nbits)) == 0);
		bitmap_print_list(text, sizeof(text), map, nbits);
		ENSURE(bitmap_parselist(text, back, nbits) == 0);
		ENSURE(bitmap_equal(map, back, nbits));
	}
	ENSURE(map[words] == CANARY);
}

/* Strict conversions must agree with each other. */
static void fuzz_kstrtox(const char *s)
{
	unsigned long long u;
	long long l;
	int i;

	if (kstrtoll(s, 0, &l) == 0 && s[0] != '-' && l >= 0)
		ENSURE(kstrtoull(s, 0, &u) == 0 && u == (unsigned long long)l);
	if (kstrtoint(s, 0, &i) == 0)
		ENSURE(kstrtoll(s, 0, &l) == 0 && l == i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	unsigned seed = size ? data[0] : 0;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	fuzz_cmdline(s, 1 + seed % 100);
	fuzz_parselist(s, 1 + (seed * 7 + size) % 256);
	fuzz_parselist(s, 0);
	fuzz_kstrtox(s);
	free(s);
	return 0;
}
