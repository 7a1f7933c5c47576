/*
 * kvfree_rcu() for Tree RCU, in the shape of Linux 6.1's (our own code):
 * most RCU callbacks only free memory, so kvfree_rcu() queues no callback
 * per object. Each CPU collects the pointers in page-sized blocks
 * (struct kvfree_rcu_bulk_data, KVFREE_BULK_MAX_ENTR pointers each) and a
 * monitor timer hands them, KFREE_DRAIN_JIFFIES (HZ/50) after the first
 * one or at once when a block is full, to one of KFREE_N_BATCHES batches
 * waiting for a grace period: one call_rcu() per batch, whose callback
 * frees every object in a loop. When the batch's newest polled cookie is
 * already complete at hand-over time, the batch is freed there and then.
 *
 * Pages come from a per-CPU cache of spare blocks (refilled with the
 * blocks a batch frees, up to rcutree.rcu_min_cached_objs), else from
 * alloc_pages(); when none can be had, the two-argument form falls back
 * to chaining the object's own rcu_head on the CPU's list (freed with
 * the batch), and the one-argument (headless) form, which has no
 * rcu_head, waits with synchronize_rcu() and frees at once (it may
 * sleep). A shrinker (<mm/shrinker.h>) gives the cached pages back when
 * alloc_pages() fails. A CPU that goes offline keeps its blocks: its
 * monitor timer moves with the CPU's other timers and hands them on.
 *
 * Locking: each CPU's struct kfree_rcu_cpu has its own spinlock, taken
 * with interrupts off (kvfree_rcu() may be called from interrupts, the
 * monitor runs in one). It is never held across alloc_pages(), so the
 * shrinker can take it from inside a failed allocation. The common case
 * (a pointer into the CPU's current block, which has room, with the
 * monitor armed) takes neither: it runs with preemption off and the CPU's
 * ->fast flag set (krc_add_fast(); the argument is above it), because
 * under QEMU's TCG turning interrupts back on ends a translation block.
 * Documentation/RCU/kvfree_rcu.md.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include <rcu/rcupdate.h>
#include <rcu/torture.h>
#include <mm/mm.h>
#include <mm/slab.h>
#include <mm/shrinker.h>
#include <locking/spinlock.h>
#include <kernel/param.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/might_sleep.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <sched/sched.h>
#include <time/timer.h>
#include <time/time.h>
#include "tree.h"
#include "kvfree.h"

#define KFREE_DRAIN_JIFFIES	(HZ / 50)	/* Linux's: how long a pointer may wait in its block */
#define KFREE_N_BATCHES		2		/* batches per CPU waiting for a grace period */

struct kvfree_rcu_bulk_data {
	struct kvfree_rcu_bulk_data *next;
	unsigned long nr_records;
	void *records[];
};
#define KVFREE_BULK_MAX_ENTR							\
	((PAGE_SIZE - sizeof(struct kvfree_rcu_bulk_data)) / sizeof(void *))

/* A batch handed to a grace period: everything a CPU had collected at hand-over. */
struct kfree_rcu_cpu_work {
	struct rcu_head rh;
	struct kfree_rcu_cpu *krcp;
	struct kvfree_rcu_bulk_data *bulk_free;	/* blocks of pointers */
	struct rcu_head *head_free;		/* fallback: objects chained by their rcu_head */
	unsigned long nr_objs;			/* objects in the batch */
	bool busy;				/* handed over, not yet freed (krcp->lock) */
};

/*
 * Fields marked [F] belong to the fast path (krc_add_fast()) while this
 * CPU's ->fast flag is set, and otherwise to whoever holds the lock *and*
 * has shut the fast path out (krc_list_lock()). The others are guarded by
 * the lock alone: the fast path never touches them.
 */
