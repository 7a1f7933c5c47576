/*
 * KTAP suite "rcu_nocb_toggle": run-time callback (de)offloading
 * (kernel/rcu/tree_nocb_toggle.c), run at boot with rcutree.selftest=1
 * and rcu_nocbs= naming some CPU (the cases skip otherwise).
 *
 *  - nocb_toggle_queued: a kthread on an offloaded CPU queues callbacks
 *    in bursts while this thread switches that CPU off and on again and
 *    again; each callback spins a little, so rcuos is often mid-batch when
 *    a de-offload comes. Every callback must run exactly once, after the
 *    grace period of the cookie taken just before its call_rcu(), and in
 *    queuing order (one CPU's list, one invoker at a time).
 *  - nocb_toggle_einval: a CPU rcu_nocbs= did not name, and a CPU number
 *    beyond nr_cpu_ids, are refused with -EINVAL, as in Linux 6.1;
 *    switching to the state a CPU is already in returns 0.
 */
#include "common.h"
#include "../tree.h"	/* a Tree-only suite (test/Kbuild): it reads rcu_data */
#include <kernel/ktap.h>
#include <kernel/errno.h>

#define NTT_CBS		1500
#define NTT_BURST	50
#define NTT_SPIN_US	20	/* per callback: a batch of NTT_BURST lasts about 1 ms */

static struct {
	unsigned int cpu;
	struct rcu_head heads[NTT_CBS];	/* static, never freed: a stuck callback may still hold one */
	unsigned long cookie[NTT_CBS];
	u8 runs[NTT_CBS];
	atomic_t invoked, early, disorder;
	int next;			/* the index the next callback should have */
	bool queued_all;
} ntt;

static void ntt_cb(struct rcu_head *rhp)
{
	int i = rhp - ntt.heads;

	if (!poll_state_synchronize_rcu(ntt.cookie[i]))
		atomic_inc(&ntt.early);		/* ran before its grace period ended */
	/* Plain accesses: callbacks of one CPU's list never run concurrently (that is tested). */
	if (i != ntt.next)
		atomic_inc(&ntt.disorder);
	ntt.next = i + 1;
	ntt.runs[i]++;
	udelay(NTT_SPIN_US);
	atomic_inc(&ntt.invoked);
}

/* Bound to ntt.cpu: bursts of call_rcu(), a sleep between them. */
static int ntt_queue(void *unused)
{
	for (int i = 0; i < NTT_CBS; i++) {
		ntt.cookie[i] = get_state_synchronize_rcu();
		call_rcu(&ntt.heads[i], ntt_cb);
		if (i % NTT_BURST == NTT_BURST - 1)
			msleep(2);
	}
	smp_store_release(&ntt.queued_all, true);
	ktest_wait_stop();
	return 0;
}

static int ntt_pick_cpu(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (rcu_nocb_cpu_toggleable(cpu))
			return cpu;
	return -1;
}

