/*
 * The default init= program: checks each system call from user mode and
 * prints one line per check (ok / not ok, KTAP-like) and a summary; exits
 * with the number of failures.
 */
#include "ulib.h"

static int failures, checks;

static void check(int ok, const char *what, long got)
{
	checks++;
	if (!ok)
		failures++;
	printf("init: %s %d - %s (got %ld)\n", ok ? "ok" : "not ok", checks, what, got);
}

int main(long arg)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	unsigned int cpu = 999, node = 999;
	long t0, t1, r;

	printf("init: hello from user mode, pid %d\n", getpid());
	check(getpid() > 0, "getpid", getpid());
	r = getcpu(&cpu, &node);
	check(r == 0 && cpu < 256 && node == 0, "getcpu", cpu);
	check(sched_yield() == 0, "sched_yield", 0);
	t0 = now_ns();
	r = nanosleep(&ts, 0);
	t1 = now_ns();
	check(r == 0 && t1 - t0 >= 20 * 1000 * 1000, "nanosleep 20 ms sleeps at least 20 ms", t1 - t0);
	ts.tv_nsec = 1000000000L;
	check(nanosleep(&ts, 0) == -22, "nanosleep tv_nsec 1e9: -EINVAL", nanosleep(&ts, 0));
	check(write(1, "init: write ok\n", 15) == 15, "write to fd 1", 15);
	check(write(5, "x", 1) == -9, "write to fd 5: -EBADF", write(5, "x", 1));
	r = write(1, (const void *)0x100000, 16);
	check(r == -14, "write from a kernel address: -EFAULT", r);
	r = syscall3(12345, 0, 0, 0);
	check(r == -38, "unknown system call: -ENOSYS", r);
	printf("init: %d checks, %d failed\n", checks, failures);
	return failures;
}
