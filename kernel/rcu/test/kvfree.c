/*
 * KTAP suite "rcu_kvfree" (Tree RCU, rcutree.kvfree_selftest=1): Tree
 * RCU's kvfree_rcu() batching (kernel/rcu/kvfree.c) seen from outside.
 *
 *  - kvfree_after_gp: reader kthreads on other CPUs each hold one object
 *    in a read-side critical section for KV_HOLD_MS while this thread
 *    kfree_rcu()s or kvfree_rcu()s (headless) them, with enough others
 *    to fill a block (the monitor hands it on at the next jiffy). A
 *    reader checks its object's magic word all along: a free before the
 *    grace period shows as POISON_FREE. Afterwards every object is freed.
 *  - kvfree_no_memory: block allocations made to fail
 *    (kvfree_rcu_test_fail_alloc()) with the spare blocks given back
 *    through the shrinker: kfree_rcu() falls back to the rcu_head list,
 *    the headless kvfree_rcu() waits for a grace period itself and frees;
 *    a reader on another CPU holds both objects meanwhile and must never
 *    see either freed; nothing is lost.
 *  - kvfree_hotplug: a CPU queues kfree_rcu()s and goes offline while a
 *    reader elsewhere holds one of the objects: the dead CPU's batch is
 *    still handed to a grace period and freed, without kvfree_rcu_barrier(),
 *    and the reader never sees its object freed.
 *  - kvfree_irq_vs_task: a task on one CPU kfree_rcu()s objects in a
 *    loop (mostly the lockless add, krc_add_fast()) while cross-calls
 *    from another CPU kfree_rcu() more on that CPU in interrupts, some of
 *    which land inside the task's add. Every object is first published in
 *    a slot that a reader on a third CPU reads, stamped uniquely: a reader
 *    that sees a stamp change or go bad inside its read-side critical
 *    section saw the object freed (and maybe reused) too early. After
 *    kvfree_rcu_barrier(), every object queued must have been freed: an
 *    interrupt that wrote into the task's block under it loses objects.
 * Takes about a second and a half (up to four on a loaded host); every wait
 * is bounded.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "common.h"
#include "../kvfree.h"
#include <mm/shrinker.h>
#include <kernel/param.h>
#include <kernel/cpu.h>
#include <kernel/smp.h>

static bool rcu_kvfree_selftest;
KPARAM_BOOL("rcutree.kvfree_selftest", rcu_kvfree_selftest,
	    "run the kvfree_rcu() self-tests (KTAP suite \"rcu_kvfree\") at boot");

#define KV_MAGIC	0x6b766672656531UL	/* never POISON_FREE's pattern */
#define KV_HOLD_MS	100	/* a reader's hold: five KFREE_DRAIN_JIFFIES at HZ=1000 */
#define KV_EXTRA	1200	/* objects that fill blocks meanwhile (> 2 * KVFREE_BULK_MAX_ENTR) */
#define KV_HP_N		100	/* objects queued by the CPU that goes offline (< one block) */
#define KV_WAIT_MS	10000

struct kv_obj {
	unsigned long magic;
	unsigned long pad[5];
	struct rcu_head rh;
};

struct kv_reader {
	struct kv_obj __rcu *slot;	/* the object, until the updater unpublishes it */
	struct kv_obj __rcu *slot2;	/* a second one, or NULL */
	unsigned int hold_ms;
	struct completion started, done;
	unsigned long reads, bad, seen;	/* seen: the first bad word */
	struct task_struct *t;
};

static int kv_reader_fn(void *arg)
{
	struct kv_reader *r = arg;
	struct kv_obj *p, *p2;
	u64 end;

	rcu_read_lock();
	p = rcu_dereference(r->slot);
	p2 = rcu_dereference(r->slot2);
	complete(&r->started);
	end = local_clock() + (u64)r->hold_ms * 1000000;
	while (p && local_clock() < end) {
		unsigned long m = READ_ONCE(p->magic);

		if (p2 && m == KV_MAGIC)
			m = READ_ONCE(p2->magic);
		if (m != KV_MAGIC && !r->bad++)
			r->seen = m;
		r->reads++;
		cpu_relax();
	}
	rcu_read_unlock();
	complete(&r->done);
	ktest_wait_stop();
	return 0;
}

