/*
 * Debug-objects self-tests: the KTAP suite "debugobjects", run at boot
 * with debug_objects.selftest=1 (CONFIG_DEBUG_OBJECTS_SELFTEST). They use
 * a type of their own ("odebug_test"), so the rcu_head tracking of the
 * running kernel goes on around them, and plant no bug: a report here is
 * a failure (the planted ones are rcu_debug_test='s, tests/boot/62).
 *
 *   debugobjects_transitions      init/activate/sub-state/deactivate/free
 *                                 and kfree() give the states they should
 *   debugobjects_cpus_distinct    threads on every CPU track their own
 *                                 objects at once: every state right, no
 *                                 report
 *   debugobjects_no_global_lock   while one CPU holds object X's bucket
 *                                 lock, another CPU activates, deactivates
 *                                 and kfree()s objects in other buckets:
 *                                 with one table lock it could not
 *   debugobjects_pool_batches     a CPU tracking 512 objects takes the
 *                                 entry pool's lock once per batch
 */
#define KPARAM_SUBSYS "debug_objects"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "../odebug.h"
#include <mm/slab.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/processor.h>
#include <time/time.h>
#include <sched/kthread.h>
#include <sched/completion.h>

static bool odebug_selftest;
KPARAM_BOOL("debug_objects.selftest", odebug_selftest,
	    "run the debug-objects self-tests (KTAP suite \"debugobjects\") at boot");

static const struct debug_obj_descr odt_descr = { .name = "odebug_test" };

/* --- one object through its states ------------------------------------------------- */

static void debugobjects_transitions(void)
{
	unsigned long reports = odebug_nr_reports();
	u8 *mem = kmalloc(64, GFP_KERNEL);

	if (!KTAP_EXPECT(mem))
		return;
	/* Annotated: kept (inactive) after deactivation, until freed. */
	debug_object_init(mem, &odt_descr);
	KTAP_EXPECT(odebug_state_of(mem) == ODEBUG_STATE_INIT);
	KTAP_EXPECT(debug_object_activate(mem, &odt_descr) == 0);
	KTAP_EXPECT(odebug_state_of(mem) == ODEBUG_STATE_ACTIVE);
	debug_object_active_state(mem, &odt_descr, 0, 1);
	debug_object_active_state(mem, &odt_descr, 1, 0);
	debug_object_deactivate(mem, &odt_descr);
	KTAP_EXPECT(odebug_state_of(mem) == ODEBUG_STATE_INACTIVE);
	debug_object_free(mem, &odt_descr);
	KTAP_EXPECT(odebug_state_of(mem) == ODEBUG_STATE_NONE);
	/* Not annotated: tracked only while active. */
	KTAP_EXPECT(debug_object_activate(mem + 8, &odt_descr) == 0);
	KTAP_EXPECT(odebug_state_of(mem + 8) == ODEBUG_STATE_ACTIVE);
	debug_object_deactivate(mem + 8, &odt_descr);
	KTAP_EXPECT(odebug_state_of(mem + 8) == ODEBUG_STATE_NONE);
	/* kfree() forgets an inactive object in its range. */
	debug_object_init(mem + 16, &odt_descr);
	KTAP_EXPECT(odebug_state_of(mem + 16) == ODEBUG_STATE_INIT);
	kfree(mem);
	KTAP_EXPECT(odebug_state_of(mem + 16) == ODEBUG_STATE_NONE);
	KTAP_EXPECT_MSG(odebug_nr_reports() == reports, "%lu reports made",
			odebug_nr_reports() - reports);
}

/* --- every CPU at once, each on its own objects ---------------------------------------- */

#define DC_NCPU		8
#define DC_NOBJ		64
#define DC_ROUNDS	32
#define DC_MIN_ROUNDS	4
#define DC_DEADLINE_NS	(3000 * NSEC_PER_MSEC)

struct dc_worker {
	u8 *objs[DC_NOBJ];
	unsigned int rounds, bad_ret, bad_state, nomem;
	struct completion done;
	struct task_struct *task;
};

static struct dc_worker dc_workers[DC_NCPU];
static u64 dc_deadline;

static void dc_expect(struct dc_worker *w, const void *addr, enum debug_obj_state want)
{
	if (odebug_state_of(addr) != want)
		w->bad_state++;
}

