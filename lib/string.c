/*
 * Freestanding memory/string functions; gcc itself emits calls to memcpy,
 * memset, memmove and memcmp, so these names must exist. Host: strscpy only.
 */
#include <kernel/string.h>
#include <kernel/errno.h>

#ifndef __HOST_TEST__
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#ifdef CONFIG_KASAN
/* KASAN's checked memcpy()/memset()/memmove() (mm/kasan/shadow.c) call these. */
#define memcpy	__memcpy
#define memmove	__memmove
#define memset	__memset
#endif

/*
 * gcc recognises byte loops as memcpy/memset idioms and would turn the
 * bodies below into calls to themselves; forbid that here in case the
 * Makefile does not pass -fno-tree-loop-distribute-patterns.
 */
#define __no_idiom	__attribute__((optimize("no-tree-loop-distribute-patterns")))

/* Word accesses alias whatever the caller's buffer really holds. */
typedef unsigned long __attribute__((may_alias)) word_t;
#define WSIZE	sizeof(word_t)

static inline bool both_aligned(const void *a, const void *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & (WSIZE - 1)) == 0;
}

__no_idiom void *memcpy(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;

	if (both_aligned(d, s)) {
		for (; n >= WSIZE; n -= WSIZE, d += WSIZE, s += WSIZE)
			*(word_t *)d = *(const word_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

__no_idiom void *memmove(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;

	if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n)
		return memcpy(dst, src, n);	/* forward copy is safe */

	/* dst overlaps the tail of src: copy backwards. */
	d += n;
	s += n;
	if (both_aligned(d, s)) {
		for (; n >= WSIZE; n -= WSIZE) {
			d -= WSIZE;
			s -= WSIZE;
			*(word_t *)d = *(const word_t *)s;
		}
	}
	while (n--)
		*--d = *--s;
	return dst;
}

__no_idiom void *memset(void *p, int c, size_t n)
{
	unsigned char *d = p;
	word_t pattern = (unsigned char)c * 0x0101010101010101UL;

	while (n && ((uintptr_t)d & (WSIZE - 1))) {
		*d++ = (unsigned char)c;
		n--;
	}
	for (; n >= WSIZE; n -= WSIZE, d += WSIZE)
		*(word_t *)d = pattern;
	while (n--)
		*d++ = (unsigned char)c;
	return p;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
	}
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t maxlen)
{
	size_t n = 0;

	while (n < maxlen && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;

	while (*x && *x == *y)
		x++, y++;
	return *x - *y;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
		if (!*x)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++) {
		if (!strncmp(haystack, needle, n))
			return (char *)haystack;
	}
	return n ? NULL : (char *)haystack;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}
#endif /* !__HOST_TEST__ */

ssize_t strscpy(char *dst, const char *src, size_t count)
{
	size_t i;

	if (count == 0)
		return -E2BIG;
	for (i = 0; i < count; i++) {
		dst[i] = src[i];
		if (!src[i])
			return i;
	}
	dst[count - 1] = '\0';
	return -E2BIG;
}
