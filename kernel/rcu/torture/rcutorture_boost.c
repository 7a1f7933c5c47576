/*
 * rcutorture: the priority-boost test (test_boost*): SCHED_FIFO spinners on
 * every CPU starve preempted readers, and grace periods must still end.
 */
#include "rcutorture.h"

static struct task_struct *boost_tasks[NR_CPUS];

/* ===== boost test ========================================================================== */

/*
 * Priority-boost test, as Linux's: every test_boost_interval seconds, one
 * SCHED_FIFO-1 kthread per CPU, bound to it, spins for test_boost_duration
 * seconds without sleeping, starting a polled grace period whenever the
 * last one has ended. The readers (SCHED_NORMAL) that the spinners
 * preempted inside rcu_read_lock() cannot run again before the window
 * ends, so every grace period would wait for them: only priority boosting
 * (CONFIG_RCU_BOOST: rcub at rcutree.kthread_prio >= 2 lends them its
 * priority after CONFIG_RCU_BOOST_DELAY ms) lets grace periods end inside
 * the window. A grace period that, once every CPU has reported, is still
 * pending test_boost_duration - 0.5 s later is a boost failure (rtbf);
 * one held up by a CPU instead is not boosting's fault and only noted.
 * The grace-period kthread must outrank the spinners (priority >= 2), or
 * it would be starved too: otherwise the test is skipped, as in Linux.
 */
static unsigned long boost_starttime;	/* jiffies: start of the next window */
static DEFINE_MUTEX(boost_mutex);	/* who moves boost_starttime on */
static DEFINE_SPINLOCK(boost_stats_lock);	/* the two figures below */
static unsigned long boost_gp_max_jiffies;	/* longest GP seen inside a window */
static unsigned long boost_gps;		/* GPs that ended inside windows */
static unsigned long boost_rebinds;	/* boosters bound back to a CPU back online */
static bool boost_tested;	/* this run has boosters */

static bool rcu_torture_can_boost(void)
{
	static bool warned;
	int prio;

	if (!(rtp->test_boost == 1 && cur_ops->can_boost) && rtp->test_boost != 2)
		return false;
	if (!cur_ops->start_gp_poll || !cur_ops->poll_gp_state)
		return false;
	prio = rcu_get_gp_kthreads_prio();
	if (prio < 2) {
		if (!warned)
			pr_alert("%s: WARN: RCU kthread priority too low to test boosting.  Skipping RCU boost test. Try passing rcutree.kthread_prio > 1 on the kernel command line.\n",
				 KBUILD_MODNAME);
		warned = true;
		return false;
	}
	return true;
}

/*
 * Called while the grace period gp_state is pending; *start is when it
 * began to count. True (and rtbf bumped) once it is overdue with only
 * preempted readers left to blame.
 */
static bool rcu_torture_boost_failed(unsigned long gp_state, unsigned long *start)
{
	static unsigned long last_persist;
	static int dbg_done;
	unsigned long mininterval = rtp->test_boost_duration * HZ - HZ / 2;
	unsigned long end = jiffies, j, lp;
	int cpu;

	if (end - *start > mininterval) {
		smp_mb();	/* the time check before the grace-period check */
		if (cur_ops->poll_gp_state(gp_state))
			return false;	/* ended after all, just in time */
		if (cur_ops->check_boost_failed && !cur_ops->check_boost_failed(gp_state, &cpu)) {
			/* A CPU (or nothing) holds it up: not boosting's fault. Once per window. */
			j = jiffies;
			lp = READ_ONCE(last_persist);
			if (time_after(j, lp + mininterval) && cmpxchg(&last_persist, lp, j) == lp) {
				if (cpu < 0)
					pr_info("Boost inversion persisted: QS from all CPUs\n");
				else
					pr_info("Boost inversion persisted: No QS from CPU %d\n", cpu);
			}
			return false;
		}
		VERBOSE_TOROUT_STRING("rcu_torture_boost boosting failed");
		WRITE_ONCE(rcu_torture_counters.boost_failure, rcu_torture_counters.boost_failure + 1);
		if (!xchg(&dbg_done, 1)) {
			pr_info("Boost inversion thread ->rt_priority %u gp_state %lu jiffies %lu\n",
				current->rt_priority, gp_state, end - *start);
			if (cur_ops->gp_kthread_dbg)
				cur_ops->gp_kthread_dbg();
			/* Checked again after the dump: did it end while we printed? */
			pr_info("Boost inversion: GP %lu %s.\n", gp_state,
				cur_ops->poll_gp_state(gp_state) ? "ended already" : "still pending");
		}
		return true;
	}
	/* While some CPU still owes a quiescent state, boosting is not yet on the hook. */
	if (cur_ops->check_boost_failed && !cur_ops->check_boost_failed(gp_state, NULL))
		*start = jiffies;
	return false;
}

