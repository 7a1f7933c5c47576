/*
 * KTAP suite "rcu_gp", case gp_sched_qs_delay: what
 * rcutree.jiffies_till_sched_qs does. A CPU looping in the kernel with
 * preemption off reports no quiescent state by itself (no context switch,
 * a tick in the kernel is none, its dyntick counter says "busy"), so the
 * grace period's force-quiescent-state scans ask it for one (->urgent_qs,
 * which its next cond_resched() or tick answers) once the grace period is
 * older than jiffies_till_sched_qs jiffies, never before. The looping CPU
 * records the jiffy at which it is asked; the case does it with two
 * values of the setting (the variable the parameter sets, changed for the
 * run) and, when the command line gave one, with the booted value too.
 * The ask can come no sooner than the setting plus one jiffy
 * (time_after()), and no later than one FQS interval after that, plus the
 * scheduling slack a loaded host adds.
 *
 * The grace-period kthread must not sit on the looping CPU (there it could
 * not run the scans at all under PREEMPT_NONE), and it moves: a
 * synchronize_rcu() wakes it onto the caller's CPU, from where the load
 * balancer may spread it anywhere. So each measurement keeps it off that
 * CPU for the loop's duration and gives its affinity back afterwards; the
 * same for the test's own thread, which reads the grace period's start
 * while the loop runs.
 */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/preempt.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include "keep_off_cpu.h"

void gp_sched_qs_delay(void);

#define SQS_LOOP_MS	3000	/* the most a loop waits to be asked */
#define SQS_SLACK	(HZ / 2)	/* jiffies a loaded host may add to the FQS interval */

static struct {
	struct completion looping, done;
	unsigned long asked_at;		/* jiffies when ->urgent_qs was seen; 0: never */
	bool stop;
} sqs;

/* On the measured CPU: loop with preemption off until asked for a quiescent state. */
static int sqs_loop(void *unused)
{
	struct rcu_data *rdp;
	u64 end;

	preempt_disable();
	rdp = this_cpu_ptr(&rcu_data);
	WRITE_ONCE(rdp->urgent_qs, false);
	complete(&sqs.looping);
	end = local_clock() + (u64)SQS_LOOP_MS * NSEC_PER_MSEC;
	while (!READ_ONCE(sqs.stop) && local_clock() < end) {
		if (READ_ONCE(rdp->urgent_qs)) {
			sqs.asked_at = jiffies;
			break;
		}
		cpu_relax();
	}
	preempt_enable();
	complete(&sqs.done);
	return 0;
}

/* Keep p off cpu, saving its affinity in saved; false if it cannot be done. */
static bool sqs_keep_off(struct task_struct *p, unsigned int cpu, struct cpumask *saved)
{
	return KTAP_EXPECT_MSG(!rcu_test_keep_off_cpu(p, cpu, saved), "cannot keep %s off CPU %u",
			       p->comm, cpu);
}

/* One grace period with the setting at j; returns the ask's delay in jiffies, -1 if none. */
static long sqs_measure(unsigned int cpu, int j)
{
	int saved = rcu_params.jiffies_till_sched_qs;
	struct task_struct *p, *gp_kthread = READ_ONCE(rcu_state.gp_kthread);
	struct cpumask gp_allowed, my_allowed;
	unsigned long gp_start, cookie;
	long delay = -1;

	if (!sqs_keep_off(current, cpu, &my_allowed))
		return delay;
	if (!sqs_keep_off(gp_kthread, cpu, &gp_allowed)) {
		set_cpus_allowed_ptr(current, &my_allowed);
		return delay;
	}

	/* No grace period in flight: the next one starts with the CPU already looping. */
	rcu_barrier();
	synchronize_rcu();
	WRITE_ONCE(rcu_params.jiffies_till_sched_qs, j);
	init_completion(&sqs.looping);
	init_completion(&sqs.done);
	sqs.asked_at = 0;
	WRITE_ONCE(sqs.stop, false);
	p = kthread_create_on_cpu(sqs_loop, NULL, cpu, "rcu_sqs/%u");
	if (!KTAP_EXPECT_MSG(p, "no kthread on CPU %u", cpu))
		goto out;
	wake_up_process(p);
	wait_for_completion(&sqs.looping);
	cookie = start_poll_synchronize_rcu();
	/* The grace period's start, read while the looping CPU holds it open. */
	while (!rcu_gp_in_progress() && !poll_state_synchronize_rcu(cookie))
		msleep(1);
	gp_start = READ_ONCE(rcu_state.gp_start);
	wait_for_completion(&sqs.done);
	if (sqs.asked_at)
		delay = (long)(sqs.asked_at - gp_start);
out:
	WRITE_ONCE(rcu_params.jiffies_till_sched_qs, saved);
	set_cpus_allowed_ptr(gp_kthread, &gp_allowed);
	set_cpus_allowed_ptr(current, &my_allowed);
	return delay;
}

static void sqs_check(unsigned int cpu, int j, const char *what)
{
	long delay = sqs_measure(cpu, j);
	long hi = j + rcu_params.jiffies_till_next_fqs + SQS_SLACK;

	ktap_diag("jiffies_till_sched_qs=%d (%s): CPU %u looping in the kernel asked for a quiescent state %ld jiffies into the grace period",
		  j, what, cpu, delay);
	KTAP_EXPECT_MSG(delay > j, "asked after %ld jiffies, before %d + 1", delay, j);
	KTAP_EXPECT_MSG(delay >= 0 && delay <= hi, "asked after %ld jiffies, not within %ld", delay,
			hi);
}

void gp_sched_qs_delay(void)
{
	unsigned int cpu, me = raw_smp_processor_id();
	unsigned int target = nr_cpu_ids;

	if (num_online_cpus() < 3) {
		ktap_skip("needs 3 CPUs: the looping one, the grace-period kthread's, the test's");
		return;
	}
	for_each_online_cpu(cpu)
		if (cpu != me)
			target = cpu;
	if (kparam_given("rcutree.jiffies_till_sched_qs"))
		sqs_check(target, rcu_params.jiffies_till_sched_qs, "as booted");
	sqs_check(target, 5, "set for the case");
	sqs_check(target, 40, "set for the case");
}
