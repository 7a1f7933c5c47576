/*
 * Formatted output into buffers: the printf family with Linux's %p
 * extensions (%pS/%ps symbols, %*pbl bitmaps as CPU lists).
 */
#ifndef _KERNEL_SPRINTF_H
#define _KERNEL_SPRINTF_H

#include <kernel/compiler.h>

#ifdef __HOST_TEST__
/* Host tests link libc too; keep its printf family reachable for comparison. */
#define vsnprintf	kvsnprintf
#define snprintf	ksnprintf
#define sprintf		ksprintf
#endif

/* C99 semantics: return the length the full output would have had. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);
/* Return the number of characters actually stored, excluding the NUL. */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args);
__printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...);
/* Unbounded: only for buffers sized by construction. */
__printf(2, 3) int sprintf(char *buf, const char *fmt, ...);

#endif
