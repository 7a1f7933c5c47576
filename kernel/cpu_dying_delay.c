/*
 * Test kernels only (CONFIG_CPUHP_DYING_DELAY): a delay knob that holds a
 * dying CPU inside the window between leaving cpu_online_mask and
 * rcu_report_dead(), where it is still an RCU reader although no longer
 * "online". cpuhp.dying_delay_ms=N spends N ms there twice, each time in
 * a reader that checks no grace period ends under it: first in the
 * stopper with interrupts off, then with interrupts on, so that timer
 * handlers queued on the CPU (rcutorture's timer readers, for one) run
 * readers in the window too. A self-test may instead set cpuhp_dying_hook
 * to run its own reader at both points. Code that decides "no reader can
 * exist" from the online mask is caught by this
 * (Documentation/RCU/hotplug.md).
 *
 * Its mirror on the way up: cpuhp.starting_delay_ms=N holds each CPU
 * coming up N ms after rcu_cpu_starting() and before it marks itself
 * online (interrupts off), where RCU counts it but cross calls skip it;
 * cpuhp_starting_hook lets a self-test hold it there instead.
 *
 * And the controller's side: cpuhp.dead_delay_ms=N holds cpu_down()'s
 * caller N ms (asleep) after the CPU died and before it takes over what
 * the CPU left (timers_dead_cpu(), its RCU callbacks), as a SCHED_NORMAL
 * caller starved by real-time tasks is held; cpuhp_dead_hook runs a
 * self-test's code there instead.
 */
#define KPARAM_SUBSYS "cpuhp"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include <kernel/cpu.h>
#include <kernel/param.h>
#include <rcu/rcupdate.h>
#include <time/delay.h>
#include <kernel/bug.h>

static unsigned int cpuhp_dying_delay_ms;
KPARAM("cpuhp.dying_delay_ms", cpuhp_dying_delay_ms, KPARAM_UINT, 0, 1000,
       "test kernels: hold each dying CPU this many ms, after it left the online mask, with interrupts off and then on");

void (*cpuhp_dying_hook)(unsigned int cpu, bool irqs_on);

static unsigned int cpuhp_starting_delay_ms;
KPARAM("cpuhp.starting_delay_ms", cpuhp_starting_delay_ms, KPARAM_UINT, 0, 1000,
       "test kernels: hold each CPU coming up this many ms, counted by RCU but not yet online");

void (*cpuhp_starting_hook)(unsigned int cpu);

static unsigned int cpuhp_dead_delay_ms;
KPARAM("cpuhp.dead_delay_ms", cpuhp_dead_delay_ms, KPARAM_UINT, 0, 5000,
       "test kernels: hold cpu_down()'s caller this many ms after the CPU died, before it takes over the CPU's timers and callbacks");

void (*cpuhp_dead_hook)(unsigned int cpu);

void cpuhp_dead_window(unsigned int cpu)
{
	void (*hook)(unsigned int cpu) = READ_ONCE(cpuhp_dead_hook);
	unsigned int ms = READ_ONCE(cpuhp_dead_delay_ms);

	if (hook)
		hook(cpu);
	else if (ms)
		msleep(ms);	/* the caller's task sleeps: the CPUs run others meanwhile */
}

void cpuhp_starting_window(unsigned int cpu)
{
	void (*hook)(unsigned int cpu) = READ_ONCE(cpuhp_starting_hook);
	unsigned int ms = READ_ONCE(cpuhp_starting_delay_ms);

	if (hook)
		hook(cpu);
	else if (ms)
		mdelay(ms);	/* interrupts off: the CPU's bring-up, spinning */
}

/*
 * A reader held ms long that checks its own grace period: cookies taken
 * inside it must not read complete while it is still inside (as
 * rcutorture's "Cookie check 2"). So a run with the knob on fails, with a
 * WARNING, when a grace-period wait elsewhere ends under this CPU.
 */
static void cpuhp_dying_reader(unsigned int cpu, unsigned int ms, bool irqs_on)
{
	struct rcu_gp_oldstate full;
	unsigned long cookie;

	rcu_read_lock();
	cookie = get_state_synchronize_rcu();
	get_state_synchronize_rcu_full(&full);
	mdelay(ms);
	WARN_ONCE(poll_state_synchronize_rcu(cookie) || poll_state_synchronize_rcu_full(&full),
		  "cpuhp: CPU %u, out of the online mask, interrupts %s: a grace period ended inside its reader (cookie %lu, now %lu)\n",
		  cpu, irqs_on ? "on" : "off", cookie, get_state_synchronize_rcu());
	rcu_read_unlock();
}

void cpuhp_dying_window(unsigned int cpu, bool irqs_on)
{
	void (*hook)(unsigned int cpu, bool irqs_on) = READ_ONCE(cpuhp_dying_hook);
	unsigned int ms = READ_ONCE(cpuhp_dying_delay_ms);

	if (hook) {
		hook(cpu, irqs_on);
		return;
	}
	if (ms)
		cpuhp_dying_reader(cpu, ms, irqs_on);	/* irqs on: timer handlers read meanwhile too */
}
