/*
 * Debug objects (CONFIG_DEBUG_OBJECTS): see <kernel/debugobjects.h>.
 *
 * Tracked objects live in a hash table of 16384 buckets chosen by the
 * address's 256-byte chunk, so kfree() of a range looks only at the
 * buckets of the chunks it covers. Each bucket has its own raw spinlock
 * (odebug.h): call_rcu() on one CPU and callback invocation on another
 * touch different heads, hence almost always different buckets, and do
 * not wait for each other. A single table lock did make them wait: with
 * four CPUs queueing and invoking callbacks under KASAN, each spinning
 * with interrupts off, a CPU could spend seconds in the convoy and the
 * grace-period kthread queued behind it starved (DEBUG01). The locks are
 * taken irqsave, since the callers may run with interrupts off, and
 * nothing is printed or allocated while one is held.
 *
 * Entries come from debugobjects_pool.c: per-CPU caches in front of a
 * global list (a static pool, then kmalloc() refills outside every lock
 * when it runs dry: an rcutorture callback flood tracks tens of
 * thousands of queued heads at once).
 *
 * Reports follow Linux's wording so its greps and habits apply:
 *   ODEBUG: activate active (active state 1) object: ADDR object type: rcu_head hint: FUNC
 *   ODEBUG: object ADDR is on stack STACK, but NOT annotated.
 * each followed by a WARNING backtrace; after five, further reports are
 * only counted (shown by debug_objects_show_stats() at power-off).
 */
#define pr_fmt(fmt) "ODEBUG: " fmt

#include "odebug.h"
#include <kernel/init.h>
#include <kernel/bug.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/compiler.h>
#include <locking/spinlock.h>
#include <sched/task.h>
#include <mm/slab.h>

#define ODEBUG_MAX_REPORTS	5

static const char *const obj_states[ODEBUG_STATE_MAX] = {
	[ODEBUG_STATE_NONE]	= "none",
	[ODEBUG_STATE_INIT]	= "initialized",
	[ODEBUG_STATE_INACTIVE]	= "inactive",
	[ODEBUG_STATE_ACTIVE]	= "active",
	[ODEBUG_STATE_DESTROYED] = "destroyed",
};

static struct odebug_bucket obj_hash[ODEBUG_HASH_SIZE];
/* Set once the bucket locks are initialised (debug_objects_early_init()); never cleared. */
static bool odebug_ready;
static bool odebug_disabled;
/* Atomics, not under any lock: each costs one cache line, never a wait with interrupts off. */
static unsigned long odebug_tracked, odebug_max_tracked, odebug_reports;

/* A report's facts, copied under the lock and printed after it is dropped. */
struct odebug_report {
	void *addr;
	const struct debug_obj_descr *descr;
	unsigned int state, astate;
};

struct odebug_bucket *odebug_bucket_of(const void *addr)
{
	unsigned long chunk = (unsigned long)addr >> ODEBUG_CHUNK_SHIFT;

	return &obj_hash[(chunk ^ (chunk >> ODEBUG_HASH_BITS)) & (ODEBUG_HASH_SIZE - 1)];
}

void __init debug_objects_early_init(void)
{
	/* One call site: one lockdep class for all the buckets, none ever nested in another. */
	for (int i = 0; i < ODEBUG_HASH_SIZE; i++)
		raw_spin_lock_init(&obj_hash[i].lock);
	/*
	 * Before this, every hook returned at once (nothing calls call_rcu()
	 * this early). Plain store: the boot CPU alone runs, and the other
	 * CPUs start after it with a full barrier in between.
	 */
	WRITE_ONCE(odebug_ready, true);
}

/* Bucket lock held. Returns the link pointing at addr's entry, or NULL. */
static struct debug_obj **odebug_lookup(struct odebug_bucket *b, const void *addr)
{
	struct debug_obj **pp;

	for (pp = &b->head; *pp; pp = &(*pp)->next)
		if ((*pp)->addr == addr)
			return pp;
	return NULL;
}

/* Bucket lock held: unlink *pp's entry and give it back to this CPU's cache. */
static void odebug_remove(struct debug_obj **pp)
{
	struct debug_obj *obj = *pp;

	WRITE_ONCE(*pp, obj->next);
	odebug_obj_free(obj);
	__atomic_sub_fetch(&odebug_tracked, 1, __ATOMIC_RELAXED);
}

/* Bucket lock held; NULL when the pool is dry (the caller refills and retries). */
static struct debug_obj *odebug_insert(struct odebug_bucket *b, void *addr,
				       const struct debug_obj_descr *descr,
				       enum debug_obj_state state)
{
	struct debug_obj *obj = odebug_obj_alloc();
	unsigned long n, max;

