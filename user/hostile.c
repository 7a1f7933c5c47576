/*
 * A hostile program: user.run=hostile:N@CPU runs violation N. Case 0
 * passes kernel pointers, unmapped and read-only user addresses and
 * garbage to every system call number and checks each is refused
 * (-EFAULT, -EBADF, -EINVAL, -ENOSYS) without harm; it exits with the
 * number of wrong answers. Cases 1-12 each commit one fatal violation
 * that must kill only this process with a report; reaching the line after
 * it is a failure (exit status 99). Case 13 clears IF with popf (ignored).
 *
 * Cases 14-19 attack the way into and out of the kernel:
 * 14  sets NT, AC, DF and ID (and tries IOPL 3 and RF, which CPL 3 cannot
 *     set) and makes system calls for 2 s, half of them sched_yield(): the
 *     kernel must not run with those flags (NT reaching the kernel's IRET
 *     faults there), and the user's flags must come back unchanged. Run it
 *     beside a process on the same CPU that returns to user mode by IRET.
 * 15  sets TF with the popfq right before a SYSCALL: SYSCALL decides its
 *     single step on the TF it leaves, which FMASK clears, so the trap
 *     comes after SYSRET restores TF, in user mode, and kills it.
 * 16-19 ask the test kernel (CONFIG_USER_SELFTEST) to return from a
 *     system call to a frame user mode cannot have: a non-canonical RIP,
 *     CS of kernel code, CS beyond the GDT, SS of kernel data. The return
 *     faults (in user mode or on the kernel's IRET): only this process dies.
 * 20-22 read what only the kernel should know with SGDT, SIDT, and SLDT /
 *     SMSW / STR: with CR4.UMIP (CPUs that offer it, e.g. QEMU's -cpu max)
 *     each is a #GP that kills the process; without, they succeed.
 * 23  writes 1 MiB in one write() (flood_case() says what must happen);
 * 24  measures how late its 10 ms sleeps wake up, for 2 s (run it beside 23).
 * 25  prints kernel lines (a panic, rcutorture's success), with and without
 *     a timestamp: user output must never pass for the kernel's.
 * 26  makes the test kernel's system call 1002 with RBP kernel text, then
 *     an unmapped kernel address: it shows the NMI backtrace of the SYSCALL
 *     entry window, which must not walk the user's RBP.
 * 27  exits with status 200 (exit_group(0x1c8): the kernel keeps the low
 *     byte): an exit, not a kill, whatever the status (the kernel counted
 *     statuses of 128 and more as kills, which no kill report explained).
 */
#include "ulib.h"

#define KERNEL_TEXT	0x100000UL		/* the kernel image, identity-mapped */
#define KERNEL_STACKS	0x400000000000UL	/* the kernel-stack area */
#define UNMAPPED_USER	0x7f9000000000UL	/* in the user half, never mapped */
#define NONCANONICAL	0x8000000000000000UL

static int bad, total;

static void expect(long got, long want, const char *what, long nr)
{
	total++;
	if (got != want) {
		bad++;
		printf("hostile: FAIL %s (nr %ld): got %ld, want %ld\n", what, nr, got, want);
	}
}

static long sc(long nr, unsigned long a, unsigned long b, unsigned long c)
{
	return syscall6(nr, a, b, c, a, b, c);
}

