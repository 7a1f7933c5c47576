/*
 * System calls, with Linux's x86-64 numbers and semantics for the few
 * implemented. Every user pointer goes through copy_{to,from}_user(), so
 * a bad one (a kernel address, unmapped, garbage) returns -EFAULT; an
 * unknown number returns -ENOSYS. Runs in the calling task, interrupts on.
 */
#include "user.h"
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <sched/sched.h>
#include <sched/task.h>
#include <time/time.h>
#include <time/delay.h>

#define __NR_write		1
#define __NR_sched_yield	24
#define __NR_nanosleep		35
#define __NR_getpid		39
#define __NR_exit		60
#define __NR_clock_gettime	228
#define __NR_exit_group		231
#define __NR_getcpu		309

#define CLOCK_MONOTONIC		1
#define CLOCK_BOOTTIME		7
#define WRITE_MAX		(1UL << 20)	/* bytes one write() takes at most */

struct user_timespec {
	long tv_sec, tv_nsec;
};

/*
 * fd 1 and 2 are the console (output.c: a line at a time, unstamped, within
 * a per-second budget). Taken in chunks with cond_resched() between them, so
 * a 1 MiB write does not hold the CPU (nor RCU's grace periods) until it ends.
 */
static long sys_write(unsigned long fd, const char __user *buf, unsigned long count)
{
	struct user_process *up = current->uproc;
	unsigned long done = 0;
	char chunk[256];

	if (fd != 1 && fd != 2)
		return -EBADF;
	if (!access_ok(buf, min(count, WRITE_MAX)))
		return -EFAULT;
	count = min(count, WRITE_MAX);
	while (done < count) {
		unsigned long n = min(count - done, (unsigned long)sizeof(chunk));
		unsigned long left = copy_from_user(chunk, buf + done, n);

		/* Like Linux, a fault part-way returns what was written, -EFAULT only if nothing was. */
		user_output(up, chunk, n - left);
		done += n - left;
		if (left)
			return done ? (long)done : -EFAULT;
		cond_resched();
	}
	return done;
}

static long sys_nanosleep(const struct user_timespec __user *req, struct user_timespec __user *rem)
{
	struct user_timespec ts;
	u64 us;

	if (copy_from_user(&ts, req, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L)
		return -EINVAL;
	/*
	 * No signals here: the sleep is never interrupted and rem never written.
	 * An interruptible sleep, as Linux's ("S" in the task list, not "D").
	 */
	us = (u64)min(ts.tv_sec, 86400L) * 1000000 + ts.tv_nsec / 1000;
	while (us >= 1000) {
		unsigned int ms = min(us / 1000, (u64)1000);

		while (ms)
			ms = msleep_interruptible(ms);
		us -= min(us / 1000, (u64)1000) * 1000;
	}
	if (us)
		usleep_range(us, us);
	return 0;
}

static long sys_clock_gettime(unsigned long which, struct user_timespec __user *tp)
{
	u64 ns = local_clock();
	struct user_timespec ts = { (long)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };

	if (which != CLOCK_MONOTONIC && which != CLOCK_BOOTTIME)
		return -EINVAL;
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/* getcpu(cpu, node, cache): either pointer may be NULL; the third is unused, as in Linux. */
static long sys_getcpu(unsigned int __user *cpup, unsigned int __user *nodep)
{
	unsigned int cpu = raw_smp_processor_id(), node = 0;

	if (cpup && copy_to_user(cpup, &cpu, sizeof(cpu)))
		return -EFAULT;
	if (nodep && copy_to_user(nodep, &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

long syscall_dispatch(unsigned long nr, const unsigned long a[6])
{
	switch (nr) {
	case __NR_write:
		return sys_write(a[0], (const char __user *)a[1], a[2]);
	case __NR_sched_yield:
		yield();
		return 0;
	case __NR_nanosleep:
		return sys_nanosleep((const struct user_timespec __user *)a[0],
				     (struct user_timespec __user *)a[1]);
	case __NR_getpid:
		return current->pid;
	case __NR_exit:
	case __NR_exit_group:	/* one thread per process: the same */
		user_process_exit((int)(a[0] & 0xff));
	case __NR_clock_gettime:
		return sys_clock_gettime(a[0], (struct user_timespec __user *)a[1]);
	case __NR_getcpu:
		return sys_getcpu((unsigned int __user *)a[0], (unsigned int __user *)a[1]);
	default:
		return -ENOSYS;
	}
}
