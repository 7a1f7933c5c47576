/*
 * kmalloc self-tests: the KTAP suite "slab", run at boot with
 * mm.selftest=1. They check the per-CPU object caches of mm/slab.c:
 * a CPU allocating and freeing one size takes the class lock once per
 * refill or drain, not once per call; objects allocated on several CPUs
 * at once, half of them freed on another CPU, are never handed out twice
 * and keep what was written into them; once they are all freed the slab
 * pages go back, except what the CPU caches may hold; kfree_bulk() frees
 * a run of one class with one take of its lock; slub_debug=P fills a freed
 * object with POISON_FREE and marks a live one, and without it neither.
 * Interrupts that allocate and free on a CPU whose task is inside a cache
 * push or pop (no interrupt-disable there, kmalloc_cpu_busy) never share
 * an object with it; a CPU that goes offline gives its cached objects back
 * to the pages.
 */
#define KPARAM_SUBSYS "mm"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "../internal.h"
#include "suite.h"
#include "irq_task.h"
#include <mm/slab.h>
#include <mm/kasan.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/sort.h>
#include <kernel/string.h>
#include <sched/kthread.h>
#include <sched/completion.h>
#include <kernel/cpu.h>
#include <kernel/errno.h>
#include <time/time.h>
#include <time/delay.h>

bool mm_selftest;
KPARAM_BOOL("mm.selftest", mm_selftest, "run the mm self-tests (KTAP suites \"slab\", \"percpu\" and \"page_pcp\") at boot");

/* --- one CPU: the lock is taken per half cache ------------------------------------ */

#define SL_ROUNDS	8
#define SL_BATCH	256
#define SL_SIZE		24	/* the 32-byte class: nothing else at boot uses it much */

static struct {
	struct completion done;
	unsigned long takes;
	bool failed;
} sl_one;

static int sl_one_fn(void *unused)
{
	static void *objs[SL_BATCH];
	unsigned long t0 = kmalloc_class_lock_takes(SL_SIZE);

	for (int r = 0; r < SL_ROUNDS; r++) {
		for (int i = 0; i < SL_BATCH; i++)
			if (!(objs[i] = kmalloc(SL_SIZE, GFP_KERNEL)))
				sl_one.failed = true;
		for (int i = 0; i < SL_BATCH; i++)
			kfree(objs[i]);
	}
	sl_one.takes = kmalloc_class_lock_takes(SL_SIZE) - t0;
	complete(&sl_one.done);
	ktest_wait_stop();
	return 0;
}

/*
 * Run fn in a kthread on the last online CPU and wait for it to complete
 * done; the thread is stopped before returning. True if it finished.
 */
static bool sl_run_on_last_cpu(int (*fn)(void *), struct completion *done, const char *name,
			       const char *what)
{
	struct task_struct *t;
	bool ok;

	init_completion(done);
	t = ktest_kthread(fn, NULL, ktest_last_online_cpu(), name);
	if (!t)
		return false;
	wake_up_process(t);
	ok = ktest_wait(done, 20000);
	KTAP_EXPECT_MSG(ok, "the %s thread did not finish", what);
	kthread_stop(t);
	return ok;
}

static void slab_cpu_cache_batches(void)
{
	unsigned int calls = 2 * SL_ROUNDS * SL_BATCH;

	sl_one.failed = false;
	if (sl_run_on_last_cpu(sl_one_fn, &sl_one.done, "slab_one/%u", "allocating")) {
		KTAP_EXPECT(!sl_one.failed);
		/* 64 objects per cache: 32 per refill or drain. Other CPUs may use the class too. */
		KTAP_EXPECT_MSG(sl_one.takes <= calls / 8, "class lock taken %lu times for %u calls",
				sl_one.takes, calls);
		ktap_diag("%u kmalloc/kfree calls on CPU %u took the class lock %lu times", calls,
			  ktest_last_online_cpu(), sl_one.takes);
	}
}

/* --- kfree_bulk(): one lock take per run of a class ------------------------------- */

#define SL_BULK		512

