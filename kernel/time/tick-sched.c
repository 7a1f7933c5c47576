/*
 * Dyntick-idle (CONFIG_NO_HZ_IDLE): an idle CPU stops its periodic tick
 * and programs a one-shot for its next timer only, or nothing at all, so
 * idle CPUs take no interrupts they do not need. jiffies stays right
 * because it follows the clock (tick.c): a CPU brings it up to date when
 * an interrupt or the end of idle finds its tick stopped. A CPU that
 * stops its tick gives up the jiffies duty; the next CPU to tick takes it.
 *
 * The tick stays stopped across the idle loop's halts until the CPU has
 * something to run (need_resched()), then the periodic tick restarts.
 *
 * Full dynticks (CONFIG_NO_HZ_FULL): a nohz_full CPU running a task
 * decides at every outermost interrupt exit whether its tick may stop
 * (tick_nohz_full_update()); the same stopped state then serves it.
 * Everything here runs on the CPU concerned with interrupts off.
 */
#include <time/tick.h>
#include <time/timer.h>
#include <kernel/smp.h>
#include <kernel/param.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <kernel/bug.h>
#include <rcu/hooks.h>
#include <sched/isolation.h>
#include <sched/sched.h>
#include <kernel/printk.h>

struct tick_sched {
	bool tick_stopped;		/* periodic tick off: the CPU is idle */
	bool do_timer_last;		/* the last jiffies-duty holder: wakes every second */
	unsigned long next_tick;	/* jiffy the event is for, while tick_armed_event() */
	bool full_timer_idle;		/* full dynticks marked the timer base idle */
	/* Full dynticks statistics (power-off line): stops while busy, restarts. */
	unsigned long n_full_stops, n_full_restarts;
};
static DEFINE_PER_CPU(struct tick_sched, tick_cpu_sched);

static bool tick_nohz_enabled = true;
KPARAM_BOOL("nohz", tick_nohz_enabled,
	    "stop the tick of idle CPUs (dyntick-idle); off keeps it periodic");

bool tick_nohz_tick_stopped(void)
{
	return this_cpu_read(tick_cpu_sched.tick_stopped);
}

/* Leave dyntick mode: the periodic tick runs again. */
static void tick_nohz_restart(struct tick_sched *ts)
{
	ts->tick_stopped = false;
	ts->full_timer_idle = false;
	timer_set_idle(false);
	tick_program_periodic(local_clock());
}

/* Program the event for jiffy `next`, or stop the timer if next is "never". */
static void tick_nohz_program(struct tick_sched *ts, unsigned long next, unsigned long basej, u64 now)
{
	ts->next_tick = next;
	if ((long)(next - basej) >= (long)NEXT_TIMER_MAX_DELTA)
		tick_cancel_event();
	else
		tick_program_event(tick_jiffies_to_clock(next) + tick_skew_offset(), now);
}

/*
 * The idle loop is about to halt (interrupts off). Keep the tick if RCU
 * needs it or a timer is due within a jiffy; otherwise stop it (or, if
 * already stopped, re-program it for what may have changed since).
 */
void tick_nohz_idle_enter(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	int cpu = raw_smp_processor_id(), duty;
	unsigned long basej, next, cap, rcu_next;
	u64 now;

	WARN_ON_ONCE(!irqs_disabled());
	if (!READ_ONCE(tick_nohz_enabled))
		return;
	now = local_clock();
	tick_do_update_jiffies(now);
	basej = jiffies;
	if (rcu_needs_cpu(basej, &rcu_next)) {
		if (ts->tick_stopped)
			tick_nohz_restart(ts);
		return;
	}

	/*
	 * With nohz_full CPUs, the jiffies owner keeps its tick even when
	 * idle, as Linux's does: the nohz_full CPUs never take the duty, so
	 * handing it on could leave jiffies to the next housekeeping CPU to
	 * wake, maybe a second later, while a nohz_full CPU looping in the
	 * kernel needs it to move for its stall warning.
	 */
	if (tick_nohz_full_enabled() && READ_ONCE(tick_do_timer_cpu) == cpu) {
		if (ts->tick_stopped)
			tick_nohz_restart(ts);
		return;
	}

	timer_set_idle(true);	/* from here a remote add_timer_on() kicks us */
	next = timer_next_expiry(basej);
	if (time_before(rcu_next, next))	/* RCU_FAST_NO_HZ: callbacks to get through */
		next = rcu_next;
	if (!ts->tick_stopped && time_before_eq(next, basej + 1)) {
		timer_set_idle(false);
		return;
	}

	/*
	 * Hand the jiffies duty on. The last holder keeps waking once a
	 * second (on the second, for shutdown_secs) so that the duty work
	 * still happens when every CPU sleeps, as Linux's do_timer_last.
	 */
	duty = READ_ONCE(tick_do_timer_cpu);
	if (duty == cpu) {
		WRITE_ONCE(tick_do_timer_cpu, TICK_DO_TIMER_NONE);
		ts->do_timer_last = true;
	} else if (duty != TICK_DO_TIMER_NONE) {
		ts->do_timer_last = false;
	}
	if (ts->do_timer_last) {
		cap = tick_clock_to_jiffies_ceil((now / NSEC_PER_SEC + 1) * NSEC_PER_SEC);
		if (time_before(cap, next))
			next = cap;
	}

	if (!ts->tick_stopped)
		ts->tick_stopped = true;
	else if (tick_armed_event() && ts->next_tick == next)
		return;		/* already programmed for it */
	tick_nohz_program(ts, next, basej, now);
}

