/*
 * KTAP suite "rcu_strict", run at boot with rcutree.strict_selftest=1
 * (CONFIG_RCU_SELFTEST on Tree RCU): what CONFIG_RCU_STRICT_GRACE_PERIOD
 * (kernel/rcu/tree_strict.c) changes, seen from outside.
 *
 *  - strict_qs_at_unlock: a reader on one CPU waits, inside
 *    rcu_read_lock(), until a grace period has started and waits for this
 *    CPU, then calls rcu_read_unlock() and looks at once: with the option
 *    the unlock itself has reported (the CPU's bit in its leaf's ->qsmask
 *    is clear, and no preempted reader is queued there); without it the
 *    CPU still owes the grace period (nothing reports until a tick,
 *    an IPI or a context switch). It runs SCHED_FIFO so the rcuc wakeups
 *    the grace period causes cannot preempt it, which would report for it.
 *    This depends on no timing. On a kernel without the option the case
 *    prints what it saw (the CPU still owing, every attempt) and skips.
 *  - strict_gp_rate: figures only. One CPU runs back-to-back 50-us
 *    readers, yielding only when another task wants the CPU, while
 *    another times synchronize_rcu() for a second: count, mean, maximum,
 *    and how many ended within a jiffy. Skipped with its figures (they
 *    depend on how the host runs the vCPUs, so they are printed, not
 *    judged); Documentation/RCU/strict-gp.md has some.
 *
 * Waits are bounded: a broken grace period fails a case, never hangs it.
 */
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <sched/completion.h>
#include <kernel/processor.h>

static bool rcu_strict_selftest;
KPARAM_BOOL("rcutree.strict_selftest", rcu_strict_selftest,
	    "run the strict-grace-period self-test (KTAP suite \"rcu_strict\") at boot");

#define RSS_READER_US	50	/* one reader's work */
#define RSS_WINDOW_MS	1000	/* how long synchronize_rcu() calls are timed */
#define RSS_WAIT_MS	10000	/* spinner start and stop, on a sane kernel far less */

/*
 * Two CPUs: *gp_cpu, where the GP kthread last ran, and *other, the first
 * other online one (a test CPU kept busy there cannot starve the kthread).
 * False, the case skipped, on one CPU.
 */
static bool rss_cpus(unsigned int *gp_cpu, unsigned int *other)
{
	unsigned int cpu;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return false;
	}
	*gp_cpu = task_cpu(READ_ONCE(rcu_state.gp_kthread));
	*other = nr_cpu_ids;
	for_each_online_cpu(cpu)
		if (cpu != *gp_cpu) {
			*other = cpu;
			break;
		}
	return *other < nr_cpu_ids;
}

#define RSS_TRIES	5	/* strict: an unlock may meet a busy leaf lock and report later */

static struct {
	struct completion done;
	int tries, gp_waits;	/* attempts; attempts whose grace period never came */
	int owed_after;		/* attempts where the CPU still owed the GP right after the unlock */
	bool reported;		/* one attempt saw the unlock report */
} rss_unlock;

/* Does this CPU (rdp, on leaf rnp) still hold the current grace period up? */
static bool rss_owed(struct rcu_node *rnp, struct rcu_data *rdp)
{
	return (READ_ONCE(rnp->qsmask) & rdp->grpmask) || rcu_preempt_blocked_readers_cgp(rnp);
}

static int rss_unlock_fn(void *unused)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);	/* bound: stays this CPU's */
	struct rcu_node *rnp = rdp->mynode;
	bool before, after;
	u64 end;

	sched_setscheduler_nocheck(current, SCHED_FIFO, &sp);
	while (rss_unlock.tries < RSS_TRIES && !rss_unlock.reported) {
		rss_unlock.tries++;
		rcu_read_lock();
		(void)start_poll_synchronize_rcu();	/* a grace period that must wait for us */
		end = local_clock() + (u64)RSS_WAIT_MS * NSEC_PER_MSEC / 4;
		while (!rss_owed(rnp, rdp) && local_clock() < end)
			cpu_relax();
		before = rss_owed(rnp, rdp);
		rcu_read_unlock();
		after = rss_owed(rnp, rdp);
		if (!before)
			rss_unlock.gp_waits++;
		else if (after)
			rss_unlock.owed_after++;
		else
			rss_unlock.reported = true;
		/* Let that grace period end (we hold nothing now) before the next attempt. */
		end = local_clock() + (u64)RSS_WAIT_MS * NSEC_PER_MSEC / 4;
		while (rcu_gp_in_progress() && local_clock() < end)
			msleep(1);
	}
	complete(&rss_unlock.done);
	ktest_wait_stop();
	return 0;
}

