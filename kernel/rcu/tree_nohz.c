/*
 * Dyntick-idle grace-period acceleration (CONFIG_RCU_FAST_NO_HZ): an idle
 * CPU that still holds callbacks stops its tick anyway. Without this file
 * such a CPU keeps ticking at HZ until its callbacks' grace period ends
 * and they are invoked: on a mostly idle machine, RCU then causes most of
 * the timer interrupts. Here it sleeps, woken by a one-shot RCU asks for:
 *
 *  - rcutree.rcu_idle_gp_delay jiffies (default 4) when some callback is
 *    an ordinary one, rounded up to a multiple of the delay so that idle
 *    CPUs wake on the same jiffies and share the trip out of idle;
 *  - rcutree.rcu_idle_lazy_gp_delay jiffies (default 6*HZ) when every
 *    callback is lazy (an offset for function: memory that can wait), rounded up to
 *    the next whole second less 3 * cpu jiffies (round_jiffies()'s skew,
 *    so lazy CPUs do not all wake on one jiffy).
 *
 * At idle entry it assigns its callbacks the next grace period and asks
 * for it, so that the grace period runs (driven by the grace-period
 * kthread, the sleeping CPU credited through its dynticks counter) while
 * the CPU sleeps; at idle exit it advances them and, if some are ready,
 * wakes rcuc/N to invoke them. The cost is grace-period latency as a
 * callback's owner sees it: the end of a grace period is noticed at the
 * next wakeup, up to 2 * rcu_idle_gp_delay - 1 jiffies later.
 * Documentation/RCU/fast-no-hz.md has the measured figures.
 *
 * Everything here runs on the CPU concerned, interrupts off, in its idle
 * task, while RCU still (or again) watches it.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/bug.h>
#include <time/time.h>
#include <time/tick.h>

#define RCU_IDLE_GP_DELAY	4		/* jiffies: ordinary callbacks */
#define RCU_IDLE_LAZY_GP_DELAY	(6 * HZ)	/* jiffies: only lazy callbacks */

static int rcu_idle_gp_delay = RCU_IDLE_GP_DELAY;
KPARAM_CLAMP("rcutree.rcu_idle_gp_delay", rcu_idle_gp_delay, KPARAM_INT, 1, HZ,
	     "jiffies an idle CPU holding ordinary callbacks sleeps (RCU_FAST_NO_HZ)");
static int rcu_idle_lazy_gp_delay = RCU_IDLE_LAZY_GP_DELAY;
KPARAM_CLAMP("rcutree.rcu_idle_lazy_gp_delay", rcu_idle_lazy_gp_delay, KPARAM_INT, 1, 60 * HZ,
	     "jiffies an idle CPU holding only lazy (kfree offset) callbacks sleeps (RCU_FAST_NO_HZ)");

/* The selftest's switch: off, a CPU with callbacks keeps its tick (see tree.h). */
static bool rcu_nohz_active = true;

void rcu_nohz_set_active(bool on)
{
	WRITE_ONCE(rcu_nohz_active, on);
}

/*
 * Bring this CPU's callbacks up to date with the grace periods that ended
 * while it slept; true if some are ready to invoke. The leaf is looked at
 * (and its lock tried, by note_gp_changes()) at most once a jiffy, as an
 * idle CPU woken by a flood of interrupts would otherwise take it each time.
 */
static bool rcu_nohz_advance_all(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;

	if (rdp->last_advance_all != jiffies) {
		rdp->last_advance_all = jiffies;
		if ((rcu_seq_completed_gp(rdp->gp_seq, rcu_seq_current(&rnp->gp_seq)) ||
		     READ_ONCE(rdp->gpwrap)) && rcu_segcblist_pend_cbs(&rdp->cblist))
			note_gp_changes(rdp);
	}
	return rcu_segcblist_ready_cbs(&rdp->cblist);
}

/*
 * The smallest jiffy at or after j that is skew jiffies before a multiple
 * of m (> 0). With skew 0 that is the next multiple of m: every idle CPU
 * rounding to it wakes on the same tick, one interrupt batch instead of
 * several. The lazy (whole-second) wakeups use a per-CPU skew, as
 * Linux's round_jiffies() does: each CPU still wakes once a second at
 * most, but not all on the same jiffy, where they would all take their
 * leaf rcu_node lock at once.
 */
