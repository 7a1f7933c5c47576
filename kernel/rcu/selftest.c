/*
 * RCU self-tests (Tree and Tiny RCU): the KTAP suite "rcu", run after the
 * initcalls when the command line says rcutree.selftest=1 (our own
 * test-only parameter). It checks the update-side API from the outside:
 * synchronize_rcu(), call_rcu() on every CPU, rcu_barrier(), the polling API, kfree_rcu(), the
 * <rcu/rculist.h> primitives, an RCU-protected list updated under
 * concurrent readers with poisoned frees, and dyntick-idle credit for idle
 * CPUs.
 *
 * Every wait is bounded: a blocking call runs in a helper kthread that the
 * case waits for with a timeout (rst_call()), so a broken grace period
 * reports a failure instead of hanging the boot. Memory that a stuck
 * callback or thread might still touch is leaked on failure, never freed.
 *
 * Worker threads follow one shape (as in kernel/sched/selftest.c): do the
 * work, signal a completion, then sleep until kthread_stop().
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <rcu/rcupdate.h>
#include <rcu/rculist.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <kernel/ktap.h>
#include <kernel/param.h>
#include <kernel/smp.h>
#include <kernel/irq.h>
#include <kernel/time.h>
#include <kernel/delay.h>
#include <kernel/atomic.h>
#include <kernel/slab.h>
#include <kernel/mm.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <asm/barrier.h>

bool rcu_selftest;	/* also gates exp_selftest.c */
KPARAM_BOOL("rcutree.selftest", rcu_selftest,
	    "run the RCU self-tests (KTAP suite \"rcu\") at boot");

/* Budgets. Generous: under TCG, and with busy CPUs a grace period waits ~100 ms for cond_resched(). */
#define RST_GP_MS	10000	/* one synchronize_rcu() or rcu_barrier() */
#define RST_START_MS	5000	/* per-CPU workers finish their (short) job */
#define RST_STOP_MS	5000	/* kthread_stop() returns */
#define RST_LIST_MS	1500	/* update phase of the list test */

/* --- helpers ------------------------------------------------------------------- */

static bool rst_wait(struct completion *c, unsigned int ms)
{
	return wait_for_completion_timeout(c, msecs_to_jiffies(ms)) != 0;
}

