/*
 * How the torture tests' sub-jiffy sleeps (torture_hrtimeout_*(), in
 * kernel/torture.c) are made from jiffy timeouts; pure, so the host tests
 * check it too (tests/host/test_torture_sleep.c).
 *
 * Linux's torture_hrtimeout_ns() sleeps on a high-resolution timer. Ours
 * end on jiffy boundaries only. A timeout of k >= 1 jiffies taken now ends
 * first_ns + (k - 1) * tick_ns from now (first_ns: the time to the next
 * boundary), so a wanted sleep lies between two boundaries. Rounding up
 * would not do: with Linux's random fuzz of up to a jiffy, sleeps would
 * last half a jiffy too long on average. (The emulation this replaces,
 * j + 1 jiffies for Linux's j plus fuzz, did that: a kthread woken by a
 * timer runs just after a boundary, so first_ns is nearly a whole jiffy;
 * rcutorture's writer, which sleeps 500 us between updates in Linux,
 * slept 0.75-1.25 ms in 75% of its passes.)
 * Instead take the later boundary with probability equal to how far the
 * wanted end lies past the earlier one, as a fraction of the gap: each
 * sleep then ends at one of the two boundaries around the wanted end,
 * and the mean sleep is the wanted one. Before the first boundary the
 * earlier "boundary" is now: no sleep at all.
 */
#ifndef _KERNEL_TORTURE_SLEEP_H
#define _KERNEL_TORTURE_SLEEP_H

#include <kernel/types.h>

/*
 * The jiffies to sleep (0: do not sleep) for a sleep of want_ns, given
 * first_ns > 0 (at most tick_ns, plus the skew_tick offset of the CPU
 * whose tick runs the timer) and r, uniform over all u32 values.
 */
static inline unsigned long torture_sleep_ticks(u64 want_ns, u64 first_ns, u64 tick_ns, u32 r)
{
	u64 past, gap, k;

	if (want_ns < first_ns) {
		k = 0;
		past = want_ns;
		gap = first_ns;
	} else {
		k = 1 + (want_ns - first_ns) / tick_ns;
		past = (want_ns - first_ns) % tick_ns;
		gap = tick_ns;
	}
	if ((((u64)r * gap) >> 32) < past)	/* probability past / gap */
		k++;
	return (unsigned long)k;
}

#endif
