/*
 * Bitmaps as text, the CPU-list form "0-3,7" of boot parameters: parsed
 * here (bitmap_parselist()), and printed through vsprintf's %*pbl
 * (bitmap_print_list()). Above both lib/bitmap.c and lib/vsprintf.c, so
 * neither of those calls the other's file back. Pure C: also built into
 * the host tests and the command-line fuzzer.
 */
#include <kernel/bitmap.h>
#include <kernel/errno.h>
#include <kernel/kstrtox.h>
#include <kernel/sprintf.h>
#include <kernel/string.h>

/* One comma-separated item of a CPU list: start-end:used/group. */
struct region {
	unsigned long start, end, used, group;
};

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool region_end(char c)
{
	return c == '\0' || c == ',' || is_space(c);
}

/* A decimal number or "N" (the last bit); NULL and *err set on failure. */
static const char *get_num(const char *s, unsigned long *num, unsigned nbits, int *err)
{
	unsigned long long v;
	bool overflow;
	size_t n;

	if (*s == 'N') {
		*num = (unsigned)(nbits - 1);	/* nbits == 0 gives a number that is out of range */
		return s + 1;
	}
	n = parse_integer(s, 10, &v, &overflow);
	if (!n) {
		*err = -EINVAL;
		return NULL;
	}
	if (overflow || v > UINT32_MAX) {
		*err = -ERANGE;
		return NULL;
	}
	*num = v;
	return s + n;
}

/*
 * Parse one item at *sp into r and advance *sp past it. Returns 0 or a
 * negative errno. "none" yields a region with used == 0, which sets nothing.
 */
static int parse_region(const char **sp, struct region *r, unsigned nbits)
{
	const char *s = *sp;
	int err = 0;

	*r = (struct region){ .group = 1 };
	if (!strncmp(s, "none", 4) && region_end(s[4])) {
		*sp = s + 4;
		return 0;
	}
	if (!strncmp(s, "all", 3)) {
		r->end = (unsigned)(nbits - 1);
		s += 3;
	} else {
		s = get_num(s, &r->start, nbits, &err);
		if (!s)
			return err;
		r->end = r->start;
		if (*s == '-') {
			s = get_num(s + 1, &r->end, nbits, &err);
			if (!s)
				return err;
		} else if (!region_end(*s)) {
			return -EINVAL;	/* a single number takes no group pattern */
		}
	}
	if (*s == ':') {
		s = get_num(s + 1, &r->used, nbits, &err);
		if (!s)
			return err;
		if (*s != '/')
			return -EINVAL;
		s = get_num(s + 1, &r->group, nbits, &err);
		if (!s)
			return err;
	} else {
		r->used = r->group = r->end - r->start + 1;
	}
	/* Syntax errors first, then the range, in Linux's order. */
	if (!region_end(*s) || r->start > r->end || !r->group || r->used > r->group)
		return -EINVAL;
	if (r->end >= nbits)
		return -ERANGE;
	*sp = s;
	return 0;
}

int bitmap_parselist(const char *buf, unsigned long *maskp, unsigned nbits)
{
	struct region r;
	unsigned long i;
	int err;

	bitmap_zero(maskp, nbits);
	for (;;) {
		while (*buf == ',' || is_space(*buf))
			buf++;
		if (!*buf)
			return 0;
		err = parse_region(&buf, &r, nbits);
		if (err)
			return err;
		for (i = r.start; i <= r.end; i += r.group)
			bitmap_set(maskp, i, min(r.end - i + 1, r.used));
	}
}

int bitmap_print_list(char *buf, size_t size, const unsigned long *maskp, unsigned nbits)
{
	return scnprintf(buf, size, "%*pbl", (int)nbits, maskp);
}
