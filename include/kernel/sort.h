/*
 * Sorting samples in place: one routine for every benchmark that reads
 * medians and percentiles off its measurements (lib/sort.c).
 */
#ifndef _KERNEL_SORT_H
#define _KERNEL_SORT_H

#include <kernel/types.h>

/* Sort n values ascending, in place (heapsort: no recursion, no allocation). */
void sort_u64(u64 *a, size_t n);

#endif
