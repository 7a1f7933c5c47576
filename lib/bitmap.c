/*
 * Bitmap operations and bit searches; their text form ("0-3,7") is
 * bitmap_str.c's, so that vsprintf's %*pbl, which uses the searches, and
 * the list printer, which uses vsprintf, do not call each other's files.
 * Pure C: also built into the host tests and the command-line fuzzer.
 */
#include <kernel/bitmap.h>
#include <kernel/string.h>

/* Number of words, and the mask of valid bits in the last one. */
#define NWORDS(nbits)	BITS_TO_LONGS(nbits)
#define LAST_MASK(nbits)	BITMAP_LAST_WORD_MASK(nbits)

void bitmap_zero(unsigned long *dst, unsigned nbits)
{
	memset(dst, 0, NWORDS(nbits) * sizeof(long));
}

void bitmap_fill(unsigned long *dst, unsigned nbits)
{
	unsigned n = NWORDS(nbits);

	if (!n)
		return;
	memset(dst, 0xff, (n - 1) * sizeof(long));
	dst[n - 1] = LAST_MASK(nbits);
}

void bitmap_copy(unsigned long *dst, const unsigned long *src, unsigned nbits)
{
	memcpy(dst, src, NWORDS(nbits) * sizeof(long));
}

bool bitmap_and(unsigned long *dst, const unsigned long *a, const unsigned long *b, unsigned nbits)
{
	unsigned i, n = NWORDS(nbits);
	unsigned long any = 0;

	for (i = 0; i < n; i++) {
		dst[i] = a[i] & b[i];
		any |= i == n - 1 ? dst[i] & LAST_MASK(nbits) : dst[i];
	}
	return any != 0;
}

void bitmap_or(unsigned long *dst, const unsigned long *a, const unsigned long *b, unsigned nbits)
{
	unsigned i;

	for (i = 0; i < NWORDS(nbits); i++)
		dst[i] = a[i] | b[i];
}

bool bitmap_andnot(unsigned long *dst, const unsigned long *a, const unsigned long *b, unsigned nbits)
{
	unsigned i, n = NWORDS(nbits);
	unsigned long any = 0;

	for (i = 0; i < n; i++) {
		dst[i] = a[i] & ~b[i];
		any |= i == n - 1 ? dst[i] & LAST_MASK(nbits) : dst[i];
	}
	return any != 0;
}

bool bitmap_empty(const unsigned long *src, unsigned nbits)
{
	return find_first_bit(src, nbits) >= nbits;
}

bool bitmap_full(const unsigned long *src, unsigned nbits)
{
	return find_first_zero_bit(src, nbits) >= nbits;
}

bool bitmap_equal(const unsigned long *a, const unsigned long *b, unsigned nbits)
{
	unsigned i, n = NWORDS(nbits);

	for (i = 0; i + 1 < n; i++) {
		if (a[i] != b[i])
			return false;
	}
	return !n || !((a[n - 1] ^ b[n - 1]) & LAST_MASK(nbits));
}

/* Population count without __builtin_popcount, which needs libgcc here. */
static unsigned hweight_long(unsigned long w)
{
	w = w - ((w >> 1) & 0x5555555555555555UL);
	w = (w & 0x3333333333333333UL) + ((w >> 2) & 0x3333333333333333UL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (w * 0x0101010101010101UL) >> 56;
}

/*
 * The searches and counts (find_next(), bitmap_weight(), and so
 * bitmap_empty(), cpumask_first(), for_each_cpu(), num_online_cpus()) run
 * locklessly on masks that other CPUs change with set_bit()/clear_bit():
 * cpu_online_mask, the scheduler's overloaded and idle masks. Each word is
 * loaded once with READ_ONCE(), so the answer is that of some mix of each
 * word's old or new value, never of a torn or re-read word; callers that
 * need an exact answer hold the lock the writers hold. (KCSAN reported the
 * plain loads against __dequeue_task()'s clear_bit().)
 */
unsigned bitmap_weight(const unsigned long *src, unsigned nbits)
{
	unsigned i, n = NWORDS(nbits), w = 0;

	for (i = 0; i < n; i++) {
		unsigned long word = READ_ONCE(src[i]);

		w += hweight_long(i == n - 1 ? word & LAST_MASK(nbits) : word);
	}
	return w;
}

void bitmap_set(unsigned long *map, unsigned start, unsigned len)
{
	for (; len; start++, len--)
		__set_bit(start, map);
}

void bitmap_clear(unsigned long *map, unsigned start, unsigned len)
{
	for (; len; start++, len--)
		__clear_bit(start, map);
}

/* invert = ~0UL turns the search for a set bit into one for a clear bit. */
static unsigned long find_next(const unsigned long *addr, unsigned long size,
			       unsigned long offset, unsigned long invert)
{
	unsigned long w;

	if (offset >= size)
		return size;
	/* READ_ONCE: a lockless search (see bitmap_weight()). */
	w = (READ_ONCE(addr[BIT_WORD(offset)]) ^ invert) & (~0UL << (offset % BITS_PER_LONG));
	offset -= offset % BITS_PER_LONG;
	while (!w) {
		offset += BITS_PER_LONG;
		if (offset >= size)
			return size;
		w = READ_ONCE(addr[BIT_WORD(offset)]) ^ invert;
	}
	offset += __builtin_ctzl(w);	/* a single bsf/tzcnt, no libgcc */
	return offset < size ? offset : size;
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	return find_next(addr, size, offset, 0);
}

unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	return find_next(addr, size, offset, ~0UL);
}
