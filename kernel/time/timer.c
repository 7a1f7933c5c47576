/*
 * The timer wheel: one per CPU, a hashed wheel of WHEEL_SIZE buckets
 * indexed by expiry jiffy (bucket = expires % WHEEL_SIZE). A timer due
 * within WHEEL_SIZE jiffies sits in its own jiffy's bucket; a later one
 * sits there too and is passed over (it is not expired) until its lap
 * comes round, so arming and disarming are O(1) and there is no cascading.
 * The tick walks one bucket per elapsed jiffy; after a long dyntick-idle
 * sleep (more than a lap) it walks each bucket once.
 *
 * Locking: each base has a spinlock taken with interrupts off; a timer
 * belongs to the base named by the CPU bits of t->flags, which change only
 * under both bases' locks with TIMER_MIGRATING set in between (so
 * lock_timer_base() finds the right lock). Callbacks run with the lock
 * dropped; base->running_timer names the one running, for
 * del_timer_sync().
 */
#include <time/timer.h>
#include <time/tick.h>
#include <time/time.h>
#include <kernel/smp.h>
#include <locking/spinlock.h>
#include <kernel/bitmap.h>
#include <kernel/preempt.h>
#include <kernel/bug.h>
#include <kernel/processor.h>

#define WHEEL_BITS	8
#define WHEEL_SIZE	(1UL << WHEEL_BITS)
#define WHEEL_MASK	(WHEEL_SIZE - 1)

BUILD_BUG_ON(WHEEL_MASK > (TIMER_IDXMASK >> TIMER_IDXSHIFT));

struct timer_base {
	spinlock_t lock;
	/* --- guarded by lock --- */
	struct timer_list *running_timer;	/* callback in progress (lock dropped) */
	unsigned long clk;			/* every jiffy up to clk has been run */
	unsigned long next_expiry;		/* last timer_next_expiry() answer */
	bool is_idle;				/* dyntick-idle: kick on an earlier remote arm */
	unsigned int cpu;
	DECLARE_BITMAP(pending_map, WHEEL_SIZE);	/* non-empty buckets */
	struct hlist_head vectors[WHEEL_SIZE];
};

static DEFINE_PER_CPU_ALIGNED(struct timer_base, timer_bases);
static bool timers_ready;

static inline unsigned int timer_cpu(u32 flags) { return flags & TIMER_CPUMASK; }
static inline unsigned int timer_idx(const struct timer_list *t)
{
	return (t->flags & TIMER_IDXMASK) >> TIMER_IDXSHIFT;
}

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), unsigned int flags)
{
	t->entry.next = NULL;
	t->entry.pprev = NULL;
	t->expires = 0;
	t->function = fn;
	t->flags = (flags & ~(TIMER_CPUMASK | TIMER_MIGRATING | TIMER_IDXMASK)) |
		   raw_smp_processor_id();
}

bool timer_pending(const struct timer_list *t)
{
	return READ_ONCE(t->entry.pprev) != NULL;
}

/* Lock the base t is queued on (or was last armed on); interrupts off on return. */
static struct timer_base *lock_timer_base(struct timer_list *t, unsigned long *flags)
{
	for (;;) {
		u32 tf = READ_ONCE(t->flags);

		if (!(tf & TIMER_MIGRATING)) {
			struct timer_base *base = per_cpu_ptr(&timer_bases, timer_cpu(tf));

			spin_lock_irqsave(&base->lock, *flags);
			if (timer_cpu(READ_ONCE(t->flags)) == timer_cpu(tf) &&
			    !(READ_ONCE(t->flags) & TIMER_MIGRATING))
				return base;
			spin_unlock_irqrestore(&base->lock, *flags);
		}
		cpu_relax();
	}
}

static bool wheel_empty(const struct timer_base *base)
{
	return bitmap_empty(base->pending_map, WHEEL_SIZE);
}

static void enqueue_timer(struct timer_base *base, struct timer_list *t)
{
	unsigned long idx;

	/* An empty wheel may skip ahead: nothing lies in the jiffies it jumps. */
	if (time_after(jiffies, base->clk) && wheel_empty(base))
		base->clk = jiffies;
	/* Already due: the next jiffy the tick walks (clk + 1) runs it. */
	idx = time_after(t->expires, base->clk) ? t->expires : base->clk + 1;
	idx &= WHEEL_MASK;
	hlist_add_head(&t->entry, &base->vectors[idx]);
	__set_bit(idx, base->pending_map);
	WRITE_ONCE(t->flags, (t->flags & ~TIMER_IDXMASK) | ((u32)idx << TIMER_IDXSHIFT));
}

