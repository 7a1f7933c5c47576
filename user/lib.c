/* The user programs' C library: program entry, strlen, a small printf. */
#include "ulib.h"
#include <stdarg.h>

/*
 * Entry from the kernel: RDI holds the program's argument (user.run=PROG:ARG),
 * RSI and RDX its user.run= slot and user.respawn= life; main's return is the
 * exit status.
 */
long user_slot, user_life;
__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	movq %rsi, user_slot(%rip)\n"
	"	movq %rdx, user_life(%rip)\n"
	"	xorl %ebp, %ebp\n"
	"	andq $-16, %rsp\n"
	"	call main\n"
	"	movl %eax, %edi\n"
	"	call exit_from_main\n"
	"	ud2\n");

void exit_from_main(int code);
void exit_from_main(int code)
{
	exit(code);
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

struct out {
	char buf[256];
	size_t n;
};

static void put(struct out *o, char c)
{
	if (o->n == sizeof(o->buf)) {
		write(1, o->buf, o->n);
		o->n = 0;
	}
	o->buf[o->n++] = c;
}

static void put_num(struct out *o, unsigned long v, unsigned int base, int neg)
{
	char tmp[24];
	int i = 0;

	if (neg)
		put(o, '-');
	do {
		tmp[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (i)
		put(o, tmp[--i]);
}

int printf(const char *fmt, ...)
{
	struct out o = { .n = 0 };
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		int is_long = 0;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		if (*++fmt == 'l') {
			is_long = 1;
			fmt++;
		}
		switch (*fmt) {
		case 'd': {
			long v = is_long ? va_arg(ap, long) : va_arg(ap, int);
			put_num(&o, v < 0 ? -(unsigned long)v : (unsigned long)v, 10, v < 0);
			break;
		}
		case 'u':
			put_num(&o, is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int), 10, 0);
			break;
		case 'x':
			put_num(&o, is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int), 16, 0);
			break;
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_num(&o, (unsigned long)va_arg(ap, void *), 16, 0);
			break;
		case 's':
			for (const char *s = va_arg(ap, const char *); *s; s++)
				put(&o, *s);
			break;
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		default:
			put(&o, *fmt);
			break;
		}
	}
	va_end(ap);
	if (o.n)
		write(1, o.buf, o.n);
	return (int)o.n;
}
