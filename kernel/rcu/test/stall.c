/*
 * Provoke an RCU CPU stall on purpose (test-only, our own parameter):
 * rcutree.stall_test_secs=N makes a kthread bound to the last online CPU (CPU 0
 * on a uniprocessor) spin with interrupts disabled for N seconds once the
 * boot is done. That CPU can neither take its tick nor schedule, so it
 * holds up any grace period and Tree RCU's stall detector must report it
 * (boot with rcupdate.rcu_cpu_stall_timeout=3 to see it within N=8).
 * Default 0: nothing happens.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include <rcu/rcupdate.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <kernel/errno.h>
#include "stall_spin.h"
#include "keep_off_cpu.h"
#include "../tree.h"	/* rcu_state.gp_kthread */

static int stall_test_secs;
KPARAM("rcutree.stall_test_secs", stall_test_secs, KPARAM_INT, 0, 300,
       "test: spin one CPU with interrupts off this many seconds after boot to provoke an RCU CPU stall");

/* Queued from the spinning CPU: the grace period it needs cannot end until the spin does. */
static struct rcu_head rcu_stall_test_head;

static void rcu_stall_test_cb(struct rcu_head *rh)
{
}

/*
 * The stall is seen by the grace-period kthread's scans and by the other
 * CPUs' ticks, which need a grace period in progress: a kthread queued on
 * this CPU could start none until the spin ends. It can be queued here:
 * it wakes on the CPU it last ran on when no CPU is idle, and a
 * synchronize_rcu() on this CPU before the spin (WF_SYNC) leaves it here.
 * Seen once at -smp 2 under load: the spin ended with the grace period
 * still asked for and not started ("g-1200 f0x1"), and no stall reported.
 * So for the spin it may run on every CPU but this one (a test-only knob;
 * its affinity is given back after).
 */
static bool stall_keep_gp_kthread_away(unsigned int cpu, struct cpumask *saved)
{
	struct task_struct *gp = READ_ONCE(rcu_state.gp_kthread);

	if (!gp || num_online_cpus() < 2)
		return false;
	return !rcu_test_keep_off_cpu(gp, cpu, saved);
}

static int rcu_stall_test_thread(void *unused)
{
	unsigned int cpu = raw_smp_processor_id();	/* bound here */
	struct cpumask gp_saved;
	bool moved = stall_keep_gp_kthread_away(cpu, &gp_saved);
	unsigned long flags;

	local_irq_save(flags);
	/*
	 * Ask for a grace period from inside the spin, so one is in progress
	 * whatever else the system does: this CPU can report no quiescent
	 * state for it (no tick, no context switch, and its dynticks counter
	 * says "not idle"), so the grace-period kthread on another CPU sees
	 * the stall. On a uniprocessor the kthread cannot run until the spin
	 * ends, so no stall is reported there.
	 */
	call_rcu(&rcu_stall_test_head, rcu_stall_test_cb);
	rcu_test_stall_spin(stall_test_secs);
	local_irq_restore(flags);
	if (moved)
		set_cpus_allowed_ptr(rcu_state.gp_kthread, &gp_saved);
	pr_info("stall_test: CPU %d has interrupts on again\n", cpu);
	return 0;
}

static int rcu_stall_test_init(void)
{
	unsigned int cpu = 0, c;
	struct task_struct *t;

	if (!stall_test_secs)
		return 0;
	/* The last CPU online (with maxcpus= the last possible one may never have started). */
	for_each_online_cpu(c)
		cpu = c;
	t = kthread_create_on_cpu(rcu_stall_test_thread, NULL, cpu, "rcu_stall/%u");
	if (!t) {
		pr_err("stall_test: cannot create the spinning kthread\n");
		return -ENOMEM;
	}
	pr_info("stall_test: spinning CPU %d with interrupts off for %d seconds\n", cpu,
		stall_test_secs);
	wake_up_process(t);
	return 0;
}
late_initcall(rcu_stall_test_init);
