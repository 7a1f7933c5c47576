/*
 * The TSC is the clock behind local_clock(): calibrated once at boot
 * against PIT channel 2 (gated through port 0x61), then read lock-free on
 * every CPU. Time zero is kernel entry (under KVM the TSC does not start
 * near zero at power-on, so its raw value is no "time since boot").
 */
#include <time/time.h>
#include <kernel/printk.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/barrier.h>
#include <asm/x86/x86.h>

#define PIT_HZ		1193182ULL
#define CALIBRATE_MS	30	/* < 54 ms: the 16-bit PIT count must not wrap */

u64 tsc_khz;
static u64 tsc_boot;
/* ns = cycles * mult >> 32, precomputed so the hot path needs no division. */
static u64 tsc_mult;

static u64 cycles_to_ns(u64 cycles)
{
	return (u64)(((unsigned __int128)cycles * tsc_mult) >> 32);
}

u64 arch_local_clock(void)
{
	u64 mult = READ_ONCE(tsc_mult);

	if (!mult)
		return 0;
	return cycles_to_ns(arch_read_cycles() - tsc_boot);
}

u64 arch_clock_khz(void)
{
	return tsc_khz;
}

void arch_ndelay(unsigned long nsecs)
{
	u64 start = arch_read_cycles();
	u64 cycles = tsc_khz ? nsecs * tsc_khz / 1000000 : nsecs * 3;

	while (arch_read_cycles() - start < cycles)
		cpu_relax();
}

void arch_udelay(unsigned long usecs)
{
	ndelay(usecs * 1000);
}

void tsc_mark_boot(void)
{
	tsc_boot = arch_read_cycles();
}

/* PIT channel 2's current count, latched so that the two byte reads agree. */
static u32 pit2_read(void)
{
	u8 lo, hi;

	outb(0x43, 0x80);	/* counter-latch command, channel 2 */
	lo = inb(0x42);
	hi = inb(0x42);
	return (u32)(lo | hi << 8);
}

u32 tsc_bracketed_read(u32 (*read)(void), u64 *tsc, u64 *width)
{
	u32 best = 0;

	*tsc = 0;
	*width = ~0ULL;
	for (int i = 0; i < 8; i++) {
		u64 a = arch_read_cycles();
		u32 c = read();
		u64 b = arch_read_cycles();

		if (b - a < *width) {
			*width = b - a;
			*tsc = a + (b - a) / 2;
			best = c;
		}
	}
	return best;
}

/*
 * One measurement: PIT channel 2 counts down from 0xffff (mode 0, gate on);
 * read it with the TSC at the start and again CALIBRATE_MS later. Each end
 * is as uncertain as its own bracketed read, whatever happens in between:
 * a vCPU descheduled by the host while waiting only lengthens the wait.
 * (The old method polled for the terminal count, and a deschedule between
 * two polls went unseen: on a loaded host one boot in about twenty
 * calibrated 3339 MHz for a 2096 MHz TSC, ran its clock at 0.63 of real
 * time and overran its host-side time limit.) Returns the cycles of the
 * interval scaled to CALIBRATE_MS and, in *err, its uncertainty likewise.
 */
static u64 tsc_pit_once(u64 *err)
{
	u32 want = PIT_HZ * CALIBRATE_MS / 1000;
	u64 t0, t1, w0, w1;
	u16 c0, c1;
	u8 v;

	v = inb(0x61);
	outb(0x61, (v & ~0x02) & ~0x01);	/* gate off, speaker off */
	outb(0x43, 0xb0);			/* channel 2, lo/hi byte, mode 0, binary */
	outb(0x42, 0xff);
	outb(0x42, 0xff);
	outb(0x61, (inb(0x61) & ~0x02) | 0x01);	/* gate on: counting starts */
	c0 = (u16)tsc_bracketed_read(pit2_read, &t0, &w0);
	while ((u16)(c0 - pit2_read()) < want)
		cpu_relax();
	c1 = (u16)tsc_bracketed_read(pit2_read, &t1, &w1);
	outb(0x61, v);
	/* Scale to exactly `want` PIT ticks; c0 - c1 >= want and < 0xffff. */
	*err = (w0 + w1) / 2 * want / (u16)(c0 - c1) + 1;
	return (t1 - t0) * want / (u16)(c0 - c1);
}

/*
 * Several tries when the first is doubtful; keep the best-bracketed one.
 * (Timing a single PIT one-shot, under a loaded host, was seen to read
 * anywhere from 2.3 to 8.8 GHz.)
 */
void tsc_calibrate(void)
{
	u64 best = 0, best_err = ~0ULL;

	for (int i = 0; i < 5; i++) {
		u64 err, c = tsc_pit_once(&err);

		if (err < best_err) {
			best = c;
			best_err = err;
		}
		if (best_err < best / 2000)	/* within 0.05%: good enough */
			break;
	}
	tsc_khz = best / CALIBRATE_MS;
	tsc_mult = ((u64)1000000 << 32) / tsc_khz;
	printk(KERN_INFO "tsc: Detected %llu.%03llu MHz processor\n",
	       (unsigned long long)(tsc_khz / 1000), (unsigned long long)(tsc_khz % 1000));
	if (best_err >= best / 100)	/* every try was disturbed: say how much to doubt it */
		printk(KERN_WARNING "tsc: calibration uncertain by %llu%% (the host kept descheduling this CPU)\n",
		       (unsigned long long)(best_err * 100 / best));
}
