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

/*
 * One clock reading with the TSC value of its moment: the reading is
 * bracketed by two TSC reads, and the narrowest of five brackets is kept.
 * A bracket that an interrupt, a preemption or a host stall of the vCPU
 * fell into is wide and loses. (A single "clock, then TSC" pair once took
 * a 30-ms stall into the TSC side only: the rate came out 2.5x too high
 * and a 13-s spin ran past the test's bound.)
 */
static void clock_and_tsc(long *ns, unsigned long *tsc)
{
	unsigned long best = ~0UL;

	for (int i = 0; i < 5; i++) {
		unsigned long a = rdtsc();
		long t = now_ns();
		unsigned long b = rdtsc();

		if (b - a < best) {
			best = b - a;
			*ns = t;
			*tsc = a + (b - a) / 2;
		}
	}
}

int main(long arg)
{
	long secs = arg > 0 ? arg : 5, t0, t1;
	unsigned long c0, c1, per_ms, end, loops = 0;
	unsigned int cpu = 0;

	/* Measure the TSC over ~20 ms of wall-clock time (system calls here only). */
	clock_and_tsc(&t0, &c0);
	while (now_ns() - t0 < 20 * 1000 * 1000)
		;
	clock_and_tsc(&t1, &c1);
	per_ms = (c1 - c0) * 1000000 / (unsigned long)(t1 - t0);
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
