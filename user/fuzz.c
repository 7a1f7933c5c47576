/*
 * A small system-call fuzzer in the manner of trinity: user.run=fuzz:SEED@CPUS
 * with user.respawn=N (Documentation/user-mode.md, "The fuzzer"). Each
 * process ("life") derives its own seed from SEED, its CPU, its user.run=
 * slot and its life number, prints it, then:
 *  1. makes FUZZ_CALLS system calls: every implemented number and unknown
 *     ones (negative, huge, just past the last, with garbage in the upper
 *     half), each argument random or a boundary (0, -1, kernel addresses,
 *     the last user page, non-canonical, unmapped, huge lengths, its own
 *     read-only text, a real buffer, two pointers overlapping), with NT,
 *     AC, DF and ID set at random (IOPL and RF tried, refused at CPL 3)
 *     and user segment selectors loaded into DS, ES, FS, GS;
 *  2. prints its table (every TABLE_EVERY-th life, the first included; the
 *     others one line of totals): per system call, the calls, successes and
 *     each errno, and any result the kernel must never give;
 *  3. ends with one last operation chosen at random: a single instruction
 *     that must fault at CPL 3 (privileged, I/O, descriptor tables,
 *     control and debug registers, bad segment loads, far return or IRET
 *     to ring 0, IRET with NT), `int N` for a random vector 0..255, a
 *     system call with TF set, or exit()/exit_group() with a random status.
 *     The kernel kills it with a one-line report; the kernel's respawn
 *     starts the next life of the slot.
 * The random stream never depends on what the kernel returns, so the same
 * command line gives every process the same sequence (a replay).
 */
#include "ulib.h"
#include "fuzz.h"

#define FUZZ_CALLS	1500
#define TABLE_EVERY	8	/* lives; a line of totals in the others (the console's volume) */
#define CONSOLE_BUDGET	256	/* bytes a life lets write() print, under the kernel's 4 KiB/s */

#define USER_VA_START	0x00007f8000000000UL
#define USER_VA_END	0x00007ffffffff000UL
#define USER_STACK_TOP	0x00007fffffffe000UL
#define USER_STACK_LOW	(USER_STACK_TOP - 4 * 4096UL)

#define EBADF		9
#define EFAULT		14
#define EINVAL		22
#define ENOSYS		38
#define NERR		134

static unsigned long rng;

/* splitmix64: seeds, and the stream (a counter through the mixer). */
static unsigned long mix(unsigned long z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
	return z ^ (z >> 31);
}

static unsigned long rnd(void)
{
	rng += 0x9e3779b97f4a7c15UL;
	return mix(rng);
}

static const struct call {
	long nr;
	const char *name;
} calls[] = {
	{ SYS_write, "write" }, { SYS_sched_yield, "sched_yield" }, { SYS_nanosleep, "nanosleep" },
	{ SYS_getpid, "getpid" }, { SYS_clock_gettime, "clock_gettime" }, { SYS_getcpu, "getcpu" },
};
#define NCALLS		(int)(sizeof(calls) / sizeof(calls[0]))
#define ROW_UNKNOWN	NCALLS

static struct row {
	unsigned int calls, ok, err[NERR], other;
} rows[NCALLS + 1];

static char buf[16384] __attribute__((aligned(4096)));
static int pid, wrong;
static long console_used;

static int implemented(long nr)
{
	for (int i = 0; i < NCALLS; i++)
		if (calls[i].nr == nr)
			return 1;
	return nr == SYS_exit || nr == SYS_exit_group;
}

/* A system call number this kernel does not implement (the test kernel's 1000-1002 skipped). */
static long unknown_nr(void)
{
	static const long special[] = {
		-1L, (long)0x8000000000000000UL, 0x7fffffffffffffffL, 0x100000001L,
		0x100000000L + SYS_getpid, 310, 451, 452, 0,
	};
	unsigned long r = rnd();
	long nr;

	switch (r % 3) {
	case 0:
		return special[(r >> 8) % (sizeof(special) / sizeof(special[0]))];
	case 1:
		nr = (long)((r >> 8) % 1000);
		while (implemented(nr))
			nr++;
		return nr;
	default:
		nr = (long)rnd();
		return nr >= 1000 && nr <= 1002 ? nr + 3 : nr;
	}
}

static unsigned long in_buf(unsigned long room)
{
	return (unsigned long)buf + rnd() % (sizeof(buf) - room);
}

