/*
 * Debug objects (CONFIG_DEBUG_OBJECTS): see <kernel/debugobjects.h>.
 *
 * Tracked objects live in a hash table whose buckets are chosen by the
 * address's 256-byte chunk, so kfree() of a range looks only at the
 * buckets of the chunks it covers. One lock guards the table: the
 * tracker is a debugging aid, and its callers (call_rcu(), callback
 * invocation, kfree()) may run with interrupts off, so the lock is taken
 * irqsave and nothing is printed or allocated while it is held.
 *
 * Entries come from a static pool, refilled with kmalloc() outside the
 * lock when it runs dry (an rcutorture callback flood tracks tens of
 * thousands of queued heads at once). Entries are never kfree()d: that
 * would re-enter debug_check_no_obj_freed() under the lock.
 *
 * Reports follow Linux's wording so its greps and habits apply:
 *   ODEBUG: activate active (active state 1) object: ADDR object type: rcu_head hint: FUNC
 *   ODEBUG: object ADDR is on stack STACK, but NOT annotated.
 * each followed by a WARNING backtrace; after five, further reports are
 * only counted (shown by debug_objects_show_stats() at power-off).
 */
#define pr_fmt(fmt) "ODEBUG: " fmt

#include <kernel/debugobjects.h>
#include <kernel/bug.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/compiler.h>
#include <locking/spinlock.h>
#include <sched/task.h>
#include <mm/slab.h>

#define ODEBUG_HASH_BITS	10
#define ODEBUG_HASH_SIZE	(1 << ODEBUG_HASH_BITS)
#define ODEBUG_CHUNK_SHIFT	8
#define ODEBUG_POOL_SIZE	1024
#define ODEBUG_REFILL		128	/* entries kmalloc()ed at a time */
#define ODEBUG_MAX_REPORTS	5

struct debug_obj {
	struct debug_obj *next;		/* bucket chain, or the free list */
	void *addr;
	const struct debug_obj_descr *descr;
	u8 state;			/* enum debug_obj_state */
	u8 astate;			/* active sub-state (debug_object_active_state()) */
	bool annotated;			/* by debug_object_init*(): kept when inactive */
	bool onstack;
};

static const char *const obj_states[ODEBUG_STATE_MAX] = {
	[ODEBUG_STATE_NONE]	= "none",
	[ODEBUG_STATE_INIT]	= "initialized",
	[ODEBUG_STATE_INACTIVE]	= "inactive",
	[ODEBUG_STATE_ACTIVE]	= "active",
	[ODEBUG_STATE_DESTROYED] = "destroyed",
};

static DEFINE_SPINLOCK(odebug_lock);
static struct debug_obj *odebug_hash[ODEBUG_HASH_SIZE];
static struct debug_obj odebug_pool[ODEBUG_POOL_SIZE];
static struct debug_obj *odebug_free;
static bool odebug_pool_ready, odebug_disabled;
static unsigned long odebug_tracked, odebug_max_tracked, odebug_reports;

/* A report's facts, copied under the lock and printed after it is dropped. */
struct odebug_report {
	void *addr;
	const struct debug_obj_descr *descr;
	unsigned int state, astate;
};

static struct debug_obj **odebug_bucket(const void *addr)
{
	unsigned long chunk = (unsigned long)addr >> ODEBUG_CHUNK_SHIFT;

	return &odebug_hash[(chunk ^ (chunk >> ODEBUG_HASH_BITS)) & (ODEBUG_HASH_SIZE - 1)];
}

/* Lock held. Returns the link pointing at addr's entry, or NULL. */
static struct debug_obj **odebug_lookup(void *addr)
{
	struct debug_obj **pp;

	for (pp = odebug_bucket(addr); *pp; pp = &(*pp)->next)
		if ((*pp)->addr == addr)
			return pp;
	return NULL;
}

static void odebug_remove(struct debug_obj **pp)
{
	struct debug_obj *obj = *pp;

	*pp = obj->next;
	obj->next = odebug_free;
	odebug_free = obj;
	odebug_tracked--;
}

/* Lock held; NULL when the pool is empty (the caller refills and retries). */
static struct debug_obj *odebug_insert(void *addr, const struct debug_obj_descr *descr,
				       enum debug_obj_state state)
{
	struct debug_obj *obj = odebug_free, **bucket = odebug_bucket(addr);

	if (!obj)
		return NULL;
	odebug_free = obj->next;
	*obj = (struct debug_obj){ .next = *bucket, .addr = addr, .descr = descr,
				   .state = state };
	*bucket = obj;
	if (++odebug_tracked > odebug_max_tracked)
		odebug_max_tracked = odebug_tracked;
	return obj;
}

/* Lock held, interrupts off: take the static pool on first use. */
static void odebug_pool_init(void)
{
	for (int i = 0; i < ODEBUG_POOL_SIZE; i++) {
		odebug_pool[i].next = odebug_free;
		odebug_free = &odebug_pool[i];
	}
	odebug_pool_ready = true;
}

