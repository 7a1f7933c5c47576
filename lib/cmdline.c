/*
 * Boot command-line parser: Linux's argument splitting, applied to the
 * kernel_param table, one warning line per bad value. Host-tested and fuzzed.
 */
#include <kernel/param.h>
#include <kernel/bitmap.h>
#include <kernel/errno.h>
#include <kernel/kstrtox.h>
#include <kernel/sprintf.h>
#include <kernel/string.h>

/* Values are copied to the stack to NUL-terminate them; longer ones are rejected. */
#define KPARAM_VALUE_MAX	512

/* CPU lists are parsed into an on-stack scratch map of this many bits. */
#ifdef CONFIG_NR_CPUS
#define KPARAM_CPUS_MAX		CONFIG_NR_CPUS
#else
#define KPARAM_CPUS_MAX		1024
#endif

/* Room for the longest warning: a KPARAM_VALUE_MAX value plus name, reason and current value. */
#define KPARAM_WARN_MAX		1024

/* What every step of one parse_cmdline() call needs. */
struct parse_ctx {
	unsigned nr_cpu_ids;	/* CPU lists are limited to this many bits */
	kparam_warn_fn warn;	/* the caller's line sink, or NULL */
};

/* One argument, as spans into the (unmodified) command line. */
struct arg {
	const char *raw;	/* as typed, quotes included */
	size_t raw_len;
	const char *name;
	size_t name_len;
	const char *val;	/* NULL when there is no '=' */
	size_t val_len;
};

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static const char *skip_spaces(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

/*
 * Linux's next_arg() without writing to the string: a leading quote makes
 * spaces part of the argument until the closing quote; a quote right after
 * '=' and the final quote are dropped. The first '=' splits name from value.
 */
static const char *next_arg(const char *s, struct arg *a)
{
	bool in_quote = false, quoted = false, strip;
	size_t i, equals = 0, end, vstart;

	a->raw = s;
	if (*s == '"') {
		s++;
		in_quote = quoted = true;
	}
	for (i = 0; s[i]; i++) {
		if (is_space(s[i]) && !in_quote)
			break;
		if (!equals && s[i] == '=')
			equals = i;	/* like Linux, a '=' at index 0 does not count */
		if (s[i] == '"')
			in_quote = !in_quote;
	}
	a->raw_len = s + i - a->raw;

	vstart = equals + 1;
	strip = quoted;
	if (equals && s[vstart] == '"') {
		vstart++;
		strip = true;
	}
	end = strip && i > 0 && s[i - 1] == '"' ? i - 1 : i;

	a->name = s;
	a->name_len = equals ? equals : end;
	a->val = equals ? s + vstart : NULL;
	a->val_len = equals && end > vstart ? end - vstart : 0;

	s += i;
	if (*s)
		s++;
	return skip_spaces(s);
}

static char dash_to_underscore(char c)
{
	return c == '-' ? '_' : c;
}

/* Is pname the concatenation a + b, with '-' and '_' treated as equal? */
static bool name_eq(const char *pname, const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; i < alen; i++, pname++) {
		if (!*pname || dash_to_underscore(*pname) != dash_to_underscore(a[i]))
			return false;
	}
	for (i = 0; i < blen; i++, pname++) {
		if (!*pname || dash_to_underscore(*pname) != dash_to_underscore(b[i]))
			return false;
	}
	return !*pname;
}

static bool has_prefix(const char *name, size_t len, const char *prefix)
{
	size_t plen = strlen(prefix);

	return plen <= len && name_eq(prefix, name, plen, "", 0);
}

/*
 * The index of the entry named name among n entries of stride bytes from
 * base, each starting with its name (struct kernel_param and struct
 * kparam_absent both do), or -1: exact name first, then through an alias
 * prefix ("rcuscale.x" -> "rcuperf.x").
 */
static long find_name(const void *base, size_t n, size_t stride,
		      const struct kparam_prefix *prefixes, size_t nprefixes,
		      const char *name, size_t len)
{
#define NAME_AT(i)	(*(const char *const *)((const char *)base + (i) * stride))
	size_t i, j, plen;

	for (i = 0; i < n; i++) {
		if (name_eq(NAME_AT(i), name, len, "", 0))
			return i;
	}
	for (j = 0; j < nprefixes; j++) {
		if (!prefixes[j].alias_of || !has_prefix(name, len, prefixes[j].prefix))
			continue;
		plen = strlen(prefixes[j].prefix);
		for (i = 0; i < n; i++) {
			if (name_eq(NAME_AT(i), prefixes[j].alias_of,
				    strlen(prefixes[j].alias_of), name + plen, len - plen))
				return i;
		}
	}
	return -1;
#undef NAME_AT
}

