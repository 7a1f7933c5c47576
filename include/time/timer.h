/*
 * Timers on jiffies (the timer wheel): a timer runs its function once, in
 * hard-interrupt context (interrupts off) on the CPU it was armed on, at or
 * soon after `expires` (never before: jiffies reaches `expires` only once
 * local_clock() has passed the start of that jiffy).
 *
 * Arming (mod_timer/add_timer) queues the timer on the calling CPU;
 * add_timer_on() picks the CPU. A callback may re-arm its own timer. All
 * operations are O(1) except timer_next_expiry() (kernel/time/timer.c).
 */
#ifndef _TIME_TIMER_H
#define _TIME_TIMER_H

#include <kernel/types.h>
#include <kernel/list.h>

struct timer_list {
	struct hlist_node entry;	/* in a wheel bucket; pprev == NULL when not pending */
	unsigned long expires;
	void (*function)(struct timer_list *);
	u32 flags;		/* TIMER_* and, in the low bits, the CPU it is queued on */
};

#define TIMER_CPUMASK	0x0003ffff
#define TIMER_MIGRATING	0x00040000	/* being moved between CPUs: wait, then look again */
#define TIMER_PINNED	0x00100000	/* stay on the arming CPU (all timers do for now) */
#define TIMER_IDXSHIFT	24		/* bits 24-31: the wheel bucket, private to timer.c */
#define TIMER_IDXMASK	0xff000000

/* timer_next_expiry() answers now + this when no timer is queued (as Linux). */
#define NEXT_TIMER_MAX_DELTA	((1UL << 30) - 1)

#define from_timer(var, timer, field)	container_of(timer, __typeof__(*var), field)

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), unsigned int flags);
#define timer_setup_on_stack	timer_setup
static inline void destroy_timer_on_stack(struct timer_list *t) { (void)t; }
/* (Re)arm on this CPU; returns 1 if the timer was pending. */
int mod_timer(struct timer_list *t, unsigned long expires);
/* Arm a timer that is not pending (t->expires set by the caller). */
void add_timer(struct timer_list *t);
/* Arm on `cpu` (which must be online), waking it if it sleeps past t->expires. */
void add_timer_on(struct timer_list *t, int cpu);
/*
 * Disarm; returns 1 if it was pending. _sync also waits for a running
 * callback to return, so the timer may be freed afterwards (the caller
 * must stop it being re-armed; never call it from the timer's callback,
 * nor from an interrupt on the CPU the callback runs on).
 */
int del_timer(struct timer_list *t);
int del_timer_sync(struct timer_list *t);
#define timer_delete		del_timer
#define timer_delete_sync	del_timer_sync
bool timer_pending(const struct timer_list *t);

/* Called from the tick (hard interrupt): run this CPU's expired timers. */
void run_local_timers(void);
/*
 * Jiffy at which this CPU's earliest timer will run (<= now: at the next
 * tick), or now + NEXT_TIMER_MAX_DELTA if none. Interrupts off.
 */
unsigned long timer_next_expiry(unsigned long now);
/*
 * Dyntick-idle: mark this CPU's timer base idle (true) or busy (false).
 * While idle, arming a timer on it from another CPU, earlier than the
 * last timer_next_expiry() answer, sends it a reschedule IPI so that it
 * re-programs its tick. Interrupts off.
 */
void timer_set_idle(bool idle);
/*
 * CPU hotplug, on the dying CPU (out of the online mask, tick stopped,
 * interrupts off): move its timers to the first online CPU, so that they
 * run on time whether or not cpu_down()'s caller gets a CPU.
 */
void timers_dying_cpu(void);
/*
 * CPU hotplug: move every timer of dead CPU cpu to this CPU's base
 * (kernel/cpu.c, once cpu is dead; any context but interrupts).
 */
void timers_dead_cpu(unsigned int cpu);
/* Set up every possible CPU's timer base (boot CPU, before the first tick). */
void timers_init(void);

#endif
