/*
 * Bitmaps as arrays of unsigned long (CPU masks, ID allocators), and their
 * CPU-list text form "0-3,7" used by boot parameters and %*pbl.
 */
#ifndef _KERNEL_BITMAP_H
#define _KERNEL_BITMAP_H

#include <kernel/compiler.h>

#define BITS_PER_LONG		64
#define BITS_TO_LONGS(n)	DIV_ROUND_UP(n, BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
/* The valid bits of the last word of an nbits-bit map (all of it if nbits % 64 == 0). */
#define BITMAP_LAST_WORD_MASK(nbits)	(~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

/* Non-atomic: the caller owns the word (atomic set_bit is in atomic.h). */
static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}

/*
 * Whole-map operations. Bits at and above nbits in the last word are
 * ignored by the queries; zero/fill/copy/and/or/andnot write whole words.
 */
void bitmap_zero(unsigned long *dst, unsigned nbits);
void bitmap_fill(unsigned long *dst, unsigned nbits);
void bitmap_copy(unsigned long *dst, const unsigned long *src, unsigned nbits);
/* bitmap_and/andnot return whether the result has any bit set. */
bool bitmap_and(unsigned long *dst, const unsigned long *a, const unsigned long *b, unsigned nbits);
void bitmap_or(unsigned long *dst, const unsigned long *a, const unsigned long *b, unsigned nbits);
bool bitmap_andnot(unsigned long *dst, const unsigned long *a, const unsigned long *b, unsigned nbits);
bool bitmap_empty(const unsigned long *src, unsigned nbits);
bool bitmap_full(const unsigned long *src, unsigned nbits);
bool bitmap_equal(const unsigned long *a, const unsigned long *b, unsigned nbits);
unsigned bitmap_weight(const unsigned long *src, unsigned nbits);
/* Set or clear bits [start, start + len). */
void bitmap_set(unsigned long *map, unsigned start, unsigned len);
void bitmap_clear(unsigned long *map, unsigned start, unsigned len);

/* Index of the next set (clear) bit at or after offset, or size if none. */
unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size, unsigned long offset);

static inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

static inline unsigned long find_first_zero_bit(const unsigned long *addr, unsigned long size)
{
	return find_next_zero_bit(addr, size, 0);
}

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size);	\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))
#define for_each_clear_bit(bit, addr, size)				\
	for ((bit) = find_first_zero_bit((addr), (size)); (bit) < (size); \
	     (bit) = find_next_zero_bit((addr), (size), (bit) + 1))

/*
 * Parse a CPU list into maskp (nbits bits): "1-3,7", "0-7:2/4" (in each
 * group of 4 use the first 2), "all", "none" or "", and "N" for bit
 * nbits-1. Returns 0, -EINVAL on bad syntax, or -ERANGE for a bit
 * >= nbits. Touches only the BITS_TO_LONGS(nbits) words of maskp and
 * never sets a bit >= nbits; on error maskp holds a partial result.
 */
int bitmap_parselist(const char *buf, unsigned long *maskp, unsigned nbits);
/* Print as "0-3,7" ("" if empty); returns the length stored, like scnprintf. */
int bitmap_print_list(char *buf, size_t size, const unsigned long *maskp, unsigned nbits);

#endif
