/*
 * The debug-objects tracker's entry pool (see odebug.h): where a tracking
 * entry comes from when an object is first seen and goes back to when it
 * is forgotten.
 *
 * With one lock for the whole pool, every call_rcu() and every callback
 * invocation would meet every other CPU's at that lock, interrupts off:
 * the convoy the bucket locks remove would come back here. So each CPU
 * keeps a small cache of free entries, used only with interrupts off by
 * that CPU, and the pool lock is taken only to move ODEBUG_BATCH_SIZE
 * entries between a cache and the global free list (cache empty, or over
 * ODEBUG_PCPU_MAX). A head queued on one CPU and invoked on another just
 * moves entries from one cache to the other a batch at a time.
 *
 * The global list starts with a static pool of ODEBUG_POOL_SIZE entries
 * and grows by kmalloc() (ODEBUG_REFILL at a time, no lock held: the
 * caller drops its bucket lock first). Entries are never kfree()d: that
 * would call back into debug_check_no_obj_freed(). A CPU taken offline
 * keeps its cache (at most ODEBUG_PCPU_MAX entries) until it returns.
 */
#include "odebug.h"
#include <kernel/percpu.h>
#include <kernel/compiler.h>
#include <kernel/bug.h>
#include <kernel/irqflags.h>
#include <mm/slab.h>

struct odebug_pcp {
	struct debug_obj *head;
	unsigned int cnt;
};

static DEFINE_PER_CPU(struct odebug_pcp, odebug_pcp);

static DEFINE_RAW_SPINLOCK(odebug_pool_lock);
static struct debug_obj *odebug_pool_free;	/* the global free list, under the pool lock */
static struct debug_obj odebug_boot_pool[ODEBUG_POOL_SIZE];
static unsigned int odebug_boot_used;		/* handed out in order, under the pool lock */
static unsigned long odebug_pool_takes;

/* Pool lock held: the next free entry of the global list or the static pool, or NULL. */
static struct debug_obj *odebug_pool_pop(void)
{
	struct debug_obj *obj = odebug_pool_free;

	if (obj) {
		odebug_pool_free = obj->next;
		return obj;
	}
	if (odebug_boot_used < ODEBUG_POOL_SIZE)
		return &odebug_boot_pool[odebug_boot_used++];
	return NULL;
}

static void odebug_pool_lock_irqoff(void)
{
	raw_spin_lock(&odebug_pool_lock);
	WRITE_ONCE(odebug_pool_takes, odebug_pool_takes + 1);
}

struct debug_obj *odebug_obj_alloc(void)
{
	struct odebug_pcp *pcp = this_cpu_ptr(&odebug_pcp);
	struct debug_obj *obj;

	WARN_ON_ONCE(!irqs_disabled());
	if (!pcp->head) {
		/* Empty: one trip to the pool lock for a batch. */
		odebug_pool_lock_irqoff();
		for (int i = 0; i < ODEBUG_BATCH_SIZE; i++) {
			obj = odebug_pool_pop();
			if (!obj)
				break;
			obj->next = pcp->head;
			pcp->head = obj;
			pcp->cnt++;
		}
		raw_spin_unlock(&odebug_pool_lock);
	}
	obj = pcp->head;
	if (obj) {
		pcp->head = obj->next;
		pcp->cnt--;
	}
	return obj;
}

void odebug_obj_free(struct debug_obj *obj)
{
	struct odebug_pcp *pcp = this_cpu_ptr(&odebug_pcp);

	WARN_ON_ONCE(!irqs_disabled());
	obj->next = pcp->head;
	pcp->head = obj;
	if (++pcp->cnt <= ODEBUG_PCPU_MAX)
		return;
	/* Full: give a batch back, so that CPUs that only allocate find it in the pool. */
	odebug_pool_lock_irqoff();
	for (int i = 0; i < ODEBUG_BATCH_SIZE; i++) {
		obj = pcp->head;
		pcp->head = obj->next;
		pcp->cnt--;
		obj->next = odebug_pool_free;
		odebug_pool_free = obj;
	}
	raw_spin_unlock(&odebug_pool_lock);
}

bool odebug_pool_refill(void)
{
	struct debug_obj *objs = kmalloc(ODEBUG_REFILL * sizeof(*objs), GFP_ATOMIC | __GFP_NOWARN);
	unsigned long flags;

	if (!objs)
		return false;
	local_irq_save(flags);
	odebug_pool_lock_irqoff();
	for (int i = 0; i < ODEBUG_REFILL; i++) {
		objs[i].next = odebug_pool_free;
		odebug_pool_free = &objs[i];
	}
	raw_spin_unlock(&odebug_pool_lock);
	local_irq_restore(flags);
	return true;
}

unsigned long odebug_pool_lock_takes(void)
{
	return READ_ONCE(odebug_pool_takes);
}