/*
 * CPU hotplug: a booster whose CPU went down was made "no longer affine"
 * (sched_cpu_dying()) and may since share a CPU with another booster, its
 * own CPU's readers left without one. Linux stops boosters from a hotplug
 * callback and creates them again when the CPU returns; ours sits out the
 * windows that start while its CPU is offline and binds back to it at the
 * first window after it is online again. True: bound to cpu, spin this window.
 */
static bool rcu_torture_boost_rebind(unsigned int cpu)
{
	struct cpumask one;

	if (!cpu_online(cpu))
		return false;
	if (current->nr_cpus_allowed == 1 && cpumask_test_cpu(cpu, &current->cpus_mask))
		return true;
	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	if (set_cpus_allowed_ptr(current, &one) || raw_smp_processor_id() != cpu)
		return false;	/* went down again meanwhile: the next window retries */
	spin_lock(&boost_stats_lock);
	boost_rebinds++;
	spin_unlock(&boost_stats_lock);
	return true;
}

static int rcu_torture_boost(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };	/* Linux's sched_set_fifo_low() */
	unsigned long endtime, gp_state = 0, gp_state_time = 0, gp_start = 0, oldstarttime;
	unsigned int mycpu = (unsigned long)arg;

	VERBOSE_TOROUT_STRING("rcu_torture_boost started");
	if (sched_setscheduler_nocheck(current, SCHED_FIFO, &sp) < 0) {
		VERBOSE_TOROUT_STRING("rcu_torture_boost RT prio failed!");
		WRITE_ONCE(rcu_torture_counters.boost_rterror, rcu_torture_counters.boost_rterror + 1);
		goto cleanup;
	}
	do {
		bool failed = false, gp_initiated = false;

		/* Sleep until the next window. */
		oldstarttime = READ_ONCE(boost_starttime);
		while (time_before(jiffies, oldstarttime)) {
			schedule_timeout_interruptible(oldstarttime - jiffies);
			stutter_wait("rcu_torture_boost");
			if (torture_must_stop())
				goto checkwait;
		}

		/* The window: spin, keeping one grace period in flight. */
		endtime = oldstarttime + rtp->test_boost_duration * HZ;
		if (!rcu_torture_boost_rebind(mycpu)) {
			/* Our CPU is offline: no readers of its own to push. */
			while (time_before(jiffies, endtime) && !torture_must_stop())
				schedule_timeout_interruptible(endtime - jiffies);
			if (torture_must_stop())
				goto checkwait;
		}
		while (time_before(jiffies, endtime) && cpu_online(mycpu)) {
			if (gp_initiated && !failed && !cur_ops->poll_gp_state(gp_state))
				failed = rcu_torture_boost_failed(gp_state, &gp_state_time);
			if (!gp_initiated || cur_ops->poll_gp_state(gp_state)) {
				if (gp_initiated) {
					unsigned long d = jiffies - gp_start;

					spin_lock(&boost_stats_lock);
					boost_gps++;
					if (d > boost_gp_max_jiffies)
						boost_gp_max_jiffies = d;
					spin_unlock(&boost_stats_lock);
				}
				gp_state = cur_ops->start_gp_poll();
				gp_initiated = true;
				gp_state_time = gp_start = jiffies;
			}
			if (stutter_wait("rcu_torture_boost") && cur_ops->poll_gp_state(gp_state))
				gp_initiated = false;	/* it ended while we slept: when is unknown */
			if (torture_must_stop())
				goto checkwait;
		}
		/* A grace period still pending at the end of the window counts too. */
		if (gp_initiated && !failed && !cur_ops->poll_gp_state(gp_state))
			rcu_torture_boost_failed(gp_state, &gp_state_time);

		/* The first booster out sets the next window's start. */
		while (oldstarttime == READ_ONCE(boost_starttime) && !kthread_should_stop()) {
			if (mutex_trylock(&boost_mutex)) {
				if (oldstarttime == boost_starttime) {
					WRITE_ONCE(boost_starttime, jiffies + rtp->test_boost_interval * HZ);
					WRITE_ONCE(rcu_torture_counters.boosts, rcu_torture_counters.boosts + 1);
				}
				mutex_unlock(&boost_mutex);
				break;
			}
			schedule_timeout_uninterruptible(HZ / 20);
		}
checkwait:
		stutter_wait("rcu_torture_boost");
	} while (!torture_must_stop());