static unsigned long rcu_nohz_round_up(unsigned long j, unsigned long m, unsigned long skew)
{
	unsigned long r = (j + skew) % m;

	return r ? j + (m - r) : j;
}

int rcu_nohz_lazy_gp_delay(void)
{
	return READ_ONCE(rcu_idle_lazy_gp_delay);
}

/* Jiffies by which CPU cpu's whole-second wakeups precede the second. */
static unsigned long rcu_nohz_lazy_skew(int cpu)
{
	return ((unsigned long)cpu * 3) % HZ;
}

/*
 * Has the wakeup RCU asked for come, as of jiffy j? The one-shot may fire
 * up to 1/32 of the sleep early (tick_program_event(), kernel/time/tick.c):
 * within a jiffy of it counts as come, which is as good for RCU and keeps
 * the early interrupt from being followed by a second one.
 */
static bool rcu_nohz_wake_due(struct rcu_data *rdp, unsigned long j)
{
	return time_after_eq(j + 1, rdp->nohz_wake_j);
}

/*
 * From rcu_needs_cpu(), rdp holding callbacks: return 1 to keep the tick,
 * or 0 with *nextj the jiffy by which this CPU must be woken. A wakeup
 * already asked for and still to come is kept unless an earlier one is
 * needed: the idle loop comes here again after every interrupt, and
 * asking afresh each time would push the wakeup back (and break the
 * rounding that lets idle CPUs wake together).
 */
int rcu_nohz_needs_cpu(struct rcu_data *rdp, unsigned long basej, unsigned long *nextj)
{
	bool pending = rdp->nohz_wake_set && !rcu_nohz_wake_due(rdp, basej);
	unsigned long d, m, skew;

	rdp->nohz_wake_set = false;	/* until a wakeup is asked for below */
	if (!READ_ONCE(rcu_nohz_active))
		return 1;
	if (rcu_nohz_advance_all(rdp)) {
		/* Ready now: invoke them, and keep the tick until rcuc/N runs. */
		invoke_rcu_core();
		return 1;
	}
	if (rdp->n_lazy_cbs >= rcu_segcblist_n_cbs(&rdp->cblist)) {
		d = READ_ONCE(rcu_idle_lazy_gp_delay);
		m = d < HZ ? d : HZ;
		skew = m == HZ ? rcu_nohz_lazy_skew(rdp->cpu) : 0;
	} else {
		d = READ_ONCE(rcu_idle_gp_delay);
		m = d;
		skew = 0;
	}
	*nextj = rcu_nohz_round_up(basej + d, m, skew);
	if (pending && time_before(rdp->nohz_wake_j, *nextj))
		*nextj = rdp->nohz_wake_j;
	rdp->nohz_wake_j = *nextj;
	rdp->nohz_wake_set = true;
	return 0;
}

/*
 * From the grace-period kthread's cleanup (tree_gp.c), any CPU: rdp's CPU
 * holds callbacks and sleeps in dyntick-idle until the wakeup it asked
 * rcu_needs_cpu() for. Leave it asleep: waking it at every grace period's
 * end would undo the sleep (a CPU whose callbacks queue more callbacks
 * would wake once per grace period, more often than every
 * rcu_idle_gp_delay jiffies; lazy callbacks would not wait at all).
 * nohz_wake_set is read racily: a CPU seen idle that wakes just after
 * advances its callbacks on the way out, one that goes idle just after
 * saw the new gp_seq first or wakes at its one-shot; none is forgotten.
 */
bool rcu_nohz_sleeping(struct rcu_data *rdp)
{
	return READ_ONCE(rcu_nohz_active) && READ_ONCE(rdp->nohz_wake_set) &&
	       rcu_dynticks_in_eqs(rcu_dynticks_snap(rdp->cpu));
}

/*
 * Idle entry (rcu_idle_enter()): note what the CPU holds, for the
 * statistics, and give its new callbacks a grace period and ask for it
 * now, rather than at the wakeup rcu_needs_cpu() asked for, so that this
 * sleep overlaps the grace period instead of preceding it. Once a jiffy
 * at most: the idle loop comes here after every interrupt. A kthread woken
 * here sets need_resched without an IPI; the idle loop checks it again
 * before halting (kernel/sched/idle.c).
 */
