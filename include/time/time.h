/*
 * Time: local_clock() in nanoseconds since boot (TSC based, per CPU,
 * comparable across CPUs on one machine), jiffies, and busy-wait delays.
 */
#ifndef _TIME_TIME_H
#define _TIME_TIME_H

#include <kernel/types.h>
#include <kernel/compiler.h>

#define HZ		CONFIG_HZ
#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL
#define USEC_PER_SEC	1000000ULL
#define MSEC_PER_SEC	1000UL

/* jiffies: advanced by one CPU at HZ; volatile because every reader wants the latest. */
extern volatile unsigned long jiffies;

/*
 * Arch contract: the clock and the busy-waits (x86-64: the TSC,
 * arch/x86_64/kernel/tsc.c). arch_clock_khz() is 0 before calibration.
 */
u64 arch_local_clock(void);
u64 arch_clock_khz(void);
void arch_udelay(unsigned long usecs);
void arch_ndelay(unsigned long nsecs);

static inline u64 local_clock(void) { return arch_local_clock(); }
/* Cycles per microsecond of the clock behind local_clock(), 0 before calibration. */
static inline u64 clock_khz(void) { return arch_clock_khz(); }
static inline void udelay(unsigned long usecs) { arch_udelay(usecs); }
static inline void ndelay(unsigned long nsecs) { arch_ndelay(nsecs); }
/*
 * One deadline for the whole delay, not Linux's loop of udelay(1000): a
 * busy-wait ends at the first clock read past its deadline, so a vCPU the
 * host stalls for a while loses one stall per udelay() of a loop. Under
 * TCG on a loaded host every cpu_relax() can cost such a stall, and
 * rcutorture's 300 ms reader delay (interrupts off) lasted 4.5 s.
 */
static inline void mdelay(unsigned long ms) { ndelay(ms * NSEC_PER_MSEC); }

static inline unsigned long msecs_to_jiffies(unsigned long ms) { return DIV_ROUND_UP(ms * HZ, 1000); }
static inline unsigned long usecs_to_jiffies(unsigned long us) { return DIV_ROUND_UP(us * HZ, 1000000); }
static inline unsigned long jiffies_to_msecs(unsigned long j) { return j * 1000 / HZ; }
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#endif
