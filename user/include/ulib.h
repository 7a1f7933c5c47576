/*
 * The user programs' tiny C library: Linux x86-64 system-call wrappers
 * (SYSCALL with the number in RAX, arguments in RDI RSI RDX R10 R8 R9,
 * RCX and R11 clobbered) and a few string and print helpers. Freestanding:
 * no libc, no FPU/SSE (the kernel does not save their state).
 */
#ifndef _ULIB_H
#define _ULIB_H

typedef unsigned long size_t;
typedef long ssize_t;

struct timespec {
	long tv_sec, tv_nsec;
};

#define SYS_write		1
#define SYS_sched_yield		24
#define SYS_nanosleep		35
#define SYS_getpid		39
#define SYS_exit		60
#define SYS_clock_gettime	228
#define SYS_exit_group		231
#define SYS_getcpu		309
#define CLOCK_MONOTONIC		1

static inline long syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#define syscall3(nr, a, b, c)	syscall6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)

static inline ssize_t write(int fd, const void *buf, size_t n) { return syscall3(SYS_write, fd, buf, n); }
static inline int getpid(void) { return syscall3(SYS_getpid, 0, 0, 0); }
static inline int sched_yield(void) { return syscall3(SYS_sched_yield, 0, 0, 0); }
static inline int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return syscall3(SYS_nanosleep, req, rem, 0);
}
static inline int clock_gettime(int clk, struct timespec *tp) { return syscall3(SYS_clock_gettime, clk, tp, 0); }
static inline int getcpu(unsigned int *cpu, unsigned int *node)
{
	return syscall3(SYS_getcpu, cpu, node, 0);
}
static inline __attribute__((noreturn)) void exit(int code)
{
	syscall3(SYS_exit_group, code, 0, 0);
	__builtin_unreachable();
}

size_t strlen(const char *s);
/* printf-lite: %d %u %ld %lu %x %lx %s %c %p %%, to fd 1. */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
long now_ns(void);

int main(long arg);
/* This process's user.run= entry (from 0) and how many times user.respawn= restarted it. */
extern long user_slot, user_life;

#endif