/* A worker's last step: sleep until kthread_stop(). */
static void rst_wait_stop(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Run fn(arg) in a helper kthread and wait at most ms for it. The record
 * is freed by whichever side lets go last, so a helper stuck in the call
 * under test never touches freed memory. Reports a failure on timeout.
 */
struct rst_call {
	int (*fn)(void *arg);
	void *arg;
	u64 ns;			/* time fn took */
	atomic_t refs;
	struct completion done;
};

static void rst_call_put(struct rst_call *c)
{
	if (atomic_dec_and_test(&c->refs))
		kfree(c);
}

static int rst_call_thread(void *data)
{
	struct rst_call *c = data;
	u64 t0 = local_clock();

	c->fn(c->arg);
	c->ns = local_clock() - t0;
	complete(&c->done);
	rst_call_put(c);
	return 0;
}

/* Returns false (and fails the case) if fn did not return in time; *ns: its duration. */
static bool rst_call(int (*fn)(void *), void *arg, unsigned int ms, const char *what, u64 *ns)
{
	struct rst_call *c = kzalloc(sizeof(*c), GFP_KERNEL);
	struct task_struct *p;
	bool ok;

	if (!KTAP_EXPECT_MSG(c != NULL, "cannot allocate a call record for %s", what))
		return false;
	c->fn = fn;
	c->arg = arg;
	atomic_set(&c->refs, 2);
	init_completion(&c->done);
	p = kthread_create(rst_call_thread, c, "rcu_st_call");
	if (!KTAP_EXPECT_MSG(p != NULL, "cannot create a helper for %s", what)) {
		kfree(c);
		return false;
	}
	wake_up_process(p);
	ok = rst_wait(&c->done, ms);
	KTAP_EXPECT_MSG(ok, "%s did not return within %u ms", what, ms);
	if (ok && ns)
		*ns = c->ns;
	rst_call_put(c);
	return ok;
}

static int rst_do_sync(void *unused) { synchronize_rcu(); return 0; }
static int rst_do_barrier(void *unused) { rcu_barrier(); return 0; }
static int rst_do_cond_sync(void *cookie) { cond_synchronize_rcu((unsigned long)cookie); return 0; }
static int rst_do_stop(void *p) { return kthread_stop(p); }

static bool rst_sync(void)
{
	return rst_call(rst_do_sync, NULL, RST_GP_MS, "synchronize_rcu()", NULL);
}

static bool rst_barrier(void)
{
	return rst_call(rst_do_barrier, NULL, RST_GP_MS, "rcu_barrier()", NULL);
}

/*
 * Per-CPU workers: one kthread bound to each CPU of a mask runs fn(cpu),
 * all at once. rst_run_on_cpus() returns true if every worker finished
 * within ms; finished workers are stopped, stuck ones left behind (with
 * their record, which is then leaked).
 */
struct rst_worker {
	struct task_struct *p;
	void (*fn)(unsigned int cpu);
	unsigned int cpu;
	struct completion done;
	bool finished;
};

static int rst_worker_thread(void *data)
{
	struct rst_worker *w = data;

	w->fn(w->cpu);
	complete(&w->done);
	rst_wait_stop();
	return 0;
}

static bool rst_run_on_cpus(const struct cpumask *mask, void (*fn)(unsigned int cpu),
			    unsigned int ms)
{
	struct rst_worker *w = kcalloc(nr_cpu_ids, sizeof(*w), GFP_KERNEL);
	u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;
	unsigned int cpu;
	bool all = true;

	if (!KTAP_EXPECT_MSG(w != NULL, "cannot allocate worker records"))
		return false;
	for_each_cpu(cpu, mask) {
		w[cpu].fn = fn;
		w[cpu].cpu = cpu;
		init_completion(&w[cpu].done);
		w[cpu].p = kthread_create_on_cpu(rst_worker_thread, &w[cpu], cpu, "rcu_st/%u");
		if (!KTAP_EXPECT_MSG(w[cpu].p != NULL, "cannot create a worker on CPU %u", cpu))
			all = false;
	}
	for_each_cpu(cpu, mask)
		if (w[cpu].p)
			wake_up_process(w[cpu].p);
	for_each_cpu(cpu, mask) {
		u64 now = local_clock();
		unsigned int left = now < end ? (unsigned int)((end - now) / NSEC_PER_MSEC) + 1 : 1;

		if (!w[cpu].p)
			continue;
		w[cpu].finished = rst_wait(&w[cpu].done, left);
		if (!KTAP_EXPECT_MSG(w[cpu].finished, "worker on CPU %u did not finish within %u ms",
				     cpu, ms))
			all = false;
	}
	for_each_cpu(cpu, mask)
		if (w[cpu].p && w[cpu].finished &&
		    !rst_call(rst_do_stop, w[cpu].p, RST_STOP_MS, "kthread_stop()", NULL))
			all = false;
	if (all)
		kfree(w);
	return all;
}

static unsigned long rst_total_credits(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		sum += READ_ONCE(per_cpu(rcu_data, cpu).n_dynticks_credit);
	return sum;
}

/* --- synchronize_rcu() ---------------------------------------------------------- */

/*
 * synchronize_rcu() returns, and with more than one CPU each call waits
 * for a grace period that rcu_gp_completed() counts. With one CPU it
 * returns at once by design (rcu_blocking_is_gp(), as in Linux).
 */
static void rcu_sync_returns(void)
{
	bool smp = num_online_cpus() > 1;

	for (int i = 0; i < 5; i++) {
		unsigned long before = rcu_gp_completed(), after;
		u64 ns = 0;

		if (!rst_call(rst_do_sync, NULL, RST_GP_MS, "synchronize_rcu()", &ns))
			return;
		after = rcu_gp_completed();
		if (smp)
			KTAP_EXPECT_MSG(after != before,
					"call %d: rcu_gp_completed() still %lu after synchronize_rcu() returned",
					i, after);
		if (i == 0)
			ktap_diag("synchronize_rcu() took %llu us; %lu grace periods completed so far",
				  (unsigned long long)(ns / NSEC_PER_USEC), after);
	}
	if (!smp)
		ktap_diag("1 CPU: synchronize_rcu() needs no grace period (rcu_blocking_is_gp)");
}

/* --- call_rcu() on every CPU ------------------------------------------------------ */

#define RST_CBS_PER_CPU	100

struct rst_cb {
	struct rcu_head rh;
	int queued_cpu;
	int ran_cpu;
	atomic_t runs;
};

static struct rst_cb *rst_cbs;		/* nr_cpu_ids * RST_CBS_PER_CPU */
static atomic_t rst_cb_total;

static void rst_cb_func(struct rcu_head *rh)
{
	struct rst_cb *c = container_of(rh, struct rst_cb, rh);

	WRITE_ONCE(c->ran_cpu, raw_smp_processor_id());
	atomic_inc(&c->runs);
	atomic_inc(&rst_cb_total);
}

static void rst_queue_cbs(unsigned int cpu)
{
	for (int i = 0; i < RST_CBS_PER_CPU; i++) {
		struct rst_cb *c = &rst_cbs[cpu * RST_CBS_PER_CPU + i];

		c->queued_cpu = raw_smp_processor_id();
		call_rcu(&c->rh, rst_cb_func);
	}
}

/*
 * A bound kthread on each CPU queues RST_CBS_PER_CPU callbacks; after
 * rcu_barrier() every one has run exactly once, on the CPU that queued it
 * (callbacks run in that CPU's rcuc kthread). A second barrier and grace
 * period later, none has run again.
 */
static void rcu_call_rcu_every_cpu(void)
{
	unsigned int ncpus = num_online_cpus(), cpu, total = ncpus * RST_CBS_PER_CPU;
	unsigned int bad_runs = 0, wrong_cpu = 0;

	rst_cbs = kcalloc((size_t)nr_cpu_ids * RST_CBS_PER_CPU, sizeof(*rst_cbs), GFP_KERNEL);
	if (!KTAP_EXPECT_MSG(rst_cbs != NULL, "cannot allocate the callbacks"))
		return;
	atomic_set(&rst_cb_total, 0);
	if (!rst_run_on_cpus(cpu_online_mask, rst_queue_cbs, RST_START_MS) || !rst_barrier())
		return;		/* callbacks may still run: rst_cbs is leaked */
	if (!KTAP_EXPECT_MSG(atomic_read(&rst_cb_total) == (int)total,
			     "%d callbacks ran by the end of rcu_barrier(), %u queued",
			     atomic_read(&rst_cb_total), total))
		return;		/* callbacks still pending: rst_cbs is leaked */
	if (!rst_sync() || !rst_barrier())
		return;
	for_each_online_cpu(cpu) {
		for (int i = 0; i < RST_CBS_PER_CPU; i++) {
			struct rst_cb *c = &rst_cbs[cpu * RST_CBS_PER_CPU + i];

			if (atomic_read(&c->runs) != 1 && !bad_runs++)
				ktap_diag("CPU %u callback %d ran %d times", cpu, i, atomic_read(&c->runs));
			if (atomic_read(&c->runs) && c->ran_cpu != c->queued_cpu && !wrong_cpu++)
				ktap_diag("callback queued on CPU %d ran on CPU %d", c->queued_cpu, c->ran_cpu);
		}
	}
	KTAP_EXPECT_MSG(bad_runs == 0, "%u callbacks did not run exactly once", bad_runs);
	KTAP_EXPECT_MSG(wrong_cpu == 0, "%u callbacks ran on another CPU than the queuing one",
			wrong_cpu);
	KTAP_EXPECT(atomic_read(&rst_cb_total) == (int)total);
	kfree(rst_cbs);
	rst_cbs = NULL;
}

/* --- rcu_barrier() --------------------------------------------------------------- */

#define RST_BARRIER_PER_CPU	200

static struct rcu_head *rst_bheads;
static atomic_t rst_barrier_count;	/* callbacks that ran */
static atomic_t rst_barrier_left;	/* workers still queuing */
static int rst_barrier_at_start, rst_barrier_at_end;

static void rst_barrier_cb(struct rcu_head *rh)
{
	atomic_inc(&rst_barrier_count);
}

/* Queue this CPU's callbacks; the last worker to finish calls rcu_barrier() at once. */
static void rst_queue_barrier_cbs(unsigned int cpu)
{
	for (int i = 0; i < RST_BARRIER_PER_CPU; i++)
		call_rcu(&rst_bheads[cpu * RST_BARRIER_PER_CPU + i], rst_barrier_cb);
	if (atomic_dec_and_test(&rst_barrier_left)) {
		rst_barrier_at_start = atomic_read(&rst_barrier_count);
		rcu_barrier();
		rst_barrier_at_end = atomic_read(&rst_barrier_count);
	}
}

/*
 * Slow callbacks, all queued on one CPU (rst_slow_cpu); a worker on
 * another CPU calls rcu_barrier() once they have started to run, so the
 * barrier meets callbacks in the middle of being invoked, batch by batch.
 */
#define RST_SLOW_N	1000
#define RST_SLOW_US	20

static unsigned int rst_slow_cpu;
static bool rst_slow_queued;	/* all RST_SLOW_N queued (the queuer may be preempted midway) */

static void rst_slow_cb(struct rcu_head *rh)
{
	udelay(RST_SLOW_US);
	atomic_inc(&rst_barrier_count);
}

static void rst_slow_worker(unsigned int cpu)
{
	u64 end = local_clock() + RST_GP_MS * NSEC_PER_MSEC;

	if (cpu == rst_slow_cpu) {
		for (int i = 0; i < RST_SLOW_N; i++)
			call_rcu(&rst_bheads[i], rst_slow_cb);
		smp_store_release(&rst_slow_queued, true);
		return;
	}
	/* Only callbacks queued before rcu_barrier() count: wait for all of them to be. */
	while ((!smp_load_acquire(&rst_slow_queued) || !atomic_read(&rst_barrier_count)) &&
	       local_clock() < end)
		msleep(1);
	rst_barrier_at_start = atomic_read(&rst_barrier_count);
	rcu_barrier();
	rst_barrier_at_end = atomic_read(&rst_barrier_count);
}

/*
 * rcu_barrier() returns only after every callback queued before it has
 * run: the count is complete the moment it returns. Also: with nothing
 * queued it returns promptly; and it waits for callbacks that are being
 * invoked when it is called.
 */
static void rcu_barrier_waits(void)
{
	unsigned int total = num_online_cpus() * RST_BARRIER_PER_CPU;
	u64 ns = 0;

	if (!rst_call(rst_do_barrier, NULL, RST_GP_MS, "rcu_barrier() with nothing queued", &ns))
		return;
	ktap_diag("rcu_barrier() with nothing queued took %llu us",
		  (unsigned long long)(ns / NSEC_PER_USEC));

	rst_bheads = kcalloc(max((size_t)nr_cpu_ids * RST_BARRIER_PER_CPU, (size_t)RST_SLOW_N),
			     sizeof(*rst_bheads), GFP_KERNEL);
	if (!KTAP_EXPECT_MSG(rst_bheads != NULL, "cannot allocate the callbacks"))
		return;
	for (int round = 0; round < 2; round++) {
		atomic_set(&rst_barrier_count, 0);
		atomic_set(&rst_barrier_left, num_online_cpus());
		rst_barrier_at_start = rst_barrier_at_end = -1;
		if (!rst_run_on_cpus(cpu_online_mask, rst_queue_barrier_cbs, RST_GP_MS))
			return;	/* rcu_barrier() stuck: callbacks leaked */
		ktap_diag("round %d: %d of %u callbacks had run when rcu_barrier() was called",
			  round, rst_barrier_at_start, total);
		if (!KTAP_EXPECT_MSG(rst_barrier_at_end == (int)total,
				     "round %d: %d of %u callbacks had run when rcu_barrier() returned",
				     round, rst_barrier_at_end, total))
			return;	/* callbacks still pending: rst_bheads is leaked */
	}
	if (num_online_cpus() > 1) {
		struct cpumask two;
		unsigned int other = cpumask_first(cpu_online_mask);

		rst_slow_cpu = cpumask_next(other, cpu_online_mask);
		cpumask_clear(&two);
		cpumask_set_cpu(other, &two);
		cpumask_set_cpu(rst_slow_cpu, &two);
		atomic_set(&rst_barrier_count, 0);
		WRITE_ONCE(rst_slow_queued, false);
		rst_barrier_at_start = rst_barrier_at_end = -1;
		if (!rst_run_on_cpus(&two, rst_slow_worker, 2 * RST_GP_MS))
			return;	/* leaked */
		ktap_diag("slow callbacks: %d of %d had run when rcu_barrier() was called",
			  rst_barrier_at_start, RST_SLOW_N);
		if (!KTAP_EXPECT_MSG(rst_barrier_at_end == RST_SLOW_N,
				     "slow callbacks: only %d of %d had run when rcu_barrier() returned",
				     rst_barrier_at_end, RST_SLOW_N))
			return;	/* callbacks still pending: rst_bheads is leaked */
	}
	if (!rst_barrier())	/* nothing may be left, but make sure before freeing */
		return;
	kfree(rst_bheads);
	rst_bheads = NULL;
}

/* --- polling API ---------------------------------------------------------------- */

/* Poll a cookie every step_ms for at most ms: 0 once it is done, -1 on timeout. */
static int rst_poll_until(unsigned long cookie, unsigned int ms, unsigned int step_ms)
{
	u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;

	while (!poll_state_synchronize_rcu(cookie)) {
		if (local_clock() > end)
			return -1;
		msleep(step_ms);
	}
	return 0;
}

/*
 * get_state/start_poll/poll_state/cond_synchronize_rcu:
 *  - a grace period cannot end inside the read-side section that started it;
 *  - start_poll_synchronize_rcu() alone gets that grace period done;
 *  - a cookie taken before synchronize_rcu() is done once it returns (on
 *    one CPU too: a full grace period has elapsed, by rcu_blocking_is_gp());
 *  - cond_synchronize_rcu() on a done cookie needs no grace period, on a
 *    fresh one it waits for one.
 */
static void rcu_poll_api(void)
{
	bool smp = num_online_cpus() > 1, early;
	unsigned long s, g, gps;
	u64 ns = 0;

	rcu_read_lock();
	s = start_poll_synchronize_rcu();
	early = poll_state_synchronize_rcu(s);
	rcu_read_unlock();
	KTAP_EXPECT_MSG(!early, "cookie %#lx done inside the read-side section that requested it", s);
	KTAP_EXPECT_MSG(rst_poll_until(s, RST_GP_MS, 1) == 0,
			"start_poll_synchronize_rcu() cookie %#lx not done after %u ms (gp_seq %#lx)",
			s, RST_GP_MS, rcu_get_gp_seq());

	g = get_state_synchronize_rcu();
	KTAP_EXPECT_MSG(!poll_state_synchronize_rcu(g) || !smp,
			"fresh cookie %#lx already done", g);
	if (!rst_sync())
		return;
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(g),
			"cookie %#lx from before synchronize_rcu() not done after it returned (gp_seq %#lx, %u CPUs)",
			g, rcu_get_gp_seq(), num_online_cpus());

	/* An old cookie: no grace period, no waiting. */
	gps = rcu_gp_completed();
	if (!rst_call(rst_do_cond_sync, (void *)g, RST_GP_MS, "cond_synchronize_rcu(old)", &ns))
		return;
	ktap_diag("cond_synchronize_rcu(old cookie) took %llu us",
		  (unsigned long long)(ns / NSEC_PER_USEC));
	KTAP_EXPECT_MSG(rcu_gp_completed() == gps,
			"cond_synchronize_rcu(old cookie) waited for a grace period");
	KTAP_EXPECT_MSG(ns < 50 * NSEC_PER_MSEC, "cond_synchronize_rcu(old cookie) took %llu us",
			(unsigned long long)(ns / NSEC_PER_USEC));

	/* A fresh cookie: cond_synchronize_rcu() waits until it is done. */
	g = get_state_synchronize_rcu();
	gps = rcu_gp_completed();
	if (!rst_call(rst_do_cond_sync, (void *)g, RST_GP_MS, "cond_synchronize_rcu(new)", NULL))
		return;
	if (smp) {
		KTAP_EXPECT_MSG(rcu_gp_completed() != gps,
				"cond_synchronize_rcu(fresh cookie) returned without a grace period");
		KTAP_EXPECT_MSG(poll_state_synchronize_rcu(g),
				"cookie %#lx not done after cond_synchronize_rcu() on it", g);
	}
}