static unsigned long rand_arg(void)
{
	static const unsigned long noncanonical[] = {
		0x0000800000000000UL, 0x8000000000000000UL, 0x00007ffffffffff8UL,
		0xffff7fffffffffffUL, 0x7fffffffffffffffUL,
	};
	static const unsigned long lengths[] = {
		1UL << 62, 1UL << 63, 1UL << 20, (1UL << 20) + 1, 0x7fffffff, 0x80000000, 4096, 4097,
	};
	unsigned long r = rnd(), s = rnd();

	switch (r % 20) {
	case 0:	return 0;
	case 1:	return ~0UL;
	case 2:	return s % 16;
	case 3:	return s;
	case 4:	return (unsigned int)s;
	case 5:	return 0x100000UL + s % 0x100000;		/* the kernel image */
	case 6:	return 0x400000000000UL + (s % 0x10000) * 8;	/* kernel stacks */
	case 7:	return 0xffff800000000000UL + (s % 0x100000) * 8;
	case 8:	return 0xffffffff80000000UL + s % 0x1000000;
	case 9:	return USER_VA_END - 4096 + s % 4096;		/* the last user page */
	case 10: return USER_VA_END - 1 - s % 16;		/* straddling the user half's end */
	case 11: return noncanonical[s % (sizeof(noncanonical) / sizeof(noncanonical[0]))];
	case 12: return 0x7f9000000000UL + (s % 0x100000) * 8;	/* unmapped user */
	case 13: return USER_VA_START - 8 + s % 16;		/* straddling its start */
	case 17: return (unsigned long)&rand_arg + s % 4096;	/* read-only text */
	case 18: return lengths[s % (sizeof(lengths) / sizeof(lengths[0]))];
	case 19: return USER_STACK_LOW - 4096 + s % 4096;	/* the stack's guard page */
	default: return in_buf(64);				/* a real buffer */
	}
}

/* Mapped or near it: text, data, this buffer (the highest), the stack. */
static int mapped(unsigned long p)
{
	return (p >= USER_VA_START && p < (unsigned long)buf + sizeof(buf) + 4096) ||
	       (p >= USER_STACK_LOW && p < USER_STACK_TOP);
}

/* Fit the arguments of the call at index i so that it can neither hang nor write over this program. */
static void tame(int i, long a[6])
{
	static const long ts_vals[][2] = {
		{ 0, 0 }, { 0, 1000 }, { 0, 300000 }, { -1, 0 }, { 0, -1 }, { 0, 1000000000L },
		{ (long)0x8000000000000000UL, 0 },
	};
	unsigned long r = rnd();
	unsigned long *p = (unsigned long *)a;

	switch (calls[i].nr) {
	case SYS_write:
		if (r % 2)
			a[0] = (long)(r >> 8) % 4 ? (long)((r >> 16) % 4) : a[0];
		/* The console: short writes, CONSOLE_BUDGET bytes a life, huge lengths kept for bad pointers. */
		if ((p[0] == 1 || p[0] == 2) && mapped(p[1]))
			a[2] = console_used >= CONSOLE_BUDGET ? 0 : (long)(p[2] % 48);
		if ((p[0] == 1 || p[0] == 2) && p[2] < 48)
			console_used += a[2];
		break;
	case SYS_nanosleep: {
		long *ts;

		/* A mapped req is this buffer with a short or invalid time: no long sleep. */
		if (mapped(p[0]) || r % 2) {
			a[0] = (long)in_buf(16);
			ts = (long *)a[0];
			ts[0] = ts_vals[(r >> 8) % 7][0];
			ts[1] = ts_vals[(r >> 8) % 7][1];
		}
		if ((r >> 16) % 4 == 0)		/* rem overlapping req */
			a[1] = a[0] + (long)((r >> 20) % 3) * 8 - 8;
		break;
	}
	case SYS_clock_gettime:
		if (r % 2)
			a[0] = (long)((r >> 8) % 12) - 1;
		if (mapped(p[1]))
			a[1] = (long)in_buf(16);
		break;
	case SYS_getcpu:
		if (mapped(p[0]))
			a[0] = (long)in_buf(8);
		if (mapped(p[1]) || (r % 4) == 0)	/* node overlapping cpu */
			a[1] = a[0] + (long)((r >> 8) % 3) * 2;
		break;
	}
}

