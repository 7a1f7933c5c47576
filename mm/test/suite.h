/* mm's KTAP suites ("slab", "percpu", "page_pcp") share one switch, mm.selftest=1 (defined in slab.c). */
#ifndef MM_TEST_SUITE_H
#define MM_TEST_SUITE_H

#include <kernel/types.h>

extern bool mm_selftest;

#endif