/* --- kfree_rcu() ----------------------------------------------------------------- */

#define RST_KFREE_N	1000
#define RST_KFREE_SLACK	16	/* allocations by helper kthreads meanwhile */

struct rst_kobj {
	unsigned long payload[5];
	struct rcu_head rh;
};

/* kfree_rcu() frees: after rcu_barrier() the kmalloc live count is back down. */
static void rcu_kfree_rcu_frees(void)
{
	struct rst_kobj **objs = kcalloc(RST_KFREE_N, sizeof(*objs), GFP_KERNEL);
	struct mm_stats a, b, c;
	int n = 0;

	if (!KTAP_EXPECT_MSG(objs != NULL, "cannot allocate the pointer array"))
		return;
	mm_get_stats(&a);
	for (n = 0; n < RST_KFREE_N; n++) {
		objs[n] = kmalloc(sizeof(*objs[n]), GFP_KERNEL);
		if (!objs[n])
			break;
		objs[n]->payload[0] = n;
	}
	mm_get_stats(&b);
	KTAP_EXPECT_MSG(n == RST_KFREE_N, "only %d of %d objects allocated", n, RST_KFREE_N);
	/* Allocations, not live objects: an earlier case's deferred frees may land meanwhile. */
	KTAP_EXPECT_MSG(b.kmalloc_allocs - a.kmalloc_allocs >= (unsigned long)n,
			"kmalloc allocs %lu -> %lu after %d allocations", a.kmalloc_allocs,
			b.kmalloc_allocs, n);
	for (int i = 0; i < n; i++)
		kfree_rcu(objs[i], rh);
	if (!rst_barrier())
		return;
	mm_get_stats(&c);
	ktap_diag("kmalloc live: %lu before, %lu allocated, %lu after rcu_barrier()",
		  a.kmalloc_live, b.kmalloc_live, c.kmalloc_live);
	KTAP_EXPECT_MSG(c.kmalloc_frees - b.kmalloc_frees >= (unsigned long)n,
			"%lu frees for %d kfree_rcu() calls", c.kmalloc_frees - b.kmalloc_frees, n);
	KTAP_EXPECT_MSG(c.kmalloc_live + n <= b.kmalloc_live + RST_KFREE_SLACK,
			"kmalloc live only went from %lu to %lu", b.kmalloc_live, c.kmalloc_live);
	kfree(objs);
}

