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
#define CALIBRATE_MS	10

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

/*
 * One PIT one-shot of CALIBRATE_MS. Returns the TSC cycles it took and, in
 * *err, how uncertain the two endpoints are. The start lies between the
 * cycle reads around the gate write. The terminal count lies between the
 * start of the last poll that still read OUT2 low and the end of the first
 * that read it high: not just around the final read, because under TCG the
 * vCPU thread can be descheduled between two polls, and then the final read
 * comes milliseconds after the count ended (seen on a loaded host: one boot
 * in about twenty calibrated 3339 MHz for a 2096 MHz TSC, so its clock ran
 * at 0.63 of real time and the guest overran its host-side time limit).
 */
static u64 tsc_pit_once(u64 *err)
{
	u32 ticks = PIT_HZ * CALIBRATE_MS / 1000;
	u64 a0, a1, b0, b1, last_low;
	u8 v;

	/* Channel 2, mode 0 (one-shot), binary; the gate (bit 0 of 0x61) starts it. */
	v = inb(0x61);
	outb(0x61, (v & ~0x02) & ~0x01);
	outb(0x43, 0xb0);
	outb(0x42, ticks & 0xff);
	outb(0x42, ticks >> 8);
	a0 = arch_read_cycles();
	outb(0x61, (inb(0x61) & ~0x02) | 0x01);
	a1 = arch_read_cycles();
	last_low = a0;		/* OUT2 was low when the gate opened */
	for (;;) {		/* OUT2 goes high at terminal count */
		b0 = arch_read_cycles();
		if (inb(0x61) & 0x20)
			break;
		last_low = b0;
	}
	b1 = arch_read_cycles();
	outb(0x61, v);
	*err = (a1 - a0) + (b1 - last_low);
	return (last_low + b1) / 2 - (a0 + a1) / 2;
}

/*
 * Several tries; keep the one with the tightest endpoints. A single try
 * under a loaded host was seen to read anywhere from 2.3 to 8.8 GHz.
 */
void tsc_calibrate(void)
{
	u64 best = 0, best_err = ~0ULL;

	for (int i = 0; i < 10; i++) {
		u64 err, c = tsc_pit_once(&err);

		if (err < best_err) {
			best = c;
			best_err = err;
		}
		if (best_err < best / 1000)	/* within 0.1%: good enough */
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
