/*
 * vsnprintf and friends: C99 integer/char/string conversions plus Linux's
 * %p extensions, no floating point.
 */
#include <kernel/sprintf.h>
#include <kernel/string.h>
#include <kernel/bitmap.h>

/* Linux's caps: absurd widths are clipped instead of overflowing an int. */
#define FIELD_WIDTH_MAX	((1 << 23) - 1)
#define PRECISION_MAX	((1 << 15) - 1)

/* %pS/%ps's lookup, installed by the kernel's symbol table (NULL: print hex). */
static vsprintf_symbol_fn symbol_lookup;

void vsprintf_set_symbol_lookup(vsprintf_symbol_fn fn)
{
	symbol_lookup = fn;
}

/* Counts every character but stores only what fits: what snprintf returns. */
struct sink {
	char *buf;
	size_t size;
	size_t len;		/* characters produced so far, stored or not */
};

static void put(struct sink *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_n(struct sink *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_str(struct sink *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

enum {
	F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16,
	F_UPPER = 32, F_SIGNED = 64,
};

enum { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_T, L_J };

struct spec {
	unsigned flags;
	int width;		/* 0 = none */
	int prec;		/* -1 = none */
	unsigned base;
	int len;		/* L_* length modifier */
};

/* A string of n characters, space-padded to the field width. */
static void put_field(struct sink *o, const struct spec *sp, const char *s, size_t n)
{
	int pad = (size_t)sp->width > n ? sp->width - (int)n : 0;

	if (!(sp->flags & F_LEFT))
		put_n(o, ' ', pad);
	put_str(o, s, n);
	if (sp->flags & F_LEFT)
		put_n(o, ' ', pad);
}

/*
 * Layout: [spaces][sign][0x][zeros][digits][spaces]. Zero padding from the
 * '0' flag only applies without '-' and without a precision, as in C.
 */
static void put_number(struct sink *o, const struct spec *sp,
		       unsigned long long num, bool neg)
{
	const char *digits = sp->flags & F_UPPER ? "0123456789ABCDEF" : "0123456789abcdef";
	const char *prefix = "";
	char tmp[24], sign = 0;
	int nd = 0, zeros, len, pad;

	if (sp->base == 16 && (sp->flags & F_ALT) && num)
		prefix = sp->flags & F_UPPER ? "0X" : "0x";
	if (sp->prec != 0 || num) {
		do {
			tmp[nd++] = digits[num % sp->base];
			num /= sp->base;
		} while (num);
	}
	zeros = sp->prec > nd ? sp->prec - nd : 0;
	/* '#' with %o: the first digit printed must be a zero. */
	if (sp->base == 8 && (sp->flags & F_ALT) && !zeros && (!nd || tmp[nd - 1] != '0'))
		zeros = 1;
	if (sp->flags & F_SIGNED) {
		if (neg)
			sign = '-';
		else if (sp->flags & F_PLUS)
			sign = '+';
		else if (sp->flags & F_SPACE)
			sign = ' ';
	}
	len = (sign != 0) + (int)strlen(prefix) + zeros + nd;
	pad = sp->width > len ? sp->width - len : 0;
	if ((sp->flags & (F_LEFT | F_ZERO)) == F_ZERO && sp->prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!(sp->flags & F_LEFT))
		put_n(o, ' ', pad);
	if (sign)
		put(o, sign);
	put_str(o, prefix, strlen(prefix));
	put_n(o, '0', zeros);
	while (nd)
		put(o, tmp[--nd]);
	if (sp->flags & F_LEFT)
		put_n(o, ' ', pad);
}

static void put_dec(struct sink *o, unsigned long n)
{
	struct spec sp = { .prec = -1, .base = 10 };

	put_number(o, &sp, n, false);
}

/* "0-3,7": runs of set bits become ranges, as Linux's %*pbl prints them. */
static void put_bitmap_list(struct sink *o, const unsigned long *map, unsigned nbits)
{
	unsigned long start, end;
	bool first = true;

	for (start = find_first_bit(map, nbits); start < nbits;
	     start = find_next_bit(map, nbits, end)) {
		end = find_next_zero_bit(map, nbits, start + 1);
		if (!first)
			put(o, ',');
		first = false;
		put_dec(o, start);
		if (end - 1 > start) {
			put(o, '-');
			put_dec(o, end - 1);
		}
	}
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * %p and its extensions; fmt points just after the 'p'. Like Linux, all
 * alphanumerics after %p belong to the conversion. Returns the new fmt.
 */
static const char *put_pointer(struct sink *o, const struct spec *sp,
			       const char *fmt, void *ptr)
{
	char tmp[128];
	int n;

	if (fmt[0] == 'S' || fmt[0] == 's') {
		if (symbol_lookup)
			n = symbol_lookup(tmp, sizeof(tmp), (unsigned long)ptr, fmt[0] == 'S');
		else
			n = scnprintf(tmp, sizeof(tmp), "0x%lx", (unsigned long)ptr);
		n = clamp(n, 0, (int)sizeof(tmp) - 1);	/* a bad lookup must not overrun tmp */
		if (sp->prec >= 0 && n > sp->prec)
			n = sp->prec;
		put_field(o, sp, tmp, n);
	} else if (fmt[0] == 'b' && fmt[1] == 'l') {
		put_bitmap_list(o, ptr, sp->width);
	} else {
		/* Always all 16 digits, so addresses line up in dumps. */
		unsigned long v = (unsigned long)ptr;
		int i;

		tmp[0] = '0';
		tmp[1] = 'x';
		for (i = 0; i < 16; i++)
			tmp[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xf];
		put_field(o, sp, tmp, 18);
	}
	while (is_alnum(*fmt))
		fmt++;
	return fmt;
}

static long long get_signed(va_list *ap, int len)
{
	switch (len) {
	case L_HH: return (signed char)va_arg(*ap, int);
	case L_H:  return (short)va_arg(*ap, int);
	case L_L:  return va_arg(*ap, long);
	case L_LL: return va_arg(*ap, long long);
	case L_Z:  return va_arg(*ap, ssize_t);
	case L_T:  return va_arg(*ap, ptrdiff_t);
	case L_J:  return va_arg(*ap, intmax_t);
	default:   return va_arg(*ap, int);
	}
}

static unsigned long long get_unsigned(va_list *ap, int len)
{
	switch (len) {
	case L_HH: return (unsigned char)va_arg(*ap, unsigned int);
	case L_H:  return (unsigned short)va_arg(*ap, unsigned int);
	case L_L:  return va_arg(*ap, unsigned long);
	case L_LL: return va_arg(*ap, unsigned long long);
	case L_Z:  return va_arg(*ap, size_t);
	case L_T:  return (unsigned long)va_arg(*ap, ptrdiff_t);
	case L_J:  return va_arg(*ap, uintmax_t);
	default:   return va_arg(*ap, unsigned int);
	}
}

static int get_num(const char **fmt, int cap)
{
	int n = 0;

	for (; **fmt >= '0' && **fmt <= '9'; (*fmt)++) {
		if (n <= cap)
			n = n * 10 + (**fmt - '0');
	}
	return n > cap ? cap : n;
}

/* Parse flags, width, precision and length of one conversion after '%'. */
static const char *parse_spec(const char *fmt, struct spec *sp, va_list *ap)
{
	int w;

	*sp = (struct spec){ .prec = -1, .base = 10 };
	for (;; fmt++) {
		switch (*fmt) {
		case '-': sp->flags |= F_LEFT; continue;
		case '+': sp->flags |= F_PLUS; continue;
		case ' ': sp->flags |= F_SPACE; continue;
		case '#': sp->flags |= F_ALT; continue;
		case '0': sp->flags |= F_ZERO; continue;
		}
		break;
	}
	if (*fmt == '*') {
		fmt++;
		w = va_arg(*ap, int);
		if (w < 0) {
			/* A negative '*' width means '-' plus its magnitude. */
			sp->flags |= F_LEFT;
			w = w < -FIELD_WIDTH_MAX ? FIELD_WIDTH_MAX : -w;
		}
		sp->width = w > FIELD_WIDTH_MAX ? FIELD_WIDTH_MAX : w;
	} else {
		sp->width = get_num(&fmt, FIELD_WIDTH_MAX);
	}
	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			fmt++;
			w = va_arg(*ap, int);
			sp->prec = w < 0 ? -1 : w > PRECISION_MAX ? PRECISION_MAX : w;
		} else {
			sp->prec = get_num(&fmt, PRECISION_MAX);
		}
	}
	switch (*fmt) {
	case 'h':
		fmt++;
		sp->len = L_H;
		if (*fmt == 'h') {
			fmt++;
			sp->len = L_HH;
		}
		break;
	case 'l':
		fmt++;
		sp->len = L_L;
		if (*fmt == 'l') {
			fmt++;
			sp->len = L_LL;
		}
		break;
	case 'z': fmt++; sp->len = L_Z; break;
	case 't': fmt++; sp->len = L_T; break;
	case 'j': fmt++; sp->len = L_J; break;
	}
	return fmt;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct sink o = { buf, size, 0 };
	struct spec sp;
	const char *s;
	long long v;
	va_list ap;
	char c;

	va_copy(ap, args);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &ap);
		switch (*fmt) {
		case 'd':
		case 'i':
			v = get_signed(&ap, sp.len);
			sp.flags |= F_SIGNED;
			put_number(&o, &sp, v < 0 ? -(unsigned long long)v : (unsigned long long)v, v < 0);
			break;
		case 'X':
			sp.flags |= F_UPPER;
			/* fall through */
		case 'x':
		case 'o':
		case 'u':
			sp.base = *fmt == 'o' ? 8 : *fmt == 'u' ? 10 : 16;
			put_number(&o, &sp, get_unsigned(&ap, sp.len), false);
			break;
		case 'c':
			c = (char)va_arg(ap, int);
			put_field(&o, &sp, &c, 1);
			break;
		case 's':
			s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			put_field(&o, &sp, s, sp.prec >= 0 ? strnlen(s, sp.prec) : strlen(s));
			break;
		case 'p':
			fmt = put_pointer(&o, &sp, fmt + 1, va_arg(ap, void *));
			continue;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			/* A lone '%' ends the format: print it and stop. */
			put(&o, '%');
			continue;
		default:
			/* Unknown conversion (%n included): print it verbatim. */
			put(&o, '%');
			put(&o, *fmt);
			break;
		}
		fmt++;
	}
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > INT32_MAX ? INT32_MAX : (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int n = vsnprintf(buf, size, fmt, args);

	if (!size)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, INT32_MAX, fmt, ap);
	va_end(ap);
	return n;
}