/* --- <rcu/rculist.h>, single-threaded ------------------------------------------------ */

struct rst_item {
	int key;
	struct list_head node;
	struct hlist_node hnode;
};

/*
 * The list primitives' effects, checked by one thread: order after
 * add/add_tail/replace, list_first_or_null_rcu(), and that deletion keeps
 * ->next intact for readers standing on the deleted element (only
 * ->prev/->pprev are poisoned); hlist add/walk/del/del_init likewise.
 */
static void rcu_rculist_api(void)
{
	static struct rst_item it[4];
	LIST_HEAD(head);
	struct hlist_head hhead = HLIST_HEAD_INIT;
	struct rst_item *pos;
	int keys[8], n = 0;

	for (int i = 0; i < 4; i++) {
		it[i].key = i;
		INIT_HLIST_NODE(&it[i].hnode);
	}
	KTAP_EXPECT(list_first_or_null_rcu(&head, struct rst_item, node) == NULL);
	KTAP_EXPECT(list_empty_rcu(&head));
	list_add_tail_rcu(&it[1].node, &head);
	list_add_tail_rcu(&it[2].node, &head);
	list_add_rcu(&it[0].node, &head);		/* 0 1 2 */
	list_replace_rcu(&it[1].node, &it[3].node);	/* 0 3 2 */
	KTAP_EXPECT(it[1].node.next == &it[2].node);	/* a reader on 1 still reaches 2 */
	rcu_read_lock();
	list_for_each_entry_rcu(pos, &head, node)
		if (n < 8)
			keys[n++] = pos->key;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 3 && keys[0] == 0 && keys[1] == 3 && keys[2] == 2,
			"list walk gave %d elements", n);
	list_del_rcu(&it[3].node);			/* 0 2 */
	KTAP_EXPECT(it[3].node.next == &it[2].node);
	KTAP_EXPECT(it[3].node.prev == LIST_POISON2);
	KTAP_EXPECT(list_first_or_null_rcu(&head, struct rst_item, node) == &it[0]);
	KTAP_EXPECT(head.prev == &it[2].node && it[2].node.prev == &it[0].node);

	hlist_add_head_rcu(&it[0].hnode, &hhead);
	hlist_add_head_rcu(&it[1].hnode, &hhead);
	hlist_add_head_rcu(&it[2].hnode, &hhead);	/* 2 1 0 */
	hlist_del_rcu(&it[1].hnode);			/* 2 0 */
	KTAP_EXPECT(it[1].hnode.next == &it[0].hnode);
	KTAP_EXPECT(it[1].hnode.pprev == LIST_POISON2);
	hlist_del_init_rcu(&it[0].hnode);		/* 2 */
	KTAP_EXPECT(hlist_unhashed(&it[0].hnode));
	hlist_del_init_rcu(&it[0].hnode);		/* unhashed: no effect */
	n = 0;
	rcu_read_lock();
	hlist_for_each_entry_rcu(pos, &hhead, hnode)
		if (n < 8)
			keys[n++] = pos->key;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 1 && keys[0] == 2, "hlist walk gave %d elements", n);
	KTAP_EXPECT(it[2].hnode.pprev == &hhead.first && !it[2].hnode.next);
}

