/*
 * The late re-check of the TSC's rate, as Linux's refined calibration
 * (tsc_refine_calibration_work()) does about a second after boot: compare
 * the TSC with the ACPI PM timer over that whole interval, which is far
 * more precise than the boot calibration's 50 ms windows, and adopt the
 * result. Linux keeps its boot value when the two differ by more than 1%;
 * here the boot value is the one that can be wrong (a host that starved
 * this vCPU through the whole calibration), so it is corrected, with a
 * warning, and the APIC timer's rate (measured against the TSC) with it.
 *
 * The PM timer wraps every 4.7 s (24 bits), and a second late by a slow
 * guest clock or a descheduled vCPU may be much longer: the CMOS RTC's
 * time of day, read around each PM timer sample, says how many whole
 * periods passed (its seconds place each sample within one second).
 */
#include <kernel/init.h>
#include <kernel/printk.h>
#include <time/time.h>
#include <time/timer.h>
#include <time/clock_calib.h>
#include <asm/io.h>
#include <asm/x86/x86.h>

#define PMTMR_HZ	3579545ULL
#define SECS_PER_DAY	86400u

struct refine_sample {
	u64 tsc;	/* TSC at the PM timer read (middle of its bracket) */
	u64 width;	/* the bracket */
	u32 pm;		/* PM timer count */
	u32 rtc;	/* RTC second of the day within which the read fell */
};

static struct refine_sample refine_start;
static bool refine_armed;
static struct timer_list refine_timer;

static u8 cmos_read(u8 reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static u32 bcd(u8 v, bool binary)
{
	return binary ? v : (v >> 4) * 10 + (v & 0x0f);
}

/* The RTC's second of the day; false if it was never seen between updates. */
static bool rtc_second(u32 *secs)
{
	for (int i = 0; i < 100000; i++) {
		u8 s, m, h, b;
		bool bin;
		u32 hour;

		if (cmos_read(0x0a) & 0x80)	/* update in progress */
			continue;
		s = cmos_read(0x00);
		m = cmos_read(0x02);
		h = cmos_read(0x04);
		b = cmos_read(0x0b);
		if (cmos_read(0x0a) & 0x80 || s != cmos_read(0x00))
			continue;
		bin = b & 0x04;			/* else BCD */
		if (b & 0x02)			/* 24-hour mode */
			hour = bcd(h, bin);
		else				/* 12-hour: bit 7 is PM */
			hour = bcd(h & 0x7f, bin) % 12 + (h & 0x80 ? 12 : 0);
		*secs = hour * 3600 + bcd(m, bin) * 60 + bcd(s, bin);
		return true;
	}
	return false;
}

static u32 pmtmr_read32(void)
{
	return (u32)pmtmr_read();
}

/* A PM timer read with the TSC around it, inside one RTC second. */
static bool refine_sample(struct refine_sample *s)
{
	for (int i = 0; i < 5; i++) {
		u32 r0, r1;

		if (!rtc_second(&r0))
			return false;
		s->pm = tsc_bracketed_read(pmtmr_read32, &s->tsc, &s->width);
		if (!rtc_second(&r1))
			return false;
		if (r1 == r0) {
			s->rtc = r0;
			return true;
		}
	}
	return false;
}

void tsc_refine_anchor(void)
{
	refine_armed = refine_sample(&refine_start);
}

#define MHZ(k)	(unsigned long long)((k) / 1000), (unsigned long long)((k) % 1000)

static void tsc_refine(struct timer_list *unused)
{
	struct refine_sample end;
	u64 period = 1ULL << acpi_pm_tmr_bits, ticks, cycles, khz, bus, old = tsc_khz;
	u32 secs;
	s64 off;

	if (!refine_sample(&end))
		return;
	secs = (end.rtc + SECS_PER_DAY - refine_start.rtc) % SECS_PER_DAY;
	cycles = end.tsc - refine_start.tsc;
	ticks = (end.pm - refine_start.pm) & (period - 1);
	/* Whole PM timer periods the RTC says passed unseen (each sample is within its second). */
	while (ticks + period / 2 < secs * PMTMR_HZ)
		ticks += period;
	off = (s64)(ticks - secs * PMTMR_HZ);
	if (!ticks || off > (s64)PMTMR_HZ * 3 / 2 || off < -(s64)PMTMR_HZ * 3 / 2 ||
	    (refine_start.width + end.width) * 2000 > cycles)
		return;		/* the RTC and the PM timer disagree, or a read was disturbed */
	khz = clock_calib_khz(cycles, ticks, PMTMR_HZ);
	if (!khz)
		return;
	tsc_set_khz(khz);
	bus = lapic_timer_rescale(old, khz);
	if ((khz > old ? khz - old : old - khz) > old / 100)
		printk(KERN_WARNING "tsc: boot calibration %llu.%03llu MHz is off by more than 1%% from PMTIMER over %llu ms: correcting the clock, and the APIC timer to %llu.%03llu MHz\n",
		       MHZ(old), (unsigned long long)(ticks * 1000 / PMTMR_HZ), MHZ(bus));
	printk(KERN_INFO "tsc: Refined TSC clocksource calibration: %llu.%03llu MHz\n", MHZ(khz));
}

/* As Linux, a second after boot (of this clock: later if it runs slow, which is harmless). */
static int tsc_refine_init(void)
{
	if (!refine_armed)
		return 0;
	timer_setup(&refine_timer, tsc_refine, 0);
	mod_timer(&refine_timer, jiffies + HZ);
	return 0;
}
late_initcall(tsc_refine_init);