/* Lock not held: grow the free list. False (and tracking off) if memory ran out. */
static bool odebug_refill(void)
{
	struct debug_obj *objs = kmalloc(ODEBUG_REFILL * sizeof(*objs), GFP_ATOMIC | __GFP_NOWARN);
	unsigned long flags;

	if (!objs) {
		if (!READ_ONCE(odebug_disabled))
			pr_warn("Out of memory. ODEBUG disabled\n");
		WRITE_ONCE(odebug_disabled, true);
		return false;
	}
	spin_lock_irqsave(&odebug_lock, flags);
	for (int i = 0; i < ODEBUG_REFILL; i++) {
		objs[i].next = odebug_free;
		odebug_free = &objs[i];
	}
	spin_unlock_irqrestore(&odebug_lock, flags);
	return true;
}

/* Take the lock (interrupts saved in *flags) unless tracking is off; false if it is. */
static bool odebug_lock_ready(unsigned long *flags)
{
	if (READ_ONCE(odebug_disabled))
		return false;
	spin_lock_irqsave(&odebug_lock, *flags);
	if (!odebug_pool_ready)
		odebug_pool_init();
	return true;
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
	if (!odebug_lock_ready(&flags))
		return;
	pp = odebug_lookup(addr);
	if (!pp) {
		obj = odebug_insert(addr, descr, ODEBUG_STATE_INIT);
		if (!obj) {
			spin_unlock_irqrestore(&odebug_lock, flags);
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
	spin_unlock_irqrestore(&odebug_lock, flags);
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
	struct debug_obj **pp;
	unsigned long flags;
	bool report = false;
	int ret = 0;

retry:
	if (!odebug_lock_ready(&flags))
		return 0;
	pp = odebug_lookup(addr);
	if (pp) {
		struct debug_obj *obj = *pp;

		if (obj->state == ODEBUG_STATE_INIT || obj->state == ODEBUG_STATE_INACTIVE) {
			obj->state = ODEBUG_STATE_ACTIVE;
		} else {
			/* Active already (queued twice) or destroyed: refuse. */
			report = odebug_fill(&r, obj);
			ret = -EINVAL;
		}
		spin_unlock_irqrestore(&odebug_lock, flags);
		if (report)
			odebug_print(&r, "activate");
		return ret;
	}
	/*
	 * Never seen: a static object (fine, tracked from now on) or one on
	 * the stack that nobody annotated, whose frame may be gone before
	 * the object is done with.
	 */
	if (!odebug_insert(addr, descr, ODEBUG_STATE_ACTIVE)) {
		spin_unlock_irqrestore(&odebug_lock, flags);
		if (odebug_refill())
			goto retry;
		return 0;
	}
	report = odebug_stack_of(addr) && odebug_report_wanted();
	spin_unlock_irqrestore(&odebug_lock, flags);
	if (report) {
		pr_warn("object %p is on stack %p, but NOT annotated.\n", addr, odebug_stack_of(addr));
		WARN_ON(1);
	}
	return 0;
}

/* Apply op to addr's entry under the lock; print what it asks to report. */
static void odebug_op(void *addr, const char *msg,
		      bool (*op)(struct debug_obj **pp, unsigned long arg), unsigned long arg)
{
	struct odebug_report r;
	struct debug_obj **pp;
	unsigned long flags;
	bool report = false;

	if (!odebug_lock_ready(&flags))
		return;
	pp = odebug_lookup(addr);
	if (pp && op(pp, arg))
		report = odebug_fill(&r, *pp);
	spin_unlock_irqrestore(&odebug_lock, flags);
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

bool debug_check_no_obj_freed(const void *addr, unsigned long size)
{
	unsigned long start = (unsigned long)addr, end = start + size, flags;
	unsigned long chunk, nr_active = 0;
	struct odebug_report r;
	bool report = false;

	if (!size || !READ_ONCE(odebug_tracked) || !odebug_lock_ready(&flags))
		return false;
	for (chunk = start >> ODEBUG_CHUNK_SHIFT; chunk <= (end - 1) >> ODEBUG_CHUNK_SHIFT;
	     chunk++) {
		struct debug_obj **pp = odebug_bucket((void *)(chunk << ODEBUG_CHUNK_SHIFT));

		while (*pp) {
			struct debug_obj *obj = *pp;
			unsigned long a = (unsigned long)obj->addr;

			if (a < start || a >= end) {
				pp = &obj->next;
			} else if (obj->state == ODEBUG_STATE_ACTIVE) {
				if (!nr_active++)
					report = odebug_fill(&r, obj);
				pp = &obj->next;	/* the memory is kept: so is the entry */
			} else {
				odebug_remove(pp);
			}
		}
	}
	spin_unlock_irqrestore(&odebug_lock, flags);
	if (report)
		odebug_print(&r, "free");
	if (nr_active)
		pr_err("%lu active object(s) in freed range %p..%p: memory not freed (leaked)\n",
		       nr_active, addr, (void *)(end - 1));
	return nr_active != 0;
}

/*
 * One line at power-off, when anything was tracked. Not "ODEBUG:": that
 * prefix is for reports, and test harnesses (ours, Linux's) reject any
 * console line with "BUG:" in it.
 */
void debug_objects_show_stats(void)
{
	if (odebug_max_tracked || odebug_reports)
		printk(KERN_INFO "debug objects: %lu objects tracked now, %lu at most, %lu reports (%lu printed)\n",
			odebug_tracked, odebug_max_tracked, odebug_reports,
			odebug_reports < ODEBUG_MAX_REPORTS ? odebug_reports :
			(unsigned long)ODEBUG_MAX_REPORTS);
}