/*
 * Unlink a pending timer. One on run_local_timers()' private expired list is
 * pending but in no bucket; its pprev does not point into its bucket, so
 * the bucket's bit is left alone (the trick Linux uses too).
 */
static void detach_timer(struct timer_base *base, struct timer_list *t)
{
	unsigned int idx = timer_idx(t);
	bool last = !t->entry.next && t->entry.pprev == &base->vectors[idx].first;

	__hlist_del(&t->entry);
	t->entry.next = NULL;
	WRITE_ONCE(t->entry.pprev, NULL);
	if (last)
		__clear_bit(idx, base->pending_map);
}

/*
 * With base locked: should base's CPU be woken so that it re-programs its
 * stopped tick for t? Only if it sleeps in dyntick-idle past t->expires.
 */
static bool timer_needs_kick(struct timer_base *base, struct timer_list *t)
{
	if (!base->is_idle || base->cpu == raw_smp_processor_id() ||
	    !time_before(t->expires, base->next_expiry))
		return false;
	base->next_expiry = t->expires;
	return true;
}

/*
 * Queue t for `expires` on `cpu` (< 0: this CPU). A timer whose callback
 * is running on its old base stays there when re-armed by mod_timer(), so
 * that del_timer_sync() still waits for that callback. add_timer_on()
 * moves it regardless, as in Linux; del_timer_sync() then waits only on
 * the new CPU, so owners of timers that hop CPUs must stop the hopping
 * before they delete.
 */
static int __mod_timer(struct timer_list *t, unsigned long expires, int cpu)
{
	struct timer_base *base, *new_base;
	unsigned long flags;
	bool kick;
	int ret;

	base = lock_timer_base(t, &flags);
	ret = timer_pending(t);
	if (ret)
		detach_timer(base, t);
	new_base = per_cpu_ptr(&timer_bases, cpu < 0 ? (int)raw_smp_processor_id() : cpu);
	if (base != new_base && (cpu >= 0 || base->running_timer != t)) {
		WRITE_ONCE(t->flags, t->flags | TIMER_MIGRATING);
		spin_release(&base->lock, LOCKDEP_HERE);
		do_raw_spin_unlock(&base->lock);
		base = new_base;
		spin_acquire(&base->lock, false, LOCKDEP_HERE);
		do_raw_spin_lock(&base->lock, __THIS_PC);
		WRITE_ONCE(t->flags, (t->flags & ~(TIMER_CPUMASK | TIMER_MIGRATING)) | base->cpu);
	}
	t->expires = expires;
	enqueue_timer(base, t);
	kick = timer_needs_kick(base, t);
	/*
	 * Full dynticks: this CPU runs a task with its tick stopped, for a
	 * later expiry than this one; tick again so that the timer is not
	 * missed (the next interrupt exit re-programs the stopped tick).
	 */
	if (base->is_idle && base->cpu == raw_smp_processor_id() && !in_interrupt() &&
	    time_before(t->expires, base->next_expiry))
		tick_nohz_full_kick_self();
	spin_unlock_irqrestore(&base->lock, flags);
	if (kick)
		smp_send_reschedule(base->cpu);
	return ret;
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	/* Linux's shortcut: re-arming a pending timer for the same jiffy changes nothing. */
	if (timer_pending(t) && READ_ONCE(t->expires) == expires)
		return 1;
	return __mod_timer(t, expires, -1);
}

void add_timer(struct timer_list *t)
{
	WARN_ON_ONCE(timer_pending(t));
	__mod_timer(t, t->expires, -1);
}

void add_timer_on(struct timer_list *t, int cpu)
{
	WARN_ON_ONCE(timer_pending(t));
	WARN_ON_ONCE(cpu < 0 || !cpu_online(cpu));
	__mod_timer(t, t->expires, cpu);
}