struct kfree_rcu_cpu {
	spinlock_t lock;
	int fast;				/* this CPU is inside krc_add_fast() */
	int remote;				/* another CPU holds krc_list_lock(): keep out */
	struct kvfree_rcu_bulk_data *bulk_head;	/* [F] the block being filled first */
	unsigned long count;			/* [F] objects in the blocks, not yet handed over */
	unsigned long gp_snap;			/* [F] cookie taken at the newest block add */
	struct rcu_head *head;			/* fallback list, ->func holds the offset */
	unsigned long head_count;		/* objects on it */
	unsigned long head_snap;		/* cookie taken at the newest fallback add */
	struct kfree_rcu_cpu_work krw[KFREE_N_BATCHES];
	bool monitor_armed;			/* read by the fast path; only krc_list_lock() clears it */
	struct kvfree_rcu_bulk_data *cache;	/* spare blocks */
	unsigned int nr_cached;
	struct timer_list monitor;
	unsigned int cpu;
	/* statistics (kvfree_rcu_show_stats()), under lock: */
	unsigned long n_batches, n_batches_polled, n_pages, n_objs, n_objs_head;
	unsigned long n_fallback, n_headless_sync, n_page_allocs, n_shrunk;
	unsigned long n_fast_hits;		/* kvfree_call_rcu()s from an interrupt inside the add */
	unsigned long n_monitor_retries;	/* monitor runs put off a jiffy by a lockless add */
};

static DEFINE_PER_CPU(struct kfree_rcu_cpu, krc);

/* Linux's default (rcutree.rcu_min_cached_objs): spare blocks a CPU keeps. */
static int rcu_min_cached_objs = 5;
KPARAM_CLAMP("rcutree.rcu_min_cached_objs", rcu_min_cached_objs, KPARAM_INT, 0, 1024,
	     "spare pages per CPU kept for kvfree_rcu()'s pointer blocks");

/* Test kernels (kernel/rcu/test/kvfree.c): make the block allocations fail. */
static bool kvfree_fail_alloc;

void kvfree_rcu_test_fail_alloc(bool fail)
{
	if (IS_ENABLED(CONFIG_RCU_SELFTEST))
		WRITE_ONCE(kvfree_fail_alloc, fail);
}

/* The lock alone: for the fields the fast path never touches. */
static struct kfree_rcu_cpu *krc_lock(unsigned int cpu, unsigned long *flags)
{
	struct kfree_rcu_cpu *krcp = per_cpu_ptr(&krc, cpu);

	spin_lock_irqsave(&krcp->lock, *flags);
	return krcp;
}

static __always_inline void krc_unlock(struct kfree_rcu_cpu *krcp, unsigned long flags)
{
	spin_unlock_irqrestore(&krcp->lock, flags);
}

/*
 * The fast path and everyone else: who may touch the [F] fields.
 *
 * krc_add_fast() runs only on krcp's own CPU, with preemption off:
 *	fast = 1; smp_mb() (A); if (!remote) { add to the block }; fast = 0 (C)
 * krc_list_lock() takes the lock with interrupts off, then:
 *  - on krcp's own CPU: nothing else runs here, so the fast path is
 *    either not started (it cannot start before we unlock) or we are an
 *    interrupt that came inside it (->fast set). In that case we must not
 *    wait (the fast path cannot go on until we return) and give up.
 *  - on another CPU: remote = 1; smp_mb() (B); if (fast) give up or wait.
 *    (A) and (B) make this the store-buffering pattern: either the fast
 *    path sees remote set and leaves the block alone (it takes the slow
 *    path, whose own krc_list_lock() waits for our lock), or we see its
 *    flag and wait, with the lock dropped, until its release (C), read
 *    with acquire (D), ends it, then try again. Waiting with the lock held
 *    could deadlock: an interrupt on that CPU may need the lock (for the
 *    fallback list) while it holds the fast path up.
 *    krc_list_unlock() clears remote with release (E), which pairs with
 *    the fast path's acquire of it (F): a fast path that sees it clear
 *    sees what we did to the blocks.
 * Only task context waits for a fast path; interrupts give up (the
 * monitor tries again next jiffy). A fast path never waits for anything,
 * so a wait ends once the interrupts on that CPU return. A dead CPU's
 * flag is clear: cpu_down() cannot stop a CPU inside a section that has
 * preemption off.
 */
