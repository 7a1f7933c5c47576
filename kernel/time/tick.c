/*
 * The scheduling-clock tick: jiffies, the CPU that keeps it
 * (tick_do_timer_cpu), and the per-CPU work every tick drives: timers,
 * RCU, the scheduler.
 *
 * jiffies is derived from the clock rather than counted: each update adds
 * the whole tick periods elapsed since the last one, so it stays right
 * when ticks are lost or stopped (dyntick-idle). Any CPU may update it.
 */
#include "tick-internal.h"
#include <kernel/timer.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/shutdown.h>
#include <kernel/printk.h>
#include <sched/sched.h>
#include <rcu/hooks.h>
#include <kernel/cmpxchg.h>

volatile unsigned long jiffies = INITIAL_JIFFIES;
/* The boot CPU keeps jiffies until it first stops its tick. */
int tick_do_timer_cpu;

/* Serialises jiffies updates. */
static DEFINE_SPINLOCK(jiffies_lock);
/*
 * The clock time at which jiffies next advances. Written under
 * jiffies_lock; read locklessly as a fast-path filter (it only grows, so a
 * stale value merely sends the reader to the lock).
 */
static u64 tick_next_period = TICK_NSEC;
/* How far jiffies may lag the clock before a CPU without the duty updates it. */
#define TICK_STALLED_NSEC	(4 * TICK_NSEC)

void tick_do_update_jiffies(u64 now)
{
	unsigned long flags;
	u64 ticks;

	if (now < READ_ONCE(tick_next_period))
		return;
	spin_lock_irqsave(&jiffies_lock, flags);
	if (now >= tick_next_period) {
		ticks = 1;
		if (now - tick_next_period >= TICK_NSEC)	/* ticks were lost or stopped */
			ticks += (now - tick_next_period) / TICK_NSEC;
		WRITE_ONCE(tick_next_period, tick_next_period + ticks * TICK_NSEC);
		WRITE_ONCE(jiffies, jiffies + ticks);
	}
	spin_unlock_irqrestore(&jiffies_lock, flags);
}

/*
 * The arch timer interrupt, hard-interrupt context. The jiffies duty is
 * free (TICK_DO_TIMER_NONE) only after its holder stopped its tick in
 * idle; whichever CPU ticks next takes it over, as in Linux.
 */
void tick_handle(void)
{
	int cpu = raw_smp_processor_id();
	u64 now = local_clock();

	if (READ_ONCE(tick_do_timer_cpu) == TICK_DO_TIMER_NONE)
		cmpxchg(&tick_do_timer_cpu, TICK_DO_TIMER_NONE, cpu);
	if (READ_ONCE(tick_do_timer_cpu) == cpu) {
		tick_do_update_jiffies(now);
		shutdown_check_deadline();
	} else if (now >= READ_ONCE(tick_next_period) + TICK_STALLED_NSEC) {
		/*
		 * The duty holder has not ticked for a while: it spins with
		 * interrupts off (a stalled CPU: the stall warning needs
		 * jiffies to move) or its vCPU is descheduled on the host.
		 * Bring jiffies up to date from here, as Linux's
		 * MAX_STALLED_JIFFIES fallback does; the duty stays put.
		 */
		tick_do_update_jiffies(now);
	}
	if (tick_nohz_tick_stopped())
		tick_nohz_handler(now);
	run_local_timers();
	rcu_sched_clock_irq(0);
	scheduler_tick();
}

void tick_setup_this_cpu(void)
{
	arch_timer_set_periodic();
}

void tick_show_jiffies(void)
{
	u64 now = local_clock();

	printk(KERN_INFO "tick: jiffies=%lu (clock says %llu)\n", (unsigned long)jiffies,
	       (unsigned long long)(INITIAL_JIFFIES + now / TICK_NSEC));
}
