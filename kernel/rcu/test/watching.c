/*
 * KTAP suite "rcu_watching": rcu_is_watching() from a preemptible task must
 * read the counter of the CPU the task runs on when it reads it. Run with
 * rcutree.preempt_selftest=1 (after "rcu_preempt", on the same
 * preemptible-RCU kernels); it needs two CPUs or more.
 *
 * The bug it guards against (a false "not watching" WARNING in an
 * rcutorture reader on a KASAN SRCU-P kernel): rcu_is_watching() computed
 * this CPU's counter address, the task was preempted and moved to another
 * CPU, and then read the old CPU's counter while that CPU idled in an
 * extended quiescent state: even, so "RCU is not watching" a task that
 * RCU was watching all along. Preemption must be off from the address to
 * the read (tree_dynticks.c).
 *
 * The case: reader R calls rcu_is_watching() in a loop while the case's
 * own thread moves R between two CPUs every few ms (set_cpus_allowed_ptr()
 * on a running task: a resched IPI, and R moves at its next preemption).
 * The two instructions of the window share one translation block under
 * TCG, where interrupts land only between blocks, so a test kernel's hook
 * (CONFIG_RCU_WATCHING_WINDOW_HOOK) holds R between them for up to
 * RWT_HOLD_US; if R finds itself on another CPU there, it waits (bounded)
 * for the CPU it left to go idle, so the stale read is of an even counter.
 * Any false return fails the case; R must have moved between CPUs at all.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "../tree.h"
#include "common.h"	/* rcu_preempt_selftest */
#include <rcu/rcupdate.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <time/time.h>
#include <time/delay.h>
#include <kernel/printk.h>
#include <kernel/barrier.h>

#define RWT_RUN_MS	1000	/* how long R is moved about */
#define RWT_STEP_MS	3	/* between two moves */
#define RWT_HOLD_US	300	/* the hook holds R this long at most */
#define RWT_IDLE_US	2000	/* ... and then waits at most this long for the CPU it left to idle */
#define RWT_WAIT_MS	10000	/* R's exit */

/*
 * Static, never freed: the hook runs from every task's rcu_is_watching()
 * and may still be looking at it (only to find it is not R) after the case.
 */
static struct rwt {
	struct task_struct *r;
	bool stop, in_hook;
	struct completion done;
	/* R's figures */
	unsigned long calls, n_false, moves;
	unsigned int false_cpu;
	/* the hook's */
	unsigned long moved_in_window;
} rwt;
static struct rwt *rwt_cur;

#ifdef CONFIG_RCU_WATCHING_WINDOW_HOOK
/* Inside rcu_is_watching(), between its counter's address and its read. */
static void rwt_hook(void)
{
	struct rwt *s = READ_ONCE(rwt_cur);
	unsigned int cpu;
	u64 end;

	/* Only R, only from task context (interrupts and NMIs call it too), never nested. */
	if (!s || current != s->r || in_interrupt() || irqs_disabled() || s->in_hook)
		return;
	s->in_hook = true;
	cpu = raw_smp_processor_id();
	end = local_clock() + RWT_HOLD_US * NSEC_PER_USEC;
	while (raw_smp_processor_id() == cpu && local_clock() < end)
		cpu_relax();
	if (raw_smp_processor_id() != cpu) {
		s->moved_in_window++;
		/* The address rcu_is_watching() holds is the old CPU's: let it reach idle's EQS. */
		end = local_clock() + RWT_IDLE_US * NSEC_PER_USEC;
		while (!rcu_dynticks_in_eqs(rcu_dynticks_snap(cpu)) && local_clock() < end)
			cpu_relax();
	}
	s->in_hook = false;
}

static void rwt_arm(bool on)
{
	WRITE_ONCE(rcu_watching_hook, on ? rwt_hook : NULL);
}
#else
static void rwt_arm(bool on) { }
#endif

static int rwt_reader(void *arg)
{
	struct rwt *s = arg;
	unsigned int cpu, last = raw_smp_processor_id();
	/* Its own bound too, should the case's thread be held off its CPU for long. */
	u64 end = local_clock() + (u64)(RWT_RUN_MS + RWT_WAIT_MS / 2) * NSEC_PER_MSEC;

	while (!READ_ONCE(s->stop) && local_clock() < end) {
		bool watching = rcu_is_watching();

		cpu = raw_smp_processor_id();
		s->calls++;
		if (!watching && !s->n_false++)
			s->false_cpu = cpu;
		if (cpu != last) {
			s->moves++;
			last = cpu;
		}
	}
	complete(&s->done);
	ktest_wait_stop();
	return 0;
}

static void rcu_watching_migrate(void)
{
	struct rwt *s = &rwt;
	struct cpumask mask[2];
	unsigned int cpu_a = raw_smp_processor_id(), cpu_b = ktest_last_online_cpu(), i;
	bool finished;
	u64 t0 = local_clock(), end;

	if (num_online_cpus() < 2) {
		ktap_skip("needs two CPUs");
		return;
	}
	if (cpu_b == cpu_a)
		cpu_b = cpumask_first(cpu_online_mask);
	memset(s, 0, sizeof(*s));
	init_completion(&s->done);
	cpumask_clear(&mask[0]);
	cpumask_set_cpu(cpu_a, &mask[0]);
	cpumask_clear(&mask[1]);
	cpumask_set_cpu(cpu_b, &mask[1]);
	s->r = ktest_kthread(rwt_reader, s, -1, "rcu_watch_r");
	if (!s->r)
		return;
	set_cpus_allowed_ptr(s->r, &mask[1]);
	WRITE_ONCE(rwt_cur, s);
	rwt_arm(true);
	wake_up_process(s->r);
	end = local_clock() + (u64)RWT_RUN_MS * NSEC_PER_MSEC;
	for (i = 0; local_clock() < end; i++) {
		msleep(RWT_STEP_MS);
		set_cpus_allowed_ptr(s->r, &mask[i & 1]);
	}
	WRITE_ONCE(s->stop, true);
	finished = ktest_wait(&s->done, RWT_WAIT_MS);
	rwt_arm(false);
	WRITE_ONCE(rwt_cur, NULL);
	KTAP_EXPECT_MSG(finished, "reader did not stop");
	ktest_stop_if(s->r, finished, RWT_WAIT_MS);
	if (!finished)
		return;
	ktap_diag("%lu rcu_is_watching() calls, %lu moves between CPUs %u and %u, %lu of them inside the call (%llu ms)",
		  s->calls, s->moves, cpu_a, cpu_b, s->moved_in_window,
		  (local_clock() - t0) / NSEC_PER_MSEC);
	KTAP_EXPECT_MSG(s->moves > 0, "the reader never moved between CPUs %u and %u", cpu_a, cpu_b);
	KTAP_EXPECT_MSG(s->n_false == 0,
			"rcu_is_watching() said false %lu times (first on CPU %u) to a task RCU watched",
			s->n_false, s->false_cpu);
}

static const struct ktap_case rcu_watching_cases[] = {
	KTAP_CASE(rcu_watching_migrate),
};
KTAP_SUITE(rcu_watching, rcu_watching_cases, &rcu_preempt_selftest);
