/*
 * Sorted lists of physical ranges, for turning the boot memory map into
 * the set of pages the allocator may use: normalize the RAM entries, then
 * cut out everything that must not be handed out. Pure logic.
 */
#include "internal.h"

static u64 align_up(u64 x, u64 align)
{
	u64 r = (x + align - 1) & ~(align - 1);

	return r < x ? ~(align - 1) : r;	/* saturate instead of wrapping */
}

static u64 align_down(u64 x, u64 align)
{
	return x & ~(align - 1);
}

unsigned int memrange_normalize(struct mem_range *r, unsigned int n, u64 align)
{
	unsigned int i, j, out;

	/* Align inward and drop what becomes empty. */
	for (i = 0, out = 0; i < n; i++) {
		u64 start = align_up(r[i].start, align), end = align_down(r[i].end, align);

		if (start < end)
			r[out++] = (struct mem_range){ start, end };
	}
	n = out;
	/* Insertion sort by start: the maps are short and nearly sorted. */
	for (i = 1; i < n; i++) {
		struct mem_range key = r[i];

		for (j = i; j > 0 && r[j - 1].start > key.start; j--)
			r[j] = r[j - 1];
		r[j] = key;
	}
	/* Merge overlapping or touching neighbours. */
	for (i = 0, out = 0; i < n; i++) {
		if (out && r[i].start <= r[out - 1].end) {
			if (r[i].end > r[out - 1].end)
				r[out - 1].end = r[i].end;
		} else {
			r[out++] = r[i];
		}
	}
	return out;
}

unsigned int memrange_subtract(struct mem_range *r, unsigned int n, unsigned int cap,
			       u64 start, u64 end, u64 align, u64 *lost)
{
	unsigned int i, j;

	start = align_down(start, align);
	end = align_up(end, align);
	if (start >= end)
		return n;
	for (i = 0; i < n; i++) {
		struct mem_range *m = &r[i];

		if (m->end <= start || m->start >= end)
			continue;
		if (m->start >= start && m->end <= end) {
			/* Entirely covered: remove it. */
			for (j = i; j + 1 < n; j++)
				r[j] = r[j + 1];
			n--;
			i--;
		} else if (m->start < start && m->end > end) {
			/* The hole is inside: split, the upper piece goes after m. */
			struct mem_range upper = { end, m->end };

			m->end = start;
			if (n == cap) {
				*lost += upper.end - upper.start;
				return n;
			}
			for (j = n; j > i + 1; j--)
				r[j] = r[j - 1];
			r[i + 1] = upper;
			return n + 1;	/* ranges are disjoint: nothing else overlaps */
		} else if (m->start < start) {
			m->end = start;
		} else {
			m->start = end;
		}
	}
	return n;
}

u64 memrange_total(const struct mem_range *r, unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += r[i].end - r[i].start;
	return sum;
}
