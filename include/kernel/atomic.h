/*
 * atomic_t / atomic_long_t / atomic64_t on gcc's __atomic builtins. Value-
 * returning RMW operations are fully ordered (as in Linux); atomic_read/
 * atomic_set/atomic_inc/atomic_add without return order nothing.
 */
#ifndef _KERNEL_ATOMIC_H
#define _KERNEL_ATOMIC_H

#include <kernel/compiler.h>
#include <kernel/barrier.h>
#include <kernel/cmpxchg.h>

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
typedef struct { s64 counter; } atomic64_t;

#define ATOMIC_INIT(i)	{ (i) }

#define __ATOMIC_OPS(pfx, type, T)						\
static inline T pfx##_read(const type *v) { return READ_ONCE(v->counter); }	\
static inline void pfx##_set(type *v, T i) { WRITE_ONCE(v->counter, i); }	\
static inline void pfx##_add(T i, type *v)					\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_sub(T i, type *v)					\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_inc(type *v) { pfx##_add(1, v); }			\
static inline void pfx##_dec(type *v) { pfx##_sub(1, v); }			\
static inline T pfx##_add_return(T i, type *v)					\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline T pfx##_sub_return(T i, type *v)					\
{ return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline T pfx##_fetch_add(T i, type *v)					\
{ return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline T pfx##_inc_return(type *v) { return pfx##_add_return(1, v); }	\
static inline T pfx##_dec_return(type *v) { return pfx##_sub_return(1, v); }	\
static inline bool pfx##_dec_and_test(type *v) { return pfx##_sub_return(1, v) == 0; } \
static inline T pfx##_xchg(type *v, T i) { return xchg(&v->counter, i); }	\
static inline T pfx##_cmpxchg(type *v, T o, T n) { return cmpxchg(&v->counter, o, n); } \
static inline void pfx##_or(T i, type *v)					\
{ __atomic_fetch_or(&v->counter, i, __ATOMIC_SEQ_CST); }			\
static inline void pfx##_andnot(T i, type *v)					\
{ __atomic_fetch_and(&v->counter, ~i, __ATOMIC_SEQ_CST); }

__ATOMIC_OPS(atomic, atomic_t, int)
__ATOMIC_OPS(atomic_long, atomic_long_t, long)
__ATOMIC_OPS(atomic64, atomic64_t, s64)

/* Atomic bit operations on unsigned long bitmaps (fully ordered). */
static inline void set_bit(unsigned nr, volatile unsigned long *addr)
{ __atomic_fetch_or(&addr[nr / 64], 1UL << (nr % 64), __ATOMIC_SEQ_CST); }
static inline void clear_bit(unsigned nr, volatile unsigned long *addr)
{ __atomic_fetch_and(&addr[nr / 64], ~(1UL << (nr % 64)), __ATOMIC_SEQ_CST); }
static inline bool test_and_set_bit(unsigned nr, volatile unsigned long *addr)
{ return __atomic_fetch_or(&addr[nr / 64], 1UL << (nr % 64), __ATOMIC_SEQ_CST) & (1UL << (nr % 64)); }
static inline bool test_and_clear_bit(unsigned nr, volatile unsigned long *addr)
{ return __atomic_fetch_and(&addr[nr / 64], ~(1UL << (nr % 64)), __ATOMIC_SEQ_CST) & (1UL << (nr % 64)); }

#endif
