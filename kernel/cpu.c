/*
 * CPU hotplug: cpu_down() and cpu_up() for any CPU but the boot CPU, at
 * run time, one at a time (cpu_hotplug_lock). Documentation/RCU/hotplug.md
 * describes the whole sequence; in short, for cpu_down(cpu):
 *
 *   controller: rcutree_offline_cpu() parks rcuc/N (and
 *               rcu_tasks_rude_offline_cpu() rcu_rude/N); a "cpuhp/N" stopper
 *               kthread at SCHED_FIFO 99 is woken on the CPU.
 *   dying CPU (stopper, interrupts off): leaves the online mask, runs the
 *               cross calls already queued or being queued
 *               (smp_cpu_dying_flush()), closes its runqueue and moves
 *               every queued task away (sched_cpu_dying()); then the
 *               stopper exits and the CPU's idle loop, seeing it offline,
 *               calls cpuhp_idle_dead(): tick stopped and jiffies duty
 *               handed over, rcu_report_dead(), and arch_cpu_die() halts
 *               it for good (x86: interrupts off, waiting for INIT).
 *   controller: waits for that, gives the free objects its kmalloc
 *               caches hold back to the slab pages (kmalloc_cpu_dead())
 *               and its per-CPU free pages to the zone (page_pcp_cpu_dead()),
 *               moves its timers here
 *               (timers_dead_cpu()) and its RCU callbacks to a CPU that
 *               stays (rcutree_migrate_callbacks()): "smpboot: CPU N is
 *               now offline".
 *
 * cpu_up(cpu) re-runs the per-CPU bring-up of boot (arch_cpu_up(): on x86
 * INIT-SIPI-SIPI into the trampoline, then the same path as at boot,
 * rcu_cpu_starting() included), then unparks rcuc/N (and rcu_rude/N).
 */
#define KPARAM_SUBSYS "cpuhp"
#include <kernel/cpu.h>
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/irqflags.h>
#include <kernel/barrier.h>
#include <locking/mutex.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <sched/completion.h>
#include <time/time.h>
#include <time/tick.h>
#include <time/timer.h>
#include <rcu/hooks.h>
#include <rcu/tasks_rude.h>
#include <mm/slab.h>
#include <mm/mm.h>

static DEFINE_MUTEX(cpu_hotplug_lock);

/* Completed operations and their durations (ns), under cpu_hotplug_lock. */
static struct {
	unsigned long n_offl, n_onl, n_offl_fail, n_onl_fail;
	unsigned long n_alone;	/* offline operations that left CPU 0 alone online */
	u64 offl_sum, offl_max, onl_sum, onl_max;
} cpuhp_stats;

/* What the dying CPU signals once it has reported to RCU: set by cpu_down() before it starts. */
static DEFINE_PER_CPU(struct completion *, cpuhp_dead_done);

void cpus_read_lock(void)
{
	mutex_lock(&cpu_hotplug_lock);
}

void cpus_read_unlock(void)
{
	mutex_unlock(&cpu_hotplug_lock);
}

struct cpuhp_stop {
	unsigned int cpu;
	struct completion stopped;
};

/* The stopper: runs on the dying CPU, ahead of everything but other FIFO 99 tasks. */
static int cpuhp_stopper(void *arg)
{
	struct cpuhp_stop *st = arg;
	unsigned int cpu = st->cpu;

	local_irq_disable();
	WARN_ON_ONCE(raw_smp_processor_id() != cpu);
	set_cpu_online(cpu, false);
	smp_mb();	/* online bit cleared before the senders' count is read: pairs with kernel/smp.c */
	smp_cpu_dying_flush(cpu);
	sched_cpu_dying(cpu);
	cpuhp_dying_window(cpu, false);	/* test kernels: held here, a reader, offline */
	local_irq_enable();
	cpuhp_dying_window(cpu, true);	/* and here, timer handlers running */
	complete(&st->stopped);
	return 0;	/* the exit switches to the idle task, which calls cpuhp_idle_dead() */
}

void cpuhp_idle_dead(void)
{
	unsigned int cpu = raw_smp_processor_id();
	struct completion *done = this_cpu_read(cpuhp_dead_done);

	WARN_ON_ONCE(!irqs_disabled());
	sched_cpu_idle_dead(cpu);
	tick_cpu_dying();
	timers_dying_cpu();	/* not left to the controller, which may not get a CPU soon */
	rcu_report_dead(cpu);	/* no RCU reader on this CPU from here */
	complete(done);		/* cpu_down() may go on: nothing of ours is touched after this */
	arch_cpu_die();
}

static void cpuhp_account(u64 ns, unsigned long *n, u64 *sum, u64 *max)
{
	(*n)++;
	*sum += ns;
	if (ns > *max)
		*max = ns;
}