	if (!obj)
		return NULL;
	*obj = (struct debug_obj){ .next = b->head, .addr = addr, .descr = descr,
				   .state = state };
	WRITE_ONCE(b->head, obj);
	n = __atomic_add_fetch(&odebug_tracked, 1, __ATOMIC_RELAXED);
	max = __atomic_load_n(&odebug_max_tracked, __ATOMIC_RELAXED);
	while (n > max && !__atomic_compare_exchange_n(&odebug_max_tracked, &max, n, false,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;	/* max was reloaded: retry while ours is still the higher count */
	return obj;
}

/* No lock held: grow the pool. False (and tracking off) if memory ran out. */
static bool odebug_refill(void)
{
	if (odebug_pool_refill())
		return true;
	if (!READ_ONCE(odebug_disabled))
		pr_warn("Out of memory. ODEBUG disabled\n");
	WRITE_ONCE(odebug_disabled, true);
	return false;
}

/*
 * Lock addr's bucket (interrupts saved in *flags) unless tracking is off
 * or not set up yet; NULL then.
 */
static struct odebug_bucket *odebug_lock_bucket(const void *addr, unsigned long *flags)
{
	struct odebug_bucket *b;

	if (!READ_ONCE(odebug_ready) || READ_ONCE(odebug_disabled))
		return NULL;
	b = odebug_bucket_of(addr);
	raw_spin_lock_irqsave(&b->lock, *flags);
	return b;
}

/* Count a report; true while it is among the first ODEBUG_MAX_REPORTS (any context). */
static bool odebug_report_wanted(void)
{
	return __atomic_add_fetch(&odebug_reports, 1, __ATOMIC_RELAXED) <= ODEBUG_MAX_REPORTS;
}

static void odebug_print(const struct odebug_report *r, const char *msg)
{
	void *hint = r->descr->debug_hint ? r->descr->debug_hint(r->addr) : NULL;

	WARN(1, "ODEBUG: %s %s (active state %u) object: %p object type: %s hint: %pS\n",
	     msg, obj_states[r->state], r->astate, r->addr, r->descr->name, hint);
}

static bool odebug_fill(struct odebug_report *r, const struct debug_obj *obj)
{
	*r = (struct odebug_report){ obj->addr, obj->descr, obj->state, obj->astate };
	return odebug_report_wanted();
}

/* Is addr on the current task's stack? */
static void *odebug_stack_of(const void *addr)
{
	struct task_struct *t = current;

	if (!t || !t->stack || addr < t->stack || addr >= t->stack_top)
		return NULL;
	return t->stack;
}

static void odebug_init(void *addr, const struct debug_obj_descr *descr, bool onstack)
{
	struct odebug_report r;
	struct odebug_bucket *b;
	struct debug_obj **pp, *obj;
	unsigned long flags;
	void *stack = odebug_stack_of(addr);
	bool report = false;

	if (!!stack != onstack && odebug_report_wanted()) {
		if (stack)
			pr_warn("object %p is on stack %p, but NOT annotated.\n", addr, stack);
		else
			pr_warn("object %p is NOT on stack %p, but annotated.\n", addr,
				current ? current->stack : NULL);
		WARN_ON(1);
	}
retry:
	b = odebug_lock_bucket(addr, &flags);
	if (!b)
		return;
	pp = odebug_lookup(b, addr);
	if (!pp) {
		obj = odebug_insert(b, addr, descr, ODEBUG_STATE_INIT);
		if (!obj) {
			raw_spin_unlock_irqrestore(&b->lock, flags);
			if (odebug_refill())
				goto retry;
			return;
		}
	} else {
		obj = *pp;
		if (obj->state == ODEBUG_STATE_ACTIVE)
			report = odebug_fill(&r, obj);
		else
			obj->state = ODEBUG_STATE_INIT;
	}
	if (obj->state == ODEBUG_STATE_INIT) {
		obj->annotated = true;
		obj->onstack = onstack;
		obj->astate = 0;
	}
	raw_spin_unlock_irqrestore(&b->lock, flags);
	if (report)
		odebug_print(&r, "init");
}

void debug_object_init(void *addr, const struct debug_obj_descr *descr)
{
	odebug_init(addr, descr, false);
}

void debug_object_init_on_stack(void *addr, const struct debug_obj_descr *descr)
{
	odebug_init(addr, descr, true);
}

int debug_object_activate(void *addr, const struct debug_obj_descr *descr)
{
	struct odebug_report r;
	struct odebug_bucket *b;
	struct debug_obj **pp;
	unsigned long flags;
	bool report = false;
	int ret = 0;

retry:
	b = odebug_lock_bucket(addr, &flags);
	if (!b)
		return 0;
	pp = odebug_lookup(b, addr);
	if (pp) {
		struct debug_obj *obj = *pp;

		if (obj->state == ODEBUG_STATE_INIT || obj->state == ODEBUG_STATE_INACTIVE) {
			obj->state = ODEBUG_STATE_ACTIVE;
		} else {
			/* Active already (queued twice) or destroyed: refuse. */
			report = odebug_fill(&r, obj);
			ret = -EINVAL;
		}
		raw_spin_unlock_irqrestore(&b->lock, flags);
		if (report)
			odebug_print(&r, "activate");
		return ret;
	}
	/*
	 * Never seen: a static object (fine, tracked from now on) or one on
	 * the stack that nobody annotated, whose frame may be gone before
	 * the object is done with.
	 */
	if (!odebug_insert(b, addr, descr, ODEBUG_STATE_ACTIVE)) {
		raw_spin_unlock_irqrestore(&b->lock, flags);
		if (odebug_refill())
			goto retry;
		return 0;
	}
	report = odebug_stack_of(addr) && odebug_report_wanted();
	raw_spin_unlock_irqrestore(&b->lock, flags);
	if (report) {
		pr_warn("object %p is on stack %p, but NOT annotated.\n", addr, odebug_stack_of(addr));
		WARN_ON(1);
	}
	return 0;
}

/* Apply op to addr's entry under its bucket's lock; print what it asks to report. */
static void odebug_op(void *addr, const char *msg,
		      bool (*op)(struct debug_obj **pp, unsigned long arg), unsigned long arg)
{
	struct odebug_report r;
	struct odebug_bucket *b;
	struct debug_obj **pp;
	unsigned long flags;
	bool report = false;

	b = odebug_lock_bucket(addr, &flags);
	if (!b)
		return;
	pp = odebug_lookup(b, addr);
	if (pp && op(pp, arg))
		report = odebug_fill(&r, *pp);
	raw_spin_unlock_irqrestore(&b->lock, flags);
	if (report)
		odebug_print(&r, msg);
}

static bool odebug_do_deactivate(struct debug_obj **pp, unsigned long arg)
{
	struct debug_obj *obj = *pp;

	if (obj->state != ODEBUG_STATE_ACTIVE)
		return true;
	obj->state = ODEBUG_STATE_INACTIVE;
	/* Unannotated objects are tracked only while active: the table stays small. */
	if (!obj->annotated)
		odebug_remove(pp);
	return false;
}

void debug_object_deactivate(void *addr, const struct debug_obj_descr *descr)
{
	/* Untracked: a static object, or one queued without call_rcu() (rcu_barrier()'s). */
	odebug_op(addr, "deactivate", odebug_do_deactivate, 0);
}

static bool odebug_do_destroy(struct debug_obj **pp, unsigned long arg)
{
	if ((*pp)->state == ODEBUG_STATE_ACTIVE)
		return true;
	(*pp)->state = ODEBUG_STATE_DESTROYED;
	return false;
}

void debug_object_destroy(void *addr, const struct debug_obj_descr *descr)
{
	odebug_op(addr, "destroy", odebug_do_destroy, 0);
}

static bool odebug_do_free(struct debug_obj **pp, unsigned long arg)
{
	if ((*pp)->state == ODEBUG_STATE_ACTIVE)
		return true;	/* still in use: reported, and kept tracked */
	odebug_remove(pp);
	return false;
}

void debug_object_free(void *addr, const struct debug_obj_descr *descr)
{
	odebug_op(addr, "free", odebug_do_free, 0);
}

static bool odebug_do_active_state(struct debug_obj **pp, unsigned long arg)
{
	unsigned int expect = arg >> 8, next = arg & 0xff;

	if ((*pp)->state != ODEBUG_STATE_ACTIVE || (*pp)->astate != expect)
		return true;
	(*pp)->astate = next;
	return false;
}

void debug_object_active_state(void *addr, const struct debug_obj_descr *descr,
			       unsigned int expect, unsigned int next)
{
	odebug_op(addr, "active_state", odebug_do_active_state, (expect & 0xff) << 8 | (next & 0xff));
}

/*
 * Bucket lock held: forget the inactive entries of [start, end) in b,
 * count the active ones (filling *r for the first of the call).
 */
static void odebug_check_bucket(struct odebug_bucket *b, unsigned long start, unsigned long end,
				unsigned long *nr_active, struct odebug_report *r, bool *report)
{
	struct debug_obj **pp = &b->head;

	while (*pp) {
		struct debug_obj *obj = *pp;
		unsigned long a = (unsigned long)obj->addr;

		if (a < start || a >= end) {
			pp = &obj->next;
		} else if (obj->state == ODEBUG_STATE_ACTIVE) {
			if (!(*nr_active)++)
				*report = odebug_fill(r, obj);
			pp = &obj->next;	/* the memory is kept: so is the entry */
		} else {
			odebug_remove(pp);
		}
	}
}

bool debug_check_no_obj_freed(const void *addr, unsigned long size)
{
	unsigned long start = (unsigned long)addr, end = start + size, flags;
	unsigned long chunk, last, nr_active = 0;
	struct odebug_report r;
	bool report = false;

	if (!size || !READ_ONCE(odebug_ready) || READ_ONCE(odebug_disabled) ||
	    !__atomic_load_n(&odebug_tracked, __ATOMIC_RELAXED))
		return false;
	chunk = start >> ODEBUG_CHUNK_SHIFT;
	last = (end - 1) >> ODEBUG_CHUNK_SHIFT;
	/* Past ODEBUG_HASH_SIZE chunks every bucket has been seen: do not count one twice. */
	if (last - chunk >= ODEBUG_HASH_SIZE)
		last = chunk + ODEBUG_HASH_SIZE - 1;
	for (; chunk <= last; chunk++) {
		struct odebug_bucket *b = odebug_bucket_of((void *)(chunk << ODEBUG_CHUNK_SHIFT));

		/*
		 * An empty bucket is skipped without its lock: an entry for
		 * this range added concurrently would be a use of memory being
		 * freed, which the caller's own ordering already excludes.
		 * Pairs with the WRITE_ONCE()s of b->head under the lock.
		 */
		if (!READ_ONCE(b->head))
			continue;
		raw_spin_lock_irqsave(&b->lock, flags);
		odebug_check_bucket(b, start, end, &nr_active, &r, &report);
		raw_spin_unlock_irqrestore(&b->lock, flags);
	}
	if (report)
		odebug_print(&r, "free");
	if (nr_active)
		pr_err("%lu active object(s) in freed range %p..%p: memory not freed (leaked)\n",
		       nr_active, addr, (void *)(end - 1));
	return nr_active != 0;
}

#ifdef CONFIG_DEBUG_OBJECTS_SELFTEST
enum debug_obj_state odebug_state_of(const void *addr)
{
	struct odebug_bucket *b = odebug_bucket_of(addr);
	enum debug_obj_state state = ODEBUG_STATE_NONE;
	struct debug_obj **pp;
	unsigned long flags;

	raw_spin_lock_irqsave(&b->lock, flags);
	pp = odebug_lookup(b, addr);
	if (pp)
		state = (*pp)->state;
	raw_spin_unlock_irqrestore(&b->lock, flags);
	return state;
}

unsigned int odebug_hash_index(const void *addr)
{
	return odebug_bucket_of(addr) - obj_hash;
}

raw_spinlock_t *odebug_lock_of(const void *addr)
{
	return &odebug_bucket_of(addr)->lock;
}

unsigned long odebug_nr_tracked(void)
{
	return __atomic_load_n(&odebug_tracked, __ATOMIC_RELAXED);
}

unsigned long odebug_nr_reports(void)
{
	return __atomic_load_n(&odebug_reports, __ATOMIC_RELAXED);
}
#endif

/*
 * One line at power-off, when anything was tracked. Not "ODEBUG:": that
 * prefix is for reports, and test harnesses (ours, Linux's) reject any
 * console line with "BUG:" in it.
 */
void debug_objects_show_stats(void)
{
	unsigned long tracked = __atomic_load_n(&odebug_tracked, __ATOMIC_RELAXED);
	unsigned long max = __atomic_load_n(&odebug_max_tracked, __ATOMIC_RELAXED);
	unsigned long reports = __atomic_load_n(&odebug_reports, __ATOMIC_RELAXED);

	if (max || reports)
		printk(KERN_INFO "debug objects: %lu objects tracked now, %lu at most, %lu reports (%lu printed)\n",
			tracked, max, reports,
			reports < ODEBUG_MAX_REPORTS ? reports : (unsigned long)ODEBUG_MAX_REPORTS);
}
