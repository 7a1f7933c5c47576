/*
 * Full dynticks (CONFIG_NO_HZ_FULL): nohz_full=<cpulist> names CPUs whose
 * scheduling-clock tick stops even while they run a task, as long as
 * nothing depends on it. This file owns the masks (nohz_full CPUs and the
 * housekeeping CPUs, <sched/isolation.h>) and the tick dependencies: bits
 * that subsystems set, globally or for one CPU, to say "this CPU needs its
 * tick" (the scheduler while two tasks share a CPU, RCU while a grace
 * period waits for a CPU busy in the kernel). Setting a bit kicks the CPU
 * concerned so that it restarts its tick now; clearing one lets the next
 * interrupt exit stop it again. The stop/restart decision itself is
 * tick-sched.c's (tick_nohz_full_update()), since it shares the
 * dyntick-idle state.
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "tick"

#include <sched/isolation.h>
#include <time/tick.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <kernel/percpu.h>
#include <kernel/sprintf.h>

/*
 * nohz_full=<cpulist>: the parser rejects a malformed list, or one naming
 * a CPU beyond nr_cpu_ids, with one warning and keeps it empty (no CPU).
 */
static DECLARE_BITMAP(nohz_full_param, NR_CPUS);
KPARAM_CPULIST("nohz_full", nohz_full_param, NR_CPUS,
	       "CPUs that stop their tick while running one task (full dynticks; CPU 0 excluded)");

bool tick_nohz_full_running;
static struct cpumask nohz_full_mask;
static struct cpumask housekeeping_mask;

/* Dependencies: every nohz_full CPU (tick_dep_set()) or one (tick_dep_set_cpu()). */
static unsigned long tick_dep_global;
static DEFINE_PER_CPU(unsigned long, tick_dep_cpu);

const struct cpumask *housekeeping_cpumask(void)
{
	return &housekeeping_mask;
}

const struct cpumask *tick_nohz_full_cpumask(void)
{
	return &nohz_full_mask;
}

/*
 * From start_kernel, before rcu_init() (which offloads these CPUs'
 * callbacks) and before any kthread exists (unbound kthreads take the
 * housekeeping mask). CPU 0 keeps jiffies and boots the others: it can
 * never be a nohz_full CPU, as in Linux.
 */
void housekeeping_init(void)
{
	char given[128], used[128];
	unsigned int cpu;

	cpumask_copy(&housekeeping_mask, cpu_possible_mask);
	for_each_possible_cpu(cpu)
		if (test_bit(cpu, nohz_full_param))
			cpumask_set_cpu(cpu, &nohz_full_mask);
	if (cpumask_test_cpu(0, &nohz_full_mask)) {
		cpumask_clear_cpu(0, &nohz_full_mask);
		scnprintf(given, sizeof(given), "%*pbl", NR_CPUS, nohz_full_param);
		scnprintf(used, sizeof(used), "%*pbl", NR_CPUS, cpumask_bits(&nohz_full_mask));
		pr_warn("tick: nohz_full=%s: CPU 0 (the boot CPU) stays a housekeeping CPU, using %s\n",
			given, used[0] ? used : "none");
	}
	if (cpumask_empty(&nohz_full_mask))
		return;
	cpumask_andnot(&housekeeping_mask, cpu_possible_mask, &nohz_full_mask);
	scnprintf(used, sizeof(used), "%*pbl", NR_CPUS, cpumask_bits(&nohz_full_mask));
	pr_info("NO_HZ: Full dynticks CPUs: %s.\n", used);
	WRITE_ONCE(tick_nohz_full_running, true);
}

/* Any dependency on cpu's tick (cpu's own bits or the global ones)? */
bool tick_dep_pending(int cpu)
{
	return READ_ONCE(tick_dep_global) || READ_ONCE(per_cpu(tick_dep_cpu, cpu));
}

/*
 * Make cpu look at its dependencies now. The local CPU restarts its tick
 * at once (tick_nohz_full_kick_self(); in an interrupt, its exit does it);
 * another CPU gets a reschedule IPI, an interrupt whose exit re-evaluates
 * its tick (need_resched is not set: the IPI itself is the message).
 */
static void tick_nohz_full_kick_cpu(int cpu)
{
	unsigned long flags;

	if (!tick_nohz_full_cpu(cpu) || !cpu_online(cpu))
		return;
	local_irq_save(flags);
	if (cpu == (int)raw_smp_processor_id()) {
		if (!in_interrupt())
			tick_nohz_full_kick_self();
	} else {
		smp_send_reschedule(cpu);
	}
	local_irq_restore(flags);
}

void tick_dep_set_cpu(int cpu, enum tick_dep_bits bit)
{
	/* Only a new dependency needs the kick; the bit's store precedes the IPI. */
	if (!test_and_set_bit(bit, &per_cpu(tick_dep_cpu, cpu)))
		tick_nohz_full_kick_cpu(cpu);
}

void tick_dep_clear_cpu(int cpu, enum tick_dep_bits bit)
{
	/* No kick: the CPU's next tick sees the bit gone and stops it again. */
	clear_bit(bit, &per_cpu(tick_dep_cpu, cpu));
}

void tick_dep_set(enum tick_dep_bits bit)
{
	unsigned int cpu;

	if (test_and_set_bit(bit, &tick_dep_global))
		return;
	for_each_cpu(cpu, &nohz_full_mask)
		tick_nohz_full_kick_cpu(cpu);
}

void tick_dep_clear(enum tick_dep_bits bit)
{
	clear_bit(bit, &tick_dep_global);
}

/* For the KTAP suite and the power-off line: cpu's dependency bits, global ones included. */
unsigned long tick_dep_mask_cpu(int cpu)
{
	return READ_ONCE(tick_dep_global) | READ_ONCE(per_cpu(tick_dep_cpu, cpu));
}