/* --- an RCU list under concurrent readers ----------------------------------------- */

#define RST_LIST_LEN		32
#define RST_LIST_MAGIC		0x5243554c49535421UL	/* "RCULIST!" */
#define RST_POISON		0x6b			/* POISON_FREE, as Linux's slab uses */
#define RST_MAX_PENDING		4000			/* removed elements awaiting their GP */
#define RST_READER_UPDATE_EVERY	16			/* readers update once per this many walks */

struct rst_elem {
	unsigned long magic;
	unsigned long gen;
	struct list_head node;
	struct rcu_head rh;
};

static struct {
	spinlock_t lock;		/* serialises updaters */
	struct list_head head;
	unsigned int updater_cpu;
	u64 deadline;			/* local_clock() at which updates stop */
	bool stop;			/* set by the updater when done */
	unsigned long gen;		/* under lock */
	unsigned long updates;		/* written under lock, read by readers */
	atomic_long_t alloc_fail;
	atomic_long_t queued, freed;	/* removed elements: call_rcu()'d, poisoned and freed */
	atomic_long_t bad;		/* elements seen with a wrong magic */
	atomic_long_t too_long;		/* walks longer than the updates can explain */
	unsigned long max_walk;		/* longest walk seen (racy, for the report) */
	unsigned long bad_magic;	/* the first wrong magic, and where */
	int bad_cpu;
	unsigned long walks[NR_CPUS];
	unsigned long freed_on[BITS_TO_LONGS(NR_CPUS)];	/* CPUs that ran a free callback */
	unsigned long queued_on[BITS_TO_LONGS(NR_CPUS)];	/* CPUs that queued one */
} rl = {
	.lock = __SPIN_LOCK_UNLOCKED(rl.lock),
	.head = LIST_HEAD_INIT(rl.head),
};