int del_timer(struct timer_list *t)
{
	struct timer_base *base;
	unsigned long flags;
	int ret;

	if (!timer_pending(t))
		return 0;
	base = lock_timer_base(t, &flags);
	ret = timer_pending(t);
	if (ret)
		detach_timer(base, t);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

/* del_timer(), unless the callback runs: then -1 (on another CPU) or -2 (here: we are in it). */
static int try_to_del_timer_sync(struct timer_list *t)
{
	struct timer_base *base;
	unsigned long flags;
	int ret;

	base = lock_timer_base(t, &flags);
	if (base->running_timer == t) {
		ret = base->cpu == raw_smp_processor_id() ? -2 : -1;
	} else {
		ret = timer_pending(t);
		if (ret)
			detach_timer(base, t);
	}
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

int del_timer_sync(struct timer_list *t)
{
	int ret;

	for (;;) {
		ret = try_to_del_timer_sync(t);
		if (ret >= 0)
			return ret;
		if (WARN_ON_ONCE(ret == -2))	/* called from its own callback: would never finish */
			return 0;
		cpu_relax();
	}
}

/* Move the timers of bucket idx that are due by jiffy `now` onto `expired`. */
static void collect_expired(struct timer_base *base, unsigned int idx, unsigned long now,
			    struct hlist_head *expired)
{
	struct hlist_node *n, *next;

	for (n = base->vectors[idx].first; n; n = next) {
		struct timer_list *t = hlist_entry(n, struct timer_list, entry);

		next = n->next;
		if (time_after(t->expires, now))
			continue;		/* due in a later lap of the wheel */
		__hlist_del(n);
		hlist_add_head(n, expired);
	}
	if (hlist_empty(&base->vectors[idx]))
		__clear_bit(idx, base->pending_map);
}

/* Run the timers on `expired`, each with the base lock dropped. */
static void expire_timers(struct timer_base *base, struct hlist_head *expired)
{
	while (expired->first) {
		struct timer_list *t = hlist_entry(expired->first, struct timer_list, entry);
		void (*fn)(struct timer_list *) = t->function;
		unsigned int count;

		base->running_timer = t;
		detach_timer(base, t);
		spin_release(&base->lock, LOCKDEP_HERE);	/* fn runs without it, for lockdep too */
		do_raw_spin_unlock(&base->lock);
		count = preempt_count();
		fn(t);
		if (WARN_ON_ONCE(preempt_count() != count))	/* fn leaked a lock or preempt_disable() */
			this_cpu_write(__preempt_count, (int)count);
		spin_acquire(&base->lock, false, LOCKDEP_HERE);
		do_raw_spin_lock(&base->lock, __THIS_PC);
		base->running_timer = NULL;
	}
}

/*
 * The tick's timer work, in hard-interrupt context: walk every jiffy from
 * base->clk to jiffies, running what is due. After a sleep of more than a
 * lap, one pass over all buckets does the same.
 */
void run_local_timers(void)
{
	struct timer_base *base = this_cpu_ptr(&timer_bases);
	struct hlist_head expired = HLIST_HEAD_INIT;
	unsigned long now = jiffies, flags;
	unsigned int i;

	if (!READ_ONCE(timers_ready) || !time_after(now, READ_ONCE(base->clk)))
		return;
	spin_lock_irqsave(&base->lock, flags);
	if (time_after(now, base->clk + WHEEL_SIZE)) {
		for (i = 1; i <= WHEEL_SIZE; i++)
			collect_expired(base, (base->clk + i) & WHEEL_MASK, now, &expired);
		base->clk = now;
		expire_timers(base, &expired);
	}
	while (time_before(base->clk, now)) {
		if (wheel_empty(base)) {
			base->clk = now;
			break;
		}
		base->clk++;
		collect_expired(base, base->clk & WHEEL_MASK, base->clk, &expired);
		expire_timers(base, &expired);
	}
	spin_unlock_irqrestore(&base->lock, flags);
}

/*
 * The jiffy at which the tick will run this CPU's earliest timer: walk the
 * non-empty buckets in the order the tick will, from clk + 1. The first
 * timer due in its bucket's current lap ends the search; timers a lap or
 * more away only lower the running minimum.
 */
unsigned long timer_next_expiry(unsigned long now)
{
	struct timer_base *base = this_cpu_ptr(&timer_bases);
	unsigned long next = now + NEXT_TIMER_MAX_DELTA, flags, start, idx;
	struct timer_list *t;
	int pass;

	spin_lock_irqsave(&base->lock, flags);
	start = (base->clk + 1) & WHEEL_MASK;
	for (pass = 0; pass < 2; pass++) {
		unsigned long lo = pass ? 0 : start, hi = pass ? start : WHEEL_SIZE;

		for (idx = find_next_bit(base->pending_map, hi, lo); idx < hi;
		     idx = find_next_bit(base->pending_map, hi, idx + 1)) {
			unsigned long j = base->clk + 1 + ((idx - start) & WHEEL_MASK);

			hlist_for_each_entry(t, &base->vectors[idx], entry) {
				if (!time_after(t->expires, j)) {
					next = j;
					goto out;
				}
				if (time_before(t->expires, next))
					next = t->expires;
			}
		}
	}
out:
	base->next_expiry = next;
	spin_unlock_irqrestore(&base->lock, flags);
	return next;
}

void timer_set_idle(bool idle)
{
	struct timer_base *base = this_cpu_ptr(&timer_bases);
	unsigned long flags;

	spin_lock_irqsave(&base->lock, flags);
	base->is_idle = idle;
	/* Until timer_next_expiry() answers, no remote arm needs a kick: the answer will see it. */
	base->next_expiry = base->clk;
	spin_unlock_irqrestore(&base->lock, flags);
}

#ifdef CONFIG_HOTPLUG_CPU
/*
 * Move every timer of old to new. Interrupts off. Both bases locked,
 * lower CPU first, as Linux's timers_dead_cpu(); old's lock is taken
 * without lockdep's annotation: two locks of one class, held in a fixed
 * order lockdep cannot see. Returns how many moved.
 */
static unsigned int timers_move_base(struct timer_base *old, struct timer_base *new)
{
	struct timer_list *t;
	unsigned int i, n = 0;

	if (old->cpu < new->cpu)
		do_raw_spin_lock(&old->lock, __THIS_PC);
	spin_lock(&new->lock);
	if (old->cpu > new->cpu)
		do_raw_spin_lock(&old->lock, __THIS_PC);
	WARN_ON_ONCE(old->running_timer);
	for (i = 0; i < WHEEL_SIZE; i++) {
		while (old->vectors[i].first) {
			t = hlist_entry(old->vectors[i].first, struct timer_list, entry);
			detach_timer(old, t);
			WRITE_ONCE(t->flags, (t->flags & ~TIMER_CPUMASK) | new->cpu);
			enqueue_timer(new, t);
			n++;
		}
	}
	do_raw_spin_unlock(&old->lock);
	spin_unlock(&new->lock);
	return n;
}

/*
 * The dying CPU's own last step for its timers (cpuhp_idle_dead(), after
 * tick_cpu_dying(), interrupts off): hand them to the first online CPU,
 * which it wakes so that a stopped tick is re-programmed for them. Not
 * left to the controller's timers_dead_cpu(): that runs in whatever task
 * called cpu_down(), and a SCHED_NORMAL caller (rcutorture's onoff
 * kthread) starved by real-time spinners left the timers of a dead CPU
 * unrun for seconds; among them the grace-period kthread's force-
 * quiescent-state wait, and so RCU priority boosting never began
 * (rcutorture's boost test: "rcu_torture_boost boosting failed").
 */
void timers_dying_cpu(void)
{
	unsigned int cpu = raw_smp_processor_id(), heir = cpumask_first(cpu_online_mask);

	WARN_ON_ONCE(!irqs_disabled() || cpu_online(cpu));
	if (heir >= nr_cpu_ids || heir == cpu)
		return;		/* cannot happen: the boot CPU stays; timers_dead_cpu() then */
	if (timers_move_base(this_cpu_ptr(&timer_bases), per_cpu_ptr(&timer_bases, heir)))
		smp_send_reschedule(heir);
}

/*
 * The controller, once cpu is dead: anything still on its base (nothing,
 * since timers_dying_cpu(); nothing arms a timer on a dead CPU) comes here.
 */
void timers_dead_cpu(unsigned int cpu)
{
	struct timer_base *old = per_cpu_ptr(&timer_bases, cpu), *new;
	unsigned long flags;

	local_irq_save(flags);
	new = this_cpu_ptr(&timer_bases);
	if (!WARN_ON_ONCE(old == new))
		timers_move_base(old, new);
	local_irq_restore(flags);
}
#endif

void timers_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct timer_base *base = per_cpu_ptr(&timer_bases, cpu);

		spin_lock_init(&base->lock);
		base->cpu = cpu;
		base->clk = jiffies;
		base->running_timer = NULL;
		base->is_idle = false;
		bitmap_zero(base->pending_map, WHEEL_SIZE);
		for (unsigned int i = 0; i < WHEEL_SIZE; i++)
			base->vectors[i].first = NULL;
	}
	WRITE_ONCE(timers_ready, true);
}