static int dc_worker_fn(void *arg)
{
	struct dc_worker *w = arg;
	unsigned int r;

	for (int i = 0; i < DC_NOBJ; i++)
		w->objs[i] = kmalloc(48, GFP_KERNEL);
	for (r = 0; r < DC_ROUNDS && (r < DC_MIN_ROUNDS || local_clock() < dc_deadline); r++) {
		for (int i = 0; i < DC_NOBJ; i++) {
			u8 *o = w->objs[i];
			bool annotate = (r + i) & 1;

			if (!o) {
				w->nomem++;
				continue;
			}
			if (annotate)
				debug_object_init(o, &odt_descr);
			if (debug_object_activate(o, &odt_descr))
				w->bad_ret++;
			dc_expect(w, o, ODEBUG_STATE_ACTIVE);
			debug_object_active_state(o, &odt_descr, 0, 1);
			debug_object_active_state(o, &odt_descr, 1, 0);
			debug_object_deactivate(o, &odt_descr);
			dc_expect(w, o, annotate ? ODEBUG_STATE_INACTIVE : ODEBUG_STATE_NONE);
			/* Every fourth round, a new object: kfree() must forget the old one. */
			if (r % 4 == 3) {
				kfree(o);
				w->objs[i] = kmalloc(48, GFP_KERNEL);
			} else if (annotate) {
				debug_object_free(o, &odt_descr);
			}
			if (w->objs[i])
				dc_expect(w, w->objs[i], ODEBUG_STATE_NONE);
		}
	}
	w->rounds = r;
	for (int i = 0; i < DC_NOBJ; i++)
		kfree(w->objs[i]);
	complete(&w->done);
	ktest_wait_stop();
	return 0;
}

