/*
 * isolcpus=: Linux's CPU isolation from the scheduler's load balancing,
 * the "domain" kind (a plain CPU list means the same, as in Linux). An
 * isolated CPU is in no scheduling domain: balancing never moves a task
 * onto it or off it, and wake-up placement does not pick it as an idle
 * CPU for a task last run elsewhere. Tasks get there only through their
 * affinity (sched_setaffinity(), kthread_bind(), user.run=...@CPU) or by
 * having last run there. Unbound kthreads are not kept off (Linux keeps
 * them off only with nohz_full= or isolcpus=kthread-style flags, which
 * here is nohz_full=). Flags: "domain" and "managed_irq" (accepted; there
 * are no managed interrupts here); "nohz" is Linux's tick isolation, which
 * is nohz_full= here.
 */
#define KPARAM_SUBSYS "sched"
#include <sched/isolation.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/bitmap.h>
#include <kernel/smp.h>

static char isolcpus_opt[128];
KPARAM_STRING("isolcpus", isolcpus_opt,
	      "[domain,][managed_irq,]CPU list: CPUs the scheduler never balances tasks onto or off");

struct cpumask sched_isolated_mask;

static void isolcpus_reject(const char *why)
{
	printk(KERN_WARNING "sched: isolcpus: invalid value '%s' (%s), using (none)\n",
	       isolcpus_opt, why);
}

/* Strip the flags (each followed by a comma); false on one we do not know. */
static bool isolcpus_skip_flags(const char **list)
{
	static const char *const flags[] = { "domain,", "managed_irq," };
	const char *s = *list;
	bool more = true;

	while (more) {
		more = false;
		for (unsigned int i = 0; i < ARRAY_SIZE(flags); i++) {
			size_t n = strlen(flags[i]);

			if (!strncmp(s, flags[i], n)) {
				s += n;
				more = true;
			}
		}
	}
	*list = s;
	return !(*s >= 'a' && *s <= 'z' && strncmp(s, "all", 3) && strncmp(s, "none", 4));
}

void sched_isolation_init(void)
{
	DECLARE_BITMAP(map, NR_CPUS);
	const char *list = isolcpus_opt;
	if (!list[0])
		return;
	if (!isolcpus_skip_flags(&list)) {
		isolcpus_reject(strncmp(list, "nohz,", 5) ? "unknown flag: domain and managed_irq are known" :
				"nohz: tick isolation is nohz_full= here");
		return;
	}
	if (bitmap_parselist(list, map, nr_cpu_ids)) {
		isolcpus_reject("bad CPU list, or a CPU from nr_cpu_ids up");
		return;
	}
	bitmap_copy(sched_isolated_mask.bits, map, nr_cpu_ids);
	/* Linux keeps one housekeeping CPU: the boot CPU, if all were named. */
	if (cpumask_weight(&sched_isolated_mask) >= nr_cpu_ids) {
		cpumask_clear_cpu(0, &sched_isolated_mask);
		printk(KERN_WARNING "sched: isolcpus=%s: every CPU named; CPU 0 (the boot CPU) stays in the scheduler's domain\n",
		       isolcpus_opt);
	}
	printk(KERN_INFO "sched: isolcpus: CPUs %*pbl isolated from load balancing\n",
	       (int)NR_CPUS, cpumask_bits(&sched_isolated_mask));
}

void sched_set_isolated(const struct cpumask *mask)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		cpumask_assign_cpu(cpu, &sched_isolated_mask, cpumask_test_cpu(cpu, mask));
}
