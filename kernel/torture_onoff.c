/*
 * The torture tests' CPU-hotplug exerciser (Linux's torture onoff): after
 * a holdoff, a kthread takes a randomly chosen CPU other than CPU 0 down,
 * or brings it back if it is down, every interval; it counts attempts and
 * successes and times each operation in jiffies for the statistics line
 * ("onoff: ..."), and how often CPU 0 was left alone online (a line when
 * the test ends). Built with CONFIG_TORTURE_TEST and CONFIG_HOTPLUG_CPU.
 * torture.disable_onoff_at_boot holds the operations back until the boot
 * phase is over (system_state SYSTEM_RUNNING: initcalls and boot-time
 * self-tests done), as Linux's waits for init to be spawned.
 * torture.onoff_sweep (ours) starts with every CPU but 0 going down.
 */
#define KPARAM_SUBSYS "torture"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include <kernel/torture.h>
#include <kernel/cpu.h>
#include <kernel/smp.h>
#include <kernel/sprintf.h>
#include <kernel/errno.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <kernel/init.h>
#include <kernel/param.h>

static bool disable_onoff_at_boot;
KPARAM_BOOL("torture.disable_onoff_at_boot", disable_onoff_at_boot,
	    "no CPU-hotplug torture operations until the boot phase has ended");

static bool onoff_sweep;
KPARAM_BOOL("torture.onoff_sweep", onoff_sweep,
	    "first take every CPU but CPU 0 down, one per interval, then go on at random");

static struct task_struct *onoff_task;
static long onoff_holdoff_j, onoff_interval_j;
/* Written by the onoff kthread only; read racily by the statistics line. */
static long n_offline_attempts, n_offline_successes, n_online_attempts, n_online_successes;
static unsigned long sum_offline, sum_online;	/* jiffies */
/*
 * Our own: how often an offline left CPU 0 alone online, and for how long
 * in all (jiffies), so a run can show it reached the state in which
 * RCU's one-CPU shortcuts apply (printed when the test ends).
 */
static long n_cpu0_alone;
static unsigned long cpu0_alone_since, sum_cpu0_alone;
static int min_offline = -1, max_offline, min_online = -1, max_online;

static void onoff_time(unsigned long start, unsigned long *sum, int *min, int *max)
{
	int d = (int)(jiffies - start);

	*sum += d;
	if (*min < 0 || d < *min)
		*min = d;
	if (d > *max)
		*max = d;
}

/* One operation on cpu: down if online, up if not. */
static void torture_onoff_one(unsigned int cpu)
{
	unsigned long start = jiffies;
	int ret;

	if (cpu_online(cpu)) {
		n_offline_attempts++;
		ret = cpu_down(cpu);
		if (!ret) {
			n_offline_successes++;
			onoff_time(start, &sum_offline, &min_offline, &max_offline);
			if (num_online_cpus() == 1) {
				n_cpu0_alone++;
				cpu0_alone_since = jiffies;
			}
		} else if (ret != -EBUSY) {	/* -EBUSY: it must stay up for RCU, not a failure */
			pr_alert("%s" TORTURE_FLAG " torture_onoff task: offline %u failed: errno %d\n",
				 torture_type_name, cpu, ret);
		} else {
			n_offline_attempts--;
		}
	} else {
		if (num_online_cpus() == 1)
			sum_cpu0_alone += jiffies - cpu0_alone_since;
		n_online_attempts++;
		ret = cpu_up(cpu);
		if (!ret) {
			n_online_successes++;
			onoff_time(start, &sum_online, &min_online, &max_online);
		} else {
			pr_alert("%s" TORTURE_FLAG " torture_onoff task: online %u failed: errno %d\n",
				 torture_type_name, cpu, ret);
		}
	}
}

static int torture_onoff(void *unused)
{
	DEFINE_TORTURE_RANDOM(rand);
	unsigned int cpu, maxcpu = nr_cpu_ids - 1;

	VERBOSE_TOROUT_STRING("torture_onoff task started");
	if (onoff_holdoff_j > 0) {
		VERBOSE_TOROUT_STRING("torture_onoff begin holdoff");
		msleep(jiffies_to_msecs(onoff_holdoff_j));
		VERBOSE_TOROUT_STRING("torture_onoff end holdoff");
	}
	if (disable_onoff_at_boot && READ_ONCE(system_state) == SYSTEM_BOOTING) {
		while (READ_ONCE(system_state) == SYSTEM_BOOTING && !torture_must_stop())
			msleep(10);
		VERBOSE_TOROUT_STRING("torture_onoff: boot ended, CPU-hotplug operations begin");
	}
	/*
	 * Ours: the state a random walk over many CPUs reaches seldom, every
	 * CPU but 0 offline (issue 28: TREE03 hung there), reached in every
	 * run, however short. The random operations then bring them back.
	 */
	if (onoff_sweep) {
		VERBOSE_TOROUT_STRING("torture_onoff: every CPU but 0 goes down first (torture.onoff_sweep)");
		for (cpu = maxcpu; cpu >= 1 && !torture_must_stop(); cpu--) {
			if (cpu_online(cpu))
				torture_onoff_one(cpu);
			msleep(jiffies_to_msecs(onoff_interval_j) ? : 1);
		}
	}
	while (!torture_must_stop()) {
		cpu = 1 + torture_random(&rand) % maxcpu;
		torture_onoff_one(cpu);
		msleep(jiffies_to_msecs(onoff_interval_j) ? : 1);
	}
	/* Leave every CPU online for the test's end (its cleanup and the power-off report). */
	for (cpu = 1; cpu <= maxcpu; cpu++)
		if (!cpu_online(cpu))
			torture_onoff_one(cpu);
	torture_kthread_stopping("torture_onoff");
	return 0;
}

int torture_onoff_init(long ooholdoff, long oointerval)
{
	onoff_holdoff_j = ooholdoff;
	onoff_interval_j = oointerval;
	if (oointerval <= 0 || nr_cpu_ids < 2)
		return 0;
	return torture_create_kthread(torture_onoff, NULL, onoff_task);
}

void torture_onoff_cleanup(void)
{
	if (!onoff_task)
		return;
	torture_stop_kthread(torture_onoff, onoff_task);
	pr_alert("%s" TORTURE_FLAG " torture_onoff: CPU 0 alone online %ld times, %lu ms in all\n",
		 torture_type_name, n_cpu0_alone, jiffies_to_msecs(sum_cpu0_alone));
}

int torture_onoff_stats(char *buf, size_t size)
{
	return snprintf(buf, size, "onoff: %ld/%ld:%ld/%ld %d,%d:%d,%d %lu:%lu (HZ=%d) ",
			READ_ONCE(n_online_successes), READ_ONCE(n_online_attempts),
			READ_ONCE(n_offline_successes), READ_ONCE(n_offline_attempts),
			READ_ONCE(min_online) < 0 ? 0 : READ_ONCE(min_online), READ_ONCE(max_online),
			READ_ONCE(min_offline) < 0 ? 0 : READ_ONCE(min_offline), READ_ONCE(max_offline),
			READ_ONCE(sum_online), READ_ONCE(sum_offline), HZ);
}

bool torture_onoff_failures(void)
{
	return n_online_successes != n_online_attempts || n_offline_successes != n_offline_attempts;
}