cleanup:
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(HZ / 20);
	torture_kthread_stopping("rcu_torture_boost");
	return 0;
}

/*
 * One booster per online CPU, bound to it and kept out of the shuffler
 * (Linux creates them from its CPU-hotplug callback, to the same effect).
 */
int rcu_torture_boost_init(void)
{
	unsigned int cpu;

	boost_tested = rcu_torture_can_boost();
	if (!boost_tested)
		return 0;
	boost_starttime = jiffies + rtp->test_boost_interval * HZ;
	boost_gp_max_jiffies = 0;
	boost_gps = 0;
	boost_rebinds = 0;
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		VERBOSE_TOROUT_STRING("Creating rcu_torture_boost task");
		t = kthread_create_on_cpu(rcu_torture_boost, (void *)(unsigned long)cpu, cpu,
					  "rcu_torture_boost_%u");
		if (!t) {
			VERBOSE_TOROUT_STRING("rcu_torture_boost task create failed");
			rcu_torture_counters.boost_ktrerror++;
			return -ENOMEM;
		}
		boost_tasks[cpu] = t;
		wake_up_process(t);
	}
	return 0;
}

/*
 * Our own figures (Linux has no such line): windows run, grace periods
 * that ended inside them and the longest (a boosted reader's delay plus
 * the boost delay, when boosting was needed), and readers the rcub
 * kthreads boosted since boot (Tree RCU's rcu_node ->n_boosts).
 */
void rcu_torture_boost_summary(void)
{
	unsigned long n_boosted;

	if (!boost_tested)
		return;
	n_boosted = rcu_get_n_boosts();

	pr_alert("%s" TORTURE_FLAG " Boost test: windows %ld gps %lu longest-gp %lu ms readers-boosted %lu rtbf %ld\n",
		 rtp->torture_type, READ_ONCE(rcu_torture_counters.boosts), boost_gps,
		 boost_gp_max_jiffies * 1000 / HZ, n_boosted, READ_ONCE(rcu_torture_counters.boost_failure));
	if (rtp->onoff_interval > 0)
		pr_alert("%s" TORTURE_FLAG " Boost test: %lu booster(s) bound back to their CPU after CPU hotplug\n",
			 rtp->torture_type, boost_rebinds);
}

void rcu_torture_boost_cleanup(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		torture_stop_kthread(rcu_torture_boost, boost_tasks[cpu]);
}
