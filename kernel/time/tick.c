/*
 * The scheduling-clock tick: jiffies, the CPU that keeps it
 * (tick_do_timer_cpu), and the per-CPU work every tick drives: timers,
 * RCU, the scheduler.
 *
 * jiffies is derived from the clock rather than counted: each update adds
 * the whole tick periods elapsed since the last one, so it stays right
 * when ticks are lost or stopped (dyntick-idle). Any CPU may update it.
 */
#include <time/tick.h>
#include <time/timer.h>
#include <kernel/smp.h>
#include <locking/spinlock.h>
#include <kernel/shutdown.h>
#include <kernel/printk.h>
#include <sched/sched.h>
#include <rcu/hooks.h>
#include <kernel/irq.h>
#include <kernel/cmpxchg.h>
#include <kernel/param.h>
#include <kernel/sprintf.h>
#include <kernel/cpumask.h>
#include <sched/isolation.h>

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

/*
 * Never spin for jiffies_lock: whoever holds it is bringing jiffies up to
 * its own clock reading, which is as good as ours. Waiting turned into a
 * livelock (TREE01, 8 vCPUs on 2 loaded host cores): once jiffies fell 4
 * ticks behind, every CPU's tick queued on the ticket lock, each handoff
 * waited for the next waiter's vCPU to be scheduled on the host, so
 * jiffies fell further behind and every tick kept queueing: CPUs spent
 * their time in the tick, readers stalled for over 20 s.
 */
void tick_do_update_jiffies(u64 now)
{
	unsigned long flags;
	u64 ticks;

	if (now < READ_ONCE(tick_next_period))
		return;
	local_irq_save(flags);
	if (!do_raw_spin_trylock(&jiffies_lock, __THIS_PC)) {
		local_irq_restore(flags);
		return;
	}
	if (now >= tick_next_period) {
		ticks = 1;
		if (now - tick_next_period >= TICK_NSEC)	/* ticks were lost or stopped */
			ticks += (now - tick_next_period) / TICK_NSEC;
		WRITE_ONCE(tick_next_period, tick_next_period + ticks * TICK_NSEC);
		WRITE_ONCE(jiffies, jiffies + ticks);
	}
	do_raw_spin_unlock(&jiffies_lock);
	local_irq_restore(flags);
}

/*
 * The tick device: each CPU's timer runs one-shot only (see
 * arch/x86_64/kernel/timer.c for why), armed for the clock time in
 * tick_next_event. A periodic tick is a one-shot re-armed by every tick
 * for the next jiffy boundary; dyntick-idle arms it for the next timer.
 */
static DEFINE_PER_CPU(u64, tick_next_event);	/* clock time armed for; 0 = none */

/*
 * skew_tick=1 (Linux's name): each CPU ticks at its own offset into the
 * jiffy, CPU n at n/nr_cpu_ids of half a tick, so that the CPUs do not all
 * take the tick, and contend on the rcu_node locks and jiffies_lock it
 * leads to, at the same instant. Off by default, as in Linux: aligned
 * ticks let idle CPUs' wakeups coincide.
 */
static int skew_tick;
KPARAM("skew_tick", skew_tick, KPARAM_INT, 0, 1,
       "1: offset each CPU's tick by cpu/nr_cpu_ids of half a tick; 0: all tick on the jiffy");
static DEFINE_PER_CPU(u64, tick_skew_ns);	/* this CPU's offset into the jiffy */
/* Where in the jiffy this CPU's ticks really came (statistics: tick_show_stats()). */
static DEFINE_PER_CPU(u64, tick_phase_sum_ns);
static DEFINE_PER_CPU(unsigned long, tick_phase_count);

int tick_skew_enabled(void)
{
	return skew_tick;
}

u64 tick_skew_offset(void)
{
	return this_cpu_read(tick_skew_ns);
}

void tick_program_event(u64 when, u64 now)
{
	u64 delta = when > now ? when - now : 0;

	this_cpu_write(tick_next_event, when);
	/*
	 * The timer's rate and the clock's can disagree by a percent or two
	 * (seen under QEMU TCG). Aim a long sleep 1/32 early and let
	 * tick_handle() re-arm for the rest, rather than wake late; aim a
	 * tick 1/32 late, so that it does not fire just before its jiffy
	 * begins and need a second interrupt to reach it.
	 */
	if (delta > 2 * TICK_NSEC)
		delta -= delta / 32;
	else
		delta += delta / 32;
	arch_timer_set_oneshot(delta);
}

