/*
 * Strict string-to-integer conversion with Linux's kstrto* semantics, used
 * for boot parameters: the whole string must be a number.
 */
#ifndef _KERNEL_KSTRTOX_H
#define _KERNEL_KSTRTOX_H

#include <kernel/types.h>

/*
 * base 0 picks 16 for "0x"/"0X", 8 for a leading "0", else 10; base 16
 * also accepts a "0x" prefix. One leading '+' is allowed (and '-' for the
 * signed kinds), then digits, then at most one '\n'. Returns 0, -EINVAL
 * for an empty or malformed string, -ERANGE if the value does not fit.
 * *res is written only on success.
 */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);

/*
 * Linux decides on the first character: y/Y/t/T/e/E/1 true, n/N/f/F/d/D/0
 * false, "on"/"off" (any case) by the second. Otherwise -EINVAL.
 */
int kstrtobool(const char *s, bool *res);

/*
 * Building block for parsers that continue after a number: read digits
 * of base (2..16, no prefix, no sign) from s. Returns how many characters
 * were digits; *overflow tells whether the value exceeded 64 bits.
 */
size_t parse_integer(const char *s, unsigned int base, unsigned long long *res, bool *overflow);

/* Lenient, like Linux's simple_strtoull: no error reporting, base 0 autodetects. */
unsigned long long simple_strtoull(const char *s, char **endp, unsigned int base);

#endif
