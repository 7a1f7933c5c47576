/*
 * RCU self-tests (Tree and Tiny RCU): the KTAP suite "rcu", run after the
 * initcalls when the command line says rcutree.selftest=1 (our own
 * test-only parameter). It checks the update-side API from the outside:
 * synchronize_rcu(), call_rcu() on every CPU, rcu_barrier(), the polling API (its full-state
 * and expedited forms in poll.c), kfree_rcu(), the
 * <rcu/rculist.h> primitives and an RCU-protected list updated under
 * concurrent readers with poisoned frees (both in rculist.c), and
 * dyntick-idle credit for idle CPUs.
 *
 * Every wait is bounded: a blocking call runs in a helper kthread that the
 * case waits for with a timeout (rst_call()), so a broken grace period
 * reports a failure instead of hanging the boot. Memory that a stuck
 * callback or thread might still touch is leaked on failure, never freed.
 *
 * Worker threads follow one shape (as in kernel/sched/test/suite.c): do the
 * work, signal a completion, then sleep until kthread_stop().
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "common.h"
#include <kernel/param.h>

bool rcu_selftest;	/* also gates exp.c */
KPARAM_BOOL("rcutree.selftest", rcu_selftest,
	    "run the RCU self-tests (KTAP suite \"rcu\") at boot");

/* --- helpers ------------------------------------------------------------------- */

bool rst_call(int (*fn)(void *), void *arg, unsigned int ms, const char *what, u64 *ns)
{
	bool ok = ktest_call_timeout("rcu_st_call", -1, fn, arg, ms, NULL, ns);

	KTAP_EXPECT_MSG(ok, "%s did not return within %u ms", what, ms);
	return ok;
}

static int rst_do_sync(void *unused) { synchronize_rcu(); return 0; }
static int rst_do_barrier(void *unused) { rcu_barrier(); return 0; }
/* Run the conditional wait *arg (struct rst_cond): returns how often it slept. */
int rst_do_cond(void *arg)
{
	struct rst_cond *c = arg;
	u64 nvcsw = READ_ONCE(current->nvcsw);

	if (c->cond_full)
		c->cond_full(c->rgosp);
	else
		c->cond(c->oldstate);
	return (int)(READ_ONCE(current->nvcsw) - nvcsw);
}

/*
 * One conditional wait on a cookie that is already complete: it returns
 * at once, without sleeping and without an expedited grace period (one
 * need not sleep when every other CPU is idle). Not judged by the normal
 * grace-period count: other tasks may end normal grace periods meanwhile
 * (exiting helper kthreads free their task_structs after one); nothing
 * else runs expedited ones during the suite.
 */
void rst_cond_at_once(struct rst_cond *c, const char *what)
{
	unsigned long exp_gps = rcu_exp_gp_completed();
	int slept = -1;
	u64 ns = 0;

	if (!KTAP_EXPECT_MSG(ktest_call_timeout("rcu_st_call", -1, rst_do_cond, c, RST_GP_MS,
						&slept, &ns),
			     "%s did not return within %u ms", what, RST_GP_MS))
		return;
	KTAP_EXPECT_MSG(slept == 0, "%s on a complete cookie slept %d times", what, slept);
	KTAP_EXPECT_MSG(rcu_exp_gp_completed() == exp_gps,
			"%s on a complete cookie ran an expedited grace period", what);
	KTAP_EXPECT_MSG(ns < 50 * NSEC_PER_MSEC, "%s on a complete cookie took %llu us", what,
			(unsigned long long)(ns / NSEC_PER_USEC));
}

static int rst_do_stop(void *p) { return kthread_stop(p); }

static bool rst_sync(void)
{
	return rst_call(rst_do_sync, NULL, RST_GP_MS, "synchronize_rcu()", NULL);
}

bool rst_barrier(void)
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
	ktest_wait_stop();
	return 0;
}

bool rst_run_on_cpus(const struct cpumask *mask, void (*fn)(unsigned int cpu),
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
		w[cpu].finished = ktest_wait(&w[cpu].done, left);
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
		sum += rcu_cpu_dynticks_credits(cpu);
	return sum;
}

/* --- synchronize_rcu() ---------------------------------------------------------- */

/*
 * A reader on another CPU that is inside its read-side critical section
 * before synchronize_rcu() is called: it spins there RST_READER_MS, and
 * clears `reading` as its last act inside. synchronize_rcu() must not
 * return while `reading` is still set: that would be a grace period that
 * ended under a reader that began before it.
 */
#define RST_READER_MS	20

static struct {
	struct completion inside, done;
	bool reading;
} rsr;

static int rst_sync_reader(void *unused)
{
	u64 end;

	rcu_read_lock();
	WRITE_ONCE(rsr.reading, true);
	complete(&rsr.inside);		/* its lock releases the store above: the caller sees it */
	end = local_clock() + RST_READER_MS * NSEC_PER_MSEC;
	while (local_clock() < end)
		cpu_relax();
	/*
	 * Inside the section: the grace period that synchronize_rcu() waits
	 * for orders this store before its return (RCU's guarantee, no
	 * barrier of ours), so the caller's read after it must see false.
	 */
	WRITE_ONCE(rsr.reading, false);
	rcu_read_unlock();
	complete(&rsr.done);
	ktest_wait_stop();
	return 0;
}