static bool krc_list_lock(struct kfree_rcu_cpu *krcp, unsigned long *flags, bool can_wait)
{
	for (;;) {
		local_irq_save(*flags);
		spin_lock(&krcp->lock);
		if (krcp == this_cpu_ptr(&krc)) {
			if (likely(!READ_ONCE(krcp->fast)))
				return true;
			krc_unlock(krcp, *flags);	/* the caller counts it (n_monitor_retries) */
			return false;
		}
		WRITE_ONCE(krcp->remote, 1);
		smp_mb();	/* (B): pairs with (A) in krc_add_fast() */
		if (likely(!smp_load_acquire(&krcp->fast)))	/* (D): pairs with (C) */
			return true;
		WRITE_ONCE(krcp->remote, 0);	/* nothing changed: no release needed */
		krc_unlock(krcp, *flags);
		if (!can_wait)
			return false;
		while (READ_ONCE(krcp->fast))
			cpu_relax();
	}
}

static void krc_list_unlock(struct kfree_rcu_cpu *krcp, unsigned long flags)
{
	if (krcp->remote)
		smp_store_release(&krcp->remote, 0);	/* (E): pairs with (F) in krc_add_fast() */
	krc_unlock(krcp, flags);
}

/*
 * kvfree_call_rcu()'s common case without the lock and with interrupts
 * on: ptr goes into this CPU's current block if that has room for it and
 * one more (the add that fills a block takes the slow path, which arms
 * the monitor for the next jiffy) and the monitor is armed. False: the
 * caller takes the slow path (nothing was done).
 *
 * The cookie: get_state_synchronize_rcu() is rcu_seq_snap() of
 * rcu_state.gp_seq_polled after a full barrier that orders the caller's
 * unpublishing before it; (A) is such a barrier (after the caller's
 * accesses, before the read), so the fast path reads the snapshot itself
 * rather than pay for a second one. It pairs, as get_state's, with the
 * smp_mb() in rcu_seq_start().
 */
static __always_inline bool krc_add_fast(void *ptr)
{
	struct kvfree_rcu_bulk_data *b;
	struct kfree_rcu_cpu *krcp;
	bool done = false;

	preempt_disable();	/* pairs with preempt_enable() below: stay on this CPU's krc */
	krcp = this_cpu_ptr(&krc);
	/* Set: we are an interrupt inside this CPU's fast path, whose block is not ours. */
	if (likely(!READ_ONCE(krcp->fast))) {
		WRITE_ONCE(krcp->fast, 1);
		smp_mb();	/* (A): pairs with (B) in krc_list_lock() */
		if (likely(!smp_load_acquire(&krcp->remote))) {	/* (F): pairs with (E) */
			b = krcp->bulk_head;
			if (likely(b && b->nr_records < KVFREE_BULK_MAX_ENTR - 1 &&
				   READ_ONCE(krcp->monitor_armed))) {
				b->records[b->nr_records++] = ptr;
				WRITE_ONCE(krcp->count, krcp->count + 1);
				krcp->gp_snap = rcu_seq_snap(&rcu_state.gp_seq_polled);
				done = true;
			}
		}
		smp_store_release(&krcp->fast, 0);	/* (C): pairs with (D) in krc_list_lock() */
	}
	preempt_enable();
	return done;
}

static __always_inline struct kvfree_rcu_bulk_data *krc_get_cached(struct kfree_rcu_cpu *krcp)
{
	struct kvfree_rcu_bulk_data *b = krcp->cache;

	if (b) {
		krcp->cache = b->next;
		krcp->nr_cached--;
	}
	return b;
}

/* Keep b as a spare if the cache has room; false if the caller must free it. */
static bool krc_put_cached(struct kfree_rcu_cpu *krcp, struct kvfree_rcu_bulk_data *b)
{
	if (krcp->nr_cached >= (unsigned int)READ_ONCE(rcu_min_cached_objs))
		return false;
	b->next = krcp->cache;
	krcp->cache = b;
	krcp->nr_cached++;
	return true;
}

/*
 * Store ptr in the current block, starting a new one from the cache or
 * from *spare when it is full. False if there is no room and no page.
 */
