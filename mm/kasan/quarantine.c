/*
 * The quarantine: freed kmalloc objects wait here, poisoned, before
 * slab.c may hand them out again, so a use after free still finds
 * KASAN_SLAB_FREE in the shadow (and the free stack in the metadata) long
 * after the kfree(), instead of a new owner's valid object. Bounded in
 * bytes by kasan.quarantine_size (default: a 32nd of RAM, as Linux sizes
 * its quarantine); past the bound the oldest objects go back to slab.c.
 *
 * Shaped as Linux's: kfree() queues the object on its own CPU's list
 * (a per-CPU lock that only kasan_quarantine_flush() ever contends), and
 * only a full per-CPU batch (a QUARANTINE_BATCHES'th of the bound, at most
 * QUARANTINE_PERCPU_MAX) moves, in O(1), to a global FIFO of batches
 * under quarantine_lock (joining its newest batch until that holds a
 * QUARANTINE_BATCHES'th of the bound), which drops whole batches, oldest
 * first, while it is over the bound. Released objects go back to slab.c outside every
 * quarantine lock, since slab.c takes its own.
 *
 * Why not one FIFO under one lock (the first version): every kfree() on
 * every CPU took quarantine_lock with interrupts off, and the put that
 * crossed the bound walked a quarter of the FIFO (~14000 objects) under
 * it. Six CPUs freeing at once (mm.selftest's slab_xcpu) queued behind
 * each other on that ticket lock for every object; on a loaded TCG host
 * each handoff waits for a descheduled vCPU, and a worker freeing 400
 * objects without a schedule point (PREEMPT_NONE) then held its CPU for
 * 20 to 84 s: "soft lockup - CPU#0 stuck for 20s! [slab_xcpu/0]" at the
 * interrupt-enabling end of that lock, kthread_stop() and rcu_barrier()
 * timeouts behind it.
 */
#define KPARAM_SUBSYS "kasan"

#include <kernel/param.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include <kernel/printk.h>
#include <locking/spinlock.h>
#include "kasan.h"
#include "../internal.h"

#define QUARANTINE_MAX_BYTES	(1L << 30)
#define QUARANTINE_AUTO		(-1L)
/* Batches the global FIFO holds: each grows to a 64th of the bound, and leaves whole. */
#define QUARANTINE_BATCHES	64
/* A per-CPU batch (a 64th of the bound) never grows past this: it waits outside the bound. */
#define QUARANTINE_PERCPU_MAX	(64UL << 10)

static long quarantine_size = QUARANTINE_AUTO;
KPARAM("kasan.quarantine_size", quarantine_size, KPARAM_LONG, QUARANTINE_AUTO, QUARANTINE_MAX_BYTES,
       "KASAN: bytes of freed kmalloc objects held back from reuse (0: none; -1: a 32nd of RAM)");

/* A run of quarantined objects linked through their metadata, oldest first. */
struct qlist {
	struct kasan_slab_meta *head, *tail;
	unsigned long bytes;
};

struct cpu_quarantine {
	spinlock_t lock;	/* this CPU's kfree() (interrupts off) against the flush */
	struct qlist q;
};
static DEFINE_PER_CPU(struct cpu_quarantine, cpu_quarantine) = {
	.lock = __SPIN_LOCK_UNLOCKED(cpu_quarantine.lock),
};

static DEFINE_SPINLOCK(quarantine_lock);
static struct qlist q_batches[QUARANTINE_BATCHES];	/* ring, guarded by quarantine_lock */
static unsigned int q_first, q_count;			/* guarded by quarantine_lock */
static unsigned long q_bytes;				/* guarded by quarantine_lock */
static unsigned long q_lock_takes;			/* guarded by quarantine_lock */

static unsigned long quarantine_limit(void)
{
	long limit = READ_ONCE(quarantine_size);

	if (limit == QUARANTINE_AUTO)
		return (totalram_pages() << PAGE_SHIFT) / 32;
	return limit;
}