static unsigned long rand_flags(void)
{
	unsigned long r = rnd(), f = 0;

	if (r % 4 == 0)
		f |= FZ_NT;
	if ((r >> 4) % 4 == 0)
		f |= FZ_AC;
	if ((r >> 8) % 4 == 0)
		f |= FZ_DF;
	if ((r >> 12) % 4 == 0)
		f |= FZ_ID;
	if ((r >> 16) % 16 == 0)
		f |= FZ_IOPL3 | FZ_RF;		/* refused at CPL 3 */
	return f;
}

/* Now and then, one user selector (null, user data; FS/GS also user code) into DS, ES, FS or GS. */
static unsigned long rand_sels(void)
{
	static const unsigned char sels[] = { 0x03, 0x1b, 0x23 };
	unsigned long r = rnd(), reg = (r >> 8) % 4;

	if (r % 32)
		return 0;
	return (unsigned long)sels[(r >> 12) % (reg < 2 ? 2 : 3)] << (8 * reg);
}

static void count(int row, long ret)
{
	rows[row].calls++;
	if (ret >= 0)
		rows[row].ok++;
	else if (ret > -NERR)
		rows[row].err[-ret]++;
	else
		rows[row].other++;
}

/* What the kernel must never answer (init.c and hostile.c check the same by hand). */
static void judge(long nr, const long a[6], long ret)
{
	int bad = !implemented(nr) ? ret != -ENOSYS :
		  nr == SYS_getpid ? ret != pid :
		  nr == SYS_sched_yield ? ret != 0 :
		  ret < 0 && ret != -EFAULT && ret != -EINVAL && ret != -EBADF;

	if (bad && wrong++ < 5)
		printf("fuzz: FAIL pid %d: call %ld (%lx, %lx, %lx) returned %ld\n", pid, nr, a[0], a[1],
		       a[2], ret);
}

static void one_call(void)
{
	unsigned long r = rnd(), flags, sels;
	int i = (int)(r % (NCALLS + 2));	/* 3 in 4: an implemented number */
	long nr, a[6], ret;

	for (int k = 0; k < 6; k++)
		a[k] = (long)rand_arg();
	if (i < NCALLS) {
		nr = calls[i].nr;
		tame(i, a);
	} else {
		nr = unknown_nr();
	}
	flags = rand_flags();
	sels = rand_sels();
	ret = fz_syscall(nr, a, flags, sels);
	count(i < NCALLS ? i : ROW_UNKNOWN, ret);
	judge(nr, a, ret);
}

static const char *errname(int e)
{
	return e == EBADF ? "EBADF" : e == EFAULT ? "EFAULT" : e == EINVAL ? "EINVAL" :
	       e == ENOSYS ? "ENOSYS" : 0;
}

/* A line built by hand: printf() here has no field widths. */
struct line {
	char s[160];
	int n;
};

static void add_str(struct line *l, const char *s, int width)
{
	int len = (int)strlen(s);

	while (*s && l->n < 150)
		l->s[l->n++] = *s++;
	for (; len < width && l->n < 150; len++)
		l->s[l->n++] = ' ';
}

static void add_num(struct line *l, unsigned long v, int width)
{
	char d[24];
	int k = 0;

	do
		d[k++] = (char)('0' + v % 10);
	while (v /= 10);
	for (int pad = k; pad < width && l->n < 150; pad++)
		l->s[l->n++] = ' ';
	while (k && l->n < 150)
		l->s[l->n++] = d[--k];
}

/* One line per system call: calls, successes, then each errno seen, Linux's name or its number. */
static void print_table(void)
{
	printf("fuzz: pid %d: %d calls, %d wrong results\n", pid, FUZZ_CALLS, wrong);
	printf("fuzz:  nr name           calls    ok  errors\n");
	for (int i = 0; i <= NCALLS; i++) {
		const struct row *w = &rows[i];
		struct line l = { .n = 0 };
		int any = 0;

		add_str(&l, "fuzz: ", 0);
		if (i < NCALLS) {
			add_num(&l, (unsigned long)calls[i].nr, 3);
			add_str(&l, " ", 0);
			add_str(&l, calls[i].name, 13);
		} else {
			add_str(&l, "  - unknown", 17);
		}
		add_num(&l, w->calls, 6);
		add_num(&l, w->ok, 6);
		add_str(&l, " ", 0);
		for (int e = 1; e < NERR; e++) {
			if (!w->err[e])
				continue;
			add_str(&l, " ", 0);
			if (errname(e)) {
				add_str(&l, errname(e), 0);
			} else {
				add_str(&l, "E", 0);
				add_num(&l, (unsigned long)e, 0);
			}
			add_str(&l, ":", 0);
			add_num(&l, w->err[e], 0);
			any = 1;
		}
		if (w->other)
			add_str(&l, " other", 0);
		else if (!any)
			add_str(&l, " -", 0);
		l.s[l.n] = 0;
		printf("%s\n", l.s);
	}
}