static void debugobjects_cpus_distinct(void)
{
	unsigned long reports = odebug_nr_reports();
	unsigned int online = num_online_cpus(), nw = 0, cpu;
	bool ok = true;

	if (online < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	dc_deadline = local_clock() + DC_DEADLINE_NS;
	for_each_online_cpu(cpu) {
		if (nw >= DC_NCPU)
			break;
		dc_workers[nw] = (struct dc_worker){ };
		init_completion(&dc_workers[nw].done);
		dc_workers[nw].task = ktest_kthread(dc_worker_fn, &dc_workers[nw], cpu, "odebug_dc/%u");
		if (!dc_workers[nw].task)
			return;		/* reported; earlier workers leak (not woken) */
		nw++;
	}
	for (unsigned int k = 0; k < nw; k++)
		wake_up_process(dc_workers[k].task);
	for (unsigned int k = 0; k < nw; k++) {
		struct dc_worker *w = &dc_workers[k];
		bool done = ktest_wait(&w->done, 60000);

		ok &= done;
		KTAP_EXPECT_MSG(done, "worker %u did not finish", k);
		if (!done)
			continue;
		KTAP_EXPECT_MSG(!w->bad_ret && !w->bad_state && !w->nomem,
				"worker %u: %u refused activations, %u wrong states, %u failed kmallocs",
				k, w->bad_ret, w->bad_state, w->nomem);
		ktap_diag("worker %u: %u rounds of %u objects", k, w->rounds, DC_NOBJ);
	}
	KTAP_EXPECT_MSG(odebug_nr_reports() == reports, "%lu reports made",
			odebug_nr_reports() - reports);
	for (unsigned int k = 0; k < nw; k++)
		ktest_stop_if(dc_workers[k].task, ok, 5000);
}

/* --- no global lock: work on other buckets goes on while one is held ------------------- */

#define NL_HOLD_NS	(2000 * NSEC_PER_MSEC)	/* how long the holder waits, at most */

static u8 nl_mem[16 << ODEBUG_CHUNK_SHIFT] __aligned(1 << ODEBUG_CHUNK_SHIFT);

static struct {
	void *x, *y;
	bool held, worker_done, done_while_held, bad;
	u64 wait_ns;
	struct completion holder_done, worker_finished;
} nl;

/* CPU A: hold X's bucket lock, interrupts off, until the worker is done or NL_HOLD_NS. */
static int nl_holder_fn(void *unused)
{
	raw_spinlock_t *lock = odebug_lock_of(nl.x);
	unsigned long flags;
	u64 t0;

	raw_spin_lock_irqsave(lock, flags);
	WRITE_ONCE(nl.held, true);
	t0 = local_clock();
	while (!READ_ONCE(nl.worker_done) && local_clock() - t0 < NL_HOLD_NS)
		cpu_relax();
	nl.done_while_held = READ_ONCE(nl.worker_done);
	nl.wait_ns = local_clock() - t0;
	raw_spin_unlock_irqrestore(lock, flags);
	complete(&nl.holder_done);
	ktest_wait_stop();
	return 0;
}

/* CPU B: once X's bucket is held, a tracked object's life and a kfree() in other buckets. */
static int nl_worker_fn(void *unused)
{
	unsigned int held = odebug_hash_index(nl.x);
	void *tmp;

	/* Allocated before the hold (kmalloc may sleep); another bucket than X's. */
	do
		tmp = kmalloc(32, GFP_KERNEL);
	while (tmp && odebug_hash_index(tmp) == held && (kfree(tmp), true));
	while (!READ_ONCE(nl.held))
		cpu_relax();
	debug_object_init(nl.y, &odt_descr);
	if (debug_object_activate(nl.y, &odt_descr))
		nl.bad = true;
	debug_object_active_state(nl.y, &odt_descr, 0, 1);
	debug_object_active_state(nl.y, &odt_descr, 1, 0);
	debug_object_deactivate(nl.y, &odt_descr);
	debug_object_free(nl.y, &odt_descr);
	kfree(tmp);
	WRITE_ONCE(nl.worker_done, true);
	complete(&nl.worker_finished);
	ktest_wait_stop();
	return 0;
}

static void debugobjects_no_global_lock(void)
{
	unsigned long reports = odebug_nr_reports();
	unsigned int a = 0, b = ktest_last_online_cpu();
	struct task_struct *holder, *worker;
	bool hd, wd;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	nl = (typeof(nl)){ .x = nl_mem };
	init_completion(&nl.holder_done);
	init_completion(&nl.worker_finished);
	/* Y: the first chunk of nl_mem whose bucket is not X's. */
	for (unsigned int i = 1; i < 16 && !nl.y; i++)
		if (odebug_hash_index(nl_mem + (i << ODEBUG_CHUNK_SHIFT)) != odebug_hash_index(nl.x))
			nl.y = nl_mem + (i << ODEBUG_CHUNK_SHIFT);
	if (!KTAP_EXPECT(nl.y))
		return;
	worker = ktest_kthread(nl_worker_fn, NULL, b, "odebug_nl_w/%u");
	holder = ktest_kthread(nl_holder_fn, NULL, a, "odebug_nl_h/%u");
	if (!worker || !holder)
		return;
	wake_up_process(worker);
	wake_up_process(holder);
	hd = ktest_wait(&nl.holder_done, 30000);
	wd = ktest_wait(&nl.worker_finished, 30000);
	KTAP_EXPECT_MSG(hd && wd, "holder %s, worker %s", hd ? "done" : "stuck", wd ? "done" : "stuck");
	if (hd && wd) {
		KTAP_EXPECT_MSG(nl.done_while_held,
				"the worker on CPU %u waited for the lock of another object's bucket, held %llu ms on CPU %u",
				b, nl.wait_ns / NSEC_PER_MSEC, a);
		KTAP_EXPECT(!nl.bad);
		KTAP_EXPECT(odebug_state_of(nl.y) == ODEBUG_STATE_NONE);
		if (nl.done_while_held)
			ktap_diag("CPU %u held X's bucket lock %llu us, until the worker on CPU %u was done",
				  a, nl.wait_ns / 1000, b);
	}
	KTAP_EXPECT_MSG(odebug_nr_reports() == reports, "%lu reports made",
			odebug_nr_reports() - reports);
	ktest_stop_if(holder, hd, 5000);
	ktest_stop_if(worker, wd, 5000);
}

/* --- the entry pool: a lock trip per batch, not per object ----------------------------- */

#define PB_NOBJ		512

static struct {
	unsigned long takes;
	unsigned int bad;
	struct completion done;
} pb;

static int pb_fn(void *unused)
{
	static u8 mem[PB_NOBJ * 16] __aligned(16);
	unsigned long t0 = odebug_pool_lock_takes();

	/* All active at once, then all inactive: the CPU's cache empties and fills many times. */
	for (int i = 0; i < PB_NOBJ; i++)
		pb.bad += debug_object_activate(mem + i * 16, &odt_descr) != 0;
	for (int i = 0; i < PB_NOBJ; i++)
		debug_object_deactivate(mem + i * 16, &odt_descr);
	pb.takes = odebug_pool_lock_takes() - t0;
	complete(&pb.done);
	ktest_wait_stop();
	return 0;
}

static void debugobjects_pool_batches(void)
{
	unsigned int calls = 2 * PB_NOBJ;
	struct task_struct *t;
	bool done;

	pb = (typeof(pb)){ };
	init_completion(&pb.done);
	t = ktest_kthread(pb_fn, NULL, ktest_last_online_cpu(), "odebug_pb/%u");
	if (!t)
		return;
	wake_up_process(t);
	done = ktest_wait(&pb.done, 30000);
	KTAP_EXPECT_MSG(done, "the tracking thread did not finish");
	if (done) {
		KTAP_EXPECT(!pb.bad);
		/* 16 entries per batch: 1024 calls need about 64 trips; other CPUs' add a few. */
		KTAP_EXPECT_MSG(pb.takes <= calls / 8, "pool lock taken %lu times for %u calls",
				pb.takes, calls);
		ktap_diag("%u activate/deactivate calls on CPU %u took the pool lock %lu times",
			  calls, ktest_last_online_cpu(), pb.takes);
	}
	ktest_stop_if(t, done, 5000);
}

static const struct ktap_case odebug_cases[] = {
	KTAP_CASE(debugobjects_transitions),
	KTAP_CASE(debugobjects_cpus_distinct),
	KTAP_CASE(debugobjects_no_global_lock),
	KTAP_CASE(debugobjects_pool_batches),
};
KTAP_SUITE(debugobjects, odebug_cases, &odebug_selftest);