static struct kv_obj *kv_alloc(void)
{
	struct kv_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	if (o)
		o->magic = KV_MAGIC;
	return o;
}

/* Start a reader on cpu holding o (and o2 unless NULL); NULL (reported) on failure. */
static struct kv_reader *kv_reader_start2(unsigned int cpu, struct kv_obj *o, struct kv_obj *o2,
					  unsigned int hold_ms)
{
	struct kv_reader *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!KTAP_EXPECT_MSG(r != NULL, "no memory for a reader"))
		return NULL;
	RCU_INIT_POINTER(r->slot, o);
	RCU_INIT_POINTER(r->slot2, o2);
	r->hold_ms = hold_ms;
	init_completion(&r->started);
	init_completion(&r->done);
	r->t = ktest_kthread(kv_reader_fn, r, cpu, "kv_reader/%u");
	if (!r->t) {
		kfree(r);
		return NULL;
	}
	wake_up_process(r->t);
	KTAP_EXPECT_MSG(ktest_wait(&r->started, KV_WAIT_MS), "reader on CPU %u did not start", cpu);
	return r;
}

static struct kv_reader *kv_reader_start(unsigned int cpu, struct kv_obj *o, unsigned int hold_ms)
{
	return kv_reader_start2(cpu, o, NULL, hold_ms);
}

/* Wait for r's hold to end, check it never saw its object freed, stop and free it. */
static void kv_reader_finish(struct kv_reader *r, unsigned int cpu)
{
	bool done = ktest_wait(&r->done, KV_WAIT_MS);

	KTAP_EXPECT_MSG(done, "reader on CPU %u still holding after %u ms", cpu, KV_WAIT_MS);
	KTAP_EXPECT_MSG(r->bad == 0,
			"reader on CPU %u saw its object freed inside its read-side critical section: %lu of %lu reads, word %#lx",
			cpu, r->bad, r->reads, r->seen);
	ktest_stop_if(r->t, done, 5000);
	if (done)
		kfree(r);
}

static int kv_do_barrier(void *unused)
{
	kvfree_rcu_barrier();
	return 0;
}

static bool kv_barrier(void)
{
	return rst_call(kv_do_barrier, NULL, RST_GP_MS, "kvfree_rcu_barrier()", NULL);
}

/* --- freed only after a grace period ------------------------------------------------------ */

static void kvfree_after_gp(void)
{
	struct kv_reader *r[4] = { NULL };
	struct kv_obj *held[4] = { NULL };
	unsigned int rcpu[4];
	struct kvfree_rcu_stats a, b;
	unsigned int nr = 0, last = ktest_last_online_cpu(), freed = 0;
	struct cpumask saved;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs (readers run beside the updater)");
		return;
	}
	ktest_pin_current(0, &saved);
	kvfree_rcu_stats(&a);
	for (unsigned int cpu = 1; cpu <= last && nr < 3; cpu++) {
		if (!cpu_online(cpu))
			continue;
		held[nr] = kv_alloc();
		if (!KTAP_EXPECT(held[nr] != NULL))
			break;
		r[nr] = kv_reader_start(cpu, held[nr], KV_HOLD_MS);
		if (!r[nr]) {
			kfree(held[nr]);
			break;
		}
		rcpu[nr++] = cpu;
	}
	/* Unpublish, then free: two-argument and headless forms in turn. */
	for (unsigned int i = 0; i < nr; i++) {
		rcu_assign_pointer(r[i]->slot, NULL);
		if (i % 2)
			kvfree_rcu(held[i]);
		else
			kfree_rcu(held[i], rh);
		freed++;
	}
	for (unsigned int i = 0; i < KV_EXTRA; i++) {
		struct kv_obj *o = kv_alloc();

		if (!o)
			break;
		kfree_rcu(o, rh);
		freed++;
	}
	for (unsigned int i = 0; i < nr; i++)
		kv_reader_finish(r[i], rcpu[i]);
	ktest_unpin_current(&saved);
	if (!kv_barrier())
		return;
	kvfree_rcu_stats(&b);
	ktap_diag("%u readers, %u objects: batches %lu (%lu at once), pages %lu, freed %lu",
		  nr, freed, b.batches - a.batches, b.batches_polled - a.batches_polled,
		  b.pages - a.pages, b.objs - a.objs);
	KTAP_EXPECT_MSG(b.objs - a.objs >= freed, "%lu objects freed of %u", b.objs - a.objs, freed);
	KTAP_EXPECT(b.batches > a.batches);
}