void tick_cancel_event(void)
{
	this_cpu_write(tick_next_event, 0);
	arch_timer_stop();
}

u64 tick_armed_event(void)
{
	return this_cpu_read(tick_next_event);
}

/* The next periodic tick: the next jiffy boundary, plus this CPU's skew_tick offset. */
void tick_program_periodic(u64 now)
{
	u64 off = this_cpu_read(tick_skew_ns);
	u64 base = now > off ? now - off : 0;

	tick_program_event((base / TICK_NSEC + 1) * TICK_NSEC + off, now);
}

/*
 * The arch timer interrupt, hard-interrupt context. The jiffies duty is
 * free (TICK_DO_TIMER_NONE) only after its holder stopped its tick in
 * idle; whichever CPU ticks next takes it over, as in Linux.
 */
void tick_handle(void)
{
	int cpu = raw_smp_processor_id();
	u64 now = local_clock(), due = this_cpu_read(tick_next_event);

	if (now < due) {		/* fired before its time (see tick_program_event()) */
		arch_timer_set_oneshot(due - now);
		return;
	}
	this_cpu_write(tick_next_event, 0);
	this_cpu_write(tick_phase_sum_ns, this_cpu_read(tick_phase_sum_ns) + now % TICK_NSEC);
	this_cpu_write(tick_phase_count, this_cpu_read(tick_phase_count) + 1);
	/* Re-arm first: the next tick's time does not depend on how long this one takes. */
	if (!tick_nohz_tick_stopped())
		tick_program_periodic(now);
	/* Housekeeping: a nohz_full CPU never takes the duty (it may stop its tick while busy). */
	if (READ_ONCE(tick_do_timer_cpu) == TICK_DO_TIMER_NONE && housekeeping_cpu(cpu))
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
	run_local_timers();
	rcu_sched_clock_irq(arch_irq_interrupted_user());
	scheduler_tick();
}

#ifdef CONFIG_HOTPLUG_CPU
void tick_cpu_dying(void)
{
	int cpu = raw_smp_processor_id(), heir = cpumask_first(cpu_online_mask);

	tick_nohz_cpu_dying();
	tick_cancel_event();	/* the LAPIC timer stops: a dead CPU takes no interrupt */
	/*
	 * The duty (and, with every CPU idle, the once-a-second wakeup of its
	 * last holder, which runs the power-off deadline) goes to the first
	 * online CPU, as Linux's tick_handover_do_timer(). The IPI gets it
	 * out of a dyntick halt to take it up.
	 */
	if (READ_ONCE(tick_do_timer_cpu) == cpu || READ_ONCE(tick_do_timer_cpu) == TICK_DO_TIMER_NONE) {
		WRITE_ONCE(tick_do_timer_cpu, heir);
		smp_send_reschedule(heir);
	}
}
#endif

void tick_setup_this_cpu(void)
{
	unsigned int cpu = raw_smp_processor_id();

	if (skew_tick)
		this_cpu_write(tick_skew_ns, (u64)(TICK_NSEC / 2) / nr_cpu_ids * cpu);
	tick_program_periodic(local_clock());
}

/*
 * At power-off: where in the jiffy each CPU's ticks came, on average (the
 * offset skew_tick asked for plus interrupt latency), in microseconds.
 */
void tick_show_stats(void)
{
	char buf[512];
	unsigned int cpu;
	int n;

	n = snprintf(buf, sizeof(buf), "tick: skew_tick=%d, mean tick phase (us) per CPU:", skew_tick);
	for_each_online_cpu(cpu) {
		unsigned long cnt = per_cpu(tick_phase_count, cpu);
		u64 mean = cnt ? per_cpu(tick_phase_sum_ns, cpu) / cnt : 0;

		if (n >= (int)sizeof(buf) - 16) {
			n += snprintf(buf + n, sizeof(buf) - n, " ...");
			break;
		}
		n += snprintf(buf + n, sizeof(buf) - n, " %u:%llu", cpu,
			      (unsigned long long)(mean / NSEC_PER_USEC));
	}
	printk(KERN_INFO "%s\n", buf);
}

void tick_show_jiffies(void)
{
	u64 now = local_clock();

	printk(KERN_INFO "tick: jiffies=%lu (clock says %llu)\n", (unsigned long)jiffies,
	       (unsigned long long)(INITIAL_JIFFIES + now / TICK_NSEC));
}
