/*
 * rcu_head lifetime debugging (CONFIG_DEBUG_OBJECTS_RCU_HEAD, on top of
 * <kernel/debugobjects.h>), with Linux's API for heads that are not
 * kmalloc()ed: init_rcu_head()/destroy_rcu_head() for static or embedded
 * heads used over and over, init_rcu_head_on_stack()/
 * destroy_rcu_head_on_stack() for heads in a stack frame (which must not
 * be left queued when the frame goes). The flavors' call_rcu()s call
 * debug_rcu_head_queue() before touching the head, and their callback
 * invocation calls debug_rcu_head_unqueue() before the callback. Without
 * the option every call here is an empty static inline, but for KASAN's
 * record of where a kmalloc()ed head was queued (kasan_record_aux_stack()).
 */
#ifndef _RCU_OBJDEBUG_H
#define _RCU_OBJDEBUG_H

#include <rcu/types.h>
#include <kernel/compiler.h>
#include <mm/kasan.h>

#ifdef CONFIG_DEBUG_OBJECTS_RCU_HEAD
void init_rcu_head(struct rcu_head *head);
void destroy_rcu_head(struct rcu_head *head);
void init_rcu_head_on_stack(struct rcu_head *head);
void destroy_rcu_head_on_stack(struct rcu_head *head);
/*
 * About to queue head with func: true if it must NOT be queued (it is
 * queued already, or destroyed). The report names the callback it was
 * queued with; the caller leaves the head untouched and returns.
 */
bool debug_rcu_head_queue(struct rcu_head *head, rcu_callback_t func);
/* Its callback is about to run (or it was taken off a queue for good). */
void debug_rcu_head_unqueue(struct rcu_head *head);
#else
static inline void init_rcu_head(struct rcu_head *head) { }
static inline void destroy_rcu_head(struct rcu_head *head) { }
static inline void init_rcu_head_on_stack(struct rcu_head *head) { }
static inline void destroy_rcu_head_on_stack(struct rcu_head *head) { }
static inline bool debug_rcu_head_queue(struct rcu_head *head, rcu_callback_t func)
{
	kasan_record_aux_stack(head);
	return false;
}
static inline void debug_rcu_head_unqueue(struct rcu_head *head) { }
#endif

#endif