static void rst_elem_free(struct rcu_head *rh)
{
	struct rst_elem *e = container_of(rh, struct rst_elem, rh);

	/* Poison first: a reader still holding e would now see a wrong magic. */
	memset(e, RST_POISON, sizeof(*e));
	kfree(e);
	set_bit(raw_smp_processor_id(), rl.freed_on);
	atomic_long_inc(&rl.freed);
}

static struct rst_elem *rst_elem_new(void)
{
	struct rst_elem *e = kmalloc(sizeof(*e), GFP_KERNEL);

	if (!e) {
		atomic_long_inc(&rl.alloc_fail);
		return NULL;
	}
	e->magic = RST_LIST_MAGIC;	/* published by the rcu_assign_pointer() that links e */
	e->gen = 0;
	return e;
}

/* Replace, or remove and re-add at either end, the element at position pos. */
static void rst_list_update_one(unsigned int pos, unsigned int how)
{
	struct rst_elem *n = rst_elem_new(), *old = NULL, *e;
	unsigned int i = 0;

	if (!n)
		return;
	spin_lock(&rl.lock);
	list_for_each_entry(e, &rl.head, node) {
		if (i++ == pos % RST_LIST_LEN) {
			old = e;
			break;
		}
	}
	if (!old) {		/* cannot happen: the list keeps RST_LIST_LEN elements */
		spin_unlock(&rl.lock);
		kfree(n);
		return;
	}
	n->gen = ++rl.gen;
	switch (how % 3) {
	case 0:
		list_replace_rcu(&old->node, &n->node);
		break;
	case 1:
		list_del_rcu(&old->node);
		list_add_rcu(&n->node, &rl.head);
		break;
	default:
		list_del_rcu(&old->node);
		list_add_tail_rcu(&n->node, &rl.head);
		break;
	}
	WRITE_ONCE(rl.updates, rl.updates + 1);
	spin_unlock(&rl.lock);
	atomic_long_inc(&rl.queued);
	set_bit(raw_smp_processor_id(), rl.queued_on);	/* the workers are bound to their CPUs */
	call_rcu(&old->rh, rst_elem_free);
}

static bool rst_list_backlog(void)
{
	return atomic_long_read(&rl.queued) - atomic_long_read(&rl.freed) > RST_MAX_PENDING;
}