static __always_inline bool krc_add_ptr(struct kfree_rcu_cpu *krcp, void *ptr, struct kvfree_rcu_bulk_data **spare)
{
	struct kvfree_rcu_bulk_data *b = krcp->bulk_head;

	if (!b || b->nr_records == KVFREE_BULK_MAX_ENTR) {
		b = krc_get_cached(krcp);
		if (!b) {
			b = *spare;
			*spare = NULL;
		}
		if (!b)
			return false;
		b->nr_records = 0;
		b->next = krcp->bulk_head;
		krcp->bulk_head = b;
	}
	b->records[b->nr_records++] = ptr;
	return true;
}

static void *kvfree_alloc_block(bool can_sleep)
{
	if (IS_ENABLED(CONFIG_RCU_SELFTEST) && READ_ONCE(kvfree_fail_alloc))
		return NULL;
	return alloc_pages((can_sleep ? GFP_KERNEL : GFP_NOWAIT) | __GFP_NOWARN, 0);
}

/* Arm the monitor: soon when a block is full, else KFREE_DRAIN_JIFFIES from now. List lock held. */
static __always_inline void krc_arm_monitor(struct kfree_rcu_cpu *krcp)
{
	bool full = krcp->count >= KVFREE_BULK_MAX_ENTR;

	if (!krcp->monitor_armed) {
		WRITE_ONCE(krcp->monitor_armed, true);
		mod_timer(&krcp->monitor, jiffies + (full ? 1 : KFREE_DRAIN_JIFFIES));
	} else if (full && krcp->count % KVFREE_BULK_MAX_ENTR == 0) {
		mod_timer(&krcp->monitor, jiffies + 1);
	}
}

/* Chain head on krcp's fallback list (the lock alone is needed). */
static void krc_add_head(struct kfree_rcu_cpu *krcp, struct rcu_head *head, rcu_callback_t func)
{
	head->func = func;	/* ->func keeps the offset */
	head->next = krcp->head;
	krcp->head = head;
	krcp->head_count++;
	/* As for a block: the grace period this object needs starts after this point. */
	krcp->head_snap = get_state_synchronize_rcu();
	if (!krcp->monitor_armed) {
		WRITE_ONCE(krcp->monitor_armed, true);
		mod_timer(&krcp->monitor, jiffies + KFREE_DRAIN_JIFFIES);
	}
}

/*
 * This CPU's krc, list-locked, on whatever CPU we are on now. False with
 * the lock alone held: we are an interrupt that came inside this CPU's
 * fast path (whose blocks we must leave alone).
 */
static __always_inline bool krc_this_cpu_list_lock(struct kfree_rcu_cpu **krcpp, unsigned long *flags)
{
	struct kfree_rcu_cpu *krcp;

	local_irq_save(*flags);
	krcp = this_cpu_ptr(&krc);
	spin_lock(&krcp->lock);
	*krcpp = krcp;
	if (likely(!READ_ONCE(krcp->fast)))
		return true;
	krcp->n_fast_hits++;
	return false;
}

static void kvfree_call_rcu_slow(struct rcu_head *head, rcu_callback_t func, void *ptr)
{
	struct kvfree_rcu_bulk_data *spare = NULL;
	struct kfree_rcu_cpu *krcp;
	unsigned long flags;
	bool added = false;

	if (!krc_this_cpu_list_lock(&krcp, &flags))
		goto interrupted;
	added = krc_add_ptr(krcp, ptr, &spare);
	if (!added) {
		/*
		 * No block: allocate one with the lock dropped (the shrinker
		 * takes it), then add on whatever CPU we are on by then. Only
		 * the headless form may wait for memory.
		 */
		krc_unlock(krcp, flags);
		spare = kvfree_alloc_block(!head);
		if (!krc_this_cpu_list_lock(&krcp, &flags))
			goto interrupted;
		if (spare)
			krcp->n_page_allocs++;
		added = krc_add_ptr(krcp, ptr, &spare);
	}
	if (!added && !head) {
		/* Headless, no memory: Linux's answer is to wait here and free. */
		krcp->n_headless_sync++;
		krc_unlock(krcp, flags);
		synchronize_rcu();
		kvfree(ptr);
		return;
	}
	if (added) {
		WRITE_ONCE(krcp->count, krcp->count + 1);
		/* The grace period this object needs: one starting after this point (see kvfree_rcu.md). */
		krcp->gp_snap = get_state_synchronize_rcu();
		krc_arm_monitor(krcp);
	} else {
		krc_add_head(krcp, head, func);
		krcp->n_fallback++;
	}
	if (spare && krc_put_cached(krcp, spare))
		spare = NULL;
	krc_unlock(krcp, flags);
	free_page(spare);
	return;

interrupted:
	/*
	 * An interrupt inside this CPU's fast path: the blocks are its own,
	 * the fallback list is not. Only the two-argument form may be called
	 * here (the headless one may sleep); should a headless call come
	 * anyway, waiting is the only way that keeps its guarantee.
	 */
	if (WARN_ON_ONCE(!head)) {
		krc_unlock(krcp, flags);
		synchronize_rcu();
		kvfree(ptr);
		free_page(spare);
		return;
	}
	krc_add_head(krcp, head, func);
	if (spare && krc_put_cached(krcp, spare))
		spare = NULL;
	krc_unlock(krcp, flags);
	free_page(spare);
}

