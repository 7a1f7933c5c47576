/*
 * Cases of the "cpuhp" KTAP suite kept outside hotplug.c, which
 * lists them all.
 */
#ifndef _RCU_TEST_HOTPLUG_H
#define _RCU_TEST_HOTPLUG_H

#include <kernel/ktap.h>
#include <kernel/cpumask.h>

/*
 * The cases about the one-CPU shortcut of the grace-period waits: they
 * need non-preemptible RCU (preemptible RCU has no shortcut to get wrong)
 * and a second CPU. False, the case skipped, otherwise.
 */
static inline bool cpuhp_shortcut_case_runs(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		ktap_skip("preemptible RCU has no one-CPU shortcut");
		return false;
	}
	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return false;
	}
	return true;
}

#ifdef CONFIG_CPUHP_DYING_DELAY
/* hotplug_window.c: the waits and a reader in a dying CPU's window. */
void cpuhp_dying_reader_waits(void);
/* And an expedited grace period that selects a CPU held on its way up, not yet online. */
void cpuhp_exp_starting_cpu(void);
/* hotplug_timer.c: a dead CPU's timers run while cpu_down()'s caller is held. */
void cpuhp_dead_cpu_timers(void);
#else
static inline void cpuhp_dying_reader_waits(void)
{
	ktap_skip("needs CONFIG_CPUHP_DYING_DELAY");
}

static inline void cpuhp_exp_starting_cpu(void)
{
	ktap_skip("needs CONFIG_CPUHP_DYING_DELAY");
}

static inline void cpuhp_dead_cpu_timers(void)
{
	ktap_skip("needs CONFIG_CPUHP_DYING_DELAY");
}
#endif

#ifdef CONFIG_RCU_HOTPLUG_WINDOW_DELAY
/* hotplug_fold.c: held inside the one-CPU shortcut, or before the hotplug fold. */
void cpuhp_trivial_gp_joiner(void);
void cpuhp_preempted_reader_unfolded(void);
/* Run first: a leaf whose CPUs left before any expedited grace period saw them. */
void cpuhp_preempted_reader_exp_unseen(void);
#else
static inline void cpuhp_trivial_gp_joiner(void)
{
	ktap_skip("needs CONFIG_RCU_HOTPLUG_WINDOW_DELAY");
}

static inline void cpuhp_preempted_reader_unfolded(void)
{
	ktap_skip("needs CONFIG_RCU_HOTPLUG_WINDOW_DELAY");
}

static inline void cpuhp_preempted_reader_exp_unseen(void)
{
	ktap_skip("needs CONFIG_RCU_HOTPLUG_WINDOW_DELAY");
}
#endif

#endif