int cpu_down(unsigned int cpu)
{
	struct sched_param sp = { .sched_priority = MAX_RT_PRIO - 1 };
	struct completion dead;
	struct cpuhp_stop st;
	struct task_struct *t;
	int ret = 0;
	u64 t0;

	if (cpu == 0 || cpu >= nr_cpu_ids)
		return -EINVAL;
	mutex_lock(&cpu_hotplug_lock);
	if (!cpu_online(cpu)) {
		ret = -EINVAL;
		goto out;
	}
	if (!rcutree_can_offline(cpu)) {
		printk(KERN_WARNING "smpboot: CPU %u stays online: no other online CPU without callback offloading could adopt its RCU callbacks\n",
		       cpu);
		ret = -EBUSY;
		goto out;
	}
	t0 = local_clock();
	st.cpu = cpu;
	init_completion(&st.stopped);
	init_completion(&dead);
	t = kthread_create_on_cpu(cpuhp_stopper, &st, cpu, "cpuhp/%u");
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	sched_setscheduler_nocheck(t, SCHED_FIFO, &sp);
	per_cpu(cpuhp_dead_done, cpu) = &dead;
	rcutree_offline_cpu(cpu);
	rcu_tasks_rude_offline_cpu(cpu);	/* its helper too: parked while the CPU is away */
	smp_mb();	/* cpuhp_dead_done before the stopper can run: the wakeup orders it too */
	wake_up_process(t);
	wait_for_completion(&st.stopped);
	wait_for_completion(&dead);
	cpuhp_dead_window(cpu);	/* test kernels: held here, as a starved caller is */
	kmalloc_cpu_dead(cpu);	/* its cached free objects back to the slab pages */
	page_pcp_cpu_dead(cpu);	/* its per-CPU free pages back to the zone, slab pages included */
	timers_dead_cpu(cpu);
	rcutree_migrate_callbacks(cpu);
	sched_cpu_dead(cpu);
	printk(KERN_INFO "smpboot: CPU %u is now offline\n", cpu);
	if (num_online_cpus() == 1)
		cpuhp_stats.n_alone++;
	cpuhp_account(local_clock() - t0, &cpuhp_stats.n_offl, &cpuhp_stats.offl_sum,
		      &cpuhp_stats.offl_max);
out:
	if (ret && ret != -EINVAL)	/* not a request for the state it was in */
		cpuhp_stats.n_offl_fail++;
	mutex_unlock(&cpu_hotplug_lock);
	return ret;
}

int cpu_up(unsigned int cpu)
{
	int ret;
	u64 t0;

	if (cpu == 0 || cpu >= nr_cpu_ids)
		return -EINVAL;
	mutex_lock(&cpu_hotplug_lock);
	if (cpu_online(cpu) || !arch_cpu_present(cpu)) {
		ret = -EINVAL;
		goto out;
	}
	t0 = local_clock();
	ret = arch_cpu_up(cpu);		/* returns once the CPU is online, in its idle loop */
	if (ret)
		goto out;
	rcutree_online_cpu(cpu);
	rcu_tasks_rude_online_cpu(cpu);
	cpuhp_account(local_clock() - t0, &cpuhp_stats.n_onl, &cpuhp_stats.onl_sum,
		      &cpuhp_stats.onl_max);
out:
	if (ret && ret != -EINVAL)
		cpuhp_stats.n_onl_fail++;
	mutex_unlock(&cpu_hotplug_lock);
	return ret;
}

unsigned long cpuhp_nr_offline_ops(void)
{
	return READ_ONCE(cpuhp_stats.n_offl);
}

unsigned long cpuhp_nr_online_ops(void)
{
	return READ_ONCE(cpuhp_stats.n_onl);
}

void cpuhp_show_stats(void)
{
	if (!cpuhp_stats.n_offl && !cpuhp_stats.n_offl_fail)
		return;
	printk(KERN_INFO "smpboot: hotplug: %lu offline (%lu failed), mean %llu us max %llu us; %lu online (%lu failed), mean %llu us max %llu us; online now %*pbl; CPU 0 alone %lu times\n",
	       cpuhp_stats.n_offl, cpuhp_stats.n_offl_fail,
	       (unsigned long long)(cpuhp_stats.n_offl ? cpuhp_stats.offl_sum / cpuhp_stats.n_offl / 1000 : 0),
	       (unsigned long long)(cpuhp_stats.offl_max / 1000),
	       cpuhp_stats.n_onl, cpuhp_stats.n_onl_fail,
	       (unsigned long long)(cpuhp_stats.n_onl ? cpuhp_stats.onl_sum / cpuhp_stats.n_onl / 1000 : 0),
	       (unsigned long long)(cpuhp_stats.onl_max / 1000), nr_cpu_ids, cpumask_bits(cpu_online_mask),
	       cpuhp_stats.n_alone);
}
