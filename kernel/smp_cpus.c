/*
 * The CPUs this boot has: nr_cpu_ids and the possible and online masks,
 * how many CPUs the command line lets the boot use, and bringing them up
 * (smp_init(), and the "starting" hook each runs).
 *
 * The counts, with Linux's meaning: nr_cpus=N caps nr_cpu_ids (CPUs
 * numbered N and up are not possible: no per-CPU state, RCU's tree sized
 * for N, never onlined);
 * maxcpus=N brings up only N CPUs at boot, the boot CPU included, and
 * leaves the rest possible and present for CPU hotplug (cpu_up(), or
 * rcutorture's onoff) to online later; maxcpus=0 and nosmp start no
 * other CPU. nr_cpus= is applied before the other parameters are parsed
 * (Linux's early_param), so their CPU lists are checked against the
 * capped nr_cpu_ids.
 */
#define KPARAM_SUBSYS "smp"
#include <kernel/smp.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/cpu.h>
#include <time/time.h>
#include <rcu/hooks.h>
#include "smpboot.h"

/* CPU 0 is possible and online from the first instruction. */
unsigned int nr_cpu_ids = 1;
struct cpumask __cpu_possible_mask = { .bits = { 1UL } };
struct cpumask __cpu_online_mask = { .bits = { 1UL } };

/* The CPU-hotplug "starting" step: RCU is the only subsystem that needs one so far. */
void notify_cpu_starting(unsigned int cpu)
{
	rcu_cpu_starting(cpu);
	cpuhp_starting_window(cpu);	/* test kernels: held in RCU's view, not yet online */
}

/*
 * Linux's largest NR_CPUS: a value above the CPUs found is accepted and
 * changes nothing (Linux's TREE01 boots with nr_cpus=43 on 8 CPUs).
 */
#define SMP_CPUS_PARAM_MAX	8192

unsigned int setup_max_cpus = NR_CPUS;
KPARAM("maxcpus", setup_max_cpus, KPARAM_UINT, 0, SMP_CPUS_PARAM_MAX,
       "CPUs brought up at boot, the boot CPU included (0: none but it); the rest can be onlined later");

static unsigned int nr_cpus_param = NR_CPUS;
KPARAM("nr_cpus", nr_cpus_param, KPARAM_UINT, 1, SMP_CPUS_PARAM_MAX,
       "cap on nr_cpu_ids: CPUs numbered from N on are never possible");

static bool nosmp;
KPARAM_BOOL("nosmp", nosmp, "start no CPU but the boot CPU (as maxcpus=0)");

/* Called once the command line is parsed for nr_cpus= alone, before the other parameters. */
void smp_setup_nr_cpu_ids(void)
{
	unsigned int found = nr_cpu_ids;

	if (nr_cpus_param < nr_cpu_ids) {
		for (unsigned int cpu = nr_cpus_param; cpu < found; cpu++)
			cpumask_clear_cpu(cpu, &__cpu_possible_mask);
		nr_cpu_ids = nr_cpus_param;
	}
	if (nr_cpu_ids < found)
		printk(KERN_INFO "smp: nr_cpus=%u: %u of the %u CPUs found are possible\n",
		       nr_cpus_param, nr_cpu_ids, found);
	/* Linux's order: the arch's "smpboot: Allowing" line, then setup_percpu's. */
	arch_smp_announce_possible(found);
	/* Linux's line, NUMA-less: the cap is what the rest of boot sizes for. */
	printk(KERN_INFO "setup_percpu: NR_CPUS:%u nr_cpumask_bits:%u nr_cpu_ids:%u nr_node_ids:1\n",
	       (unsigned int)NR_CPUS, nr_cpu_ids, nr_cpu_ids);
}

/* May the boot bring up one more CPU, with online CPUs up already? */
bool smp_boot_wants_more_cpus(unsigned int online)
{
	return !nosmp && online < setup_max_cpus;
}

void smp_init(void)
{
	unsigned int n;
	u64 t0, dt;

	call_function_init();
	arch_smp_prepare_cpus();
	if (!IS_ENABLED(CONFIG_SMP))
		return;

	printk(KERN_INFO "smp: Bringing up secondary CPUs ...\n");
	t0 = local_clock();
	arch_smp_boot_secondary_cpus();
	dt = local_clock() - t0;
	n = num_online_cpus();
	printk(KERN_INFO "smp: Brought up 1 node, %u CPU%s\n", n, n == 1 ? "" : "s");
	printk(KERN_INFO "smp: Total of %u processors activated, bring-up took %llu.%03llu ms\n",
	       n, (unsigned long long)(dt / NSEC_PER_MSEC),
	       (unsigned long long)(dt % NSEC_PER_MSEC / NSEC_PER_USEC));
}