void kvfree_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	void *ptr = head ? (void *)((char *)head - (unsigned long)func) : (void *)func;

	if (!head)
		might_sleep();
	if (likely(krc_add_fast(ptr)))
		return;
	kvfree_call_rcu_slow(head, func, ptr);
}

/* Free a batch's objects (its grace period is over), recycle its blocks. Any context. */
static void kfree_rcu_free_batch(struct kfree_rcu_cpu_work *krw)
{
	struct kfree_rcu_cpu *krcp = krw->krcp;
	struct kvfree_rcu_bulk_data *b, *next, *to_free = NULL;
	struct rcu_head *h, *hnext;
	unsigned long flags, n = 0, nh = 0, pages = 0;

	for (b = krw->bulk_free; b; b = b->next) {
		/*
		 * kvfree() is kfree() here (no vmalloc). One class-lock take per
		 * run of a block, not one per half CPU cache: the objects were
		 * allocated on other CPUs, so they all go back to the pages.
		 */
		kfree_bulk(b->nr_records, b->records);
		n += b->nr_records;
		pages++;
		/*
		 * A flood's batch may hold hundreds of blocks: let the CPU
		 * reschedule (and report its quiescent state) between them.
		 * Tree RCU invokes callbacks from kthreads only (rcuc/N,
		 * rcuo), between which rcu_do_batch() does the same.
		 */
		if (in_task() && !irqs_disabled())
			cond_resched();
	}
	for (h = krw->head_free; h; h = hnext) {
		hnext = h->next;
		kvfree((char *)h - (unsigned long)h->func);
		nh++;
	}
	spin_lock_irqsave(&krcp->lock, flags);
	for (b = krw->bulk_free; b; b = next) {
		next = b->next;
		if (!krc_put_cached(krcp, b)) {
			b->next = to_free;
			to_free = b;
		}
	}
	krw->bulk_free = NULL;
	krw->head_free = NULL;
	krcp->n_objs += n + nh;
	krcp->n_objs_head += nh;
	krcp->n_pages += pages;
	/* The slot is free again for the monitor (which reads it under this lock). */
	krw->busy = false;
	spin_unlock_irqrestore(&krcp->lock, flags);
	for (b = to_free; b; b = next) {
		next = b->next;
		free_page(b);
	}
}

static void kfree_rcu_work_cb(struct rcu_head *rh)
{
	kfree_rcu_free_batch(container_of(rh, struct kfree_rcu_cpu_work, rh));
}

/*
 * Move what krcp collected into its free batch slots. List lock held;
 * returns the slots filled in out[] with their cookies (the newer of the
 * blocks' and the fallback list's), for kfree_rcu_submit() once the lock
 * is dropped.
 */
