/*
 * What one CPU asks of the others through an NMI, which reaches a CPU
 * spinning with interrupts off: print a backtrace (stall warnings, SysRq
 * l, CSD-lock stalls), or stop for good (panic, power-off). The arch's
 * NMI handler calls smp_stop_requested()/smp_stop_this_cpu() and
 * nmi_cpu_backtrace(); it sends the NMI with arch_send_nmi().
 */
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/atomic.h>
#include <kernel/bug.h>
#include <time/tick.h>
#include <time/time.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>

/* CPUs asked for a backtrace and not done yet; each clears its own bit. */
static struct cpumask backtrace_mask;
static unsigned long backtrace_busy;	/* bit 0: a request is in progress */
/* When the NMI now being waited for was sent (local_clock()). */
static u64 backtrace_sent_ns;
/* An NMI interrupts whatever runs: one this late found the CPU not executing at all. */
#define BACKTRACE_LATE_NS	(10 * NSEC_PER_MSEC)
/* The CPU stopping the others (-1: none); stopped CPUs set their bit in stopped_mask. */
static int stopping_cpu = -1;
static struct cpumask stopped_mask;

/*
 * Spin until done(arg) or timeout_ns have passed. Works with interrupts
 * off and in panic; before the clock is calibrated it counts udelay(1)s.
 */
static bool spin_until(bool (*done)(const void *), const void *arg, u64 timeout_ns)
{
	u64 start = local_clock(), waited = 0;

	while (!done(arg)) {
		if (clock_khz()) {
			if (local_clock() - start >= timeout_ns)
				return done(arg);
			cpu_relax();
		} else {
			if (waited >= timeout_ns)
				return done(arg);
			udelay(1);
			waited += NSEC_PER_USEC;
		}
	}
	return true;
}

/* Called in the NMI handler (regs) or for this CPU directly (NULL). */
bool nmi_cpu_backtrace(struct pt_regs *regs)
{
	unsigned int cpu = raw_smp_processor_id();
	u64 now = local_clock();	/* before printing, which may wait for the console */

	if (!cpumask_test_cpu(cpu, &backtrace_mask))
		return false;
	printk(KERN_WARNING "NMI backtrace for cpu %u\n", cpu);
	if (regs) {
		u64 sent = READ_ONCE(backtrace_sent_ns);

		if (sent && now > sent + BACKTRACE_LATE_NS)
			printk(KERN_WARNING "smp: CPU %u took this NMI %llu ms after it was sent: it was not executing (a vCPU its host did not run, or an SMI)\n",
			       cpu, (unsigned long long)((now - sent) / NSEC_PER_MSEC));
		arch_show_regs(regs);
	} else {
		dump_stack();
	}
	cpumask_clear_cpu(cpu, &backtrace_mask);
	return true;
}

static bool backtrace_done(const void *cpu)
{
	return !cpumask_test_cpu(*(const unsigned int *)cpu, &backtrace_mask);
}

/*
 * Print a backtrace of every online CPU in mask: this one directly, the
 * others through NMIs, one at a time so their reports do not interleave
 * (and no CPU waits for another inside an NMI). Gives up after 10 s.
 */
static bool nmi_trigger_backtrace(const struct cpumask *mask)
{
	struct cpumask targets;
	unsigned long flags;
	unsigned int me, cpu;
	u64 start, budget = 10 * NSEC_PER_SEC;

	if (test_and_set_bit(0, &backtrace_busy))
		return false;		/* another CPU's request is printing */
	preempt_disable();
	me = smp_processor_id();
	cpumask_and(&targets, mask, cpu_online_mask);
	cpumask_copy(&backtrace_mask, &targets);
	if (cpumask_test_cpu(me, &targets)) {
		local_irq_save(flags);
		nmi_cpu_backtrace(NULL);
		local_irq_restore(flags);
		cpumask_clear_cpu(me, &targets);
	}
	if (!cpumask_empty(&targets)) {
		printk(KERN_INFO "Sending NMI from CPU %u to CPUs %*pbl:\n", me,
		       nr_cpu_ids, cpumask_bits(&targets));
		start = local_clock();
		for_each_cpu(cpu, &targets) {
			u64 spent = local_clock() - start;

			/* Seen by the target as backtrace_mask is: the NMI's sending orders both. */
			WRITE_ONCE(backtrace_sent_ns, local_clock());
			arch_send_nmi(cpu);
			spin_until(backtrace_done, &cpu, spent < budget ? budget - spent : 0);
		}
	}
	clear_bit(0, &backtrace_busy);
	preempt_enable();
	return true;
}

void trigger_all_cpu_backtrace(void)
{
	nmi_trigger_backtrace(cpu_online_mask);
}

bool trigger_single_cpu_backtrace(int cpu)
{
	struct cpumask one;

	if ((unsigned int)cpu >= nr_cpu_ids || !cpu_online(cpu))
		return false;
	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	return nmi_trigger_backtrace(&one);
}

bool smp_stop_requested(void)
{
	int stopper = READ_ONCE(stopping_cpu);

	return stopper >= 0 && stopper != (int)raw_smp_processor_id();
}

void smp_stop_this_cpu(void)
{
	unsigned int cpu = raw_smp_processor_id();

	local_irq_disable();
	arch_timer_stop();	/* a halted CPU's timer would only keep the host busy */
	set_cpu_online(cpu, false);
	cpumask_set_cpu(cpu, &stopped_mask);
	for (;;)
		arch_halt();
}

/*
 * The CPUs of mask that have not yet set their bit in stopped_mask. Those
 * bits are set (atomically) by CPUs still running while this one watches,
 * so each word is read with READ_ONCE (KCSAN: "data-race in bitmap_andnot"
 * at power-off, a plain read of a word smp_stop_this_cpu() was changing).
 */
static void not_yet_stopped(struct cpumask *left, const struct cpumask *mask)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		cpumask_bits(left)[i] = cpumask_bits(mask)[i] &
					~READ_ONCE(cpumask_bits(&stopped_mask)[i]);
}

static bool all_stopped(const void *mask)
{
	struct cpumask left;

	not_yet_stopped(&left, mask);
	return cpumask_empty(&left);
}

/*
 * Stop every other online CPU through an NMI (which reaches a CPU spinning
 * with interrupts off) and wait up to 1 s for them. Safe from panic with
 * interrupts off; a second call does nothing. If another CPU is already
 * stopping everyone, this CPU stops too.
 */
void smp_send_stop(void)
{
	int me = raw_smp_processor_id(), old = -1;
	struct cpumask targets, left;
	unsigned int cpu;

	if (!try_cmpxchg(&stopping_cpu, &old, me)) {
		if (old == me)
			return;
		smp_stop_this_cpu();
	}
	cpumask_copy(&targets, cpu_online_mask);
	cpumask_clear_cpu(me, &targets);
	if (cpumask_empty(&targets))
		return;
	for_each_cpu(cpu, &targets)
		arch_send_nmi(cpu);
	if (!spin_until(all_stopped, &targets, NSEC_PER_SEC)) {
		not_yet_stopped(&left, &targets);
		printk(KERN_EMERG "smp: failed to stop secondary CPUs %*pbl\n",
		       nr_cpu_ids, cpumask_bits(&left));
	}
	/* A CPU stopped inside printk must not keep the console. */
	console_force_unlock();
}
