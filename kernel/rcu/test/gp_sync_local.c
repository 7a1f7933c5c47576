/*
 * KTAP suite "rcu_gp", case gp_sync_kthread_local: synchronize_rcu() wakes
 * the grace-period kthread with WF_SYNC (tree.c's rcu_gp_kthread_wake_sync(),
 * kernel/sched/core.c's sync_wake_here()). A caller alone on its CPU, which
 * sleeps right after the wake-up, gets the kthread on that CPU, so the
 * grace period's start, its end and the callback that wakes the caller
 * happen there, with no cross-CPU wake-up (issue 36: under QEMU's
 * single-threaded TCG each one cost a turn of every other vCPU).
 *
 * A kthread bound to a CPU that is neither the grace-period kthread's nor
 * the test's calls synchronize_rcu(); afterwards the grace-period kthread
 * must be on that CPU. Another CPU's call_rcu() may wake the kthread
 * elsewhere in between (an ordinary wake-up), so up to GSL_TRIES calls
 * are made and one success is enough. Without the WF_SYNC wake-up the
 * kthread stays on its last, idle CPU and the case fails.
 *
 * The caller's CPU must be one where the wake-up is WF_SYNC: not an
 * offloaded CPU (rcu_nocbs=: its callback goes to rcuog/N, which wakes
 * the kthread from its own CPU), an isolated one (the scheduler places no
 * task there) nor one outside the kthread's affinity (nohz_full= keeps it
 * on the housekeeping CPUs). With no such CPU left the case skips.
 */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <sched/isolation.h>

void gp_sync_kthread_local(void);

#define GSL_TRIES	10
#define GSL_WAIT_MS	(GSL_TRIES * 2000)	/* a grace period on an idle guest takes milliseconds */

static struct {
	struct completion done;
	unsigned int target;
	int found_at;		/* the call after which the GP kthread was on target; -1: none */
	unsigned int last_cpu;	/* where the GP kthread was after the last call */
} gsl;

static int gsl_caller(void *unused)
{
	struct task_struct *gp = READ_ONCE(rcu_state.gp_kthread);

	for (int i = 0; i < GSL_TRIES; i++) {
		synchronize_rcu();
		gsl.last_cpu = task_cpu(gp);
		if (gsl.last_cpu == gsl.target) {
			gsl.found_at = i;
			break;
		}
	}
	complete(&gsl.done);
	ktest_wait_stop();
	return 0;
}

void gp_sync_kthread_local(void)
{
	struct task_struct *gp = READ_ONCE(rcu_state.gp_kthread), *p;
	unsigned int cpu, me = raw_smp_processor_id(), from;

	if (num_online_cpus() < 3 || !gp) {
		ktap_skip("needs 3 CPUs (the caller's, the grace-period kthread's, the test's)");
		return;
	}
	from = task_cpu(gp);
	gsl.target = nr_cpu_ids;
	for_each_online_cpu(cpu)
		if (cpu != from && cpu != me && !rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu)) &&
		    !sched_cpu_isolated(cpu) && cpumask_test_cpu(cpu, &gp->cpus_mask))
			gsl.target = cpu;
	if (gsl.target == nr_cpu_ids) {
		ktap_skip("no CPU to call from: each is offloaded, isolated, outside the grace-period kthread's affinity, its CPU or the test's");
		return;
	}
	gsl.found_at = -1;
	init_completion(&gsl.done);
	p = ktest_kthread(gsl_caller, NULL, gsl.target, "rcu_gsl/%u");
	if (!p)
		return;
	wake_up_process(p);
	if (!KTAP_EXPECT_MSG(ktest_wait(&gsl.done, GSL_WAIT_MS),
			     "synchronize_rcu() x%d did not return in %u ms", GSL_TRIES, GSL_WAIT_MS))
		return;
	ktap_diag("grace-period kthread on CPU %u before, on CPU %u after the caller's call %d (caller on CPU %u)",
		  from, gsl.last_cpu, gsl.found_at + 1, gsl.target);
	KTAP_EXPECT_MSG(gsl.found_at >= 0,
			"after %d synchronize_rcu() calls from CPU %u the grace-period kthread is on CPU %u (it was on %u)",
			GSL_TRIES, gsl.target, gsl.last_cpu, from);
	kthread_stop(p);
}