/* --- no memory: the rcu_head fallback and the headless form's own wait -------------------------- */

struct kv_headless {
	struct kv_obj *o;
	unsigned long cookie;
};

static int kv_do_headless(void *arg)
{
	struct kv_headless *h = arg;

	h->cookie = get_state_synchronize_rcu();
	kvfree_rcu(h->o);
	return poll_state_synchronize_rcu(h->cookie);
}

static void kvfree_no_memory(void)
{
	struct kvfree_rcu_stats a, b, c;
	struct kv_headless h = { 0 };
	struct kv_reader *r = NULL;
	struct cpumask saved;
	struct kv_obj *o;
	unsigned long shrunk;
	int done_gp = 0;
	u64 ns = 0;
	bool ok;

	/* Nothing collected anywhere, then every spare block given back. */
	if (!kv_barrier())
		return;
	kvfree_rcu_stats(&a);
	shrunk = shrink_all();
	kvfree_rcu_stats(&b);
	ktap_diag("shrinker: %lu pages given back (%lu spare blocks before, %lu after)", shrunk,
		  a.cached, b.cached);
	KTAP_EXPECT_MSG(b.cached == 0, "%lu spare blocks left after shrink_all()", b.cached);
	KTAP_EXPECT(b.shrunk - a.shrunk >= a.cached);

	o = kv_alloc();
	h.o = kv_alloc();
	if (!KTAP_EXPECT(o != NULL && h.o != NULL)) {
		kfree(o);
		kfree(h.o);
		return;
	}
	/*
	 * A reader elsewhere holds both objects: the fallback one may go only
	 * after a grace period, and the headless kvfree_rcu() must wait for
	 * it. This thread stays on CPU 0 so that it runs while the reader
	 * spins (with it on the reader's CPU, the reader would be done first).
	 */
	ktest_pin_current(0, &saved);
	if (num_online_cpus() >= 2)
		r = kv_reader_start2(ktest_last_online_cpu(), h.o, o, KV_HOLD_MS);
	if (r) {
		rcu_assign_pointer(r->slot, NULL);
		rcu_assign_pointer(r->slot2, NULL);
	}
	kvfree_rcu_test_fail_alloc(true);
	kfree_rcu(o, rh);	/* no block to be had: the rcu_head carries it */
	ok = ktest_call_timeout("kv_headless", 0, kv_do_headless, &h, KV_WAIT_MS, &done_gp, &ns);
	kvfree_rcu_test_fail_alloc(false);
	KTAP_EXPECT_MSG(ok, "headless kvfree_rcu() did not return within %u ms", KV_WAIT_MS);
	KTAP_EXPECT_MSG(!ok || done_gp, "headless kvfree_rcu() returned before a grace period");
	if (r) {
		KTAP_EXPECT_MSG(completion_done(&r->done),
				"headless kvfree_rcu() returned while a reader still held its object");
		kv_reader_finish(r, ktest_last_online_cpu());
	}
	ktest_unpin_current(&saved);
	if (!kv_barrier())
		return;
	kvfree_rcu_stats(&c);
	ktap_diag("no memory: fallbacks %lu, headless synchronous %lu (%llu us), freed by rcu_head %lu",
		  c.fallbacks - b.fallbacks, c.headless_sync - b.headless_sync,
		  (unsigned long long)(ns / 1000), c.objs_head - b.objs_head);
	KTAP_EXPECT_MSG(c.fallbacks > b.fallbacks, "kfree_rcu() without a block did not fall back");
	KTAP_EXPECT_MSG(c.headless_sync > b.headless_sync,
			"headless kvfree_rcu() without a block did not wait for a grace period");
	KTAP_EXPECT_MSG(c.objs_head > b.objs_head, "the fallback object was not freed");
}

/* --- a CPU goes offline holding a batch ------------------------------------------------------ */