static int krc_detach(struct kfree_rcu_cpu *krcp, struct kfree_rcu_cpu_work **out,
		      unsigned long *snap)
{
	int n = 0;

	for (int i = 0; i < KFREE_N_BATCHES && (krcp->count || krcp->head_count); i++) {
		struct kfree_rcu_cpu_work *krw = &krcp->krw[i];
		unsigned long s = krcp->gp_snap;

		if (krw->busy)
			continue;
		if (!krcp->count || (krcp->head_count && ULONG_CMP_LT(s, krcp->head_snap)))
			s = krcp->head_snap;
		krw->busy = true;
		krw->bulk_free = krcp->bulk_head;
		krw->head_free = krcp->head;
		krw->nr_objs = krcp->count + krcp->head_count;
		krcp->bulk_head = NULL;
		krcp->head = NULL;
		WRITE_ONCE(krcp->count, 0);
		krcp->head_count = 0;
		krcp->n_batches++;
		out[n] = krw;
		snap[n++] = s;
	}
	return n;
}

/*
 * Hand a detached batch to a grace period: free it now if the cookie of
 * its newest object is already complete (in the monitor's interrupt only
 * if it is small) (poll_state_synchronize_rcu()'s
 * full barrier orders the readers' accesses before the frees, pairing
 * with the grace period's), else after one more with call_rcu().
 */
static void kfree_rcu_submit(struct kfree_rcu_cpu_work *krw, unsigned long snap)
{
	/* In the monitor's interrupt, only a batch of at most one block is freed there. */
	if ((in_task() || krw->nr_objs <= KVFREE_BULK_MAX_ENTR) && poll_state_synchronize_rcu(snap)) {
		unsigned long flags;

		spin_lock_irqsave(&krw->krcp->lock, flags);
		krw->krcp->n_batches_polled++;
		spin_unlock_irqrestore(&krw->krcp->lock, flags);
		kfree_rcu_free_batch(krw);
		return;
	}
	call_rcu(&krw->rh, kfree_rcu_work_cb);
}

/*
 * Detach and submit krcp's objects; re-arm the monitor if some had to
 * stay. From the monitor (an interrupt: it must not wait for a fast
 * path; then it tries again at the next jiffy) or from
 * kvfree_rcu_barrier() (a task: it waits).
 */
static void kfree_rcu_drain(struct kfree_rcu_cpu *krcp, bool from_monitor)
{
	struct kfree_rcu_cpu_work *krw[KFREE_N_BATCHES];
	unsigned long snap[KFREE_N_BATCHES], flags;
	int n;

	if (!krc_list_lock(krcp, &flags, !from_monitor)) {
		/* A fast path holds the blocks: the monitor stays armed, for the next jiffy. */
		mod_timer(&krcp->monitor, jiffies + 1);
		spin_lock_irqsave(&krcp->lock, flags);
		krcp->n_monitor_retries++;
		spin_unlock_irqrestore(&krcp->lock, flags);
		return;
	}
	if (from_monitor)
		WRITE_ONCE(krcp->monitor_armed, false);
	n = krc_detach(krcp, krw, snap);
	if ((krcp->count || krcp->head_count) && !krcp->monitor_armed) {
		/*
		 * Both batches still wait for their grace period. As Linux
		 * 6.1's monitor: look again at the next jiffy if a block is
		 * full (a flood: the objects would otherwise pile up for
		 * KFREE_DRAIN_JIFFIES more), else after the usual delay.
		 */
		WRITE_ONCE(krcp->monitor_armed, true);
		mod_timer(&krcp->monitor, jiffies + (krcp->count >= KVFREE_BULK_MAX_ENTR ? 1 : KFREE_DRAIN_JIFFIES));
	}
	krc_list_unlock(krcp, flags);
	for (int i = 0; i < n; i++)
		kfree_rcu_submit(krw[i], snap[i]);
}

/* The monitor: hard interrupt, on the CPU that armed it (or the first online one after hotplug). */
static void kfree_rcu_monitor(struct timer_list *t)
{
	kfree_rcu_drain(container_of(t, struct kfree_rcu_cpu, monitor), true);
}

unsigned long kvfree_rcu_cpu_pending(unsigned int cpu)
{
	struct kfree_rcu_cpu *krcp;
	unsigned long flags, n;

	krcp = krc_lock(cpu, &flags);
	n = READ_ONCE(krcp->count) + krcp->head_count;	/* [F]: a snapshot is all a caller gets anyway */
	for (int i = 0; i < KFREE_N_BATCHES; i++)
		n += krcp->krw[i].busy;
	krc_unlock(krcp, flags);
	return n;
}