static void strict_qs_at_unlock(void)
{
	unsigned int gp_cpu, other;
	struct task_struct *p;
	bool finished;

	if (!rss_cpus(&gp_cpu, &other))
		return;
	memset(&rss_unlock, 0, sizeof(rss_unlock));
	init_completion(&rss_unlock.done);
	p = ktest_kthread(rss_unlock_fn, NULL, other, "rcu_strict_ul/%u");
	if (!p)
		return;
	wake_up_process(p);
	finished = ktest_wait(&rss_unlock.done, RSS_WAIT_MS * 2);
	if (KTAP_EXPECT_MSG(finished, "the reader on CPU %u never finished", other)) {
		ktap_diag("%s: CPU %u: %d attempt(s): %d found its CPU still owing the grace period right after rcu_read_unlock(), %d saw no grace period wait for it",
			  IS_ENABLED(CONFIG_RCU_STRICT_GRACE_PERIOD) ? "strict" : "non-strict", other,
			  rss_unlock.tries, rss_unlock.owed_after, rss_unlock.gp_waits);
		if (!IS_ENABLED(CONFIG_RCU_STRICT_GRACE_PERIOD))
			ktap_skip("not a strict kernel (CONFIG_RCU_STRICT_GRACE_PERIOD=n): figures only");
		else
			KTAP_EXPECT_MSG(rss_unlock.reported,
					"rcu_read_unlock() never reported CPU %u's quiescent state",
					other);
	}
	ktest_stop_if(p, finished, RSS_WAIT_MS);
}

static struct {
	struct completion started, done;
	u64 end;		/* local_clock() at which the readers stop by themselves */
	bool stop;
	unsigned long readers;
} rss_spin;

/*
 * Back-to-back readers until the timing window closes (so that a grace
 * period they hold up ends then), yielding between two readers only when
 * another task wants the CPU: the GP kthread may be woken here, and the
 * rcuc kthread is. Without the option a grace period then waits for such
 * a switch (or for a tick between two readers): a jiffy or more. With it,
 * the first unlock after the grace period's IPI reports.
 */
static int rss_spinner(void *unused)
{
	complete(&rss_spin.started);
	while (!READ_ONCE(rss_spin.stop) && local_clock() < READ_ONCE(rss_spin.end)) {
		rcu_read_lock();
		udelay(RSS_READER_US);
		rcu_read_unlock();
		rss_spin.readers++;
		if (need_resched())
			schedule();
	}
	complete(&rss_spin.done);
	ktest_wait_stop();
	return 0;
}

static void strict_gp_rate(void)
{
	unsigned int gp_cpu, other;
	u64 t0, t, total_ns = 0, max_ns = 0, end;
	unsigned long n = 0, under_jiffy = 0, ipis0, ipis;
	bool stopped;
	struct task_struct *p;
	struct cpumask saved;

	/* The readers go where the GP kthread is not, the timing thread where it is. */
	if (!rss_cpus(&gp_cpu, &other))
		return;
	memset(&rss_spin, 0, sizeof(rss_spin));
	rss_spin.end = ~0ULL;	/* until the window is set */
	init_completion(&rss_spin.started);
	init_completion(&rss_spin.done);
	p = ktest_kthread(rss_spinner, NULL, other, "rcu_strict_rd/%u");
	if (!p)
		return;
	ktest_pin_current(gp_cpu, &saved);
	wake_up_process(p);
	stopped = false;
	if (!KTAP_EXPECT_MSG(ktest_wait(&rss_spin.started, RSS_WAIT_MS), "the reader never started")) {
		WRITE_ONCE(rss_spin.stop, true);
		goto out;
	}
	synchronize_rcu();	/* the first one may still meet boot-time expediting */
	ipis0 = rcu_strict_ipis(other);
	end = local_clock() + (u64)RSS_WINDOW_MS * NSEC_PER_MSEC;
	WRITE_ONCE(rss_spin.end, end);
	while ((t0 = local_clock()) < end) {
		synchronize_rcu();
		t = local_clock() - t0;
		total_ns += t;
		if (t > max_ns)
			max_ns = t;
		under_jiffy += t < NSEC_PER_SEC / HZ;
		n++;
	}
	ipis = rcu_strict_ipis(other) - ipis0;
	WRITE_ONCE(rss_spin.stop, true);
	stopped = ktest_wait(&rss_spin.done, RSS_WAIT_MS);
	KTAP_EXPECT_MSG(stopped, "the reader never stopped");
	ktap_diag("%s: %lu synchronize_rcu() in %u ms beside %lu readers of %u us on CPU %u: mean %llu us, max %llu us, %lu under a jiffy, %lu strict IPIs to CPU %u",
		  IS_ENABLED(CONFIG_RCU_STRICT_GRACE_PERIOD) ? "strict" : "non-strict", n,
		  RSS_WINDOW_MS, rss_spin.readers, RSS_READER_US, other,
		  n ? total_ns / n / NSEC_PER_USEC : 0, max_ns / NSEC_PER_USEC, under_jiffy, ipis,
		  other);
	ktap_skip("figures only: they depend on how the host runs the vCPUs");
out:
	ktest_unpin_current(&saved);
	ktest_stop_if(p, stopped, RSS_WAIT_MS);
}

static const struct ktap_case rcu_strict_cases[] = {
	KTAP_CASE(strict_qs_at_unlock),
	KTAP_CASE(strict_gp_rate),
};
KTAP_SUITE(rcu_strict, rcu_strict_cases, &rcu_strict_selftest);