struct kv_hp {
	struct kv_obj *objs[KV_HP_N];
	struct completion done;
};

static int kv_hp_worker(void *arg)
{
	struct kv_hp *w = arg;

	for (int i = 0; i < KV_HP_N; i++)
		kfree_rcu(w->objs[i], rh);
	complete(&w->done);
	ktest_wait_stop();
	return 0;
}

static void kvfree_hotplug(void)
{
	unsigned int victim = ktest_last_online_cpu(), rcpu = 1;
	struct kvfree_rcu_stats a, b;
	unsigned long pending = 0;
	struct kv_reader *r = NULL;
	struct task_struct *t;
	struct cpumask saved;
	struct kv_hp *w;
	int i;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 3) {
		ktap_skip("needs CPU hotplug and 3 CPUs (updater, reader, the CPU that goes)");
		return;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!KTAP_EXPECT(w != NULL))
		return;
	for (i = 0; i < KV_HP_N; i++)
		if (!KTAP_EXPECT((w->objs[i] = kv_alloc()) != NULL))
			goto out_free;
	init_completion(&w->done);
	ktest_pin_current(0, &saved);
	kvfree_rcu_stats(&a);
	/* Long enough to outlast cpu_down() under TCG: the batch's grace period waits for it. */
	r = kv_reader_start(rcpu, w->objs[0], 3 * KV_HOLD_MS);
	if (!r)
		goto out_unpin;
	rcu_assign_pointer(r->slot, NULL);
	t = ktest_kthread(kv_hp_worker, w, victim, "kv_hp/%u");
	if (!t)
		goto out_reader;
	wake_up_process(t);
	if (!KTAP_EXPECT_MSG(ktest_wait(&w->done, KV_WAIT_MS), "CPU %u did not queue", victim)) {
		ktest_stop_if(t, false, 0);
		goto out_reader;
	}
	ktest_stop(t, 5000, NULL);
	pending = kvfree_rcu_cpu_pending(victim);
	KTAP_EXPECT_MSG(pending > 0, "CPU %u holds nothing before going offline", victim);
	if (!KTAP_EXPECT_MSG(cpu_down(victim) == 0, "CPU %u did not go offline", victim))
		goto out_reader;
	/* No kvfree_rcu_barrier(): the dead CPU's monitor must hand the batch on by itself. */
	for (i = 0; i < 500 && kvfree_rcu_cpu_pending(victim); i++)
		msleep(10);
	KTAP_EXPECT_MSG(!kvfree_rcu_cpu_pending(victim),
			"offline CPU %u still holds %lu objects or batches after 5 s", victim,
			kvfree_rcu_cpu_pending(victim));
	KTAP_EXPECT_MSG(cpu_up(victim) == 0, "CPU %u did not come back", victim);
out_reader:
	kv_reader_finish(r, rcpu);
	kvfree_rcu_stats(&b);
	ktap_diag("CPU %u went offline holding %lu (objects + batches): freed %lu objects meanwhile",
		  victim, pending, b.objs - a.objs);
	KTAP_EXPECT_MSG(b.objs - a.objs >= KV_HP_N, "%lu objects freed of %d", b.objs - a.objs,
			KV_HP_N);
out_unpin:
	ktest_unpin_current(&saved);
	kfree(w);
	return;
out_free:
	while (--i >= 0)
		kfree(w->objs[i]);
	kfree(w);
}

/* --- interrupts against the task's lockless add on one CPU ---------------------------------- */

#define KV_IRQ_MS	400	/* how long the task loops at least */
#define KV_IRQ_MAX_MS	3000	/* and at most */
#define KV_IRQ_HITS	10	/* cross-calls inside the task's add wanted before it stops */
#define KV_IRQ_PER_CALL	4	/* objects each cross-call frees */
#define KV_SLOTS	4	/* published objects per side (task, interrupts) */
#define KV_STAMP_HI	0x6b766972UL	/* stamps: this in the high half, a serial in the low */

static struct {
	unsigned int cpu;
	bool stop;
	struct completion done;
	struct kv_obj __rcu *slot[2][KV_SLOTS];	/* [0] the task's, [1] the interrupts' */
	unsigned long serial[2];		/* each side's own: one writer each */
	unsigned long queued[2], nulls[2], calls;
	/* the reader's */
	struct completion rdone;
	unsigned long reads, bad, seen;
} kv_irq;