static struct {
	struct completion done;
	unsigned long takes, live_before, live_after;
	bool failed;
} sl_bulk;

static int sl_bulk_fn(void *unused)
{
	static void *objs[SL_BULK + 3];
	struct mm_stats st;
	unsigned long t0;

	mm_get_stats(&st);
	sl_bulk.live_before = st.kmalloc_live;
	for (int i = 0; i < SL_BULK; i++)
		if (!(objs[i] = kmalloc(SL_SIZE, GFP_KERNEL)))
			sl_bulk.failed = true;
	/* A NULL, another class and a large block among them: kfree()'s paths. */
	objs[SL_BULK] = NULL;
	objs[SL_BULK + 1] = kmalloc(200, GFP_KERNEL);
	objs[SL_BULK + 2] = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	t0 = kmalloc_class_lock_takes(SL_SIZE);
	kfree_bulk(SL_BULK + 3, objs);
	sl_bulk.takes = kmalloc_class_lock_takes(SL_SIZE) - t0;
	mm_get_stats(&st);
	sl_bulk.live_after = st.kmalloc_live;
	complete(&sl_bulk.done);
	ktest_wait_stop();
	return 0;
}

static void slab_kfree_bulk(void)
{
	sl_bulk.failed = false;
	if (sl_run_on_last_cpu(sl_bulk_fn, &sl_bulk.done, "slab_bulk/%u", "freeing")) {
		KTAP_EXPECT(!sl_bulk.failed);
		/*
		 * Runs of 128 objects: 4 takes (KASAN: kfree() each, to the
		 * quarantine). Other CPUs may use the class too.
		 */
		if (!IS_ENABLED(CONFIG_KASAN))
			KTAP_EXPECT_MSG(sl_bulk.takes <= SL_BULK / 128 + 4,
					"class lock taken %lu times for a kfree_bulk() of %u objects",
					sl_bulk.takes, SL_BULK);
		/* Every object was counted freed (others' kmalloc()s may move it a little). */
		KTAP_EXPECT_MSG(sl_bulk.live_after <= sl_bulk.live_before + 16,
				"kmalloc live %lu before, %lu after kfree_bulk()", sl_bulk.live_before,
				sl_bulk.live_after);
		ktap_diag("kfree_bulk() of %u objects on CPU %u took the class lock %lu times; live %lu -> %lu",
			  SL_BULK, ktest_last_online_cpu(), sl_bulk.takes, sl_bulk.live_before,
			  sl_bulk.live_after);
	}
}

/* --- slub_debug=P poisons, and nothing else does (mm/slab_debug.c) ----------------- */

/*
 * With interrupts off, a freed object stays on top of this CPU's cache,
 * where nothing writes to it: read it there (a deliberate read after free).
 */
static void slab_debug_poison(void)
{
	bool poison = slab_debug_flags & SLAB_DEBUG_POISON;
	unsigned int filled = 0, kept = 0, n = SL_SIZE - sizeof(void *);
	unsigned long flags;
	u8 *p, mark = 0;

	if (IS_ENABLED(CONFIG_KASAN)) {
		ktap_skip("KASAN owns a freed object (its quarantine)");
		return;
	}
	local_irq_save(flags);
	p = kmalloc(SL_SIZE, GFP_ATOMIC);
	if (p) {
		mark = p[sizeof(void *)];
		memset(p + sizeof(void *), 0x11, n);
		kfree(p);
		for (unsigned int i = sizeof(void *); i < SL_SIZE; i++) {
			filled += READ_ONCE(p[i]) == POISON_FREE;
			kept += READ_ONCE(p[i]) == 0x11;
		}
	}
	local_irq_restore(flags);
	if (!KTAP_EXPECT(p))
		return;
	ktap_diag("slub_debug: F %s, P %s; a live object's mark %#x, a freed one: %u of %u bytes POISON_FREE",
		  slab_debug_flags & SLAB_DEBUG_CHECKS ? "on" : "off", poison ? "on" : "off", mark,
		  filled, n);
	if (poison) {
		KTAP_EXPECT_MSG(mark == POISON_INUSE, "live object's byte %zu is %#x", sizeof(void *), mark);
		KTAP_EXPECT_MSG(filled == n, "%u of %u bytes of a freed object POISON_FREE", filled, n);
	} else {
		KTAP_EXPECT_MSG(kept == n, "%u of %u bytes of a freed object kept", kept, n);
	}
}