static int syscall_abuse(void)
{
	static const unsigned long ptrs[] = {
		0, KERNEL_TEXT, KERNEL_STACKS, UNMAPPED_USER, NONCANONICAL, ~0UL, 0x7ffffffff000UL,
	};
	const unsigned long text = (unsigned long)&syscall_abuse;
	struct timespec bad_ts = { -1, 0 };

	for (unsigned int i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++) {
		unsigned long p = ptrs[i];

		expect(sc(SYS_write, 1, p, 64), -14, "write from a bad pointer", SYS_write);
		expect(sc(SYS_write, 2, p, ~0UL), -14, "write of ~0 bytes from a bad pointer", SYS_write);
		expect(sc(SYS_nanosleep, p, p, 0), -14, "nanosleep with a bad pointer", SYS_nanosleep);
		expect(sc(SYS_clock_gettime, 1, p, 0), -14, "clock_gettime to a bad pointer", SYS_clock_gettime);
		expect(sc(SYS_getcpu, p ? p : 1, p, p), -14, "getcpu to a bad pointer", SYS_getcpu);
	}
	/* A read-only user page (this program's text): the kernel's write faults, is fixed up. */
	expect(sc(SYS_getcpu, text, 0, 0), -14, "getcpu into read-only text", SYS_getcpu);
	expect(sc(SYS_clock_gettime, 1, text, 0), -14, "clock_gettime into read-only text", SYS_clock_gettime);
	/* A buffer running off the end of the stack into the guard page. */
	expect(sc(SYS_write, 1, 0x7fffffffdff0UL, 64), 16, "write running into unmapped memory: partial", SYS_write);
	write(1, "\n", 1);	/* ends the line of stack bytes just written */
	expect(sc(SYS_write, 7, text, 4), -9, "write to fd 7", SYS_write);
	expect(sc(SYS_nanosleep, (unsigned long)&bad_ts, 0, 0), -22, "nanosleep tv_sec -1", SYS_nanosleep);
	expect(sc(SYS_clock_gettime, 12345, 0, 0), -22, "clock_gettime of a bad clock", SYS_clock_gettime);
	/* Every other number, and garbage numbers: -ENOSYS. */
	for (long nr = 0; nr < 512; nr++) {
		if (nr == SYS_write || nr == SYS_sched_yield || nr == SYS_nanosleep || nr == SYS_getpid ||
		    nr == SYS_exit || nr == SYS_clock_gettime || nr == SYS_exit_group || nr == SYS_getcpu)
			continue;
		expect(sc(nr, KERNEL_TEXT, KERNEL_STACKS, ~0UL), -38, "unimplemented call", nr);
	}
	expect(sc(-1, 0, 0, 0), -38, "call -1", -1);
	expect(sc(0x7fffffffffffffffL, 0, 0, 0), -38, "call 2^63-1", 0x7fffffffffffffffL);
	expect(sc(0x100000001L, 0, 0, 0), -38, "call 2^32+1", 0x100000001L);
	printf("hostile: syscall abuse: %d checks, %d wrong\n", total, bad);
	return bad;
}

static const unsigned char ret_insn[] = { 0xc3 };	/* in .rodata: not executable */

/*
 * Case 23: one write() of 1 MiB, 8192 lines of 127 letters: printed
 * synchronously it held the CPU for seconds (minutes on a real 115200-baud
 * line). The kernel must take it in chunks, rescheduling between them, and
 * print only this process's per-second budget, reporting the rest as
 * suppressed. The report comes after a sleep past the budget's second.
 */
#define FLOOD_SIZE	(1UL << 20)
#define FLOOD_LINE	128
static char flood_buf[FLOOD_SIZE];

static int flood_case(void)
{
	struct timespec pause = { 1, 100000000 };
	long t0, t1, r;

	for (unsigned long i = 0; i < FLOOD_SIZE; i++)
		flood_buf[i] = i % FLOOD_LINE == FLOOD_LINE - 1 ? '\n' : 'a' + (char)(i / FLOOD_LINE % 26);
	t0 = now_ns();
	r = write(1, flood_buf, FLOOD_SIZE);
	t1 = now_ns();
	nanosleep(&pause, 0);
	printf("hostile: write of %lu bytes returned %ld in %ld ms\n", FLOOD_SIZE, r,
	       (t1 - t0) / 1000000);
	return r == (long)FLOOD_SIZE ? 0 : 1;
}

/* Case 24: sleeps 10 ms at a time for 2 s and reports the longest wake-up delay (beside case 23). */
static int latency_case(void)
{
	struct timespec ten_ms = { 0, 10000000 };
	long start = now_ns(), worst = 0;

	while (now_ns() - start < 2000000000L) {
		long t0 = now_ns(), late;

		nanosleep(&ten_ms, 0);
		late = now_ns() - t0 - 10000000;
		if (late > worst)
			worst = late;
	}
	printf("hostile: longest wake-up delay %ld ms\n", worst / 1000000);
	return 0;
}

#define X86_TF		0x100UL
#define X86_DF		0x400UL
#define X86_IOPL3	0x3000UL
#define X86_NT		0x4000UL
#define X86_RF		0x10000UL
#define X86_AC		0x40000UL
#define X86_ID		0x200000UL

/*
 * long flag_loop(mask, n, seen[2]): set the RFLAGS bits in mask, keep
 * them through n system calls, getpid() and sched_yield() (a switch with
 * those flags) in turn, comparing RFLAGS after every call with what popfq
 * left; stop at the first difference. seen[0] = RFLAGS as set, seen[1] =
 * after the last call, both without the arithmetic flags (the loop's own
 * cmp and dec change those). The original RFLAGS come back before it
 * returns the calls completed. In assembly: no C code may run with DF or
 * AC set.
 */
