/*
 * The scheduling-clock tick. The arch provides one one-shot timer per CPU
 * and calls tick_handle() from its interrupt; the tick re-arms it for the
 * next jiffy (or, in dyntick-idle, for the next timer). jiffies follows the clock: jiffies == INITIAL_JIFFIES +
 * local_clock() / TICK_NSEC whenever some CPU has brought it up to date,
 * which the CPU holding tick_do_timer_cpu does on every tick and any CPU
 * leaving dyntick-idle does too.
 */
#ifndef _TIME_TICK_H
#define _TIME_TICK_H

#include <kernel/types.h>
#include <time/time.h>

#define TICK_NSEC		(NSEC_PER_SEC / HZ)
#define INITIAL_JIFFIES		0UL
#define TICK_DO_TIMER_NONE	-1

/*
 * Arch contract: this CPU's timer, one-shot only (interrupts off). A new
 * one-shot replaces one still pending; stop disarms it.
 */
void arch_timer_set_oneshot(u64 delta_ns);
void arch_timer_stop(void);

/*
 * This CPU's tick event (interrupts off): arm the timer for clock time
 * `when` (tick_handle() ignores an expiry before it and re-arms for the
 * rest), disarm it, read what it is armed for (0: nothing), or arm it for
 * the next jiffy boundary after `now` (the periodic tick).
 */
void tick_program_event(u64 when, u64 now);
void tick_cancel_event(void);
u64 tick_armed_event(void);
void tick_program_periodic(u64 now);
/* This CPU's skew_tick offset into the jiffy (0 unless skew_tick=1). */
u64 tick_skew_offset(void);
/* The skew_tick= setting (0 or 1). */
int tick_skew_enabled(void);

/* The CPU that advances jiffies, or TICK_DO_TIMER_NONE (the next CPU to tick takes it). */
extern int tick_do_timer_cpu;

/* The arch timer interrupt: jiffies, timers, RCU and scheduler work of one tick. */
void tick_handle(void);
/* Start this CPU's periodic tick (CPU bring-up, interrupts off). */
void tick_setup_this_cpu(void);
/*
 * Advance jiffies by the whole tick periods elapsed up to `now` (any CPU,
 * any context); returns at once if another CPU is doing so already.
 */
void tick_do_update_jiffies(u64 now);
/*
 * CPU hotplug, on the dying CPU with interrupts off: stop its tick and
 * hand the jiffies duty to the first online CPU (kernel/cpu.c).
 */
void tick_cpu_dying(void);
/* Print "tick: jiffies=J (clock says C)" (for the power-off report). */
void tick_show_jiffies(void);
/* Power-off statistics: each CPU's mean tick phase within the jiffy. */
void tick_show_stats(void);

/* The clock time (local_clock() ns) at which jiffies reaches j. */
static inline u64 tick_jiffies_to_clock(unsigned long j)
{
	return (u64)(j - INITIAL_JIFFIES) * TICK_NSEC;
}
/* The first jiffy that does not begin before clock time ns. */
static inline unsigned long tick_clock_to_jiffies_ceil(u64 ns)
{
	return INITIAL_JIFFIES + (unsigned long)DIV_ROUND_UP(ns, TICK_NSEC);
}

#ifdef CONFIG_NO_HZ_COMMON
/*
 * Dyntick-idle (kernel/time/tick-sched.c). The idle loop calls
 * tick_nohz_idle_enter() with interrupts off just before it halts, and
 * tick_nohz_idle_exit() with interrupts off once the halt ends.
 * irq_enter()/irq_exit() call tick_irq_enter()/tick_irq_exit() for the
 * outermost interrupt so that jiffies is current inside it and the tick
 * restarts when the interrupt makes the CPU leave idle.
 */
void tick_nohz_idle_enter(void);
void tick_nohz_idle_exit(void);
void tick_irq_enter(void);
void tick_irq_exit(void);
/* True while this CPU's periodic tick is stopped (it is idle). */
bool tick_nohz_tick_stopped(void);
/* CPU hotplug: this CPU dies (interrupts off): forget its dyntick state. */
void tick_nohz_cpu_dying(void);
/*
 * Full dynticks (CONFIG_NO_HZ_FULL, kernel/time/tick-sched.c): on a
 * nohz_full CPU running a task, every outermost interrupt exit decides
 * whether the tick may stop (one runnable task, no tick dependency, no
 * timer due within a jiffy) and stops, re-programs or restarts it.
 * tick_nohz_full_kick_self() restarts it now (task context, interrupts
 * off) after a dependency was set on this CPU.
 */
void tick_nohz_full_kick_self(void);
#else
static inline void tick_nohz_cpu_dying(void) { }
static inline void tick_nohz_full_kick_self(void) { }
static inline void tick_nohz_idle_enter(void) { }
static inline void tick_nohz_idle_exit(void) { }
static inline void tick_irq_enter(void) { }
static inline void tick_irq_exit(void) { }
static inline bool tick_nohz_tick_stopped(void) { return false; }
#endif

/*
 * Tick dependencies (Linux's names and bit numbers): while any is set for
 * a nohz_full CPU, globally or for that CPU, its tick runs. SCHED: more
 * than one task is runnable on the CPU (kernel/sched/core.c). RCU: a grace
 * period has waited jiffies_till_sched_qs for the CPU, busy in the kernel
 * (kernel/rcu/tree_gp.c); cleared when it reports its quiescent state.
 * Setting a bit kicks the CPU concerned; clearing one lets its tick stop
 * at the next interrupt exit.
 */
enum tick_dep_bits {
	TICK_DEP_BIT_SCHED = 2,
	TICK_DEP_BIT_RCU = 4,
};
#define TICK_DEP_MASK_SCHED	(1UL << TICK_DEP_BIT_SCHED)
#define TICK_DEP_MASK_RCU	(1UL << TICK_DEP_BIT_RCU)

#ifdef CONFIG_NO_HZ_FULL
void tick_dep_set(enum tick_dep_bits bit);
void tick_dep_clear(enum tick_dep_bits bit);
void tick_dep_set_cpu(int cpu, enum tick_dep_bits bit);
void tick_dep_clear_cpu(int cpu, enum tick_dep_bits bit);
bool tick_dep_pending(int cpu);
unsigned long tick_dep_mask_cpu(int cpu);
/* Power-off line: full-dynticks tick stops and restarts per nohz_full CPU. */
void tick_nohz_full_show_stats(void);
#else
static inline void tick_dep_set(enum tick_dep_bits bit) { (void)bit; }
static inline void tick_dep_clear(enum tick_dep_bits bit) { (void)bit; }
static inline void tick_dep_set_cpu(int cpu, enum tick_dep_bits bit) { (void)cpu; (void)bit; }
static inline void tick_dep_clear_cpu(int cpu, enum tick_dep_bits bit) { (void)cpu; (void)bit; }
static inline bool tick_dep_pending(int cpu) { (void)cpu; return false; }
static inline unsigned long tick_dep_mask_cpu(int cpu) { (void)cpu; return 0; }
static inline void tick_nohz_full_show_stats(void) { }
#endif

#endif
