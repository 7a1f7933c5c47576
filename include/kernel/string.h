/*
 * Memory and string functions. The kernel gets its own copies from
 * lib/string.c; host test builds use libc and only add strscpy.
 */
#ifndef _KERNEL_STRING_H
#define _KERNEL_STRING_H

#include <kernel/types.h>

#ifdef __HOST_TEST__
#include <string.h>
#else
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);

/*
 * -ffreestanding turns off gcc's knowledge of these, so even a fixed-size
 * 8-byte copy would become a call. The builtins let gcc inline small
 * constant sizes and still call the functions above otherwise.
 */
#if defined(CONFIG_KASAN) && !defined(__SANITIZE_ADDRESS__)
/*
 * KASAN: memcpy(), memset() and memmove() check their ranges
 * (mm/kasan/shadow.c). Code built without instrumentation (the runtime,
 * the allocators, which touch redzones and free memory by design) calls
 * lib/string.c's unchecked copies instead, as Linux's x86 string header
 * does.
 */
#define memcpy(d, s, n)		__memcpy(d, s, n)
#define memmove(d, s, n)	__memmove(d, s, n)
#define memset(p, c, n)		__memset(p, c, n)
#else
#define memcpy(d, s, n)		__builtin_memcpy(d, s, n)
#define memmove(d, s, n)	__builtin_memmove(d, s, n)
#define memset(p, c, n)		__builtin_memset(p, c, n)
#endif
#define memcmp(a, b, n)		__builtin_memcmp(a, b, n)
#ifdef CONFIG_KASAN
void *__memcpy(void *dst, const void *src, size_t n);
void *__memmove(void *dst, const void *src, size_t n);
void *__memset(void *s, int c, size_t n);
#endif
#endif

/*
 * Copy the C string src into dst of size count, always NUL-terminating
 * when count > 0. Returns the length copied, or -E2BIG if src did not fit
 * (dst then holds the truncated prefix).
 */
ssize_t strscpy(char *dst, const char *src, size_t count);

#endif