void kvfree_rcu_barrier(void)
{
	unsigned int cpu;
	bool busy = true;

	might_sleep();
	/* Each round hands on what is collected and waits for the batches in flight. */
	for (int round = 0; busy && round < 1000; round++) {
		for_each_possible_cpu(cpu)
			kfree_rcu_drain(per_cpu_ptr(&krc, cpu), false);
		rcu_barrier();
		busy = false;
		for_each_possible_cpu(cpu)
			busy |= kvfree_rcu_cpu_pending(cpu) != 0;
	}
	WARN_ON_ONCE(busy);
}

/* Low memory: give back every spare block and hand batches on without waiting. */
static unsigned long kfree_rcu_shrink_scan(struct shrinker *s)
{
	unsigned long freed = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct kvfree_rcu_bulk_data *b, *list = NULL;
		struct kfree_rcu_cpu *krcp;
		unsigned long flags;

		krcp = krc_lock(cpu, &flags);
		while ((b = krc_get_cached(krcp))) {
			b->next = list;
			list = b;
			krcp->n_shrunk++;
		}
		if (krcp->monitor_armed)	/* armed: something is collected */
			mod_timer(&krcp->monitor, jiffies);
		krc_unlock(krcp, flags);
		while ((b = list)) {
			list = b->next;
			free_page(b);
			freed++;
		}
	}
	return freed;
}

static struct shrinker kfree_rcu_shrinker = {
	.scan = kfree_rcu_shrink_scan,
	.name = "rcu-kfree",
};

void kvfree_rcu_stats(struct kvfree_rcu_stats *st)
{
	unsigned int cpu;

	*st = (struct kvfree_rcu_stats){ 0 };
	for_each_possible_cpu(cpu) {
		struct kfree_rcu_cpu *krcp;
		unsigned long flags;

		krcp = krc_lock(cpu, &flags);
		st->batches += krcp->n_batches;
		st->batches_polled += krcp->n_batches_polled;
		st->pages += krcp->n_pages;
		st->objs += krcp->n_objs;
		st->objs_head += krcp->n_objs_head;
		st->fallbacks += krcp->n_fallback;
		st->headless_sync += krcp->n_headless_sync;
		st->page_allocs += krcp->n_page_allocs;
		st->shrunk += krcp->n_shrunk;
		st->cached += krcp->nr_cached;
		st->pending += READ_ONCE(krcp->count) + krcp->head_count;
		st->fast_hits += krcp->n_fast_hits;
		st->monitor_retries += krcp->n_monitor_retries;
		krc_unlock(krcp, flags);
	}
}

/* One power-off line (rcu_show_stats()). */
void kvfree_rcu_show_stats(void)
{
	struct kvfree_rcu_stats st;

	kvfree_rcu_stats(&st);
	pr_info("kvfree_rcu: batches %lu (%lu freed at once on a complete cookie), pages %lu, objects freed %lu (%lu by rcu_head), fallbacks %lu, headless synchronous %lu, pages allocated %lu, cached %lu, shrunk %lu, pending %lu, lockless adds interrupted %lu, monitor put off %lu\n",
		st.batches, st.batches_polled, st.pages, st.objs, st.objs_head, st.fallbacks,
		st.headless_sync, st.page_allocs, st.cached, st.shrunk, st.pending, st.fast_hits,
		st.monitor_retries);
}

/* From rcu_init(): before any kvfree_rcu(). */
void kvfree_rcu_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct kfree_rcu_cpu *krcp = per_cpu_ptr(&krc, cpu);

		spin_lock_init(&krcp->lock);
		timer_setup(&krcp->monitor, kfree_rcu_monitor, 0);
		krcp->cpu = cpu;
		for (int i = 0; i < KFREE_N_BATCHES; i++)
			krcp->krw[i].krcp = krcp;
	}
	register_shrinker(&kfree_rcu_shrinker);
}
