/*
 * Planted rcu_head bugs for CONFIG_DEBUG_OBJECTS_RCU_HEAD (linked only with
 * the option), a group of the planted-bug dispatcher (planted_bugs.c):
 * rcu_debug_test=NAME, or the group's own alias rcutree.debug_objects_test=
 *   double_call_rcu  call_rcu() twice on one head before its grace period
 *   kfree_queued     kfree() the object holding a queued head
 *   onstack_noinit   call_rcu() on a stack head without init_rcu_head_on_stack()
 *   double_call_srcu call_srcu() twice on one head (with CONFIG_SRCU)
 * once the boot is done (late_initcall). Each must give its ODEBUG report
 * (a WARNING), after which the kernel carries on: the duplicate is not
 * queued, the queued object is not freed, and a line
 *   rcu: debug_objects_test: NAME: ... : survived
 * says what happened to the callbacks. Empty (the default): nothing.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include <rcu/rcupdate.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/atomic.h>
#include <mm/slab.h>
#include <rcu/srcu.h>
#include "planted_bugs.h"

static char debug_objects_test[24];
KPARAM_STRING("rcutree.debug_objects_test", debug_objects_test,
	      "test: plant an rcu_head bug; an alias of rcu_debug_test= for this group");

#define DOT_MAGIC	0x5ca1ab1eUL

struct dot_obj {
	struct rcu_head rh;
	unsigned long magic;
};

static atomic_t dot_first, dot_second, dot_intact;

static void dot_first_cb(struct rcu_head *rhp)
{
	atomic_inc(&dot_first);
}

static void dot_second_cb(struct rcu_head *rhp)
{
	atomic_inc(&dot_second);
}

/* The object's memory must still be ours: kfree() was refused. */
static void dot_check_cb(struct rcu_head *rhp)
{
	atomic_inc(&dot_first);
	if (container_of(rhp, struct dot_obj, rh)->magic == DOT_MAGIC)
		atomic_inc(&dot_intact);
}

static void dot_double_call_rcu(void)
{
	struct dot_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return;
	call_rcu(&o->rh, dot_first_cb);
	call_rcu(&o->rh, dot_second_cb);	/* the bug: still queued */
	rcu_barrier();
	pr_info("debug_objects_test: double_call_rcu: first callback ran %d time(s), second %d (want 1, 0): survived\n",
		atomic_read(&dot_first), atomic_read(&dot_second));
	kfree(o);
}

static void dot_kfree_queued(void)
{
	struct dot_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return;
	o->magic = DOT_MAGIC;
	call_rcu(&o->rh, dot_check_cb);
	kfree(o);				/* the bug: its callback has not run */
	rcu_barrier();
	pr_info("debug_objects_test: kfree_queued: callback ran %d time(s), on intact memory %d (want 1, 1): survived\n",
		atomic_read(&dot_first), atomic_read(&dot_intact));
}

static void dot_onstack_noinit(void)
{
	struct rcu_head rh;			/* the bug: no init_rcu_head_on_stack() */

	call_rcu(&rh, dot_first_cb);
	rcu_barrier();				/* the frame must outlive the callback */
	pr_info("debug_objects_test: onstack_noinit: callback ran %d time(s) (want 1): survived\n",
		atomic_read(&dot_first));
}

#ifdef CONFIG_SRCU
DEFINE_STATIC_SRCU(dot_srcu);

/* call_srcu() shares the tracking: the same report, the same refusal. */
static void dot_double_call_srcu(void)
{
	struct dot_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);
	int idx;

	if (!o)
		return;
	/*
	 * A reader across both calls: otherwise the first grace period (no
	 * reader to wait for) can end, and its callback run, before the second
	 * call_srcu() if this vCPU is held up between them on a loaded host;
	 * the second is then legal, and neither reported nor refused.
	 */
	idx = srcu_read_lock(&dot_srcu);
	call_srcu(&dot_srcu, &o->rh, dot_first_cb);
	call_srcu(&dot_srcu, &o->rh, dot_second_cb);	/* the bug: still queued */
	srcu_read_unlock(&dot_srcu, idx);
	srcu_barrier(&dot_srcu);
	pr_info("debug_objects_test: double_call_srcu: first callback ran %d time(s), second %d (want 1, 0): survived\n",
		atomic_read(&dot_first), atomic_read(&dot_second));
	kfree(o);
}
#endif

static const struct rcu_planted_bug dot_tests[] = {
	{ "double_call_rcu", dot_double_call_rcu },
	{ "kfree_queued", dot_kfree_queued },
	{ "onstack_noinit", dot_onstack_noinit },
#ifdef CONFIG_SRCU
	{ "double_call_srcu", dot_double_call_srcu },
#endif
};

/* Inline, from the dispatcher's late_initcall: each bug waits for its own callbacks. */
static void dot_plant(const struct rcu_planted_bug *bug)
{
	pr_info("debug_objects_test: %s: planting the bug\n", bug->name);
	bug->run();
}

const struct rcu_planted_group rcu_debug_objects_bugs = {
	.alias = "rcutree.debug_objects_test",
	.alias_value = debug_objects_test,
	.bugs = dot_tests,
	.nr = ARRAY_SIZE(dot_tests),
	.plant = dot_plant,
};