static struct kv_obj *kv_irq_new(int side, gfp_t gfp)
{
	struct kv_obj *o = kmalloc(sizeof(*o), gfp);

	if (!o) {
		kv_irq.nulls[side]++;
		return NULL;
	}
	o->magic = (KV_STAMP_HI << 32) | (u32)(++kv_irq.serial[side] * 2 + side);
	return o;
}

/* Publish a new object in side's slot i, and kfree_rcu() the one it replaces. */
static void kv_irq_step(int side, unsigned int i, gfp_t gfp)
{
	struct kv_obj *o = kv_irq_new(side, gfp), *old;

	old = rcu_dereference_protected(kv_irq.slot[side][i], 1);
	rcu_assign_pointer(kv_irq.slot[side][i], o);
	if (old) {
		kfree_rcu(old, rh);
		kv_irq.queued[side]++;
	}
}

static void kv_irq_fn(void *unused)
{
	unsigned int i = kv_irq.calls++;

	for (unsigned int k = 0; k < KV_IRQ_PER_CALL; k++)
		kv_irq_step(1, (i + k) % KV_SLOTS, GFP_ATOMIC);
}

/* The slots' last objects go too, in the same way (on the task's CPU, for the interrupts'). */
static void kv_irq_release(void *side)
{
	for (unsigned int i = 0; i < KV_SLOTS; i++) {
		struct kv_obj *old = rcu_dereference_protected(kv_irq.slot[(long)side][i], 1);

		RCU_INIT_POINTER(kv_irq.slot[(long)side][i], NULL);
		if (old) {
			kfree_rcu(old, rh);
			kv_irq.queued[(long)side]++;
		}
	}
}

static int kv_irq_task_fn(void *unused)
{
	unsigned long loops = 0;

	while (!READ_ONCE(kv_irq.stop)) {
		kv_irq_step(0, loops % KV_SLOTS, GFP_KERNEL);
		if (!(++loops % 4096))
			cond_resched();
	}
	kv_irq_release((void *)0);
	complete(&kv_irq.done);
	ktest_wait_stop();
	return 0;
}

/* Each read-side critical section reads every slot's object for a while: its stamp must hold. */
static int kv_irq_reader_fn(void *unused)
{
	while (!READ_ONCE(kv_irq.stop)) {
		struct kv_obj *p[2 * KV_SLOTS];
		unsigned long first[2 * KV_SLOTS];

		rcu_read_lock();
		for (unsigned int j = 0; j < 2 * KV_SLOTS; j++) {
			p[j] = rcu_dereference(kv_irq.slot[j / KV_SLOTS][j % KV_SLOTS]);
			first[j] = p[j] ? READ_ONCE(p[j]->magic) : 0;
		}
		for (int spin = 0; spin < 50; spin++) {
			for (unsigned int j = 0; j < 2 * KV_SLOTS; j++) {
				unsigned long m;

				if (!p[j])
					continue;
				m = READ_ONCE(p[j]->magic);
				if ((m != first[j] || (m >> 32) != KV_STAMP_HI) && !kv_irq.bad++)
					kv_irq.seen = m;
				kv_irq.reads++;
			}
			/* Not cpu_relax(): under TCG a PAUSE leaves the vCPU's loop and slows this to a crawl. */
			barrier();
		}
		rcu_read_unlock();
		cond_resched();
	}
	complete(&kv_irq.rdone);
	ktest_wait_stop();
	return 0;
}

