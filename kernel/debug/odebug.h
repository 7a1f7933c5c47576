/*
 * Internals of the debug-objects tracker shared by its files and its
 * self-tests (kernel/debug/test/): the tracking entry, the hash bucket,
 * and the entry pool (debugobjects_pool.c). Callers of the tracker use
 * <kernel/debugobjects.h> instead.
 *
 * Locking, as in Linux's lib/debugobjects.c: each hash bucket has its own
 * raw spinlock (taken irqsave: call_rcu() and callback invocation run
 * with interrupts off), so operations on objects in different buckets
 * never wait for each other. Free entries come from a per-CPU cache used
 * with interrupts off; the pool lock is taken only to move a batch
 * between that cache and the global free list. Lock order: a bucket lock,
 * then the pool lock; no two bucket locks are ever held at once.
 */
#ifndef _KERNEL_DEBUG_ODEBUG_H
#define _KERNEL_DEBUG_ODEBUG_H

#include <kernel/debugobjects.h>
#include <locking/spinlock.h>

/* 16384 buckets (Linux's ODEBUG_HASH_BITS) of 256-byte address chunks: 4 MiB before they wrap. */
#define ODEBUG_HASH_BITS	14
#define ODEBUG_HASH_SIZE	(1 << ODEBUG_HASH_BITS)
#define ODEBUG_CHUNK_SHIFT	8

/* The static pool, then kmalloc() refills of ODEBUG_REFILL entries outside every lock. */
#define ODEBUG_POOL_SIZE	1024
#define ODEBUG_REFILL		128
/* Entries moved between a CPU's cache and the global list at a time, and the cache's limit. */
#define ODEBUG_BATCH_SIZE	16
#define ODEBUG_PCPU_MAX		(4 * ODEBUG_BATCH_SIZE)

struct debug_obj {
	struct debug_obj *next;		/* bucket chain, or a free list */
	void *addr;
	const struct debug_obj_descr *descr;
	u8 state;			/* enum debug_obj_state */
	u8 astate;			/* active sub-state (debug_object_active_state()) */
	bool annotated;			/* by debug_object_init*(): kept when inactive */
	bool onstack;
};

struct odebug_bucket {
	/*
	 * Written under lock with WRITE_ONCE(): debug_check_no_obj_freed()
	 * peeks at it without the lock to skip empty buckets.
	 */
	struct debug_obj *head;
	raw_spinlock_t lock;
};

/* The bucket of addr's 256-byte chunk. */
struct odebug_bucket *odebug_bucket_of(const void *addr);

/*
 * The entry pool. odebug_obj_alloc() and odebug_obj_free() run with
 * interrupts off (under a bucket lock): NULL from the first means the
 * pool is dry and the caller, once it has dropped its lock, calls
 * odebug_pool_refill() (false: out of memory) and retries.
 */
struct debug_obj *odebug_obj_alloc(void);
void odebug_obj_free(struct debug_obj *obj);
bool odebug_pool_refill(void);
/* Times the pool lock was taken (batch moves and refills): the self-test's evidence. */
unsigned long odebug_pool_lock_takes(void);

#ifdef CONFIG_DEBUG_OBJECTS_SELFTEST
/* Self-test views: addr's state (ODEBUG_STATE_NONE when untracked) and the counters. */
enum debug_obj_state odebug_state_of(const void *addr);
/* The hash chain addr is kept on, and the lock that guards it. */
unsigned int odebug_hash_index(const void *addr);
raw_spinlock_t *odebug_lock_of(const void *addr);
unsigned long odebug_nr_tracked(void);
unsigned long odebug_nr_reports(void);
#endif

#endif
