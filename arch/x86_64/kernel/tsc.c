/*
 * The TSC is the clock behind local_clock(): calibrated at boot, then read
 * lock-free on every CPU. Time zero is kernel entry (under KVM the TSC does
 * not start near zero at power-on, so its raw value is no "time since
 * boot"). The rate comes from CPUID when the CPU or hypervisor states it
 * (leaf 0x15, or 0x40000010 as QEMU/KVM and VMware give it), else from
 * measuring against the ACPI PM timer, or PIT channel 2 when that fails or
 * is absent; kernel/time/clock_calib.c does the measuring and says why it survives
 * a host that deschedules this vCPU.
 * About a second after boot tsc_refine.c measures again over a long
 * interval and corrects the rate, as Linux's refined calibration does.
 */
#define KPARAM_SUBSYS "tsc"
#include <time/time.h>
#include <time/clock_calib.h>
#include <kernel/printk.h>
#include <kernel/param.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/barrier.h>
#include <asm/x86/x86.h>

#define PIT_HZ		1193182ULL
#define PMTMR_HZ	3579545ULL
#define TSC_MIN_KHZ	100000ULL	/* plausible rates: 100 MHz... */
#define TSC_MAX_KHZ	10000000ULL	/* ...to 10 GHz */

u64 tsc_khz;
static u64 tsc_boot;

/* Linux's tsc_early_khz=: this rate instead of the calibrated one (the refinement still runs). */
static unsigned int tsc_early_khz;
KPARAM("tsc_early_khz", tsc_early_khz, KPARAM_UINT, 0, TSC_MAX_KHZ,
       "use this TSC rate (kHz) instead of the boot calibration's; 0: calibrate");

/*
 * ns = base_ns + (cycles - base_cycles) * mult >> 32, so the hot path needs
 * no division. A new rate is published as a new struct, never by editing
 * the one readers use: the boot calibration fills the first, tsc_early_khz=
 * the second and the refinement (at most once) the third, so no slot is
 * ever rewritten under a reader.
 */
struct tsc_clock {
	u64 base_cycles;
	u64 base_ns;
	u64 mult;
};
static struct tsc_clock tsc_clocks[3];
static unsigned int tsc_clocks_used;
static struct tsc_clock *tsc_clock_cur;	/* NULL until calibrated */

static u64 tsc_clock_ns(const struct tsc_clock *c, u64 cycles)
{
	s64 d = (s64)(cycles - c->base_cycles);

	/* A CPU that read the TSC just before another published a new base. */
	if (d < 0)
		d = 0;
	return c->base_ns + (u64)(((unsigned __int128)d * c->mult) >> 32);
}

u64 arch_local_clock(void)
{
	/* Pairs with the smp_store_release() in tsc_set_khz(): the fields first. */
	const struct tsc_clock *c = smp_load_acquire(&tsc_clock_cur);

	return c ? tsc_clock_ns(c, arch_read_cycles()) : 0;
}

u64 arch_clock_khz(void)
{
	return READ_ONCE(tsc_khz);
}

/*
 * Run the clock at khz from now on, continuing from the time it reads now
 * (the first call: from kernel entry). One caller at a time: the boot
 * calibration, tsc_early_khz=, the refinement, in that order.
 */
void tsc_set_khz(u64 khz)
{
	const struct tsc_clock *old = tsc_clock_cur;
	struct tsc_clock *c;
	u64 now = arch_read_cycles();

	if (tsc_clocks_used == ARRAY_SIZE(tsc_clocks))
		return;
	c = &tsc_clocks[tsc_clocks_used++];
	c->base_cycles = old ? now : tsc_boot;
	c->base_ns = old ? tsc_clock_ns(old, now) : 0;
	c->mult = ((u64)1000000 << 32) / khz;
	WRITE_ONCE(tsc_khz, khz);
	/* Pairs with the smp_load_acquire() in arch_local_clock(). */
	smp_store_release(&tsc_clock_cur, c);
}

