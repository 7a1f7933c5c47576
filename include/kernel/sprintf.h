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

/*
 * %pS/%ps: lib/ knows no symbol table, so whoever has one installs its
 * lookup here (the kernel's kallsyms_init(), first thing at boot; host
 * tests a stub). It writes "func+0x1a/0x40" (with_offset) or "func" like
 * scnprintf. Without one, %pS prints the address as 0x-prefixed hex.
 */
typedef int (*vsprintf_symbol_fn)(char *buf, size_t size, unsigned long addr, bool with_offset);
void vsprintf_set_symbol_lookup(vsprintf_symbol_fn fn);

#endif
