/*
 * Per-CPU area layout: the KTAP suite "percpu", run at boot with
 * mm.selftest=1 beside "slab". Consecutive CPUs' copies must lie an odd
 * number of pages apart, so that a scan reading one variable of every CPU
 * (RCU's FQS and expedited scans of rcu_data) touches pages that fall into
 * distinct slots of a page-indexed direct-mapped table (QEMU's soft TLB,
 * cache sets); mm/percpu.c says why. The old layout, one power-of-two block
 * per CPU, put them 4 pages apart, and every 64th CPU in the same slot.
 */
#include "../internal.h"
#include "suite.h"
#include <mm/mm.h>
#include <kernel/ktap.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>

static void percpu_units_odd_stride(void)
{
	unsigned long least = 0;
	unsigned int cpu, prev = 0, pairs = 0;
	bool first = true;

	/*
	 * The smallest distance between consecutive CPUs' copies is the unit:
	 * the first CPU of a new block may lie anywhere from the last one.
	 */
	for_each_possible_cpu(cpu) {
		if (!first) {
			unsigned long a = __per_cpu_offset[prev], b = __per_cpu_offset[cpu];
			unsigned long d = a > b ? a - b : b - a;

			if (!pairs++ || d < least)
				least = d;
		}
		first = false;
		prev = cpu;
	}
	if (!pairs) {
		ktap_skip("one possible CPU");
		return;
	}
	KTAP_EXPECT_MSG(least % PAGE_SIZE == 0 && ((least / PAGE_SIZE) & 1),
			"consecutive CPUs' per-CPU copies %lu bytes (%lu pages) apart: not an odd number of pages",
			least, least / PAGE_SIZE);
	ktap_diag("%u possible CPUs, copies %lu pages apart", pairs + 1, least / PAGE_SIZE);
}

static const struct ktap_case percpu_cases[] = {
	KTAP_CASE(percpu_units_odd_stride),
};
KTAP_SUITE(percpu, percpu_cases, &mm_selftest);
