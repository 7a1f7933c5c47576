/*
 * The stall provokers' busy-wait (stall.c, exp_stall.c):
 * spin for a number of seconds without sleeping, whatever the caller's
 * interrupt state.
 *
 * Counted in jiffies, which the other CPUs' ticks keep moving (with this
 * CPU's interrupts off, its jiffies duty passes to them after a few ticks,
 * kernel/time/tick.c), not with mdelay(): under multi-threaded TCG on a
 * loaded host an 8-s mdelay() spin with interrupts off was seen to last
 * 12 to 29 s by the other vCPUs' clocks, so the test overran its power-off
 * and missed its own "interrupts on again" line. A uniprocessor has no
 * other tick to move jiffies: there it spins on the clock.
 */
#ifndef _RCU_TEST_STALL_SPIN_H
#define _RCU_TEST_STALL_SPIN_H

#include <time/time.h>
#include <kernel/cpumask.h>
#include <kernel/barrier.h>

static inline void rcu_test_stall_spin(unsigned int secs)
{
	unsigned long end = jiffies + secs * HZ;

	if (num_online_cpus() < 2) {
		for (unsigned int i = 0; i < secs * 10; i++)
			mdelay(100);
		return;
	}
	while (time_before(READ_ONCE(jiffies), end))
		cpu_relax();
}

#endif
