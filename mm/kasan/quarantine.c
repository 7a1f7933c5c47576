/*
 * The quarantine: freed kmalloc objects wait here, poisoned, before
 * slab.c may hand them out again, so a use after free still finds
 * KASAN_SLAB_FREE in the shadow (and the free stack in the metadata) long
 * after the kfree(), instead of a new owner's valid object. One FIFO
 * under one lock, bounded in bytes by kasan.quarantine_size (default: a
 * 32nd of RAM, as Linux sizes its quarantine); past the bound the oldest
 * objects go back to slab.c until a quarter of the bound is free again.
 * Objects are released outside the lock, since slab.c takes its own.
 */
#define KPARAM_SUBSYS "kasan"

#include <kernel/param.h>
#include <kernel/printk.h>
#include <locking/spinlock.h>
#include "kasan.h"
#include "../internal.h"

#define QUARANTINE_MAX_BYTES	(1L << 30)
#define QUARANTINE_AUTO		(-1L)

static long quarantine_size = QUARANTINE_AUTO;
KPARAM("kasan.quarantine_size", quarantine_size, KPARAM_LONG, QUARANTINE_AUTO, QUARANTINE_MAX_BYTES,
       "KASAN: bytes of freed kmalloc objects held back from reuse (0: none; -1: a 32nd of RAM)");

static DEFINE_SPINLOCK(quarantine_lock);
static struct kasan_slab_meta *q_head, *q_tail;	/* guarded by quarantine_lock */
static unsigned long q_bytes;			/* guarded by quarantine_lock */

static unsigned long quarantine_limit(void)
{
	long limit = READ_ONCE(quarantine_size);

	if (limit == QUARANTINE_AUTO)
		return (totalram_pages() << PAGE_SHIFT) / 32;
	return limit;
}

/* The slot size of a quarantined object, from its slab page (slab.c knows the class). */
static size_t slot_size_of(struct kasan_slab_meta *m)
{
	void *slot;
	unsigned int size;

	if (!kmalloc_slab_object(m, &slot, &size))
		return 0;
	return size;
}

/* Free a detached run of the FIFO, oldest first. */
static void release_run(struct kasan_slab_meta *release)
{
	while (release) {
		struct kasan_slab_meta *next = release->qnext;

		release->state = KASAN_STATE_FREE;
		release->qnext = NULL;
		kmalloc_slab_free_now(kasan_meta_slot(release, slot_size_of(release)));
		release = next;
	}
}

void kasan_quarantine_flush(void)
{
	struct kasan_slab_meta *release;
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	release = q_head;
	q_head = q_tail = NULL;
	q_bytes = 0;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	release_run(release);
}

void kasan_quarantine_put(struct kasan_slab_meta *m, size_t slot_size)
{
	struct kasan_slab_meta *release = NULL;
	unsigned long flags, limit = quarantine_limit();

	m->state = KASAN_STATE_QUARANTINE;
	m->qnext = NULL;
	spin_lock_irqsave(&quarantine_lock, flags);
	if (q_tail)
		q_tail->qnext = m;
	else
		q_head = m;
	q_tail = m;
	q_bytes += slot_size;
	if (q_bytes > limit) {
		/* Cut a run of the oldest objects off the head; free them unlocked. */
		struct kasan_slab_meta *last = NULL, *p = q_head;

		release = q_head;
		while (p && q_bytes > limit - limit / 4) {
			q_bytes -= slot_size_of(p);
			last = p;
			p = p->qnext;
		}
		q_head = p;
		if (!p)
			q_tail = NULL;
		last->qnext = NULL;
	}
	spin_unlock_irqrestore(&quarantine_lock, flags);
	release_run(release);
}