int kparam_format_value(const struct kernel_param *p, char *buf, size_t size)
{
	switch (p->type) {
	case KPARAM_INT:
		return scnprintf(buf, size, "%d", *(int *)p->var);
	case KPARAM_UINT:
		return scnprintf(buf, size, "%u", *(unsigned int *)p->var);
	case KPARAM_LONG:
		return scnprintf(buf, size, "%ld", *(long *)p->var);
	case KPARAM_ULONG:
		return scnprintf(buf, size, "%lu", *(unsigned long *)p->var);
	case KPARAM_BOOL:
		return scnprintf(buf, size, "%s", *(bool *)p->var ? "Y" : "N");
	case KPARAM_STRING:
		return scnprintf(buf, size, "%.*s", (int)p->size, (char *)p->var);
	case KPARAM_CPULIST:
		return bitmap_print_list(buf, size, p->var, p->size);
	case KPARAM_UNIMPL:
		return scnprintf(buf, size, "(not implemented)");
	}
	return scnprintf(buf, size, "?");
}

/*
 * Copy n characters of src for a warning, with control characters (a
 * quoted value may hold a newline) shown as '?' so each warning stays one line.
 */
static const char *printable(char *dst, size_t size, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n && src[i] && i + 1 < size; i++)
		dst[i] = (unsigned char)src[i] < ' ' || src[i] == 0x7f ? '?' : src[i];
	dst[i] = '\0';
	return dst;
}

/* Format one warning line and hand it to the caller's callback. */
__printf(2, 3) static void warn(const struct parse_ctx *ctx, const char *fmt, ...)
{
	char line[KPARAM_WARN_MAX];
	va_list ap;

	if (!ctx->warn)
		return;
	va_start(ap, fmt);
	vscnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ctx->warn(line);
}