/*
 * The life's last operation: most kill the process. One that must fault
 * and did not is a failure of the kernel (or the CPU model) and is said so.
 */
static int last_op(void)
{
	static const struct insn {
		void (*fn)(void);
		const char *name;
		int must_fault;
	} insns[] = {
#define FZ_ENTRY(name, must_fault) { fz_##name, #name, must_fault },
		FZ_INSNS(FZ_ENTRY)
#undef FZ_ENTRY
	};
	const int ninsns = (int)(sizeof(insns) / sizeof(insns[0]));
	unsigned long r = rnd(), s = rnd();
	long a[6] = { 0 };

	switch (r % 20) {
	case 0:
	case 1: {	/* exit() or exit_group() with a random status (the kernel keeps its low byte) */
		long nr = r % 2 ? SYS_exit : SYS_exit_group;

		printf("fuzz: pid %d: last: %s(%lu)\n", pid, nr == SYS_exit ? "exit" : "exit_group",
		       s & 0xff);
		a[0] = (long)s;
		fz_syscall(nr, a, 0, 0);
		printf("fuzz: FAIL pid %d: exit returned\n", pid);
		return 1;
	}
	case 2:
	case 3:		/* TF set by the popfq before SYSCALL: the trap comes after SYSRET */
		printf("fuzz: pid %d: last: getpid with TF\n", pid);
		fz_syscall(SYS_getpid, a, FZ_TF | rand_flags(), 0);
		printf("fuzz: FAIL pid %d: no single-step trap after the system call\n", pid);
		return 1;
	case 4:
	case 5:
	case 6:
	case 7:
	case 8:
	case 9: {
		unsigned int vec = (unsigned int)(s % 256);

		printf("fuzz: pid %d: last: int $0x%x\n", pid, vec);
		((void (*)(void))(fz_int_table + 4 * vec))();
		printf("fuzz: FAIL pid %d: int $0x%x returned (every gate is DPL 0)\n", pid, vec);
		return 1;
	}
	default: {
		const struct insn *in = &insns[s % (unsigned long)ninsns];

		printf("fuzz: pid %d: last: %s\n", pid, in->name);
		in->fn();
		if (in->must_fault) {
			printf("fuzz: FAIL pid %d: %s did not fault\n", pid, in->name);
			return 1;
		}
		printf("fuzz: pid %d: %s ran, exiting\n", pid, in->name);
		return 0;
	}
	}
}

int main(long seed)
{
	unsigned long slot = (unsigned long)user_slot, life = (unsigned long)user_life;
	unsigned int cpu = 0;

	pid = getpid();
	getcpu(&cpu, 0);
	rng = mix(mix(mix((unsigned long)seed) ^ cpu) ^ (slot << 32 | life));
	printf("fuzz: pid %d on CPU %u, slot %lu life %lu: seed %ld, process seed %lx\n", pid, cpu, slot,
	       life, seed, rng);
	for (unsigned long k = 0; k < sizeof(buf); k++)
		buf[k] = k % 64 == 63 ? '\n' : "fuzz write "[k % 64 % 11];
	for (int k = 0; k < FUZZ_CALLS; k++) {
		one_call();
		if (k % 64 == 63)	/* now and then, what the system calls did to the buffer undone */
			for (unsigned long j = 0; j < sizeof(buf); j++)
				buf[j] = j % 64 == 63 ? '\n' : "fuzz write "[j % 64 % 11];
	}
	write(1, "\n", 1);	/* ends a line the random writes left open */
	if (life % TABLE_EVERY == 0) {
		print_table();
	} else {
		unsigned int ok = 0;

		for (int i = 0; i <= NCALLS; i++)
			ok += rows[i].ok;
		printf("fuzz: pid %d: %d calls, %u succeeded, %d wrong results\n", pid, FUZZ_CALLS, ok,
		       wrong);
	}
	return last_op();
}