/* --- several CPUs: no object twice, contents kept, pages returned ------------------ */

#define SL_NCPU		8	/* at most this many CPUs take part */
#define SL_NOBJ		400	/* objects per CPU */
#define SL_OBJ_SIZE	100	/* the 128-byte class */

struct sl_worker {
	unsigned int id, cpu;
	void *objs[SL_NOBJ];
	unsigned int bad;		/* stamps found changed (by the controller) */
	struct completion allocated, handed, done;
	struct sl_worker *next;		/* frees the second half of next's objects */
	struct task_struct *task;
};

static struct sl_worker sl_workers[SL_NCPU];

static void sl_stamp(void *obj, unsigned int id, unsigned int i)
{
	memset(obj, (int)(id * 31 + i) & 0xff, SL_OBJ_SIZE);
}

static bool sl_stamp_ok(const u8 *obj, unsigned int id, unsigned int i)
{
	for (unsigned int b = 0; b < SL_OBJ_SIZE; b++)
		if (obj[b] != ((id * 31 + i) & 0xff))
			return false;
	return true;
}

static int sl_worker_fn(void *arg)
{
	struct sl_worker *w = arg;

	for (unsigned int i = 0; i < SL_NOBJ; i++) {
		w->objs[i] = kmalloc(SL_OBJ_SIZE, GFP_KERNEL);
		if (w->objs[i])
			sl_stamp(w->objs[i], w->id, i);
	}
	complete(&w->allocated);
	/* The controller checks every object while all are live, then lets us free. */
	wait_for_completion(&w->handed);
	/* Free our first half, and the second half of the next worker's (another CPU's). */
	for (unsigned int i = 0; i < SL_NOBJ / 2; i++)
		kfree(w->objs[i]);
	for (unsigned int i = SL_NOBJ / 2; i < SL_NOBJ; i++)
		kfree(w->next->objs[i]);
	complete(&w->done);
	ktest_wait_stop();
	return 0;
}