/* One walk of the list in a read-side section, checking every element's magic. */
static void rst_list_walk(unsigned int cpu)
{
	unsigned long u0 = READ_ONCE(rl.updates);
	struct rst_elem *e;
	unsigned long n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(e, &rl.head, node) {
		unsigned long m = READ_ONCE(e->magic);

		if (m != RST_LIST_MAGIC) {
			if (atomic_long_inc_return(&rl.bad) == 1) {
				rl.bad_magic = m;
				rl.bad_cpu = cpu;
			}
			break;	/* its links may be poison too */
		}
		/*
		 * A walk may legitimately see more than RST_LIST_LEN elements:
		 * one it stands on when it is moved to the tail, or new ones
		 * added at the tail, are met again. But never more than one
		 * per update made meanwhile (plus the updates in flight, at
		 * most one per CPU): more means a cycle, a corrupt list.
		 */
		if (++n > RST_LIST_LEN + (READ_ONCE(rl.updates) - u0) + nr_cpu_ids) {
			atomic_long_inc(&rl.too_long);
			break;
		}
		for (int i = 0; i < 20; i++)	/* widen the window a little */
			cpu_relax();
	}
	rcu_read_unlock();
	if (n > READ_ONCE(rl.max_walk))
		WRITE_ONCE(rl.max_walk, n);
	rl.walks[cpu]++;
}

/* The updater; on one CPU it also does the reading, a walk after each update. */
static void rst_list_updater(unsigned int cpu)
{
	u32 rnd = 0x9e3779b9u ^ cpu;
	bool up = num_online_cpus() == 1;

	while (local_clock() < rl.deadline) {
		if (rst_list_backlog()) {
			msleep(1);
			continue;
		}
		rnd = rnd * 1664525u + 1013904223u;
		rst_list_update_one(rnd >> 8, rnd >> 24);
		if (up)
			rst_list_walk(cpu);
		cond_resched();
	}
	WRITE_ONCE(rl.stop, true);
}

static void rst_list_reader(unsigned int cpu)
{
	u64 hard_end = rl.deadline + 2 * NSEC_PER_SEC;	/* in case the updater never stops */
	u32 rnd = 0x12345678u ^ cpu;

	while (!READ_ONCE(rl.stop) && local_clock() < hard_end) {
		rst_list_walk(cpu);
		/* Between read-side sections: a quiescent state when RCU asks for one. */
		cond_resched();
		/*
		 * Rare, so not held back by the backlog: free callbacks on every
		 * CPU. Always after the first walk, deadline or not: with hundreds
		 * of vCPUs on one host thread a reader may first run after the
		 * updater has stopped, and walk only once.
		 */
		if (rl.walks[cpu] == 1 ||
		    (rl.walks[cpu] % RST_READER_UPDATE_EVERY == 1 && local_clock() < rl.deadline)) {
			rnd = rnd * 1664525u + 1013904223u;
			rst_list_update_one(rnd >> 8, rnd >> 24);
		}
	}
}

static void rst_list_worker(unsigned int cpu)
{
	if (cpu == rl.updater_cpu)
		rst_list_updater(cpu);
	else
		rst_list_reader(cpu);
}

/*
 * An RCU list of RST_LIST_LEN elements: one updater replaces/moves
 * elements for RST_LIST_MS (readers add an update now and then, so free
 * callbacks are queued on every CPU), freeing each removed element with
 * call_rcu() whose callback poisons it before kfree(). A reader kthread on
 * every other CPU walks the list in read-side sections and checks each
 * element's magic: a poisoned element inside a read-side section means a
 * grace period ended too early. On one CPU the reader shares the CPU.
 */
