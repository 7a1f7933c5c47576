/*
 * Provoke an expedited RCU CPU stall on purpose (test-only, our own
 * parameter): rcutree.exp_stall_test_secs=N makes a kthread bound to the
 * last CPU enter an RCU reader and spin there with interrupts disabled for
 * N seconds once the boot is done, while a second kthread, on the first
 * CPU, calls synchronize_rcu_expedited() from inside the spin. The spinning
 * CPU cannot take the expedited IPI, so the grace period cannot end until
 * the spin does, and after rcupdate.rcu_cpu_stall_timeout seconds its
 * driver prints the expedited stall warning (tree_exp.c) naming that CPU.
 *
 * With preemptible RCU, rcutree.exp_stall_test_preempted=1 stalls on a task
 * instead: a reader on the last CPU is preempted inside rcu_read_lock() by
 * a SCHED_FIFO kthread that spins there (interrupts on) for N seconds, so
 * the IPI finds the CPU quiescent but the preempted reader, queued on its
 * leaf, blocks the grace period: the warning names it (" P<pid>"). The
 * hog's priority is at least rcutree.kthread_prio, so priority boosting
 * cannot end the stall early.
 *
 * Needs 2 CPUs. Default 0: nothing happens.
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
#include <time/delay.h>
#include <kernel/errno.h>
#include "stall_spin.h"
#include "../tree.h"	/* kthread_prio */

static int exp_stall_test_secs;
KPARAM("rcutree.exp_stall_test_secs", exp_stall_test_secs, KPARAM_INT, 0, 300,
       "test: spin one CPU in a reader with interrupts off this many seconds during a synchronize_rcu_expedited()");

static bool exp_stall_test_preempted;
KPARAM_BOOL("rcutree.exp_stall_test_preempted", exp_stall_test_preempted,
	    "test: with preemptible RCU, stall exp_stall_test_secs on a preempted reader instead of a CPU");

static int exp_stall_spinning;
static struct task_struct *exp_stall_hog;

static int exp_stall_spinner(void *unused)
{
	unsigned long flags;

	rcu_read_lock();
	local_irq_save(flags);
	WRITE_ONCE(exp_stall_spinning, 1);
	rcu_test_stall_spin(exp_stall_test_secs);
	local_irq_restore(flags);
	rcu_read_unlock();
	pr_info("exp_stall_test: CPU %d has interrupts on again\n", raw_smp_processor_id());
	return 0;
}

/* The preempted-reader variant: the hog spins (interrupts on) on the reader's CPU. */
static int exp_stall_hog_fn(void *unused)
{
	WRITE_ONCE(exp_stall_spinning, 1);
	rcu_test_stall_spin(exp_stall_test_secs);
	pr_info("exp_stall_test: FIFO hog on CPU %d done\n", raw_smp_processor_id());
	return 0;
}

static int exp_stall_reader(void *unused)
{
	rcu_read_lock();
	wake_up_process(exp_stall_hog);	/* FIFO on this CPU: preempts us right here */
	rcu_read_unlock();
	pr_info("exp_stall_test: reader P%d left its critical section\n", current->pid);
	return 0;
}

static int exp_stall_caller(void *unused)
{
	u64 t0;

	while (!READ_ONCE(exp_stall_spinning))
		msleep(1);
	t0 = local_clock();
	synchronize_rcu_expedited();
	pr_info("exp_stall_test: synchronize_rcu_expedited() returned after %llu ms\n",
		(unsigned long long)((local_clock() - t0) / NSEC_PER_MSEC));
	return 0;
}

static int rcu_exp_stall_test_init(void)
{
	unsigned int spin_cpu = 0, call_cpu, cpu;
	struct task_struct *s, *c;

	if (!exp_stall_test_secs)
		return 0;
	for_each_online_cpu(cpu)
		spin_cpu = cpu;
	call_cpu = cpumask_first(cpu_online_mask);
	if (spin_cpu == call_cpu) {
		pr_warn("exp_stall_test: needs 2 CPUs, not run\n");
		return 0;
	}
	c = kthread_create_on_cpu(exp_stall_caller, NULL, call_cpu, "rcu_exp_stall_gp/%u");
	if (exp_stall_test_preempted && !IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		pr_warn("exp_stall_test: exp_stall_test_preempted needs CONFIG_PREEMPT_RCU, stalling a CPU\n");
		exp_stall_test_preempted = false;
	}
	if (exp_stall_test_preempted) {
		int prio = rcu_params.kthread_prio;
		struct sched_param sp = { .sched_priority = prio > 1 ? prio : 1 };

		exp_stall_hog = kthread_create_on_cpu(exp_stall_hog_fn, NULL, spin_cpu,
						      "rcu_exp_hog/%u");
		if (exp_stall_hog)
			sched_setscheduler_nocheck(exp_stall_hog, SCHED_FIFO, &sp);
		s = kthread_create_on_cpu(exp_stall_reader, NULL, spin_cpu, "rcu_exp_stall/%u");
	} else {
		s = kthread_create_on_cpu(exp_stall_spinner, NULL, spin_cpu, "rcu_exp_stall/%u");
	}
	if (!s || !c || (exp_stall_test_preempted && !exp_stall_hog)) {
		pr_err("exp_stall_test: cannot create the kthreads\n");
		return -ENOMEM;	/* a created one never runs: a test boot, it powers off */
	}
	if (exp_stall_test_preempted)
		pr_info("exp_stall_test: reader P%d on CPU %u preempted by a FIFO %d hog for %d seconds, expedited grace period from CPU %u\n",
			s->pid, spin_cpu, exp_stall_hog->rt_priority, exp_stall_test_secs, call_cpu);
	else
		pr_info("exp_stall_test: spinning CPU %u in a reader with interrupts off for %d seconds, expedited grace period from CPU %u\n",
			spin_cpu, exp_stall_test_secs, call_cpu);
	wake_up_process(c);
	wake_up_process(s);
	return 0;
}
late_initcall(rcu_exp_stall_test_init);
