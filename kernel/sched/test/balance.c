/*
 * The "sched" KTAP suite (sched.selftest=1): idle load balancing
 * (kernel/sched/balance.c). A task queued behind a CPU hog that spins with
 * preemption off must be taken and run by an idle CPU, not wait for the
 * spin to end: once when the other CPU goes idle after the task was queued
 * ("newidle"), once when it was idle already and the hog's tick must wake it.
 */
#include "suite.h"

#define BT_HOG_MS	600	/* the hog's spin, preemption off */
#define BT_IDLE_MS	200	/* how long the hog waits for the controller's CPU to idle */

static struct {
	struct completion hog_started, hog_done, victim_done;
	struct task_struct *victim;
	unsigned int hog_cpu, idle_cpu;
	bool hog_queues_victim;		/* the kick case: the hog wakes the victim */
	bool idle_seen;			/* kick case: the other CPU was idle when it did */
	int victim_cpu;
	bool victim_tickless;		/* it ran with its CPU's tick stopped */
	u64 victim_ns, hog_end_ns;
} bt;

/* Queue the victim on the hog's CPU (its only allowed CPU), then free its affinity. */
static void bt_queue_victim(void)
{
	struct cpumask m;

	st_cpumask_one(&m, bt.hog_cpu);
	set_cpus_allowed_ptr(bt.victim, &m);
	wake_up_process(bt.victim);
	set_cpus_allowed_ptr(bt.victim, cpu_possible_mask);	/* stays queued where it is */
}

static int bt_victim(void *data)
{
	preempt_disable();
	bt.victim_cpu = raw_smp_processor_id();
	bt.victim_tickless = tick_nohz_tick_stopped();
	preempt_enable();
	bt.victim_ns = local_clock();
	complete(&bt.victim_done);
	ktest_wait_stop();
	return 0;
}

static int bt_hog(void *data)
{
	u64 end;

	complete(&bt.hog_started);
	if (bt.hog_queues_victim) {
		/* Let the controller's CPU go idle (and stop its tick) first. */
		end = local_clock() + (u64)BT_IDLE_MS * NSEC_PER_MSEC;
		while (!idle_cpu(bt.idle_cpu) && local_clock() < end)
			cpu_relax();
		bt.idle_seen = idle_cpu(bt.idle_cpu);
		bt_queue_victim();
	}
	preempt_disable();
	end = local_clock() + (u64)BT_HOG_MS * NSEC_PER_MSEC;
	while (local_clock() < end)
		cpu_relax();
	bt.hog_end_ns = local_clock();
	preempt_enable();
	complete(&bt.hog_done);
	ktest_wait_stop();
	return 0;
}

/* Tasks pulled by idle or periodic balancing, all CPUs together. */
static unsigned long bt_total_pulled(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		n += READ_ONCE(cpu_rq(cpu)->nr_pulled);
	return n;
}

static void bt_run(bool kick)
{
	unsigned int ctl_cpu = cpumask_first(cpu_online_mask);
	unsigned long pulled0, kicks0;
	struct task_struct *hog;
	struct cpumask saved;
	bool hog_ok, victim_ok, was_on;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	memset(&bt, 0, sizeof(bt));
	init_completion(&bt.hog_started);
	init_completion(&bt.hog_done);
	init_completion(&bt.victim_done);
	bt.hog_cpu = ktest_last_online_cpu();
	bt.idle_cpu = ctl_cpu;
	bt.hog_queues_victim = kick;
	was_on = READ_ONCE(sched_idle_balance_on);
	sched_set_idle_balance(true);	/* in case sched.idle_balance=0 */
	ktest_pin_current(ctl_cpu, &saved);
	bt.victim = ktest_kthread(bt_victim, NULL, -1, "bt_victim");
	hog = ktest_kthread(bt_hog, NULL, bt.hog_cpu, "bt_hog/%u");
	if (!bt.victim || !hog) {
		ktest_unpin_current(&saved);
		sched_set_idle_balance(was_on);
		return;
	}
	pulled0 = bt_total_pulled();
	kicks0 = READ_ONCE(cpu_rq(bt.hog_cpu)->nr_balance_kicks);
	wake_up_process(hog);
	KTAP_EXPECT_MSG(ktest_wait(&bt.hog_started, ST_START_MS), "hog never started");
	if (!kick)
		bt_queue_victim();	/* queued behind the hog; this CPU then sleeps below */
	victim_ok = ktest_wait(&bt.victim_done, 3 * BT_HOG_MS);
	hog_ok = ktest_wait(&bt.hog_done, 3 * BT_HOG_MS);
	ktest_unpin_current(&saved);
	sched_set_idle_balance(was_on);
	KTAP_EXPECT_MSG(victim_ok, "victim never ran");
	KTAP_EXPECT_MSG(hog_ok, "hog never finished");
	if (victim_ok && hog_ok) {
		KTAP_EXPECT_MSG(bt.victim_cpu != (int)bt.hog_cpu,
				"victim ran on the hog's CPU %u (after the spin)", bt.hog_cpu);
		KTAP_EXPECT_MSG(bt.victim_ns < bt.hog_end_ns,
				"victim ran %llu us after the spin ended, not during it",
				(unsigned long long)((bt.victim_ns - bt.hog_end_ns) / 1000));
		KTAP_EXPECT_MSG(!bt.victim_tickless, "victim ran on CPU %d with its tick stopped",
				bt.victim_cpu);
		/* ctl_cpu, or another idle CPU balancing first (seen at smp 8): some CPU pulled it. */
		KTAP_EXPECT_MSG(bt_total_pulled() > pulled0, "no CPU's pull count moved");
	}
	ktap_diag("%s: victim queued on CPU %u behind a %d-ms preempt-off spin ran on CPU %d%s; "
		  "CPUs (controller %u) pulled %lu, CPU %u kicked %lu idle CPU(s)%s",
		  kick ? "kick" : "newidle", bt.hog_cpu, BT_HOG_MS, bt.victim_cpu,
		  bt.victim_ns < bt.hog_end_ns ? " during the spin" : "", ctl_cpu,
		  bt_total_pulled() - pulled0, bt.hog_cpu,
		  READ_ONCE(cpu_rq(bt.hog_cpu)->nr_balance_kicks) - kicks0,
		  kick && !bt.idle_seen ? " (CPU was not idle when the victim was queued)" : "");
	st_stop_if(bt.victim, victim_ok);
	st_stop_if(hog, hog_ok);
}

void sched_idle_pull_newidle(void) { bt_run(false); }
void sched_idle_pull_kick(void) { bt_run(true); }