static void nocb_toggle_queued(void)
{
	struct rcu_data *rdp;
	struct task_struct *t;
	unsigned long toggles0, waits0;
	int cpu = ntt_pick_cpu(), n_off = 0, n_on = 0, bad = 0;
	bool was_offl;

	if (cpu < 0) {
		ktap_skip("no online rcu_nocbs= CPU to switch (boot with rcu_nocbs=)");
		return;
	}
	rdp = per_cpu_ptr(&rcu_data, cpu);
	was_offl = rcu_rdp_is_offloaded(rdp);
	toggles0 = READ_ONCE(rdp->n_nocb_toggles);
	waits0 = READ_ONCE(rdp->n_nocb_toggle_waits);
	memset(ntt.runs, 0, sizeof(ntt.runs));
	atomic_set(&ntt.invoked, 0);
	atomic_set(&ntt.early, 0);
	atomic_set(&ntt.disorder, 0);
	ntt.cpu = cpu;
	ntt.next = 0;
	ntt.queued_all = false;
	t = ktest_kthread(ntt_queue, NULL, cpu, "rcu_nocb_tt/%u");
	if (!t)
		return;
	wake_up_process(t);
	/* Switch it while the bursts go on, then once or twice more with the list still full. */
	for (int k = 0, extra = 2; k < 400; k++) {
		bool offl = rcu_rdp_is_offloaded(rdp);

		if (smp_load_acquire(&ntt.queued_all) && extra-- <= 0)
			break;

		int err = offl ? rcu_nocb_cpu_deoffload(cpu) : rcu_nocb_cpu_offload(cpu);

		if (err)
			bad++;
		else if (offl)
			n_off++;
		else
			n_on++;
		msleep(3);
	}
	ktest_stop_if(t, smp_load_acquire(&ntt.queued_all), RST_STOP_MS);
	KTAP_EXPECT_MSG(ntt.queued_all, "the queuing kthread on CPU %d did not finish", cpu);
	/* Back as booted, for the other suites. */
	if (rcu_rdp_is_offloaded(rdp) != was_offl)
		bad += !!(was_offl ? rcu_nocb_cpu_offload(cpu) : rcu_nocb_cpu_deoffload(cpu));
	if (!rst_barrier())
		return;
	for (int i = 0; i < NTT_CBS; i++)
		if (ntt.runs[i] != 1) {
			KTAP_EXPECT_MSG(false, "callback %d ran %d times", i, ntt.runs[i]);
			break;
		}
	ktap_diag("CPU %d switched off %d and on %d times (%lu in all; %lu found rcuos mid-batch) "
		  "with %d callbacks queued: invoked %d, before their grace period %d, out of order %d",
		  cpu, n_off, n_on, READ_ONCE(rdp->n_nocb_toggles) - toggles0,
		  READ_ONCE(rdp->n_nocb_toggle_waits) - waits0, NTT_CBS,
		  atomic_read(&ntt.invoked), atomic_read(&ntt.early), atomic_read(&ntt.disorder));
	KTAP_EXPECT_MSG(bad == 0, "%d switches failed", bad);
	KTAP_EXPECT_MSG(n_off >= 2 && n_on >= 2, "only %d de-offloads and %d offloads", n_off, n_on);
	KTAP_EXPECT_MSG(atomic_read(&ntt.invoked) == NTT_CBS, "%d of %d callbacks invoked",
			atomic_read(&ntt.invoked), NTT_CBS);
	KTAP_EXPECT_MSG(atomic_read(&ntt.early) == 0, "%d callbacks ran before their grace period",
			atomic_read(&ntt.early));
	KTAP_EXPECT_MSG(atomic_read(&ntt.disorder) == 0, "%d callbacks ran out of order",
			atomic_read(&ntt.disorder));
	KTAP_EXPECT_MSG(rcu_rdp_is_offloaded(rdp) == was_offl, "CPU %d not restored", cpu);
}

static void nocb_toggle_einval(void)
{
	unsigned int cpu;
	int plain = -1, offl = ntt_pick_cpu();

	for_each_online_cpu(cpu)
		if (!rcu_nocb_cpu_toggleable(cpu)) {
			plain = cpu;
			break;
		}
	KTAP_EXPECT(rcu_nocb_cpu_offload(nr_cpu_ids) == -EINVAL);
	KTAP_EXPECT(rcu_nocb_cpu_deoffload(-1) == -EINVAL);
	if (plain >= 0) {
		KTAP_EXPECT_MSG(rcu_nocb_cpu_offload(plain) == -EINVAL, "CPU %d offloaded", plain);
		KTAP_EXPECT_MSG(rcu_nocb_cpu_deoffload(plain) == -EINVAL, "CPU %d de-offloaded", plain);
		KTAP_EXPECT(!rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, plain)));
	}
	if (offl >= 0 && rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, offl)))
		KTAP_EXPECT_MSG(rcu_nocb_cpu_offload(offl) == 0, "offloading offloaded CPU %d", offl);
}

static const struct ktap_case rcu_nocb_toggle_cases[] = {
	KTAP_CASE(nocb_toggle_queued),
	KTAP_CASE(nocb_toggle_einval),
};
KTAP_SUITE(rcu_nocb_toggle, rcu_nocb_toggle_cases, &rcu_selftest);