static void slab_cross_cpu(void)
{
	static u64 all[SL_NCPU * SL_NOBJ];
	unsigned int n = 0, online = num_online_cpus(), nw, cpu, k = 0, dups = 0, nulls = 0;
	struct mm_stats before, after;
	unsigned long qtakes;
	bool ok = true;

	nw = online < SL_NCPU ? online : SL_NCPU;
	if (nw < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	mm_get_stats(&before);
	/* Spread the workers over the online CPUs. */
	for_each_online_cpu(cpu) {
		unsigned int idx = n++;

		if (k >= nw || idx != k * online / nw)
			continue;
		sl_workers[k] = (struct sl_worker){ .id = k, .cpu = cpu };
		init_completion(&sl_workers[k].allocated);
		init_completion(&sl_workers[k].handed);
		init_completion(&sl_workers[k].done);
		k++;
	}
	nw = k;
	for (k = 0; k < nw; k++) {
		sl_workers[k].next = &sl_workers[(k + 1) % nw];
		sl_workers[k].task = ktest_kthread(sl_worker_fn, &sl_workers[k], sl_workers[k].cpu,
						   "slab_xcpu/%u");
		if (!sl_workers[k].task)
			return;		/* reported; earlier workers leak (not woken) */
	}
	for (k = 0; k < nw; k++)
		wake_up_process(sl_workers[k].task);
	for (k = 0; k < nw; k++)
		ok &= ktest_wait(&sl_workers[k].allocated, 20000);
	KTAP_EXPECT_MSG(ok, "a worker did not finish allocating");
	n = 0;
	for (k = 0; k < nw; k++)
		for (unsigned int i = 0; i < SL_NOBJ; i++) {
			if (!sl_workers[k].objs[i])
				nulls++;
			else
				all[n++] = (u64)(unsigned long)sl_workers[k].objs[i];
		}
	/* Every worker has written all its objects: a shared object shows as another's stamp. */
	for (k = 0; k < nw; k++)
		for (unsigned int i = 0; i < SL_NOBJ; i++)
			if (sl_workers[k].objs[i] && !sl_stamp_ok(sl_workers[k].objs[i], k, i))
				sl_workers[k].bad++;
	sort_u64(all, n);
	for (unsigned int i = 1; i < n; i++)
		dups += all[i] == all[i - 1];
	KTAP_EXPECT_MSG(!dups, "%u of %u live objects were handed out twice", dups, n);
	KTAP_EXPECT_MSG(!nulls, "%u allocations failed", nulls);
	for (k = 0; k < nw; k++)
		KTAP_EXPECT_MSG(!sl_workers[k].bad, "worker %u (CPU %u): %u objects changed while live",
				k, sl_workers[k].cpu, sl_workers[k].bad);
	qtakes = kasan_quarantine_lock_takes();
	for (k = 0; k < nw; k++)
		complete(&sl_workers[k].handed);
	for (k = 0; k < nw; k++)
		ok &= ktest_wait(&sl_workers[k].done, 20000);
	KTAP_EXPECT_MSG(ok, "a worker did not finish freeing");
	qtakes = kasan_quarantine_lock_takes() - qtakes;
	/*
	 * KASAN: the frees went to per-CPU quarantine batches, which reach the
	 * global lock a batch (up to 64 KiB, 256 of these slots) at a time.
	 * Taken once per kfree() (the old single FIFO), six CPUs queued on it
	 * for every object and a worker sat 20 to 84 s in kasan_quarantine_put
	 * ("soft lockup ... [slab_xcpu/0]") on a loaded host. Others' frees
	 * meanwhile may add a few.
	 */
	if (IS_ENABLED(CONFIG_KASAN))
		KTAP_EXPECT_MSG(qtakes <= n / 16 + 16,
				"quarantine lock taken %lu times for %u frees (a batch is 256)", qtakes, n);
	kasan_quarantine_flush();	/* KASAN: the frees must reach the pages now */
	mm_get_stats(&after);
	/*
	 * The 128-byte class caches at most 32 objects (a page) per CPU, and
	 * each CPU's node keeps one empty page; the rest of the 400 * nw
	 * objects' pages must be back. Other users of the class during the run
	 * may hold a few more. Under KASAN the objects carry their metadata, so
	 * they come from the 256-byte class: 32 of them fill two pages.
	 */
	KTAP_EXPECT_MSG(after.slab_pages <= before.slab_pages + online * (IS_ENABLED(CONFIG_KASAN) ? 3 : 2) + 8,
			"slab pages %lu before, %lu after freeing %u objects", before.slab_pages,
			after.slab_pages, n);
	ktap_diag("%u CPUs, %u objects, %u freed on another CPU; slab pages %lu -> %lu; quarantine lock taken %lu times",
		  nw, n, n / 2, before.slab_pages, after.slab_pages, qtakes);
	for (k = 0; k < nw; k++)
		kthread_stop(sl_workers[k].task);
}

/* --- interrupts against the task's push and pop on one CPU -------------------------- */

#define SL_IRQ_SIZE	40	/* the 64-byte class: the task's and the interrupts' */
#define SL_IRQ_TASK	16	/* objects the task keeps live at a time */
#define SL_IRQ_KEEP	4	/* objects each interrupt keeps until the next one */
#define SL_IRQ_MS	400	/* how long the task loops */

static struct {
	unsigned int cpu;
	bool stop;
	struct completion done;
	unsigned long loops, task_bad, task_nulls;
	/* the interrupts' side, written on the worker's CPU only */
	void *kept[SL_IRQ_KEEP];
	unsigned long calls, irq_bad, irq_nulls;
} sl_irq;

static void sl_irq_fill(u8 *obj, u8 v)
{
	memset(obj, v, SL_IRQ_SIZE);
}

static bool sl_irq_same(const u8 *obj, u8 v)
{
	for (unsigned int i = 0; i < SL_IRQ_SIZE; i++)
		if (READ_ONCE(obj[i]) != v)
			return false;
	return true;
}

/*
 * Cross-call on the task's CPU: every other call takes SL_IRQ_KEEP objects
 * (stamped 0xee), the next checks and frees them. So an interrupt that
 * lands inside the task's push or pop moves the CPU cache's count under it:
 * one that freed and took back the same objects would leave the stack as
 * it found it, and a broken fast path unseen.
 */
static void sl_irq_fn(void *unused)
{
	bool take = !(sl_irq.calls++ & 1);

	for (unsigned int i = 0; i < SL_IRQ_KEEP; i++) {
		u8 *p = sl_irq.kept[i];

		if (!take) {
			if (p && !sl_irq_same(p, 0xee))
				sl_irq.irq_bad++;
			kfree(p);
			sl_irq.kept[i] = NULL;
			continue;
		}
		p = kmalloc(SL_IRQ_SIZE, GFP_ATOMIC);
		if (p)
			sl_irq_fill(p, 0xee);
		else
			sl_irq.irq_nulls++;
		sl_irq.kept[i] = p;
	}
}

/*
 * The task: keep SL_IRQ_TASK objects live, each stamped with its slot
 * number; each round checks one, frees it and takes a new one. An object
 * an interrupt was also given shows the other's stamp.
 */
static int sl_irq_task_fn(void *unused)
{
	static u8 *live[SL_IRQ_TASK];
	unsigned int i = 0;

	while (!READ_ONCE(sl_irq.stop)) {
		u8 *p = live[i];

		if (p && !sl_irq_same(p, (u8)i))
			sl_irq.task_bad++;
		kfree(p);
		p = kmalloc(SL_IRQ_SIZE, GFP_KERNEL);
		if (p)
			sl_irq_fill(p, (u8)i);
		else
			sl_irq.task_nulls++;
		live[i] = p;
		i = (i + 1) % SL_IRQ_TASK;
		sl_irq.loops++;
		if (!(sl_irq.loops % 4096))
			cond_resched();
	}
	for (i = 0; i < SL_IRQ_TASK; i++) {
		if (live[i] && !sl_irq_same(live[i], (u8)i))
			sl_irq.task_bad++;
		kfree(live[i]);
		live[i] = NULL;
	}
	complete(&sl_irq.done);
	ktest_wait_stop();
	return 0;
}

static void sl_irq_release(void *unused)
{
	for (unsigned int i = 0; i < SL_IRQ_KEEP; i++) {
		if (sl_irq.kept[i] && !sl_irq_same(sl_irq.kept[i], 0xee))
			sl_irq.irq_bad++;
		kfree(sl_irq.kept[i]);
		sl_irq.kept[i] = NULL;
	}
}

static void slab_irq_vs_task(void)
{
	static const struct mm_irq_task run = {
		.name = "slab_irq/%u", .task_fn = sl_irq_task_fn, .irq_fn = sl_irq_fn,
		.release_fn = sl_irq_release, .stop = &sl_irq.stop, .done = &sl_irq.done,
		.ms = SL_IRQ_MS,
	};
	unsigned long hits0 = kmalloc_cpu_busy_hits(), hits;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	memset(&sl_irq, 0, sizeof(sl_irq));
	if (!mm_irq_vs_task(&run, &sl_irq.cpu))
		return;
	hits = kmalloc_cpu_busy_hits() - hits0;
	ktap_diag("CPU %u: %lu task rounds, %lu interrupts of %u kmalloc()s or kfree()s each, %lu calls came inside a push or pop",
		  sl_irq.cpu, sl_irq.loops, sl_irq.calls, SL_IRQ_KEEP, hits);
	KTAP_EXPECT_MSG(!sl_irq.task_bad, "%lu of the task's objects changed while live (shared with an interrupt?)",
			sl_irq.task_bad);
	KTAP_EXPECT_MSG(!sl_irq.irq_bad, "%lu of the interrupts' objects changed while live (shared with the task?)",
			sl_irq.irq_bad);
	KTAP_EXPECT_MSG(!sl_irq.task_nulls && !sl_irq.irq_nulls, "allocations failed: task %lu, interrupts %lu",
			sl_irq.task_nulls, sl_irq.irq_nulls);
	KTAP_EXPECT_MSG(sl_irq.calls > 0 && sl_irq.loops > 0, "%lu interrupts, %lu task rounds",
			sl_irq.calls, sl_irq.loops);
}

/* --- a CPU going offline gives its cached objects back ----------------------------- */

#define SL_DEAD_SIZE	1000	/* the 1024-byte class: a cache of 8, little else uses it */
#define SL_DEAD_N	6

static struct {
	void *objs[SL_DEAD_N];
	struct completion done;
} sl_dead;

static int sl_dead_fn(void *unused)
{
	for (int i = 0; i < SL_DEAD_N; i++)
		sl_dead.objs[i] = kmalloc(SL_DEAD_SIZE, GFP_KERNEL);
	for (int i = 0; i < SL_DEAD_N; i++)
		kfree(sl_dead.objs[i]);	/* onto this CPU's cache */
	complete(&sl_dead.done);
	ktest_wait_stop();
	return 0;
}

static void slab_cpu_dead_drain(void)
{
	unsigned int victim = ktest_last_online_cpu(), before, after, back = 0;
	int ret;

	if (IS_ENABLED(CONFIG_KASAN)) {
		ktap_skip("KASAN: kfree() goes to its quarantine, not the CPU cache");
		return;
	}
	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || victim == 0) {
		ktap_skip("needs CPU hotplug and 2 CPUs");
		return;
	}
	memset(sl_dead.objs, 0, sizeof(sl_dead.objs));
	if (!sl_run_on_last_cpu(sl_dead_fn, &sl_dead.done, "slab_dead/%u", "allocating"))
		return;
	for (int i = 0; i < SL_DEAD_N; i++)
		if (!KTAP_EXPECT(sl_dead.objs[i]))
			return;
	before = kmalloc_cpu_cached(victim, SL_DEAD_SIZE);
	KTAP_EXPECT_MSG(before >= SL_DEAD_N, "CPU %u caches %u objects of the class after %d kfree()s",
			victim, before, SL_DEAD_N);
	ret = cpu_down(victim);
	if (!KTAP_EXPECT_MSG(ret == 0, "cpu_down(%u): %d", victim, ret))
		return;
	after = kmalloc_cpu_cached(victim, SL_DEAD_SIZE);
	for (int i = 0; i < SL_DEAD_N; i++)
		back += kmalloc_obj_back_in_page(sl_dead.objs[i]);
	ret = cpu_up(victim);
	ktap_diag("CPU %u cached %u objects of kmalloc-1024 going down, %u once dead; %u of its %d freed objects back in their pages",
		  victim, before, after, back, SL_DEAD_N);
	KTAP_EXPECT_MSG(!after, "CPU %u went down holding %u cached objects of kmalloc-1024", victim, after);
	/* Nothing else allocates this class meanwhile (boot self-tests run one at a time). */
	KTAP_EXPECT_MSG(back == SL_DEAD_N, "%u of %d objects cached by dead CPU %u back in their pages",
			back, SL_DEAD_N, victim);
	KTAP_EXPECT_MSG(ret == 0, "cpu_up(%u): %d", victim, ret);
}

static const struct ktap_case slab_cases[] = {
	KTAP_CASE(slab_cpu_cache_batches),
	KTAP_CASE(slab_cross_cpu),
	KTAP_CASE(slab_kfree_bulk),
	KTAP_CASE(slab_debug_poison),
	KTAP_CASE(slab_irq_vs_task),
	KTAP_CASE(slab_cpu_dead_drain),
};
KTAP_SUITE(slab, slab_cases, &mm_selftest);