static void rcu_list_readers(void)
{
	unsigned int cpu, ncpus = num_online_cpus();
	struct rst_elem *e, *tmp;
	unsigned long queued_cpus = 0, mismatch = 0, walks = 0;
	bool ok;

	rl.updater_cpu = raw_smp_processor_id();
	rl.stop = false;
	rl.updates = rl.gen = 0;
	atomic_long_set(&rl.alloc_fail, 0);
	atomic_long_set(&rl.queued, 0);
	atomic_long_set(&rl.freed, 0);
	atomic_long_set(&rl.bad, 0);
	atomic_long_set(&rl.too_long, 0);
	rl.max_walk = 0;
	memset(rl.walks, 0, sizeof(rl.walks));
	memset(rl.freed_on, 0, sizeof(rl.freed_on));
	memset(rl.queued_on, 0, sizeof(rl.queued_on));
	for (int i = 0; i < RST_LIST_LEN; i++) {
		e = rst_elem_new();
		if (!KTAP_EXPECT_MSG(e != NULL, "cannot allocate the list"))
			return;
		spin_lock(&rl.lock);
		list_add_tail_rcu(&e->node, &rl.head);
		spin_unlock(&rl.lock);
	}
	rl.deadline = local_clock() + RST_LIST_MS * NSEC_PER_MSEC;
	/*
	 * The readers spin: on a host with fewer cores than vCPUs each one
	 * may wait a host time slice (QEMU's single-threaded TCG gives a busy
	 * vCPU up to 100 ms) per other reader before it sees rl.stop.
	 */
	ok = rst_run_on_cpus(cpu_online_mask, rst_list_worker, RST_LIST_MS + 5000 + 100 * ncpus);
	if (ok)
		ok = rst_barrier();
	for_each_online_cpu(cpu)
		walks += rl.walks[cpu];
	ktap_diag("%lu updates, %ld elements freed after a grace period, %lu list walks (longest %lu elements)",
		  rl.updates, atomic_long_read(&rl.freed), walks, rl.max_walk);
	if (!KTAP_EXPECT_MSG(atomic_long_read(&rl.bad) == 0,
			     "%ld reads of freed (poisoned) elements: first magic %#lx on CPU %d",
			     atomic_long_read(&rl.bad), rl.bad_magic, rl.bad_cpu))
		pr_err("selftest: RCU list reader saw a freed element: grace period ended too early\n");
	KTAP_EXPECT_MSG(atomic_long_read(&rl.too_long) == 0, "%ld walks found a corrupt list",
			atomic_long_read(&rl.too_long));
	KTAP_EXPECT_MSG(rl.updates > 0, "no updates were made");
	KTAP_EXPECT_MSG(atomic_long_read(&rl.alloc_fail) == 0, "%ld allocations failed",
			atomic_long_read(&rl.alloc_fail));
	for_each_online_cpu(cpu) {
		if (cpu != rl.updater_cpu || ncpus == 1)
			KTAP_EXPECT_MSG(rl.walks[cpu] > 0, "reader on CPU %u never walked the list", cpu);
		if (test_bit(cpu, rl.queued_on))
			queued_cpus++;
		if (test_bit(cpu, rl.freed_on) != test_bit(cpu, rl.queued_on))
			mismatch++;
	}
	if (!ok)
		return;		/* threads or callbacks may still use the list: leak it */
	KTAP_EXPECT_MSG(atomic_long_read(&rl.queued) == atomic_long_read(&rl.freed),
			"%ld elements removed, %ld freed after rcu_barrier()",
			atomic_long_read(&rl.queued), atomic_long_read(&rl.freed));
	/* Callbacks run on the CPU that queued them; every reader that walked queued one. */
	ktap_diag("free callbacks queued on %lu of %u CPUs", queued_cpus, ncpus);
	KTAP_EXPECT_MSG(mismatch == 0, "%lu CPUs queued free callbacks but ran none, or ran some but queued none",
			mismatch);
	KTAP_EXPECT_MSG(queued_cpus == ncpus, "free callbacks queued on only %lu of %u CPUs",
			queued_cpus, ncpus);
	spin_lock(&rl.lock);
	list_for_each_entry_safe(e, tmp, &rl.head, node) {
		list_del(&e->node);
		kfree(e);
	}
	spin_unlock(&rl.lock);
}

/* --- dyntick-idle credit ----------------------------------------------------------- */

/*
 * Idle CPUs stop their tick and cannot report quiescent states; the
 * grace-period kthread's force-quiescent-state scan credits them from
 * their dynticks counters instead. With the other CPUs idle, a few
 * grace periods must give some CPU such credit.
 *
 * The grace periods are requested with start_poll_synchronize_rcu() and
 * waited for with msleep(), not with synchronize_rcu(): a CPU with a
 * callback queued keeps its tick (rcu_needs_cpu()) and reports from it,
 * and the CPU running the grace-period kthread reports at its context
 * switch, so on two CPUs synchronize_rcu() may legitimately complete every
 * grace period without any dyntick credit.
 */
static void rcu_dyntick_idle_credit(void)
{
	unsigned long before, after, cookie;
	unsigned int loc0[NR_CPUS] = { 0 }, cpu;
	int i;

	/* Dead code under Tiny from here on: no rcu_data, nothing to credit. */
	if (!IS_ENABLED(CONFIG_TREE_RCU)) {
		ktap_skip("Tiny RCU: one CPU, no force-quiescent-state scan to credit idle CPUs");
		return;
	}
	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	if (!rst_barrier())	/* no callbacks anywhere: every idle CPU can stop its tick */
		return;
	msleep(50);		/* let the other CPUs settle into idle */
	for_each_online_cpu(cpu)
		loc0[cpu] = READ_ONCE(per_cpu(irq_stat, cpu).local_timer);
	before = rst_total_credits();
	for (i = 0; i < 10; i++) {
		cookie = start_poll_synchronize_rcu();
		if (!KTAP_EXPECT_MSG(rst_poll_until(cookie, RST_GP_MS, 10) == 0,
				     "grace period %d not done after %u ms", i, RST_GP_MS))
			return;
		if (rst_total_credits() != before)
			break;
	}
	after = rst_total_credits();
	KTAP_EXPECT_MSG(after != before, "no dyntick-idle credit in %d grace periods", i);
	for_each_online_cpu(cpu)
		if (per_cpu(rcu_data, cpu).n_dynticks_credit)
			ktap_diag("CPU %u: %lu dyntick credits, %u timer interrupts during the test", cpu,
				  READ_ONCE(per_cpu(rcu_data, cpu).n_dynticks_credit),
				  READ_ONCE(per_cpu(irq_stat, cpu).local_timer) - loc0[cpu]);
}

static const struct ktap_case rcu_cases[] = {
	KTAP_CASE(rcu_sync_returns),
	KTAP_CASE(rcu_call_rcu_every_cpu),
	KTAP_CASE(rcu_barrier_waits),
	KTAP_CASE(rcu_poll_api),
	KTAP_CASE(rcu_kfree_rcu_frees),
	KTAP_CASE(rcu_rculist_api),
	KTAP_CASE(rcu_list_readers),
	KTAP_CASE(rcu_dyntick_idle_credit),
};
KTAP_SUITE(rcu, rcu_cases, &rcu_selftest);
