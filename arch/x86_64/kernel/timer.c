/*
 * The local APIC timer as each CPU's tick device: calibrated once against
 * the TSC, then armed one-shot by the generic tick for each tick (and
 * for the next timer in dyntick-idle). Every expiry lands in tick_handle()
 * (kernel/time/tick.c).
 */
#include <time/time.h>
#include <time/tick.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <asm/processor.h>
#include <asm/barrier.h>
#include <asm/x86/x86.h>
#include <asm/x86/apic.h>

static u64 apic_ticks_per_ms;	/* at divide-by-16 */

static void lapic_timer_interrupt(struct pt_regs *regs)
{
	inc_irq_stat(local_timer);
	tick_handle();
}

static u32 lapic_timer_cur(void)
{
	return apic_read(APIC_TIMER_CUR);
}

/*
 * Count down from 0xffffffff and read the count with the TSC about 10 ms
 * apart, each read bracketed by its own cycle reads (tsc_bracketed_read()),
 * so that a vCPU the host deschedules in between only lengthens the
 * interval (as in tsc_calibrate(), arch/x86_64/kernel/tsc.c; unbracketed,
 * a loaded host made the rate read 1.3-1.6 GHz instead of QEMU's 1 GHz).
 * Best of a few.
 */
void lapic_timer_calibrate(void)
{
	u64 cycles = tsc_khz * 10, best_err = ~0ULL;	/* 10 ms */

	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	for (int i = 0; i < 5 && best_err > cycles / 2000; i++) {
		u64 t0, t1, w0, w1, err;
		u32 c0, c1;

		apic_write(APIC_TIMER_INIT, 0xffffffff);
		c0 = tsc_bracketed_read(lapic_timer_cur, &t0, &w0);
		while (arch_read_cycles() - t0 < cycles)
			cpu_relax();
		c1 = tsc_bracketed_read(lapic_timer_cur, &t1, &w1);
		err = (w0 + w1) / 2;
		if (err < best_err) {
			best_err = err;
			/* APIC ticks per TSC-measured millisecond */
			apic_ticks_per_ms = (u64)(c0 - c1) * tsc_khz / (t1 - t0);
		}
	}
	apic_write(APIC_TIMER_INIT, 0);
	x86_set_irq_handler(LOCAL_TIMER_VECTOR, lapic_timer_interrupt);
	printk(KERN_INFO "APIC timer: %llu.%03llu MHz bus clock, tick at %d HZ\n",
	       (unsigned long long)(apic_ticks_per_ms * 16 / 1000),
	       (unsigned long long)(apic_ticks_per_ms * 16 % 1000), HZ);
}

/*
 * tsc_refine.c found the TSC's rate off: apic_ticks_per_ms counted APIC
 * ticks per TSC-measured millisecond, so it was off by the same factor.
 * The next arming uses the new value. Returns the bus clock in kHz.
 */
u64 lapic_timer_rescale(u64 old_khz, u64 new_khz)
{
	u64 t = apic_ticks_per_ms * new_khz / old_khz;

	WRITE_ONCE(apic_ticks_per_ms, t);
	return t * 16;	/* the bus clock in kHz: the count runs at divide-by-16 */
}

/*
 * The timer only ever runs one-shot: the generic tick re-arms it from its
 * handler (kernel/time/tick.c). A periodic APIC timer keeps firing in
 * QEMU whether or not its vCPU runs, and QEMU's main loop, which delivers
 * every vCPU's expiries under its global lock, then falls behind for good
 * once vCPUs outnumber host cores enough (seen at -smp 255 with every CPU
 * busy: QEMU stopped running the guest at all). A one-shot fires again
 * only after the guest has handled it, so a starved vCPU costs nothing.
 * Interrupts are off in every caller (the LVT and count writes are a pair).
 */
static DEFINE_PER_CPU(bool, lapic_oneshot);	/* LVT is set to one-shot, unmasked */

void arch_timer_set_oneshot(u64 delta_ns)
{
	u64 count = delta_ns * READ_ONCE(apic_ticks_per_ms) / NSEC_PER_MSEC;

	if (count == 0)
		count = 1;
	if (count > 0xffffffffULL)
		count = 0xffffffffULL;
	if (!this_cpu_read(lapic_oneshot)) {
		apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
		apic_write(APIC_LVT_TIMER, LOCAL_TIMER_VECTOR);	/* one-shot */
		this_cpu_write(lapic_oneshot, true);
	}
	apic_write(APIC_TIMER_INIT, (u32)count);	/* starts the count (and replaces one running) */
}

void arch_timer_stop(void)
{
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TIMER_INIT, 0);
	this_cpu_write(lapic_oneshot, false);
}

void lapic_timer_setup_this_cpu(void)
{
	/*
	 * apic_init_*() left the LVT masked. The flag must say so: an AP's
	 * per-CPU area starts as a copy of the boot CPU's, taken after the
	 * boot CPU had set its own flag.
	 */
	this_cpu_write(lapic_oneshot, false);
	tick_setup_this_cpu();
}
