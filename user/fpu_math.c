/*
 * fpu mode 9 (user/fpu.c): arithmetic with x87, SSE and, where the CPU
 * and kernel allow, AVX, whose results are known exactly, so that state
 * corrupted by a context switch or another process shows as a wrong
 * answer. Values depend on the pid, so two processes never compute alike.
 */
#include "ulib.h"

typedef double v4df __attribute__((vector_size(32)));

static void yield_some(int round)
{
	if (round % 4 == 0)
		sched_yield();
}

/* x87: sum of k * p for k = 1..n in 80-bit registers, checked against n(n+1)/2 * p. */
static long x87_round(long p, int n)
{
	long got;
	long one = 1;

	__asm__ volatile("fldz\n\t"			/* acc */
			 "fldz\n\t"			/* k */
			 "1:\n\t"
			 "fiaddl %[one]\n\t"		/* k += 1 (fiadd of a 32-bit int) */
			 "fld %%st(0)\n\t"
			 "fimull %[p]\n\t"		/* k * p */
			 "faddp %%st, %%st(2)\n\t"	/* acc += */
			 "decl %[n]\n\t"
			 "jnz 1b\n\t"
			 "fstp %%st(0)\n\t"
			 "fistpll %[got]"
			 : [got] "=m"(got), [n] "+r"(n)
			 : [one] "m"(one), [p] "m"(p) : "memory", "cc");
	return got;
}

static int check_x87(int pid, long round)
{
	long p = pid * 7 + round % 13;
	int n = 200;
	long want = (long)n * (n + 1) / 2 * p;
	long got = x87_round(p, n);

	if (got != want) {
		printf("fpu: pid %d FAIL: x87 sum %ld, want %ld\n", pid, got, want);
		return 1;
	}
	return 0;
}

/* SSE (compiled double arithmetic): exact in double for these magnitudes. */
static int check_sse(int pid, long round)
{
	volatile double p = pid * 3 + round % 11;
	double acc = 0;

	for (int k = 1; k <= 300; k++)
		acc += k * p;
	if (acc != 300.0 * 301 / 2 * p) {
		printf("fpu: pid %d FAIL: SSE sum %ld, want %ld\n", pid, (long)acc, (long)(300.0 * 301 / 2 * p));
		return 1;
	}
	return 0;
}

/* AVX: a ymm accumulator of four lanes, held in registers across the loop. */
__attribute__((target("avx")))
static int check_avx(int pid, long round)
{
	double p = pid * 5 + round % 7;
	v4df step = { p, 2 * p, 3 * p, 4 * p }, acc = { 0, 0, 0, 0 };
	double out[4];

	for (int k = 0; k < 256; k++) {
		__asm__ volatile("vaddpd %1, %0, %0" : "+x"(acc) : "x"(step));
		if (k % 64 == 63)
			sched_yield();	/* a switch with live ymm state */
	}
	__builtin_memcpy(out, &acc, sizeof(out));
	for (int l = 0; l < 4; l++)
		if (out[l] != 256 * (l + 1) * p) {
			printf("fpu: pid %d FAIL: AVX lane %d %ld, want %ld\n", pid, l, (long)out[l],
			       (long)(256 * (l + 1) * p));
			return 1;
		}
	return 0;
}

/* AVX usable: CPUID.1:ECX AVX and OSXSAVE, and XCR0 with SSE and AVX state. */
static int have_avx(void)
{
	unsigned int a, b, c, d, lo, hi;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 28)) || !(c & (1u << 27)))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 6) == 6;
}

int fpu_math(int pid, unsigned int cpu);
int fpu_math(int pid, unsigned int cpu)
{
	int avx = have_avx(), bad = 0;
	long t0 = now_ns(), round;

	for (round = 0; now_ns() - t0 < 3000000000L && bad < 5; round++) {
		bad += check_x87(pid, round);
		yield_some((int)round);
		bad += check_sse(pid, round);
		if (avx)
			bad += check_avx(pid, round);
	}
	printf("fpu: pid %d math on CPU %u: %ld rounds of x87, SSE%s, %d wrong\n", pid, cpu, round,
	       avx ? ", AVX" : "", bad);
	return bad != 0;
}
