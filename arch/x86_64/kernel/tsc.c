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
 * is as uncertain as its own bracketed read, provided the 16-bit count did
 * not wrap unseen: a vCPU descheduled by the host for more than the 25 ms
 * between "CALIBRATE_MS counted" and "count wrapped past it" comes back to
 * a count that looks short of the goal or just past it, and the interval
 * then holds whole PIT periods (55 ms each) the count does not show. Seen
 * on a loaded host: 19634 MHz for a 2096 MHz TSC, a guest clock running at
 * a tenth of real time. (The older method polled for the terminal count
 * and missed deschedules the same way: 3339 MHz for 2096.) Returns the
 * cycles of the interval scaled to CALIBRATE_MS and, in *err, its
 * uncertainty likewise.
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

#define TSC_TRIES	10

/*
 * An unseen wrap adds at least one whole PIT period to an interval of at
 * most one: it makes a try read at least twice too fast, never too slow,
 * and two such tries agree only by chance. So: try until two tries agree
 * within 0.1% and keep the better bracketed of the two. If no two of
 * TSC_TRIES agree (a host descheduling this vCPU all the time), keep the
 * slowest reading, the one least likely to hold a wrap, and say so.
 * (Timing a single PIT one-shot, under a loaded host, was seen to read
 * anywhere from 2.3 to 8.8 GHz.)
 */
void tsc_calibrate(void)
{
	u64 c[TSC_TRIES], err[TSC_TRIES], best = 0, best_err = 0;
	bool agreed = false;
	int n;

	for (n = 0; n < TSC_TRIES && !agreed; n++) {
		c[n] = tsc_pit_once(&err[n]);
		for (int j = 0; j < n; j++) {
			u64 hi = c[n] > c[j] ? c[n] : c[j], lo = c[n] > c[j] ? c[j] : c[n];

			if (hi - lo <= hi / 1000) {
				int k = err[n] < err[j] ? n : j;

				best = c[k];
				best_err = err[k];
				agreed = true;
				break;
			}
		}
	}
	if (!agreed) {
		for (int j = 0; j < TSC_TRIES; j++)
			if (!best || c[j] < best)
				best = c[j];
	}
	tsc_khz = best / CALIBRATE_MS;
	tsc_mult = ((u64)1000000 << 32) / tsc_khz;
	printk(KERN_INFO "tsc: Detected %llu.%03llu MHz processor\n",
	       (unsigned long long)(tsc_khz / 1000), (unsigned long long)(tsc_khz % 1000));
	if (!agreed)
		printk(KERN_WARNING "tsc: calibration uncertain: no two of %d tries agreed (the host kept descheduling this CPU)\n",
		       TSC_TRIES);
	else if (best_err >= best / 100)
		printk(KERN_WARNING "tsc: calibration uncertain by %llu%% (the host kept descheduling this CPU)\n",
		       (unsigned long long)(best_err * 100 / best));
}
