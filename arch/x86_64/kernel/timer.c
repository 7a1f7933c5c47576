/*
 * The local APIC timer as each CPU's tick device: calibrated once against
 * the TSC, then run periodically at HZ (or one-shot, for dyntick-idle).
 * Every expiry lands in tick_handle() (kernel/time/tick.c).
 */
#include <kernel/time.h>
#include <kernel/tick.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <asm/x86/x86.h>
#include <asm/x86/apic.h>

static u64 apic_ticks_per_ms;	/* at divide-by-16 */

static void lapic_timer_interrupt(struct pt_regs *regs)
{
	inc_irq_stat(local_timer);
	tick_handle();
}

void lapic_timer_calibrate(void)
{
	u64 t0, cycles = tsc_khz * 10;	/* 10 ms */

	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TIMER_INIT, 0xffffffff);
	t0 = arch_read_cycles();
	while (arch_read_cycles() - t0 < cycles)
		;
	apic_ticks_per_ms = (0xffffffffULL - apic_read(APIC_TIMER_CUR)) / 10;
	apic_write(APIC_TIMER_INIT, 0);
	x86_set_irq_handler(LOCAL_TIMER_VECTOR, lapic_timer_interrupt);
	printk(KERN_INFO "APIC timer: %llu.%03llu MHz bus clock, tick at %d HZ\n",
	       (unsigned long long)(apic_ticks_per_ms * 16 / 1000),
	       (unsigned long long)(apic_ticks_per_ms * 16 % 1000), HZ);
}

/*
 * Never let the timer be periodic with a stale count, even between two
 * register writes. Coming from one-shot mode the initial count may be as
 * small as 1 (a 32 ns period at divide-by-16): QEMU's APIC model then
 * re-arms its timer one period at a time from the last expiry, and once
 * its main loop falls behind (a vCPU thread descheduled on a busy host
 * between our writes) it never catches up, holding QEMU's global lock
 * so that no vCPU, not even the one about to write the real count, runs
 * again: the whole guest hangs. So stop the timer (count 0) first, then
 * switch the mode, then load the period, which starts it.
 */
void arch_timer_set_periodic(void)
{
	apic_write(APIC_TIMER_INIT, 0);
	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, (u32)(apic_ticks_per_ms * 1000 / HZ));
}

void arch_timer_set_oneshot(u64 delta_ns)
{
	u64 count = delta_ns * apic_ticks_per_ms / NSEC_PER_MSEC;

	if (count == 0)
		count = 1;
	if (count > 0xffffffffULL)
		count = 0xffffffffULL;
	/* One-shot before the new count: a stale count then fires once at most. */
	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	apic_write(APIC_LVT_TIMER, LOCAL_TIMER_VECTOR);	/* one-shot */
	apic_write(APIC_TIMER_INIT, (u32)count);
}

void arch_timer_stop(void)
{
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TIMER_INIT, 0);
}

void lapic_timer_setup_this_cpu(void)
{
	tick_setup_this_cpu();
}