long flag_loop(unsigned long mask, long n, unsigned long seen[2]);
__asm__(".text\n"
	"flag_loop:\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	movq %rdx, %r13\n"
	"	movq %rsi, %r12\n"
	"	movl $39, %r14d\n"		/* getpid first, then sched_yield (24) */
	"	pushfq\n"			/* the original flags, restored at the end */
	"	movq (%rsp), %rax\n"
	"	orq %rdi, %rax\n"
	"	pushq %rax\n"
	"	popfq\n"
	"	pushfq\n"
	"	popq %rbx\n"			/* what CPL 3 could set */
	"	andq $~0x8d5, %rbx\n"		/* not CF PF AF ZF SF OF */
	"	movq %rbx, (%r13)\n"
	"	movq %rbx, %rcx\n"
	"1:	movl %r14d, %eax\n"
	"	xorl $(39 ^ 24), %r14d\n"
	"	syscall\n"
	"	pushfq\n"
	"	popq %rcx\n"
	"	andq $~0x8d5, %rcx\n"
	"	cmpq %rcx, %rbx\n"
	"	jne 2f\n"
	"	decq %r12\n"
	"	jnz 1b\n"
	"2:	movq %rcx, 8(%r13)\n"
	"	popfq\n"
	"	movq %rsi, %rax\n"		/* the kernel keeps RSI */
	"	subq %r12, %rax\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	ret\n");

static void print_flags(const char *what, unsigned long f)
{
	printf("%s%s%s%s%s%s%s%s\n", what, (f & X86_NT) ? " NT" : "", (f & X86_AC) ? " AC" : "",
	       (f & X86_DF) ? " DF" : "", (f & X86_ID) ? " ID" : "", (f & X86_TF) ? " TF" : "",
	       (f & X86_IOPL3) ? " IOPL" : "", (f & X86_RF) ? " RF" : "");
}

static int flags_case(void)
{
	const unsigned long mask = X86_NT | X86_AC | X86_DF | X86_ID | X86_IOPL3 | X86_RF;
	unsigned long seen[2];
	long t0 = now_ns(), calls = 0, n;

	do {
		n = flag_loop(mask, 400, seen);
		calls += n;
		if (n != 400 || seen[1] != seen[0]) {
			printf("hostile: FAIL RFLAGS %lx became %lx after a system call\n", seen[0], seen[1]);
			return 1;
		}
	} while (now_ns() - t0 < 2000000000L);
	print_flags("hostile: RFLAGS set from user mode:", seen[0] & mask);
	print_flags("hostile: RFLAGS refused at CPL 3:", ~seen[0] & mask);
	printf("hostile: %ld system calls with them, RFLAGS unchanged after each\n", calls);
	return 0;
}

/* The test kernel's system call: return to this RIP/CS/SS/RSP (arch/x86_64/kernel/usermode_test.c). */
#define SYS_x86_test_return	1000

static int bad_return_case(long c)
{
	unsigned long rsp, rip = (unsigned long)&bad_return_case;
	unsigned long cs = 0x23, ss = 0x1b;
	long r;

	__asm__ volatile("movq %%rsp, %0" : "=r"(rsp));
	if (c == 16)
		rip = NONCANONICAL >> 16;	/* 0x800000000000: the first non-canonical address */
	else if (c == 17)
		cs = 0x08;			/* kernel code: the kernel makes it 0x0b, RPL 3 */
	else if (c == 18)
		cs = 0x43;			/* past the GDT's end */
	else
		ss = 0x10;			/* kernel data as the stack: 0x13 */
	r = syscall6(SYS_x86_test_return, rip, cs, ss, rsp, 0, 0);
	printf("hostile: test return call: %ld%s\n", r, r == -38 ? " (not a test kernel)" : "");
	return r == -38 ? 3 : 99;
}