/* synchronize_rcu() from here while a reader started before it runs on another CPU. */
static void rst_sync_vs_reader(void)
{
	unsigned int me = raw_smp_processor_id(), cpu = cpumask_first(cpu_online_mask);
	struct task_struct *p;
	bool early, finished;
	u64 ns = 0;

	if (cpu == me)
		cpu = ktest_last_online_cpu();
	init_completion(&rsr.inside);
	init_completion(&rsr.done);
	WRITE_ONCE(rsr.reading, false);
	p = ktest_kthread(rst_sync_reader, NULL, cpu, "rcu_st_rd/%u");
	if (!p)
		return;
	wake_up_process(p);
	if (!KTAP_EXPECT_MSG(ktest_wait(&rsr.inside, RST_START_MS), "the reader on CPU %u never started",
			     cpu))
		return;		/* the reader thread is leaked */
	if (!rst_call(rst_do_sync, NULL, RST_GP_MS, "synchronize_rcu() with a reader", &ns))
		return;
	early = READ_ONCE(rsr.reading);
	finished = ktest_wait(&rsr.done, RST_START_MS);
	KTAP_EXPECT_MSG(!early, "synchronize_rcu() returned after %llu us, while the reader on CPU %u that began before it was still in its critical section",
			(unsigned long long)(ns / NSEC_PER_USEC), cpu);
	ktap_diag("synchronize_rcu() with a %d ms reader on CPU %u took %llu us", RST_READER_MS, cpu,
		  (unsigned long long)(ns / NSEC_PER_USEC));
	ktest_stop_if(p, finished, RST_STOP_MS);
}

/*
 * synchronize_rcu() returns, and with more than one CPU each call waits
 * for a grace period that rcu_gp_completed() counts, and does not return
 * before a reader that began before it has ended. With one CPU it returns
 * at once by design (rcu_blocking_is_gp(): no CPU but the caller's in
 * RCU's ->qsmaskinitnext; Linux 6.1 keeps the shortcut only before the
 * scheduler runs).
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
	if (smp)
		rst_sync_vs_reader();
	else
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
 * (callbacks run in that CPU's rcuc kthread) unless that CPU is offloaded. A second barrier and grace
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
			/* An offloaded CPU's (rcu_nocbs=) run in rcuo kthreads, anywhere. */
			if (atomic_read(&c->runs) && c->ran_cpu != c->queued_cpu &&
			    !rcu_cpu_is_offloaded(c->queued_cpu) && !wrong_cpu++)
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
			call_rcu_hurry(&rst_bheads[i], rst_slow_cb);	/* waited for: never lazy */
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

int rst_poll_until(unsigned long cookie, unsigned int ms, unsigned int step_ms)
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
 *  - cond_synchronize_rcu() on a done cookie does not sleep, on a fresh one
 *    it waits for a grace period.
 */
static void rcu_poll_api(void)
{
	bool smp = num_online_cpus() > 1, early;
	unsigned long s, g, gps;

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

	/*
	 * An old cookie: no grace period, no waiting. Judged by whether the
	 * call slept, not by the grace-period count: other tasks may start
	 * grace periods meanwhile (the helper kthreads' own exits queue
	 * callbacks: their task_structs are freed after a grace period).
	 */
	rst_cond_at_once(&(struct rst_cond){ .cond = cond_synchronize_rcu, .oldstate = g },
			 "cond_synchronize_rcu(old cookie)");

	/* A fresh cookie: cond_synchronize_rcu() waits until it is done. */
	g = get_state_synchronize_rcu();
	gps = rcu_gp_completed();
	if (!rst_call(rst_do_cond, &(struct rst_cond){ .cond = cond_synchronize_rcu, .oldstate = g },
		      RST_GP_MS, "cond_synchronize_rcu(new)", NULL))
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

static int rst_do_kvfree_barrier(void *unused)
{
	kvfree_rcu_barrier();
	return 0;
}

/* kfree_rcu() frees: after kvfree_rcu_barrier() the kmalloc live count is back down. */
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
	/* Tree RCU batches them (kvfree.c): rcu_barrier() alone does not wait for the batches. */
	if (!rst_call(rst_do_kvfree_barrier, NULL, RST_GP_MS, "kvfree_rcu_barrier()", NULL))
		return;
	mm_get_stats(&c);
	ktap_diag("kmalloc live: %lu before, %lu allocated, %lu after kvfree_rcu_barrier()",
		  a.kmalloc_live, b.kmalloc_live, c.kmalloc_live);
	KTAP_EXPECT_MSG(c.kmalloc_frees - b.kmalloc_frees >= (unsigned long)n,
			"%lu frees for %d kfree_rcu() calls", c.kmalloc_frees - b.kmalloc_frees, n);
	KTAP_EXPECT_MSG(c.kmalloc_live + n <= b.kmalloc_live + RST_KFREE_SLACK,
			"kmalloc live only went from %lu to %lu", b.kmalloc_live, c.kmalloc_live);
	kfree(objs);
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
		if (rcu_cpu_dynticks_credits(cpu))
			ktap_diag("CPU %u: %lu dyntick credits, %u timer interrupts during the test", cpu,
				  rcu_cpu_dynticks_credits(cpu),
				  READ_ONCE(per_cpu(irq_stat, cpu).local_timer) - loc0[cpu]);
}

static const struct ktap_case rcu_cases[] = {
	KTAP_CASE(rcu_sync_returns),
	KTAP_CASE(rcu_call_rcu_every_cpu),
	KTAP_CASE(rcu_barrier_waits),
	KTAP_CASE(rcu_poll_api),
	KTAP_CASE(rcu_poll_full_api),
	KTAP_CASE(rcu_poll_exp_api),
	KTAP_CASE(rcu_poll_completed),
	KTAP_CASE(rcu_kfree_rcu_frees),
	KTAP_CASE(rcu_rculist_api),
	KTAP_CASE(rcu_list_readers),
	KTAP_CASE(rcu_dyntick_idle_credit),
};
KTAP_SUITE(rcu, rcu_cases, &rcu_selftest);
