/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * wake-ups and cross calls aimed at CPUs that are going idle, from every
 * CPU at once. A lost reschedule or CALL_FUNCTION IPI (one sent to a CPU
 * between its last need_resched() check and its halt, or one its handler
 * never ran) leaves a runnable task on an idle CPU, or a caller spinning
 * in csd_lock_wait(): here it stops a token for good, and the case fails
 * naming the CPU, instead of a grace period stalling somewhere later.
 *
 * One bound kthread per CPU on a ring. Tokens (half as many as CPUs) go
 * round: a thread that holds one makes a synchronous cross call to the
 * next CPU, then wakes the next CPU's thread, then sleeps again. Every
 * CPU thus goes idle between tokens, and is woken by another CPU's
 * wake-up or cross call while it enters or leaves idle.
 */
#include "suite.h"

#define IW_RUN_MS	300	/* how long the tokens circulate */

struct iw_cpu {
	struct task_struct *p;
	struct completion token;	/* one complete() per token handed to this CPU */
	struct completion done;
	unsigned int passes;		/* tokens passed on */
	unsigned int calls_sent;	/* cross calls made to the next CPU */
	u64 longest_wait_ns;		/* longest wait for a token while tokens circulated */
	bool lost;			/* waited iw_wait_ms for a token */
};

static struct {
	struct iw_cpu *cpu;		/* nr_cpu_ids entries */
	unsigned int *next;		/* ring order: the next online CPU */
	bool stop;
	unsigned int wait_ms;
} iw;

static DEFINE_PER_CPU(unsigned int, iw_calls_run);

static void iw_call(void *info)
{
	this_cpu_inc(iw_calls_run);
}

static int iw_thread(void *data)
{
	unsigned int me = (unsigned long)data, next = iw.next[me];
	struct iw_cpu *c = &iw.cpu[me];

	for (;;) {
		u64 t0 = local_clock(), waited;
		bool got = ktest_wait(&c->token, iw.wait_ms);

		if (READ_ONCE(iw.stop))
			break;
		waited = local_clock() - t0;
		if (waited > c->longest_wait_ns)
			c->longest_wait_ns = waited;
		if (!got) {
			c->lost = true;
			break;
		}
		smp_call_function_single(next, iw_call, NULL, 1);
		c->calls_sent++;
		complete(&iw.cpu[next].token);
		c->passes++;
	}
	complete(&c->done);
	ktest_wait_stop();
	return 0;
}

void sched_wakeup_idle_ring(void)
{
	unsigned int n = num_online_cpus(), cpu, prev, first, tokens = 0, lost = 0, bad_calls = 0;
	unsigned int min_passes = ~0U;
	u64 longest = 0, passes = 0;
	bool all_done = true;

	if (n < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	iw.cpu = kcalloc(nr_cpu_ids, sizeof(*iw.cpu), GFP_KERNEL);
	iw.next = kcalloc(nr_cpu_ids, sizeof(*iw.next), GFP_KERNEL);
	if (!KTAP_EXPECT_MSG(iw.cpu && iw.next, "cannot allocate the ring"))
		return;		/* leaked: a test boot */
	/* A hop may wait for a host time slice per busy vCPU (single-threaded TCG: 100 ms). */
	iw.wait_ms = 2000 + 10 * n;
	WRITE_ONCE(iw.stop, false);
	first = prev = cpumask_first(cpu_online_mask);
	for_each_online_cpu(cpu) {
		if (cpu != first)
			iw.next[prev] = cpu;
		prev = cpu;
		per_cpu(iw_calls_run, cpu) = 0;
	}
	iw.next[prev] = first;
	for_each_online_cpu(cpu) {
		init_completion(&iw.cpu[cpu].token);
		init_completion(&iw.cpu[cpu].done);
		iw.cpu[cpu].p = ktest_kthread(iw_thread, (void *)(unsigned long)cpu, cpu, "st_iw/%u");
		if (!iw.cpu[cpu].p)
			return;	/* reported; the others never run their loop: leaked */
	}
	for_each_online_cpu(cpu)
		wake_up_process(iw.cpu[cpu].p);
	/* Every other CPU starts with a token: n/2 travel the ring at once. */
	for_each_online_cpu(cpu)
		if (tokens++ % 2 == 0)
			complete(&iw.cpu[cpu].token);
	msleep(IW_RUN_MS);
	WRITE_ONCE(iw.stop, true);
	for_each_online_cpu(cpu)
		complete(&iw.cpu[cpu].token);	/* wakes a waiter; a holder sees stop next */
	for_each_online_cpu(cpu) {
		struct iw_cpu *c = &iw.cpu[cpu];
		bool done = ktest_wait(&c->done, iw.wait_ms + 2000);

		if (!done && all_done)
			ktap_diag("thread on CPU %u did not finish (stuck in a cross call?)", cpu);
		all_done &= done;
		if (c->lost && !lost++)
			ktap_diag("CPU %u waited %u ms for a token that never came", cpu, iw.wait_ms);
		passes += c->passes;
		if (c->passes < min_passes)
			min_passes = c->passes;
		if (c->longest_wait_ns > longest)
			longest = c->longest_wait_ns;
		ktest_stop_if(c->p, done, ST_STOP_MS);
	}
	/* Every synchronous cross call that returned ran on its target, once. */
	for_each_online_cpu(cpu) {
		unsigned int from = 0;

		for (prev = 0; prev < nr_cpu_ids; prev++)
			if (cpu_online(prev) && iw.next[prev] == cpu)
				from = iw.cpu[prev].calls_sent;
		if (per_cpu(iw_calls_run, cpu) != from && !bad_calls++)
			ktap_diag("CPU %u ran %u cross calls, %u were made to it", cpu,
				  per_cpu(iw_calls_run, cpu), from);
	}
	ktap_diag("%u CPUs, %u tokens: %llu passes in %u ms, fewest on one CPU %u, longest wait %llu us",
		  n, (n + 1) / 2, (unsigned long long)passes, IW_RUN_MS, min_passes,
		  (unsigned long long)(longest / NSEC_PER_USEC));
	KTAP_EXPECT_MSG(all_done, "a ring thread did not finish");
	KTAP_EXPECT_MSG(lost == 0, "%u CPUs lost their token (a wake-up never ran)", lost);
	KTAP_EXPECT_MSG(bad_calls == 0, "%u CPUs ran another number of cross calls than were made",
			bad_calls);
	KTAP_EXPECT_MSG(min_passes > 0, "a CPU never passed a token on");
	if (all_done) {
		kfree(iw.cpu);
		kfree(iw.next);
	}
}
