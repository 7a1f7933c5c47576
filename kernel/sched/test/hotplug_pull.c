/*
 * "sched" KTAP case: balancing never moves a task onto a CPU that is going
 * offline. The dying CPU's stopper hands every queued task away
 * (sched_cpu_dying(), rq->offline), then exits; its __schedule() finds the
 * runqueue empty and, before the idle loop notices the CPU is offline,
 * looks for a task to pull. Other CPUs are crowded with the tasks just
 * handed away, so there is one to take. What refuses it is can_pull()'s
 * cpu_allowed(), which wants the destination online: without that check
 * (tried: cpumask_test_cpu() alone) this case fails at -smp 2 and 4, a
 * spinner running ~1.5 s on the offline CPU and cpu_down() waiting for it.
 *
 * The case crowds the CPUs with spinners free to run anywhere, takes the
 * last CPU down, and counts the spinner passes made on an offline CPU.
 */
#include "suite.h"
#include <kernel/cpu.h>

#define HP_SPIN_MS	1500	/* each spinner's life: bounds cpu_down() on the old code */
#define HP_MAX_SPIN	17

static struct {
	struct completion started[HP_MAX_SPIN];
	unsigned long offline_passes;	/* passes made on a CPU not in the online mask */
	int offline_cpu;
	bool stop;
} hp;

static int hp_spinner(void *arg)
{
	struct completion *started = arg;
	u64 end = local_clock() + (u64)HP_SPIN_MS * NSEC_PER_MSEC;

	complete(started);
	while (!READ_ONCE(hp.stop) && local_clock() < end) {
		unsigned int cpu;

		preempt_disable();
		cpu = raw_smp_processor_id();
		if (!cpu_online(cpu)) {
			WRITE_ONCE(hp.offline_passes, hp.offline_passes + 1);
			WRITE_ONCE(hp.offline_cpu, cpu);
		}
		preempt_enable();
		cond_resched();
	}
	ktest_wait_stop();
	return 0;
}

void sched_pull_not_onto_dying(void)
{
	unsigned int target = ktest_last_online_cpu(), n, i;
	struct task_struct *sp[HP_MAX_SPIN];
	bool started = true;
	u64 t0, down_ns;
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2) {
		ktap_skip("needs CPU hotplug and 2 CPUs");
		return;
	}
	memset(&hp, 0, sizeof(hp));
	hp.offline_cpu = -1;
	/* Three spinners per CPU that stays: a crowded runqueue for the dying CPU to pull from. */
	n = min(3 * (num_online_cpus() - 1) + 1, (unsigned int)HP_MAX_SPIN);
	for (i = 0; i < n; i++) {
		init_completion(&hp.started[i]);
		sp[i] = ktest_kthread(hp_spinner, &hp.started[i], -1, "hp_spin");
		if (!sp[i]) {
			n = i;
			break;
		}
		wake_up_process(sp[i]);
	}
	for (i = 0; i < n; i++)
		started &= ktest_wait(&hp.started[i], ST_START_MS);
	KTAP_EXPECT_MSG(started, "a spinner never started");
	/* Named on the console: tests/boot/47-hotplug.sh tells this offline from rcutorture's. */
	ktap_diag("sched_pull_not_onto_dying: taking CPU %u down", target);
	t0 = local_clock();
	ret = cpu_down(target);
	down_ns = local_clock() - t0;
	WRITE_ONCE(hp.stop, true);
	KTAP_EXPECT_MSG(ret == 0, "cpu_down(%u) returned %d", target, ret);
	KTAP_EXPECT_MSG(!READ_ONCE(hp.offline_passes),
			"%lu spinner passes ran on CPU %d after it left the online mask "
			"(cpu_down() took %llu ms)", READ_ONCE(hp.offline_passes),
			READ_ONCE(hp.offline_cpu), (unsigned long long)(down_ns / NSEC_PER_MSEC));
	if (ret == 0)
		KTAP_EXPECT_MSG(cpu_up(target) == 0, "cpu_up(%u) failed", target);
	ktap_diag("%u spinners; cpu_down(%u) took %llu us; %lu passes on an offline CPU",
		  n, target, (unsigned long long)(down_ns / NSEC_PER_USEC),
		  READ_ONCE(hp.offline_passes));
	for (i = 0; i < n; i++)
		st_stop_if(sp[i], true);
}