void rcu_prepare_for_idle(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp = rdp->mynode;
	long n = rcu_segcblist_n_cbs(&rdp->cblist);
	bool needwake;

	WARN_ON_ONCE(!irqs_disabled());
	rdp->nohz_idle_kind = RCU_NOHZ_NONE;
	if (!rnp)
		return;		/* before rcu_init() */
	if (!n) {
		rdp->nohz_wake_set = false;
		return;
	}
	rdp->nohz_idle_kind = rdp->n_lazy_cbs >= n ? RCU_NOHZ_LAZY : RCU_NOHZ_ORDINARY;
	rdp->nohz_idle_start_ns = local_clock();
	rdp->n_nohz_idle_cbs++;
	if (!READ_ONCE(rcu_nohz_active) || rdp->last_accelerate == jiffies ||
	    !rcu_segcblist_pend_cbs(&rdp->cblist))
		return;
	rdp->last_accelerate = jiffies;
	raw_spin_lock_rcu_node(rnp);	/* interrupts are off */
	needwake = rcu_accelerate_cbs(rnp, rdp);
	raw_spin_unlock_rcu_node(rnp);
	if (needwake)
		rcu_gp_kthread_wake();
}

/*
 * Idle exit (rcu_idle_exit()): account the idle period, and if the grace
 * period the callbacks waited for ended while the CPU slept, have rcuc/N
 * invoke them now (the idle loop sees its need_resched next).
 */
void rcu_cleanup_after_idle(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	int kind = rdp->nohz_idle_kind;

	if (!rdp->mynode)
		return;
	if (kind != RCU_NOHZ_NONE) {
		rdp->n_nohz_wakeups[kind]++;
		rdp->nohz_idle_ns[kind] += local_clock() - rdp->nohz_idle_start_ns;
		rdp->nohz_idle_kind = RCU_NOHZ_NONE;
	}
	if (rdp->nohz_wake_set && rcu_nohz_wake_due(rdp, jiffies)) {
		rdp->n_nohz_timer_wakeups++;
		rdp->nohz_wake_set = false;
	}
	if (READ_ONCE(rcu_nohz_active) && !rcu_segcblist_empty(&rdp->cblist) &&
	    rcu_nohz_advance_all(rdp))
		invoke_rcu_core();
}

/* Wakeups per second over ns of idle, to one decimal, as "W.w". */
static void rcu_nohz_rate(unsigned long wakeups, u64 ns, unsigned long *w, unsigned int *frac)
{
	u64 tenths = ns ? (u64)wakeups * NSEC_PER_SEC * 10 / ns : 0;

	*w = tenths / 10;
	*frac = tenths % 10;
}

/*
 * At power-off, one line per CPU that went idle holding callbacks: the
 * idle entries that held callbacks, the wakeups RCU's own one-shot
 * caused, and the wakeups per second of idle time spent holding ordinary
 * and only-lazy callbacks (about HZ when the tick is kept).
 */
void rcu_nohz_show_stats(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
		unsigned long w0, w1;
		unsigned int f0, f1;

		if (!READ_ONCE(rdp->n_nohz_idle_cbs))
			continue;
		rcu_nohz_rate(rdp->n_nohz_wakeups[0], rdp->nohz_idle_ns[0], &w0, &f0);
		rcu_nohz_rate(rdp->n_nohz_wakeups[1], rdp->nohz_idle_ns[1], &w1, &f1);
		pr_info("CPU %u: dyntick-idle with callbacks: %lu idle entries, %lu RCU timer wakeups, ordinary %lu wakeups in %llu ms (%lu.%u/s), lazy %lu wakeups in %llu ms (%lu.%u/s)\n",
			cpu, rdp->n_nohz_idle_cbs, rdp->n_nohz_timer_wakeups,
			rdp->n_nohz_wakeups[0],
			(unsigned long long)(rdp->nohz_idle_ns[0] / NSEC_PER_MSEC), w0, f0,
			rdp->n_nohz_wakeups[1],
			(unsigned long long)(rdp->nohz_idle_ns[1] / NSEC_PER_MSEC), w1, f1);
	}
}
