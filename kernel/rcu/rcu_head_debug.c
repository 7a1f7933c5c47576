/*
 * rcu_head debug objects (CONFIG_DEBUG_OBJECTS_RCU_HEAD): the rcu_head
 * type for the debug-objects tracker (kernel/debug/debugobjects.c) and
 * the hooks <rcu/objdebug.h> declares. A queued head is "active" with
 * sub-state QUEUED; its callback's invocation makes it inactive again.
 * So a second call_rcu() on a queued head, or a kfree() of the memory
 * holding one, is reported (ODEBUG: ... object type: rcu_head hint:
 * <callback>) and refused instead of corrupting the callback list.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include <rcu/objdebug.h>
#include <kernel/debugobjects.h>
#include <kernel/printk.h>

/* Active sub-states, as Linux numbers them: a report of a queued head says "(active state 1)". */
enum { STATE_RCU_HEAD_READY = 0, STATE_RCU_HEAD_QUEUED = 1 };

/* The hint is the callback the head is queued with: the code that owns the object. */
static void *rcuhead_hint(void *addr)
{
	return (void *)((struct rcu_head *)addr)->func;
}

static const struct debug_obj_descr rcuhead_debug_descr = {
	.name = "rcu_head",
	.debug_hint = rcuhead_hint,
};

void init_rcu_head(struct rcu_head *head)
{
	debug_object_init(head, &rcuhead_debug_descr);
}

void destroy_rcu_head(struct rcu_head *head)
{
	debug_object_free(head, &rcuhead_debug_descr);
}

void init_rcu_head_on_stack(struct rcu_head *head)
{
	debug_object_init_on_stack(head, &rcuhead_debug_descr);
}

void destroy_rcu_head_on_stack(struct rcu_head *head)
{
	debug_object_free(head, &rcuhead_debug_descr);
}

bool debug_rcu_head_queue(struct rcu_head *head, rcu_callback_t func)
{
	kasan_record_aux_stack(head);
	if (debug_object_activate(head, &rcuhead_debug_descr)) {
		pr_err("call_rcu(): Double-freed CB %p->%pS()!!! %pS() not queued\n",
		       head, head->func, func);
		return true;
	}
	debug_object_active_state(head, &rcuhead_debug_descr, STATE_RCU_HEAD_READY,
				  STATE_RCU_HEAD_QUEUED);
	return false;
}

void debug_rcu_head_unqueue(struct rcu_head *head)
{
	debug_object_active_state(head, &rcuhead_debug_descr, STATE_RCU_HEAD_QUEUED,
				  STATE_RCU_HEAD_READY);
	debug_object_deactivate(head, &rcuhead_debug_descr);
}