/* The halt ended (interrupts off): restart the tick if the CPU leaves idle. */
void tick_nohz_idle_exit(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	if (!ts->tick_stopped)
		return;
	tick_do_update_jiffies(local_clock());
	if (need_resched())
		tick_nohz_restart(ts);
}

/* Outermost interrupt entry: jiffies may be stale while the tick is stopped. */
void tick_irq_enter(void)
{
	if (this_cpu_read(tick_cpu_sched.tick_stopped))
		tick_do_update_jiffies(local_clock());
}

/*
 * Full dynticks: may this nohz_full CPU, running a task, do without its
 * tick? Not while a dependency is set (a second runnable task sets
 * TICK_DEP_BIT_SCHED, see kernel/sched/core.c), a switch is due, or RCU
 * wants the CPU (it never does for an offloaded CPU's callbacks: a grace
 * period that needs this CPU sets TICK_DEP_BIT_RCU instead). nohz=off
 * turns full dynticks off too.
 */
static bool tick_nohz_full_can_stop(int cpu, unsigned long basej, unsigned long *rcu_next)
{
	return READ_ONCE(tick_nohz_enabled) && !tick_dep_pending(cpu) && !need_resched() &&
	       sched_can_stop_tick(cpu) && !rcu_needs_cpu(basej, rcu_next);
}

/*
 * A nohz_full CPU's interrupt exit, current not the idle task: stop the
 * tick, re-program the stopped tick for the next timer, or restart it.
 * Stopped, the timer is armed for the CPU's next timer_list expiry only,
 * or not at all: there is no residual tick (Linux keeps one at 1 Hz for
 * the scheduler's statistics; here nothing needs it: jiffies is the
 * housekeeping CPU's, a lone task has no slice to end, and RCU reads the
 * CPU's dynticks counter or sets TICK_DEP_BIT_RCU).
 */
static void tick_nohz_full_update(struct tick_sched *ts, int cpu)
{
	unsigned long basej, next, rcu_next;
	u64 now = local_clock();

	tick_do_update_jiffies(now);
	basej = jiffies;
	if (!tick_nohz_full_can_stop(cpu, basej, &rcu_next)) {
		if (ts->tick_stopped) {
			ts->n_full_restarts++;
			tick_nohz_restart(ts);
		} else if (ts->full_timer_idle) {
			/* Restarted by tick_nohz_full_kick_self(), which takes no lock: unmark now. */
			ts->full_timer_idle = false;
			timer_set_idle(false);
		}
		return;
	}
	timer_set_idle(true);	/* from here an earlier add_timer_on() or mod_timer() kicks us */
	ts->full_timer_idle = true;
	next = timer_next_expiry(basej);
	if (time_before(rcu_next, next))
		next = rcu_next;
	if (!ts->tick_stopped && time_before_eq(next, basej + 1)) {
		ts->full_timer_idle = false;
		timer_set_idle(false);	/* a timer is due: keep ticking */
		return;
	}
	if (!ts->tick_stopped) {
		ts->tick_stopped = true;
		ts->n_full_stops++;
	} else if (tick_armed_event() && ts->next_tick == next) {
		return;		/* already programmed for it */
	}
	tick_nohz_program(ts, next, basej, now);
}

/*
 * A dependency was just set on this CPU, in task context (interrupts
 * off): run the tick again now rather than at the next interrupt. The
 * timer base stays marked idle (full_timer_idle) until the next tick's
 * interrupt exit unmarks it; meanwhile an earlier remote timer merely
 * kicks us once more. Only the periodic tick is programmed: no lock is
 * taken, as the caller may hold a runqueue lock.
 */
void tick_nohz_full_kick_self(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	if (!ts->tick_stopped || is_idle_task(current))
		return;		/* ticking, or the idle loop owns the tick */
	ts->tick_stopped = false;
	ts->n_full_restarts++;
	tick_program_periodic(local_clock());
}

/*
 * Outermost interrupt exit: a task woken by it ends idle, so the tick must
 * run again. On a nohz_full CPU running a task, full dynticks decides.
 */
void tick_irq_exit(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	int cpu = raw_smp_processor_id();

	if (tick_nohz_full_cpu(cpu) && !is_idle_task(current)) {
		tick_nohz_full_update(ts, cpu);
		return;
	}
	if (ts->tick_stopped && need_resched())
		tick_nohz_restart(ts);
}

#ifdef CONFIG_HOTPLUG_CPU
/* The CPU goes offline in its idle loop, maybe with its tick stopped: start afresh when it is back. */
void tick_nohz_cpu_dying(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	ts->tick_stopped = false;
	ts->do_timer_last = false;
	timer_set_idle(false);
}
#endif

#ifdef CONFIG_NO_HZ_FULL
void tick_nohz_full_show_stats(void)
{
	unsigned int cpu;

	if (!tick_nohz_full_enabled())
		return;
	for_each_cpu(cpu, tick_nohz_full_cpumask()) {
		struct tick_sched *ts = per_cpu_ptr(&tick_cpu_sched, cpu);

		printk(KERN_INFO "tick: CPU %u: nohz_full: %lu busy tick stops, %lu restarts, dependencies %#lx\n",
		       cpu, READ_ONCE(ts->n_full_stops), READ_ONCE(ts->n_full_restarts),
		       tick_dep_mask_cpu(cpu));
	}
}
#endif