/* Warn that val was rejected for the printf-formatted reason; returns 1 (one warning). */
__printf(4, 5) static int reject(const struct parse_ctx *ctx, const struct kernel_param *p,
				 const char *val, const char *fmt, ...)
{
	char reason[64], cur[128], shown[KPARAM_VALUE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (!kparam_format_value(p, cur, sizeof(cur)))
		strscpy(cur, "(empty)", sizeof(cur));
	printable(cur, sizeof(cur), cur, sizeof(cur));	/* a string value may hold a newline */
	warn(ctx, "%s: %s: invalid value '%s' (%s), using %s", p->subsys, p->name,
	     printable(shown, sizeof(shown), val, KPARAM_VALUE_MAX), reason, cur);
	return 1;
}

/* Warn that val was clamped to the range text lo..hi, and to c; returns 1. */
static int clamped(const struct parse_ctx *ctx, const struct kernel_param *p, const char *val,
		   const char *range, const char *c)
{
	char shown[KPARAM_VALUE_MAX];

	warn(ctx, "%s: %s: value %s out of range %s, using %s", p->subsys, p->name,
	     printable(shown, sizeof(shown), val, KPARAM_VALUE_MAX), range, c);
	return 1;
}

static void store_number(struct kernel_param *p, unsigned long long v)
{
	switch (p->type) {
	case KPARAM_INT:   *(int *)p->var = (int)v; break;
	case KPARAM_UINT:  *(unsigned int *)p->var = (unsigned int)v; break;
	case KPARAM_LONG:  *(long *)p->var = (long)v; break;
	case KPARAM_ULONG: *(unsigned long *)p->var = (unsigned long)v; break;
	default: break;
	}
	p->given = true;
}

/* INT and LONG: the range is the type's limits narrowed by [min, max]. */
static int set_signed(const struct parse_ctx *ctx, struct kernel_param *p, const char *val)
{
	long long lo = p->type == KPARAM_INT ? INT32_MIN : INT64_MIN;
	long long hi = p->type == KPARAM_INT ? INT32_MAX : INT64_MAX;
	char range[48], cs[24];
	long long v, c;
	int ret = kstrtoll(val, 0, &v);

	/* Beyond 64 bits is out of range too; it clamps to the nearer end. */
	if (ret == -ERANGE)
		v = val[0] == '-' ? INT64_MIN : INT64_MAX;
	else if (ret)
		return reject(ctx, p, val, "not a number");
	if (p->min <= p->max) {
		lo = max(lo, p->min);
		hi = min(hi, p->max);
	}
	if (!ret && v >= lo && v <= hi) {
		store_number(p, v);
		return 0;
	}
	if (!(p->flags & KPARAM_F_CLAMP))
		return reject(ctx, p, val, "out of range %lld..%lld", lo, hi);
	c = (ret ? val[0] == '-' : v < lo) ? lo : hi;
	store_number(p, c);
	snprintf(range, sizeof(range), "%lld..%lld", lo, hi);
	snprintf(cs, sizeof(cs), "%lld", c);
	return clamped(ctx, p, val, range, cs);
}

/* UINT and ULONG: as above, with a negative min or max read as 0. */
static int set_unsigned(const struct parse_ctx *ctx, struct kernel_param *p,
			const char *val)
{
	unsigned long long lo = 0, hi = p->type == KPARAM_UINT ? UINT32_MAX : UINT64_MAX;
	char range[48], cs[24];
	unsigned long long v, c;
	int ret = kstrtoull(val, 0, &v);

	if (ret == -ERANGE)
		v = UINT64_MAX;
	else if (ret)
		return reject(ctx, p, val, "not a number");
	if (p->min <= p->max) {
		lo = max(lo, (unsigned long long)max(p->min, 0LL));
		hi = min(hi, (unsigned long long)max(p->max, 0LL));
	}
	if (!ret && v >= lo && v <= hi) {
		store_number(p, v);
		return 0;
	}
	if (!(p->flags & KPARAM_F_CLAMP))
		return reject(ctx, p, val, "out of range %llu..%llu", lo, hi);
	c = v < lo ? lo : hi;
	store_number(p, c);
	snprintf(range, sizeof(range), "%llu..%llu", lo, hi);
	snprintf(cs, sizeof(cs), "%llu", c);
	return clamped(ctx, p, val, range, cs);
}

/* Parse into a scratch map first, so a rejected list keeps the old value. */
static int set_cpulist(const struct parse_ctx *ctx, struct kernel_param *p, const char *val)
{
	DECLARE_BITMAP(tmp, KPARAM_CPUS_MAX);
	unsigned nbits = min(min(p->size, (size_t)ctx->nr_cpu_ids), (size_t)KPARAM_CPUS_MAX);
	int ret = bitmap_parselist(val, tmp, nbits);

	if (ret == -ERANGE)
		return reject(ctx, p, val, "CPU number out of range 0-%d", (int)nbits - 1);
	if (ret)
		return reject(ctx, p, val, "bad CPU list");
	bitmap_zero(p->var, p->size);
	bitmap_copy(p->var, tmp, nbits);
	p->given = true;
	return 0;
}

/* Apply one argument to p; returns the number of warnings printed. */
static int set_param(const struct parse_ctx *ctx, struct kernel_param *p, const struct arg *a)
{
	char val[KPARAM_VALUE_MAX];
	bool b;

	if (p->type == KPARAM_UNIMPL) {
		char shown[KPARAM_VALUE_MAX];

		p->given = true;
		warn(ctx, "%s: %s%s%s: Linux parameter not implemented here (%s), ignored", p->subsys,
		     p->name, a->val ? "=" : "",
		     a->val ? printable(shown, sizeof(shown), a->val, a->val_len) : "",
		     p->desc);
		return 1;
	}
	if (!a->val) {
		if (p->type != KPARAM_BOOL)
			return reject(ctx, p, "", "missing value");
		*(bool *)p->var = true;
		p->given = true;
		return 0;
	}
	if (a->val_len >= sizeof(val)) {
		memcpy(val, a->val, sizeof(val) - 4);
		strscpy(val + sizeof(val) - 4, "...", 4);
		return reject(ctx, p, val, "too long");
	}
	memcpy(val, a->val, a->val_len);
	val[a->val_len] = '\0';

	switch (p->type) {
	case KPARAM_INT:
	case KPARAM_LONG:
		return set_signed(ctx, p, val);
	case KPARAM_UINT:
	case KPARAM_ULONG:
		return set_unsigned(ctx, p, val);
	case KPARAM_BOOL:
		if (kstrtobool(val, &b))
			return reject(ctx, p, val, "not a boolean");
		*(bool *)p->var = b;
		break;
	case KPARAM_STRING:
		if (a->val_len >= p->size)
			return reject(ctx, p, val, "too long");
		strscpy(p->var, val, p->size);
		break;
	case KPARAM_CPULIST:
		return set_cpulist(ctx, p, val);
	case KPARAM_UNIMPL:
		break;		/* handled above */
	}
	p->given = true;
	return 0;
}

/*
 * A name declared in the tree but not built into this kernel
 * (struct kparam_absent): one line saying why, with the value as the
 * type reads it ("=Y" for a bare boolean, "=16" for 0x10), or as given
 * when the type does not take it (no "invalid value ... using" line: there
 * is nothing to use). Returns the number of warnings (1).
 */
static int set_absent(const struct parse_ctx *ctx, const struct kparam_absent *ab,
		      const struct arg *a)
{
	const struct parse_ctx quiet = { .nr_cpu_ids = ctx->nr_cpu_ids, .warn = NULL };
	union {
		long long number;
		bool boolean;
		char string[KPARAM_VALUE_MAX];
	} sink = { 0 };
	struct kernel_param p = {
		.name = ab->name, .subsys = ab->subsys, .type = ab->type, .var = &sink,
		.min = 1, .max = 0, .size = sizeof(sink.string),
	};
	char val[KPARAM_VALUE_MAX + 1] = "";

	if (!set_param(&quiet, &p, a)) {
		val[0] = '=';
		kparam_format_value(&p, val + 1, sizeof(val) - 1);
		printable(val, sizeof(val), val, sizeof(val));
	} else if (a->val) {
		val[0] = '=';
		printable(val + 1, sizeof(val) - 1, a->val, a->val_len);
	}
	if (ab->flags & KPARAM_F_FLAVOR)
		warn(ctx, "%s: %s%s does not apply to %s, ignored", p.subsys, p.name, val, ab->needs);
	else
		warn(ctx, "%s: %s%s: not in this kernel: needs %s%s, ignored", p.subsys, p.name, val,
		     ab->needs,
		     ab->flags & KPARAM_F_TEST ? " (CONFIG_KERNEL_TESTS; make test_defconfig)" : "");
	return 1;
}

/* Add one whole argument to the space-separated list for user space, if it fits. */
static void add_unknown(char *buf, size_t size, const struct arg *a)
{
	size_t used = size ? strlen(buf) : 0;
	size_t sep = used ? 1 : 0;

	if (used + sep + a->raw_len >= size)
		return;
	if (sep)
		buf[used++] = ' ';
	memcpy(buf + used, a->raw, a->raw_len);
	buf[used + a->raw_len] = '\0';
}

int parse_cmdline(const char *cmdline, struct kernel_param *params, size_t nparams,
		  const struct kparam_prefix *prefixes, size_t nprefixes,
		  const struct kparam_absent *absent, size_t nabsent,
		  unsigned nr_cpu_ids, char *unknown_buf, size_t unknown_size,
		  kparam_warn_fn warn_line)
{
	const struct parse_ctx ctx = { .nr_cpu_ids = nr_cpu_ids, .warn = warn_line };
	const char *s = skip_spaces(cmdline ? cmdline : "");
	int warnings = 0;
	struct arg a;
	long i;
	size_t j;

	if (unknown_size)
		unknown_buf[0] = '\0';
	while (*s) {
		s = next_arg(s, &a);
		if (!a.val && a.name_len == 2 && !strncmp(a.name, "--", 2))
			break;	/* the rest belongs to init */
		if (!a.name_len)
			continue;
		i = find_name(params, nparams, sizeof(*params), prefixes, nprefixes, a.name, a.name_len);
		if (i >= 0) {
			warnings += set_param(&ctx, &params[i], &a);
			continue;
		}
		i = find_name(absent, nabsent, sizeof(*absent), prefixes, nprefixes, a.name, a.name_len);
		if (i >= 0) {
			warnings += set_absent(&ctx, &absent[i], &a);
			continue;
		}
		for (j = 0; j < nprefixes; j++) {
			if (has_prefix(a.name, a.name_len, prefixes[j].prefix))
				break;
		}
		if (j < nprefixes) {
			char shown[128];

			warn(&ctx, "%s: unknown parameter '%s' ignored", prefixes[j].subsys,
			     printable(shown, sizeof(shown), a.name, a.name_len));
			warnings++;
		} else {
			add_unknown(unknown_buf, unknown_size, &a);
		}
	}
	return warnings;
}
