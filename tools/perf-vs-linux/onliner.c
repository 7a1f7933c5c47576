/*
 * The init of build-linux.sh's ONLINE kernels: bring online each CPU that maxcpus= left offline at
 * boot, one after another through sysfs, reporting each on the console with CLOCK_MONOTONIC,
 * then sleep until the test powers the guest off. With every CPU already online it only sleeps.
 */
static long sc(long n, long a, long b, long c, long d, long e)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;

	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return r;
}

static char buf[128];
static int len;

static void put(const char *s) { while (*s) buf[len++] = *s++; }
static void putn(unsigned long v, int width)
{
	char t[24];
	int i = 0;

	do { t[i++] = '0' + v % 10; v /= 10; } while (v);
	while (i < width) t[i++] = '0';
	while (i) buf[len++] = t[--i];
}
static void say(const char *what, long cpu, long err)
{
	long ts[2];

	sc(228, 1, (long)ts, 0, 0, 0);		/* clock_gettime(CLOCK_MONOTONIC) */
	len = 0;
	put("onliner: ["); putn(ts[0], 1); put("."); putn(ts[1] / 1000, 6); put("] ");
	put(what);
	if (cpu >= 0) { put(" "); putn(cpu, 1); }
	if (err) { put(" error "); putn(-err, 1); }
	put("\n");
	sc(1, 1, (long)buf, len, 0, 0);
}

void _start(void)
{
	static char path[64];
	long cpu, fd, n = 0, r;

	sc(83, (long)"/sys", 0755, 0, 0, 0);
	r = sc(165, (long)"sysfs", (long)"/sys", (long)"sysfs", 0, 0);
	if (r)
		say("mount sysfs", -1, r);
	for (cpu = 1; r == 0; cpu++) {
		char *p = path;
		const char *s = "/sys/devices/system/cpu/cpu";
		char t[8];
		int i = 0;
		long v = cpu;

		while (*s) *p++ = *s++;
		do { t[i++] = '0' + v % 10; v /= 10; } while (v);
		while (i) *p++ = t[--i];
		s = "/online";
		while (*s) *p++ = *s++;
		*p = 0;
		fd = sc(2, (long)path, 1, 0, 0, 0);	/* open(O_WRONLY) */
		if (fd < 0)
			break;				/* no such CPU: done */
		/* Reading would tell whether it is online; writing "1" to an online CPU is a no-op. */
		r = sc(1, fd, (long)"1", 1, 0, 0);
		sc(3, fd, 0, 0, 0, 0);
		if (r != 1) {
			say("cannot online cpu", cpu, r);
			r = 0;
			continue;
		}
		r = 0;
		n++;
		say("cpu online", cpu, 0);
	}
	say("done, CPUs written", n, 0);
	for (;;)
		sc(34, 0, 0, 0, 0, 0);			/* pause() */
}
