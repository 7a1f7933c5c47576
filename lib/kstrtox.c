/*
 * kstrto*() with Linux's semantics: strict whole-string conversion with
 * range checks, plus the digit loop that the CPU-list parser reuses.
 */
#include <kernel/kstrtox.h>
#include <kernel/errno.h>

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;	/* ASCII lower case */
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 16;	/* not a digit in any base we accept */
}

size_t parse_integer(const char *s, unsigned int base, unsigned long long *res, bool *overflow)
{
	unsigned long long v = 0;
	size_t n;
	int d;

	*overflow = false;
	for (n = 0; (d = digit_value(s[n])) < (int)base; n++) {
		/* Keep consuming digits after an overflow so the caller sees the whole number. */
		if (v > (UINT64_MAX - d) / base)
			*overflow = true;
		v = v * base + d;
	}
	*res = v;
	return n;
}

/* Resolve base 0 and skip a "0x" that base 16 allows. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	bool hex_prefix = s[0] == '0' && (s[1] | 0x20) == 'x';

	if (*base == 0) {
		if (hex_prefix && digit_value(s[2]) < 16)
			*base = 16;
		else
			*base = s[0] == '0' ? 8 : 10;
	}
	if (*base == 16 && hex_prefix)
		s += 2;
	return s;
}

/* Unsigned body without sign handling: digits, optional '\n', end. */
static int kstrtoull_body(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	bool overflow;
	size_t n;

	if (base == 1 || base > 16)
		return -EINVAL;
	s = fixup_radix(s, &base);
	n = parse_integer(s, base, &v, &overflow);
	if (overflow)
		return -ERANGE;
	if (!n)
		return -EINVAL;
	s += n;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return kstrtoull_body(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int ret;

	if (s[0] == '-') {
		ret = kstrtoull_body(s + 1, base, &v);
		if (ret)
			return ret;
		if (v > (unsigned long long)INT64_MAX + 1)
			return -ERANGE;
		*res = -(long long)(v - 1) - 1;	/* no signed overflow at INT64_MIN */
		return 0;
	}
	ret = kstrtoull(s, base, &v);
	if (ret)
		return ret;
	if (v > INT64_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (!ret)
		*res = v;	/* long is 64 bits on x86-64 */
	return ret;
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	long long v;
	int ret = kstrtoll(s, base, &v);

	if (!ret)
		*res = v;
	return ret;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int ret = kstrtoll(s, base, &v);

	if (ret)
		return ret;
	if (v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case 'e': case 'E': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case 'd': case 'D': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		switch (s[1]) {
		case 'n': case 'N':
			*res = true;
			return 0;
		case 'f': case 'F':
			*res = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}

unsigned long long simple_strtoull(const char *s, char **endp, unsigned int base)
{
	unsigned long long v;
	bool overflow;

	if (base == 1 || base > 16)
		base = 10;
	s = fixup_radix(s, &base);
	s += parse_integer(s, base, &v, &overflow);
	if (endp)
		*endp = (char *)s;
	return v;
}
