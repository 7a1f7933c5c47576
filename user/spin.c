/*
 * Spins in user mode for ARG seconds (default 5) without system calls,
 * timed with RDTSC once the TSC rate is measured against clock_gettime(),
 * then reports on which CPU it ran and exits 0. RCU must not need this CPU
 * meanwhile: user mode is an extended quiescent state.
 */
#include "ulib.h"

static inline unsigned long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long)hi << 32) | lo;
}

int main(long arg)
{
	long secs = arg > 0 ? arg : 5, t0, t1;
	unsigned long c0, c1, per_ms, end, loops = 0;
	unsigned int cpu = 0;

	/* Measure the TSC over ~20 ms of wall-clock time (system calls here only). */
	t0 = now_ns();
	c0 = rdtsc();
	do
		t1 = now_ns();
	while (t1 - t0 < 20 * 1000 * 1000);
	c1 = rdtsc();
	per_ms = (c1 - c0) / ((t1 - t0) / 1000000);
	getcpu(&cpu, 0);
	printf("spin: pid %d spinning in user mode on CPU %u for %ld s\n", getpid(), cpu, secs);
	end = rdtsc() + per_ms * 1000 * secs;
	while (rdtsc() < end)
		loops++;
	getcpu(&cpu, 0);
	printf("spin: pid %d done on CPU %u after %ld ms, %lu loops\n", getpid(), cpu,
	       (now_ns() - t0) / 1000000, loops);
	return 0;
}