static void kvfree_irq_vs_task(void)
{
	struct task_struct *t, *r;
	struct kvfree_rcu_stats a, b;
	unsigned long queued;
	struct cpumask saved;
	bool ok, rok;
	u64 start;

	if (num_online_cpus() < 3) {
		ktap_skip("needs 3 CPUs (this thread's cross-calls, the task, a reader)");
		return;
	}
	if (!kv_barrier())
		return;
	memset(&kv_irq, 0, sizeof(kv_irq));
	kv_irq.cpu = ktest_last_online_cpu();
	init_completion(&kv_irq.done);
	init_completion(&kv_irq.rdone);
	kvfree_rcu_stats(&a);
	r = ktest_kthread(kv_irq_reader_fn, NULL, 1, "kv_irq_rd/%u");
	if (!r)
		return;
	t = ktest_kthread(kv_irq_task_fn, NULL, kv_irq.cpu, "kv_irq/%u");
	if (!t) {
		WRITE_ONCE(kv_irq.stop, true);
		wake_up_process(r);
		ktest_wait(&kv_irq.rdone, KV_WAIT_MS);
		ktest_stop(r, 5000, NULL);
		return;
	}
	ktest_pin_current(0, &saved);	/* off the task's CPU, so the calls are interrupts there */
	wake_up_process(r);
	wake_up_process(t);
	/*
	 * KV_IRQ_MS at least; longer (up to KV_IRQ_MAX_MS) until KV_IRQ_HITS
	 * calls came inside the task's add: on a loaded host a call may take
	 * a millisecond, and about one in twenty lands inside.
	 */
	start = local_clock();
	for (;;) {
		u64 ms = (local_clock() - start) / 1000000;

		if (ms >= KV_IRQ_MAX_MS)
			break;
		if (ms >= KV_IRQ_MS && !(kv_irq.calls % 64)) {
			kvfree_rcu_stats(&b);
			if (b.fast_hits - a.fast_hits >= KV_IRQ_HITS)
				break;
		}
		if (smp_call_function_single(kv_irq.cpu, kv_irq_fn, NULL, 1))
			break;
		cond_resched();
	}
	WRITE_ONCE(kv_irq.stop, true);
	ok = KTAP_EXPECT_MSG(ktest_wait(&kv_irq.done, 20000), "the task on CPU %u did not finish",
			     kv_irq.cpu);
	rok = KTAP_EXPECT_MSG(ktest_wait(&kv_irq.rdone, KV_WAIT_MS), "the reader did not finish");
	ktest_unpin_current(&saved);
	ktest_stop_if(r, rok, 5000);
	if (!ok) {
		ktest_stop_if(t, false, 0);
		return;
	}
	smp_call_function_single(kv_irq.cpu, kv_irq_release, (void *)1, 1);
	ktest_stop(t, 5000, NULL);
	if (!kv_barrier())
		return;
	kvfree_rcu_stats(&b);
	queued = kv_irq.queued[0] + kv_irq.queued[1];
	ktap_diag("CPU %u: task queued %lu, %lu cross-calls queued %lu, %lu of them inside a lockless add; reader: %lu reads; freed %lu, monitor put off %lu",
		  kv_irq.cpu, kv_irq.queued[0], kv_irq.calls, kv_irq.queued[1],
		  b.fast_hits - a.fast_hits, kv_irq.reads, b.objs - a.objs,
		  b.monitor_retries - a.monitor_retries);
	KTAP_EXPECT_MSG(!kv_irq.nulls[0] && !kv_irq.nulls[1], "kmalloc() failed %lu times (task), %lu (interrupts)",
			kv_irq.nulls[0], kv_irq.nulls[1]);
	KTAP_EXPECT_MSG(kv_irq.bad == 0,
			"the reader saw an object freed inside its read-side critical section: %lu of %lu reads, word %#lx",
			kv_irq.bad, kv_irq.reads, kv_irq.seen);
	/* Anything else freed meanwhile only adds: fewer than queued is a loss. */
	KTAP_EXPECT_MSG(b.objs - a.objs >= queued, "%lu objects freed of %lu queued (%lu lost?)",
			b.objs - a.objs, queued, queued - (b.objs - a.objs));
	KTAP_EXPECT_MSG(b.fast_hits > a.fast_hits,
			"none of %lu cross-calls came inside a lockless add: the case tested nothing",
			kv_irq.calls);
}

static const struct ktap_case rcu_kvfree_cases[] = {
	KTAP_CASE(kvfree_after_gp),
	KTAP_CASE(kvfree_no_memory),
	KTAP_CASE(kvfree_hotplug),
	KTAP_CASE(kvfree_irq_vs_task),
};
KTAP_SUITE(rcu_kvfree, rcu_kvfree_cases, &rcu_kvfree_selftest);
