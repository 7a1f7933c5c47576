/*
 * The "cpuhp" suite's dead-CPU timer case (cpuhp_dead_cpu_timers; the
 * suite's list is in hotplug.c): a timer queued on a CPU that
 * dies must still run on time, however long cpu_down()'s caller takes to
 * get a CPU again. rcutorture's onoff kthread is SCHED_NORMAL and, in the
 * boost test's windows, real-time spinners hold every online CPU for
 * seconds (there is no RT throttling here); while it waited, the timers
 * of the CPU it had just taken down sat on the dead CPU's wheel, among
 * them the grace-period kthread's force-quiescent-state wait, so RCU
 * priority boosting never began ("rcu_torture_boost boosting failed",
 * BOOST01 under KCSAN).
 *
 * The victim arms the timer itself, from its stopper after it left the
 * online mask (cpuhp_dying_hook, interrupts off), due HT_DUE_MS later;
 * cpu_down()'s caller is then held after the death (cpuhp_dead_hook,
 * kernel/cpu_dying_delay.c) for up to HT_HOLD_MS, waiting for the timer.
 * It must fire inside that hold, on a CPU that is online. A timer that
 * fired on the victim before it died proves nothing: tried again, later.
 */
#include "hotplug.h"
#include <kernel/cpu.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <time/time.h>
#include <time/delay.h>
#include <time/timer.h>

#define HT_DUE_MS	50	/* after it is armed on the dying victim */
#define HT_HOLD_MS	1000	/* cpu_down()'s caller held at most this long after the death */
#define HT_TRIES	3

static struct {
	struct timer_list timer;
	unsigned int victim, due_ms;
	int armed, fired, fired_cpu, dead_seen, fired_in_hold;
	unsigned long due, fired_at, dead_at;
} ht;

static void ht_timer_fn(struct timer_list *t)
{
	ht.fired_cpu = smp_processor_id();
	ht.fired_at = jiffies;
	smp_store_release(&ht.fired, 1);	/* pairs with the smp_load_acquire()s below */
}

/* cpuhp_dying_hook: on the victim, out of the online mask: arm on its own wheel. */
static void ht_dying_hook(unsigned int cpu, bool irqs_on)
{
	if (cpu != ht.victim || irqs_on || ht.armed)
		return;
	ht.due = jiffies + msecs_to_jiffies(ht.due_ms);
	mod_timer(&ht.timer, ht.due);	/* this CPU's base */
	ht.armed = 1;
}

/* cpuhp_dead_hook: cpu_down()'s caller, the victim dead, before timers_dead_cpu(). */
static void ht_dead_hook(unsigned int cpu)
{
	unsigned int ms;

	if (cpu != ht.victim)
		return;
	ht.dead_seen = 1;
	ht.dead_at = jiffies;
	for (ms = 0; ms < HT_HOLD_MS && !smp_load_acquire(&ht.fired); ms += 5)
		msleep(5);
	ht.fired_in_hold = smp_load_acquire(&ht.fired);
}

/* One try: true if conclusive (the timer was left on the victim when it died). */
static bool ht_try(unsigned int victim, unsigned int due_ms, bool *down)
{
	unsigned int ms;

	memset(&ht, 0, sizeof(ht));
	ht.victim = victim;
	ht.due_ms = due_ms;
	timer_setup(&ht.timer, ht_timer_fn, 0);
	WRITE_ONCE(cpuhp_dying_hook, ht_dying_hook);
	WRITE_ONCE(cpuhp_dead_hook, ht_dead_hook);
	*down = cpu_down(victim) == 0;
	WRITE_ONCE(cpuhp_dying_hook, NULL);
	WRITE_ONCE(cpuhp_dead_hook, NULL);
	/* Whatever happened, it fires by now or soon (timers_dead_cpu() moved it at worst). */
	for (ms = 0; ms < 2000 && ht.armed && !smp_load_acquire(&ht.fired); ms += 5)
		msleep(5);
	del_timer_sync(&ht.timer);
	if (*down)
		KTAP_EXPECT_MSG(cpu_up(victim) == 0, "CPU %u did not come back", victim);
	return *down && ht.armed && ht.dead_seen && ht.fired && ht.fired_cpu != (int)victim;
}

void cpuhp_dead_cpu_timers(void)
{
	unsigned int victim, i, due_ms = HT_DUE_MS;
	bool down;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	victim = ktest_last_online_cpu();
	for (i = 0; i < HT_TRIES; i++, due_ms *= 2) {
		if (ht_try(victim, due_ms, &down))
			break;
		if (!KTAP_EXPECT_MSG(down, "CPU %u did not go down", victim))
			return;
		if (!KTAP_EXPECT_MSG(ht.armed && ht.dead_seen && ht.fired,
				     "timer armed %d, death seen %d, fired %d", ht.armed,
				     ht.dead_seen, ht.fired))
			return;
		ktap_diag("timer fired on CPU %u before it died (due in %u ms): again, later",
			  victim, due_ms);
	}
	if (i == HT_TRIES) {
		ktap_skip("the timer fired on the victim before it died every time");
		return;
	}
	ktap_diag("CPU %u died with a timer due in %u ms on it: fired on CPU %d %ld jiffies after its due time, %s",
		  victim, due_ms, ht.fired_cpu, (long)(ht.fired_at - ht.due),
		  ht.fired_in_hold ? "cpu_down()'s caller still held" : "after cpu_down()'s caller went on");
	KTAP_EXPECT_MSG(ht.fired_in_hold,
			"timer due at jiffy %lu, left on CPU %u when it died at jiffy %lu, had not fired %u ms later while cpu_down()'s caller was held (it fired at jiffy %lu, once timers_dead_cpu() moved it)",
			ht.due, victim, ht.dead_at, HT_HOLD_MS, ht.fired_at);
}
