/*
 * Basic fixed-width types. Only compiler-provided freestanding headers are
 * used, so this header (and everything in lib/ built on it) also compiles
 * for the host, where the unit tests and fuzzers run.
 */
#ifndef _KERNEL_TYPES_H
#define _KERNEL_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as in Linux: printed with %llu/%llx */
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;

#ifndef __HOST_TEST__
typedef long ssize_t;
#else
#include <sys/types.h>
#endif
typedef u64 phys_addr_t;

#endif
