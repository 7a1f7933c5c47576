/*
 * Debug objects (CONFIG_DEBUG_OBJECTS): a lifetime tracker for objects
 * whose misuse corrupts memory silently (an rcu_head queued twice, or
 * freed while queued). A tracked object has a state (initialized,
 * inactive, active, destroyed) in a hash table keyed by its address; each
 * transition is checked and a wrong one is reported in Linux's ODEBUG
 * format with the object's type and a "hint" (for an rcu_head, the
 * callback function). The table has a lock per bucket, so CPUs working on
 * different objects do not wait for each other (kernel/debug/odebug.h). kfree() asks whether the range it frees holds an
 * active object. Without CONFIG_DEBUG_OBJECTS every call is an empty
 * static inline.
 */
#ifndef _KERNEL_DEBUGOBJECTS_H
#define _KERNEL_DEBUGOBJECTS_H

#include <kernel/types.h>

enum debug_obj_state {
	ODEBUG_STATE_NONE,		/* not tracked */
	ODEBUG_STATE_INIT,		/* initialized, never activated */
	ODEBUG_STATE_INACTIVE,		/* was active, now idle */
	ODEBUG_STATE_ACTIVE,		/* in use: must not be activated again or freed */
	ODEBUG_STATE_DESTROYED,
	ODEBUG_STATE_MAX,
};

/* One per object type: its name in reports, and the hint it gives. */
struct debug_obj_descr {
	const char *name;
	/* Code address printed as the report's "hint:" (%pS); NULL: none. */
	void *(*debug_hint)(void *addr);
};

#ifdef CONFIG_DEBUG_OBJECTS
/* start_kernel(), once per-CPU areas exist: the bucket locks. Until then every hook is a no-op. */
void debug_objects_early_init(void);
void debug_object_init(void *addr, const struct debug_obj_descr *descr);
void debug_object_init_on_stack(void *addr, const struct debug_obj_descr *descr);
/* 0, or -EINVAL when the object was active already: the caller must not use it again. */
int debug_object_activate(void *addr, const struct debug_obj_descr *descr);
void debug_object_deactivate(void *addr, const struct debug_obj_descr *descr);
void debug_object_destroy(void *addr, const struct debug_obj_descr *descr);
void debug_object_free(void *addr, const struct debug_obj_descr *descr);
/*
 * Sub-state of an active object (an rcu_head: ready or queued). A report
 * shows it as "(active state N)"; a wrong expected value is reported.
 */
void debug_object_active_state(void *addr, const struct debug_obj_descr *descr,
			       unsigned int expect, unsigned int next);
/*
 * kfree(): forget the inactive objects in [addr, addr + size) and report
 * the active ones. Returns true if one was active: the caller then keeps
 * the memory (a leak) rather than let a queued object be overwritten.
 */
bool debug_check_no_obj_freed(const void *addr, unsigned long size);
/* Power-off statistics: objects tracked and reports made. */
void debug_objects_show_stats(void);
#else
static inline void debug_objects_early_init(void) { }
static inline void debug_object_init(void *addr, const struct debug_obj_descr *d) { }
static inline void debug_object_init_on_stack(void *addr, const struct debug_obj_descr *d) { }
static inline int debug_object_activate(void *addr, const struct debug_obj_descr *d) { return 0; }
static inline void debug_object_deactivate(void *addr, const struct debug_obj_descr *d) { }
static inline void debug_object_destroy(void *addr, const struct debug_obj_descr *d) { }
static inline void debug_object_free(void *addr, const struct debug_obj_descr *d) { }
static inline void debug_object_active_state(void *addr, const struct debug_obj_descr *d,
					     unsigned int expect, unsigned int next) { }
static inline bool debug_check_no_obj_freed(const void *addr, unsigned long size) { return false; }
static inline void debug_objects_show_stats(void) { }
#endif

#endif
