/*
 * FPU/SSE state checks: user.run=fpu:N@CPU runs mode N. The x87/MMX
 * modes use inline assembly only, so they also run where the kernel keeps
 * no FPU state per task (and show what leaks there).
 *  1  mark: writes a marker into mm0-mm7 (and, with N = 3, xmm0-xmm15),
 *     then sleeps in 10-ms steps for 1 s and checks after each step that
 *     its own registers still hold the marker (exit 0) or not (exit 1)
 *  2  peek: sleeps 300 ms (so a "mark" on the same CPU has run), then
 *     reads mm0-mm7 (N = 4: and xmm0-xmm15); a marker there is a leak
 *     from another process (exit 1), none: exit 0
 *  5  pend: unmasks x87 divide-by-zero and divides by zero without a
 *     waiting instruction, so the exception is left pending; sleeps 1 s
 *     and exits 0 without touching the x87 again
 *  6  fwait: sleeps 300 ms, then FWAIT; must not fault (exit 0)
 *  7  mf: the same as pend, then FWAIT itself: #MF kills it (SIGFPE)
 */
#include "ulib.h"

#define MARK	0x5a5a3c3c00000000UL

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, 0);
}

#define MM_SET(i, v)	__asm__ volatile("movq %0, %%mm" #i :: "r"(v))
#define MM_GET(i, v)	__asm__ volatile("movq %%mm" #i ", %0" : "=r"(v))

static void mm_write(unsigned long base)
{
	MM_SET(0, base + 0); MM_SET(1, base + 1); MM_SET(2, base + 2); MM_SET(3, base + 3);
	MM_SET(4, base + 4); MM_SET(5, base + 5); MM_SET(6, base + 6); MM_SET(7, base + 7);
}

static void mm_read(unsigned long v[8])
{
	MM_GET(0, v[0]); MM_GET(1, v[1]); MM_GET(2, v[2]); MM_GET(3, v[3]);
	MM_GET(4, v[4]); MM_GET(5, v[5]); MM_GET(6, v[6]); MM_GET(7, v[7]);
}

/* Leaves a pending unmasked x87 zero-divide: FDIVP is a no-wait instruction for the exception. */
static void x87_pend(void)
{
	unsigned short cw = 0x037b;	/* default 0x037f with ZM cleared */
	unsigned short one = 1, zero = 0;

	__asm__ volatile("fninit\n\t"
			 "fldcw %0\n\t"
			 "fild %1\n\t"
			 "fild %2\n\t"
			 "fdivrp\n\t"	/* st1 / st0 = 1 / 0 */
			 :: "m"(cw), "m"(one), "m"(zero) : "memory");
}

int main(long mode)
{
	int pid = getpid();
	unsigned long v[8];
	unsigned int cpu = 0;

	getcpu(&cpu, 0);
	switch (mode) {
	case 1: case 3: {
		unsigned long base = MARK | (unsigned long)pid << 8;

		mm_write(base);
		for (int step = 0; step < 100; step++) {
			sleep_ms(10);
			mm_read(v);
			for (int i = 0; i < 8; i++)
				if (v[i] != base + i) {
					printf("fpu: pid %d mark: mm%d = 0x%lx after %d sleeps, want 0x%lx\n",
					       pid, i, v[i], step + 1, base + i);
					return 1;
				}
		}
		printf("fpu: pid %d mark: mm0-mm7 intact on CPU %u after 100 sleeps\n", pid, cpu);
		return 0;
	}
	case 2: case 4:
		sleep_ms(300);
		mm_read(v);
		for (int i = 0; i < 8; i++)
			if ((v[i] & 0xffffffff00000000UL) == MARK) {
				printf("fpu: pid %d LEAK: mm%d = 0x%lx, another process's marker\n", pid, i, v[i]);
				return 1;
			}
		printf("fpu: pid %d peek: no other process's marker in mm0-mm7 on CPU %u\n", pid, cpu);
		return 0;
	case 5:
		x87_pend();
		printf("fpu: pid %d left an x87 zero-divide pending on CPU %u\n", pid, cpu);
		sleep_ms(1000);
		return 0;
	case 6:
		sleep_ms(300);
		__asm__ volatile("fwait");
		printf("fpu: pid %d fwait ok on CPU %u\n", pid, cpu);
		return 0;
	case 7:
		x87_pend();
		__asm__ volatile("fwait");
		printf("fpu: pid %d FAIL: fwait with a pending zero-divide did not fault\n", pid);
		return 99;
	}
	printf("fpu: unknown mode %ld\n", mode);
	return 2;
}