static unsigned long batch_bytes(unsigned long limit)
{
	unsigned long b = limit / QUARANTINE_BATCHES;

	return b < QUARANTINE_PERCPU_MAX ? b : QUARANTINE_PERCPU_MAX;
}

static void qlist_add(struct qlist *q, struct kasan_slab_meta *m, size_t size)
{
	m->qnext = NULL;
	if (q->tail)
		q->tail->qnext = m;
	else
		q->head = m;
	q->tail = m;
	q->bytes += size;
}

/* Move all of src to dst's end; src is left empty. */
static void qlist_splice(struct qlist *dst, struct qlist *src)
{
	if (!src->head)
		return;
	if (dst->tail)
		dst->tail->qnext = src->head;
	else
		dst->head = src->head;
	dst->tail = src->tail;
	dst->bytes += src->bytes;
	*src = (struct qlist){ NULL, NULL, 0 };
}

/* quarantine_lock held: the oldest batch leaves the FIFO for *release. */
static void pop_oldest(struct qlist *release)
{
	struct qlist *b = &q_batches[q_first];

	q_bytes -= b->bytes;
	qlist_splice(release, b);
	q_first = (q_first + 1) % QUARANTINE_BATCHES;
	q_count--;
}

/* quarantine_lock held, q_count > 0: the newest batch. */
static struct qlist *tail_batch(void)
{
	return &q_batches[(q_first + q_count - 1) % QUARANTINE_BATCHES];
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

/* Free a detached run, oldest first. */
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
	struct qlist release = { NULL, NULL, 0 };
	unsigned long flags;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct cpu_quarantine *cq = per_cpu_ptr(&cpu_quarantine, cpu);

		spin_lock_irqsave(&cq->lock, flags);
		qlist_splice(&release, &cq->q);
		spin_unlock_irqrestore(&cq->lock, flags);
	}
	spin_lock_irqsave(&quarantine_lock, flags);
	q_lock_takes++;
	while (q_count)
		pop_oldest(&release);
	spin_unlock_irqrestore(&quarantine_lock, flags);
	release_run(release.head);
}

void kasan_quarantine_put(struct kasan_slab_meta *m, size_t slot_size)
{
	struct qlist batch = { NULL, NULL, 0 }, release = { NULL, NULL, 0 };
	unsigned long flags, limit = quarantine_limit();

	m->state = KASAN_STATE_QUARANTINE;
	local_irq_save(flags);
	if (likely(kmalloc_percpu_ready())) {
		/* Interrupts off: this CPU's list stays ours (the flush takes the lock too). */
		struct cpu_quarantine *cq = this_cpu_ptr(&cpu_quarantine);

		spin_lock(&cq->lock);
		qlist_add(&cq->q, m, slot_size);
		if (cq->q.bytes >= batch_bytes(limit))
			qlist_splice(&batch, &cq->q);
		spin_unlock(&cq->lock);
	} else {
		/* Before setup_per_cpu_areas() every CPU's copy is still the template. */
		qlist_add(&batch, m, slot_size);
	}
	if (batch.head) {
		spin_lock(&quarantine_lock);
		q_lock_takes++;
		q_bytes += batch.bytes;
		if (q_count && tail_batch()->bytes < limit / QUARANTINE_BATCHES) {
			/* The newest global batch grows to a 64th of the bound: 64 hold it all. */
			qlist_splice(tail_batch(), &batch);
		} else {
			if (q_count == QUARANTINE_BATCHES)	/* 64 full batches are the bound: it shrank */
				pop_oldest(&release);
			q_batches[(q_first + q_count) % QUARANTINE_BATCHES] = batch;
			q_count++;
		}
		/* Whole batches, so one put frees about one batch, not a quarter of the bound. */
		while (q_count && q_bytes > limit)
			pop_oldest(&release);
		spin_unlock(&quarantine_lock);
	}
	local_irq_restore(flags);
	release_run(release.head);
}

unsigned long kasan_quarantine_lock_takes(void)
{
	return READ_ONCE(q_lock_takes);
}