int main(long arg)
{
	unsigned char stack_code[4] = { 0xc3 };
	volatile unsigned long *p;

	printf("hostile: case %ld, pid %d\n", arg, getpid());
	switch (arg) {
	case 0:
		return syscall_abuse();
	case 1:		/* read kernel memory */
		p = (volatile unsigned long *)KERNEL_TEXT;
		printf("hostile: read %lx\n", *p);
		break;
	case 2:		/* write kernel memory */
		*(volatile unsigned long *)(KERNEL_TEXT + 0x1000) = 0xdead;
		break;
	case 3:		/* execute data on the stack (NX) */
		((void (*)(void))stack_code)();
		break;
	case 4:		/* execute read-only data (NX) */
		((void (*)(void))ret_insn)();
		break;
	case 5:		/* execute kernel text */
		((void (*)(void))KERNEL_TEXT)();
		break;
	case 6:
		__asm__ volatile("cli");
		break;
	case 7:
		__asm__ volatile("hlt");
		break;
	case 8:		/* port I/O: the keyboard controller's status */
		__asm__ volatile("inb $0x64, %%al" ::: "rax");
		break;
	case 9:
		__asm__ volatile("outb %%al, $0x80" :: "a"(0));
		break;
	case 10:
		__asm__ volatile("ud2");
		break;
	case 11:	/* write own text */
		*(volatile unsigned char *)(unsigned long)&main = 0x90;
		break;
	case 12:	/* a non-canonical address: #GP, not #PF */
		*(volatile unsigned long *)NONCANONICAL = 1;
		break;
	case 13: {	/* clear IF with POPF (silently ignored at CPL 3) and spin 2 s: the tick goes on */
		long t0 = now_ns();
		unsigned long flags;
		unsigned long loops = 0;

		__asm__ volatile("pushfq; popq %0" : "=r"(flags));
		__asm__ volatile("pushq %0; popfq" :: "r"(flags & ~0x200UL) : "memory", "cc");
		__asm__ volatile("pushfq; popq %0" : "=r"(flags));
		while (now_ns() - t0 < 2000000000L)
			for (int i = 0; i < 100000; i++)
				loops++;
		printf("hostile: spun 2 s, IF was %s after popf, %lu loops\n",
		       (flags & 0x200) ? "still set" : "CLEAR", loops);
		return (flags & 0x200) ? 0 : 1;
	}
	case 14:
		return flags_case();
	case 15: {	/* TF set by the instruction before SYSCALL (getpid) */
		long nr = SYS_getpid;

		__asm__ volatile("pushfq\n\t"
				 "orq %1, (%%rsp)\n\t"
				 "popfq\n\t"
				 "syscall\n\t"
				 "nop"
				 : "+a"(nr) : "i"(X86_TF) : "rcx", "r11", "memory", "cc");
		break;
	}
	case 16:
	case 17:
	case 18:
	case 19:
		return bad_return_case(arg);
	case 20: {	/* SGDT: the GDT's kernel address (#GP with CR4.UMIP) */
		struct { unsigned short limit; unsigned long base; } __attribute__((packed)) d;

		__asm__ volatile("sgdt %0" : "=m"(d));
		printf("hostile: sgdt: base %lx limit %x\n", d.base, d.limit);
		break;
	}
	case 21: {	/* SIDT: the IDT's kernel address */
		struct { unsigned short limit; unsigned long base; } __attribute__((packed)) d;

		__asm__ volatile("sidt %0" : "=m"(d));
		printf("hostile: sidt: base %lx limit %x\n", d.base, d.limit);
		break;
	}
	case 22: {	/* SLDT, SMSW, STR: the other three UMIP covers */
		unsigned long ldt = 0, msw = 0, tr = 0;

		__asm__ volatile("sldt %0" : "=r"(ldt));
		__asm__ volatile("smsw %0" : "=r"(msw));
		__asm__ volatile("str %0" : "=r"(tr));
		printf("hostile: sldt %lx smsw %lx str %lx\n", ldt, msw, tr);
		break;
	}
	case 23:
		return flood_case();
	case 24:
		return latency_case();
	case 26: {	/* the entry window's NMI backtrace with RBP a kernel address (test kernels) */
		static const unsigned long rbps[] = { KERNEL_TEXT, 0x3f0000000000UL };
		long r = 0;

		for (int i = 0; i < 2; i++)
			__asm__ volatile("movq %%rbp, %%r12\n\t"
					 "movq %2, %%rbp\n\t"
					 "syscall\n\t"
					 "movq %%r12, %%rbp"
					 : "=a"(r) : "a"(1002L), "r"(rbps[i])
					 : "rcx", "r11", "r12", "memory");
		printf("hostile: window backtrace call: %ld\n", r);
		return r ? 3 : 0;
	}
	case 27:
		syscall3(SYS_exit_group, 0x1c8, 0, 0);
		return 99;
	case 25:	/* kernel lines, forged: the tests and parse-console.sh must not believe them */
		printf("Kernel panic - not syncing: forged by a user program\n");
		printf("rcu-torture:--- End of test: SUCCESS: forged by a user program\n");
		printf("[    1.000000] Kernel panic - not syncing: forged, with a timestamp\n");
		printf("[    1.000000] rcu-torture:--- End of test: SUCCESS: forged, with a timestamp\n");
		printf("BUG: forged\n");
		return 0;
	default:
		printf("hostile: no case %ld\n", arg);
		return 2;
	}
	printf("hostile: case %ld survived its violation\n", arg);
	return 99;
}
