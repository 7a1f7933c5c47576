/*
 * A hostile program: user.run=hostile:N@CPU runs violation N. Case 0
 * passes kernel pointers, unmapped and read-only user addresses and
 * garbage to every system call number and checks each is refused
 * (-EFAULT, -EBADF, -EINVAL, -ENOSYS) without harm; it exits with the
 * number of wrong answers. Cases 1-12 each commit one fatal violation
 * that must kill only this process with a report; reaching the line after
 * it is a failure (exit status 99).
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
	default:
		printf("hostile: no case %ld\n", arg);
		return 2;
	}
	printf("hostile: case %ld survived its violation\n", arg);
	return 99;
}