void arch_ndelay(unsigned long nsecs)
{
	u64 start = arch_read_cycles();
	u64 khz = READ_ONCE(tsc_khz);
	u64 cycles = khz ? nsecs * khz / 1000000 : nsecs * 3;

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

/* The references, as clock_calib() reads them: counting up, from 0. */
static u64 pit_up(void)
{
	return (u16)(0x10000 - pit2_read());	/* channel 2 counts down */
}

u64 pmtmr_read(void)
{
	u32 v = inl(acpi_pm_tmr_port);

	return acpi_pm_tmr_bits == 32 ? v : v & 0xffffff;
}

static u64 tsc_cycles(void)
{
	return arch_read_cycles();
}

/*
 * PIT channel 2 in mode 0 from 0xffff, gate on: after the terminal count
 * it keeps counting down through 0xffff, a free-running 16-bit counter.
 */
static void pit2_start(void)
{
	u8 v = inb(0x61);

	outb(0x61, (v & ~0x02) & ~0x01);	/* gate off, speaker off */
	outb(0x43, 0xb0);			/* channel 2, lo/hi byte, mode 0, binary */
	outb(0x42, 0xff);
	outb(0x42, 0xff);
	outb(0x61, (inb(0x61) & ~0x02) | 0x01);	/* gate on: counting starts */
}

/*
 * The rate the hardware states: the hypervisor's leaf 0x40000010 (EAX: TSC
 * kHz), else CPUID 0x15 (crystal Hz * EBX / EAX); both are the TSC's rate
 * (*known set), as Linux takes them. Else 0x16 (EAX: base MHz), only a
 * nominal figure: under TCG the guest TSC runs at the host's rate whatever
 * CPUID says. 0 if none says; *src names the one that did.
 */
static u64 tsc_cpuid_khz(const char **src, bool *known)
{
	u32 a, b, c, d, max;

	*known = true;
	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1u << 31)) {		/* under a hypervisor */
		cpuid(0x40000000, 0, &max, &b, &c, &d);
		if (max >= 0x40000010 && max < 0x40000100) {
			cpuid(0x40000010, 0, &a, &b, &c, &d);
			if (a) {
				*src = "hypervisor CPUID 0x40000010";
				return a;
			}
		}
	}
	cpuid(0, 0, &max, &b, &c, &d);
	if (max >= 0x15) {
		cpuid(0x15, 0, &a, &b, &c, &d);
		if (a && b && c) {
			*src = "CPUID 0x15";
			return (u64)c * b / a / 1000;
		}
	}
	*known = false;
	if (max >= 0x16) {
		cpuid(0x16, 0, &a, &b, &c, &d);
		if (a & 0xffff) {
			*src = "CPUID 0x16";
			return (u64)(a & 0xffff) * 1000;
		}
	}
	return 0;
}

static bool khz_close(u64 x, u64 y)	/* within 1% */
{
	return (x > y ? x - y : y - x) <= (x > y ? x : y) / 100;
}

#define MHZ(k)	(unsigned long long)((k) / 1000), (unsigned long long)((k) % 1000)

void tsc_calibrate(void)
{
	static const struct clock_calib_ref pit = { "PIT", PIT_HZ, 16, pit_up, tsc_cycles };
	struct clock_calib_ref pm = { "PMTIMER", PMTMR_HZ, acpi_pm_tmr_bits, pmtmr_read, tsc_cycles };
	struct clock_calib_result rp = { 0 }, rm = { 0 };
	const char *src = NULL;
	bool known;
	u64 khz, cpuid_khz = tsc_cpuid_khz(&src, &known);

	/*
	 * 10 ms windows of the PM timer (it wraps in 4.7 s: stalls of up to
	 * ~0.2 s pass), else of the PIT (55 ms: ~20 ms). The refinement a
	 * second later is the cross-check, over a long interval.
	 */
	if (acpi_pm_tmr_port)
		clock_calib(&pm, PMTMR_HZ / 100, 40, &rm);
	if (!rm.used) {
		pit2_start();
		clock_calib(&pit, PIT_HZ / 100, 40, &rp);
		outb(0x61, inb(0x61) & ~0x03);	/* gate off again */
	}
	khz = rm.used ? rm.khz : rp.khz;
	if (!khz && rm.fallback_khz) {
		/* Disturbed tries against the PM timer are still right unless a stall hid 4.7 s. */
		khz = rm.fallback_khz;
		printk(KERN_WARNING "tsc: calibration uncertain: no undisturbed try of %u against PMTIMER (the host kept descheduling this CPU)\n",
		       rm.tries);
	}
	if (cpuid_khz && khz && !khz_close(khz, cpuid_khz))
		printk(KERN_WARNING "tsc: %s says %llu.%03llu MHz, calibration %llu.%03llu MHz: using %s\n",
		       src, MHZ(cpuid_khz), MHZ(khz), known ? src : "the calibration");
	if (cpuid_khz && (known || !khz))
		khz = cpuid_khz;
	if (!khz) {
		/* No source at all: a wild guess beats no clock, and the refinement may fix it. */
		khz = rp.fallback_khz ?: 2000000;
		printk(KERN_WARNING "tsc: Fast TSC calibration failed: no usable try of %u against the PIT\n",
		       rp.tries);
	}
	if (khz < TSC_MIN_KHZ || khz > TSC_MAX_KHZ)
		printk(KERN_WARNING "tsc: %llu.%03llu MHz is implausible (outside %llu-%llu MHz)\n",
		       MHZ(khz), TSC_MIN_KHZ / 1000, TSC_MAX_KHZ / 1000);
	tsc_set_khz(khz);
	printk(KERN_INFO "tsc: Detected %llu.%03llu MHz processor\n", MHZ(khz));
	if (acpi_pm_tmr_port)
		tsc_refine_anchor();
}

/* After the command line is parsed (arch_boot_cpu_init(), before the APIC timer is measured). */
void tsc_apply_early_khz(void)
{
	u64 calibrated = tsc_khz;

	if (!tsc_early_khz)
		return;
	if (tsc_early_khz < TSC_MIN_KHZ)
		printk(KERN_WARNING "tsc: %u.%03u MHz is implausible (outside %llu-%llu MHz)\n",
		       tsc_early_khz / 1000, tsc_early_khz % 1000, TSC_MIN_KHZ / 1000, TSC_MAX_KHZ / 1000);
	tsc_set_khz(tsc_early_khz);
	printk(KERN_INFO "tsc: tsc_early_khz=%u: using %u.%03u MHz, not the calibrated %llu.%03llu MHz\n",
	       tsc_early_khz, tsc_early_khz / 1000, tsc_early_khz % 1000, MHZ(calibrated));
}
