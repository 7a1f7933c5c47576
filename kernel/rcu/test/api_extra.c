/*
 * The KTAP suite "rcu_api" (rcupdate.api_selftest=1): Linux 6.1's RCU API
 * beyond call_rcu()/synchronize_rcu() and the basic lists. This file has
 * the case list, the concurrent-readers harness the list cases share, and
 * the small cases: rcu_replace_pointer(), rcu_pointer_handoff(),
 * rcu_read_lock_any_held(), rcu_head_init()/rcu_head_after_call_rcu(),
 * synchronize_rcu_mult() and rcu_cpu_stall_reset(). rcu_sync is in
 * rcu_sync.c, the list forms in rculist_splice.c, rculist_nulls.c and
 * rculist_bl.c, and the rwlock_t/rw_semaphore that refscale compares RCU
 * with in rwlocks.c.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "api_extra.h"
#include <kernel/param.h>
#include <rcu/tasks.h>
#include <locking/spinlock.h>
#include <time/timer.h>

static bool rcu_api_selftest;
KPARAM_BOOL("rcupdate.api_selftest", rcu_api_selftest,
	    "run the RCU API self-tests (KTAP suite \"rcu_api\") at boot");

/* --- the concurrent-readers harness ------------------------------------------------ */

static struct {
	void (*update)(void);
	void (*read)(unsigned int cpu);
	unsigned int updater_cpu;
	u64 deadline;
	bool stop;
	unsigned long reads[NR_CPUS];
} rat;

/* Every reader has read at least once (readers may start late on a loaded host). */
static bool rat_all_read(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != rat.updater_cpu && !READ_ONCE(rat.reads[cpu]))
			return false;
	return true;
}

static void rat_worker(unsigned int cpu)
{
	if (cpu == rat.updater_cpu) {
		bool up = num_online_cpus() == 1;
		u64 start = local_clock(), end = start + RAT_UPDATE_MS * NSEC_PER_MSEC;

		/*
		 * The phase starts when the updater does, and goes on past its
		 * end until every reader has read (at most 5 s more): on a
		 * busy host a worker kthread may first run late.
		 */
		WRITE_ONCE(rat.deadline, end);
		do {
			rat.update();
			if (up) {
				rat.read(cpu);
				WRITE_ONCE(rat.reads[cpu], rat.reads[cpu] + 1);
			}
			cond_resched();
		} while (local_clock() < end ||
			 (!rat_all_read() && local_clock() < end + 5 * NSEC_PER_SEC));
		WRITE_ONCE(rat.stop, true);
		return;
	}
	/* A reader that starts late still reads once; the updater's end bounds the rest. */
	do {
		rat.read(cpu);
		WRITE_ONCE(rat.reads[cpu], rat.reads[cpu] + 1);
		cond_resched();	/* a quiescent state between read-side sections */
	} while (!READ_ONCE(rat.stop) && local_clock() < READ_ONCE(rat.deadline) + 10 * NSEC_PER_SEC);
}

bool rat_concurrent(void (*update)(void), void (*read)(unsigned int cpu), unsigned long *reads)
{
	unsigned int cpu;
	bool ok;

	rat.update = update;
	rat.read = read;
	rat.updater_cpu = raw_smp_processor_id();
	rat.stop = false;
	memset(rat.reads, 0, sizeof(rat.reads));
	/* Until the updater sets its own: a bound for readers that start first. */
	rat.deadline = local_clock() + RAT_UPDATE_MS * NSEC_PER_MSEC + 15 * NSEC_PER_SEC;
	ok = rst_run_on_cpus(cpu_online_mask, rat_worker, RAT_UPDATE_MS + 30000);
	*reads = 0;
	for_each_online_cpu(cpu)
		*reads += rat.reads[cpu];
	return ok;
}

/* --- pointers -------------------------------------------------------------------------- */

struct rat_obj {
	int val;
	struct rcu_head rh;
};

static DEFINE_SPINLOCK(rat_lock);
static struct rat_obj __rcu *rat_gp;

/* rcu_replace_pointer() returns the old value and publishes the new one; a reader sees it. */
static void rcu_api_replace_pointer(void)
{
	static struct rat_obj a = { .val = 1 }, b = { .val = 2 };
	struct rat_obj *old, *p;

	RCU_INIT_POINTER(rat_gp, &a);
	spin_lock(&rat_lock);
	old = rcu_replace_pointer(rat_gp, &b, lockdep_is_held(&rat_lock));
	spin_unlock(&rat_lock);
	KTAP_EXPECT(old == &a);
	rcu_read_lock();
	p = rcu_dereference(rat_gp);
	KTAP_EXPECT(p == &b && p->val == 2);
	rcu_read_unlock();
	spin_lock(&rat_lock);
	old = rcu_replace_pointer(rat_gp, NULL, lockdep_is_held(&rat_lock));
	spin_unlock(&rat_lock);
	KTAP_EXPECT(old == &b && rcu_access_pointer(rat_gp) == NULL);
}

/* A pointer taken in a reader and handed to a reference: rcu_pointer_handoff() is the identity. */
static void rcu_api_pointer_handoff(void)
{
	static struct rat_obj a = { .val = 7 };
	atomic_t ref = ATOMIC_INIT(0);
	struct rat_obj *p, *q;

	RCU_INIT_POINTER(rat_gp, &a);
	rcu_read_lock();
	p = rcu_dereference(rat_gp);
	atomic_inc(&ref);		/* the reference that now protects p */
	q = rcu_pointer_handoff(p);
	rcu_read_unlock();
	KTAP_EXPECT(q == &a && q->val == 7 && atomic_read(&ref) == 1);
	RCU_INIT_POINTER(rat_gp, NULL);
}

/*
 * rcu_read_lock_any_held(): true in every kind of reader; outside one it
 * agrees with rcu_read_lock_held() (false where the kernel can tell: a
 * preempt count or lockdep-RCU; true otherwise, as Linux without lockdep).
 */
static void rcu_api_any_held(void)
{
	unsigned long flags;
	bool can_tell = IS_ENABLED(CONFIG_PREEMPT_COUNT) || IS_ENABLED(CONFIG_PROVE_RCU);

	rcu_read_lock();
	KTAP_EXPECT(rcu_read_lock_any_held());
	rcu_read_unlock();
	rcu_read_lock_bh();
	KTAP_EXPECT(rcu_read_lock_any_held());
	rcu_read_unlock_bh();
	rcu_read_lock_sched();
	KTAP_EXPECT(rcu_read_lock_any_held());
	rcu_read_unlock_sched();
	local_irq_save(flags);
	KTAP_EXPECT(rcu_read_lock_any_held());
	local_irq_restore(flags);
	KTAP_EXPECT(rcu_read_lock_any_held() == rcu_read_lock_held());
	if (can_tell)
		KTAP_EXPECT_MSG(!rcu_read_lock_any_held(), "true outside every reader");
}

static void rat_cb(struct rcu_head *rh) { }
static void rat_cb_other(struct rcu_head *rh) { }

/*
 * rcu_head_after_call_rcu(): false after rcu_head_init() whatever the
 * function asked about, true once call_rcu() (or call_rcu_tasks()) queued
 * the head with that function. (Asking about another function once the
 * head is queued is a bug that warns, as in Linux: not tried here.)
 */
static void rcu_api_head_after_call(void)
{
	static struct rcu_head h;

	rcu_head_init(&h);
	KTAP_EXPECT(!rcu_head_after_call_rcu(&h, rat_cb));
	KTAP_EXPECT(!rcu_head_after_call_rcu(&h, rat_cb_other));
	call_rcu(&h, rat_cb);
	KTAP_EXPECT(rcu_head_after_call_rcu(&h, rat_cb));
	rst_barrier();		/* h's callback has run before h is reused */
	rcu_head_init(&h);
	call_rcu_tasks(&h, rat_cb);
	KTAP_EXPECT(rcu_head_after_call_rcu(&h, rat_cb));
	rcu_barrier_tasks();
}

/*
 * A call_rcu-style function of the test's own whose "grace period" is a
 * 100 ms timer: synchronize_rcu_mult() naming it must wait that long
 * however fast RCU's grace period is, and must queue it once when it is
 * named twice.
 */
#define RAT_SLOW_MS	100
static struct timer_list rat_slow_timer;
static struct rcu_head *rat_slow_head;
static rcu_callback_t rat_slow_func;
static atomic_t rat_slow_calls;

static void rat_slow_fire(struct timer_list *t)
{
	rat_slow_func(rat_slow_head);
}

static void rat_slow_call(struct rcu_head *head, rcu_callback_t func)
{
	atomic_inc(&rat_slow_calls);
	rat_slow_head = head;
	rat_slow_func = func;
	mod_timer(&rat_slow_timer, jiffies + msecs_to_jiffies(RAT_SLOW_MS) + 1);
}

static int rat_do_mult(void *arg)
{
	switch ((long)arg) {
	case 0:
		synchronize_rcu_mult(call_rcu, call_rcu_tasks);
		break;
	case 1:
		synchronize_rcu_mult(call_rcu, rat_slow_call);
		break;
	default:
		synchronize_rcu_mult(rat_slow_call, call_rcu, rat_slow_call);	/* named twice */
		break;
	}
	return 0;
}

/*
 * synchronize_rcu_mult(call_rcu, call_rcu_tasks) returns after a grace
 * period of both (the ordinary cookie taken before is complete, and a
 * Tasks RCU grace period ended); with the test's own 100 ms flavor it
 * waits at least those 100 ms, whichever is named first, and a flavor
 * named twice is queued once. Tiny RCU skips call_rcu (the caller's
 * blocking is its grace period), so the cookie is checked on Tree only.
 */
static void rcu_api_sync_mult(void)
{
	unsigned long cookie = get_state_synchronize_rcu();
	unsigned long tasks0 = rcu_tasks_gp_completed();
	u64 ns = 0;

	if (!rst_call(rat_do_mult, (void *)0, RST_GP_MS, "synchronize_rcu_mult(call_rcu, call_rcu_tasks)", &ns))
		return;
	if (!IS_ENABLED(CONFIG_TINY_RCU))
		KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
				"returned before an RCU grace period ended");
	KTAP_EXPECT_MSG(rcu_tasks_gp_completed() != tasks0,
			"returned before a Tasks RCU grace period ended");
	ktap_diag("synchronize_rcu_mult(call_rcu, call_rcu_tasks): %llu us",
		  (unsigned long long)(ns / NSEC_PER_USEC));
	timer_setup(&rat_slow_timer, rat_slow_fire, 0);
	for (long how = 1; how <= 2; how++) {
		atomic_set(&rat_slow_calls, 0);
		cookie = get_state_synchronize_rcu();
		if (!rst_call(rat_do_mult, (void *)how, RST_GP_MS, "synchronize_rcu_mult()", &ns))
			return;
		KTAP_EXPECT_MSG(ns >= (RAT_SLOW_MS - 10) * NSEC_PER_MSEC,	/* jiffies vs clock */
				"returned after %llu us, before the %d ms flavor's callback",
				(unsigned long long)(ns / NSEC_PER_USEC), RAT_SLOW_MS);
		KTAP_EXPECT_MSG(atomic_read(&rat_slow_calls) == 1, "the 100 ms flavor was queued %d times",
				atomic_read(&rat_slow_calls));
		if (!IS_ENABLED(CONFIG_TINY_RCU))
			KTAP_EXPECT(poll_state_synchronize_rcu(cookie));
	}
}

/* rcu_cpu_stall_reset(): Tree RCU's check is in stall_reset.c; Tiny RCU has no stall warnings. */
static void rcu_api_stall_reset(void)
{
	if (IS_ENABLED(CONFIG_RCU_STALL_COMMON)) {
		rcu_api_stall_reset_tree();
		return;
	}
	rcu_cpu_stall_reset();	/* a no-op that must exist */
	ktap_skip("no RCU CPU stall warnings in this kernel");
}

static const struct ktap_case rcu_api_cases[] = {
	KTAP_CASE(rcu_api_replace_pointer),
	KTAP_CASE(rcu_api_pointer_handoff),
	KTAP_CASE(rcu_api_any_held),
	KTAP_CASE(rcu_api_head_after_call),
	KTAP_CASE(rcu_api_sync_mult),
	KTAP_CASE(rcu_api_stall_reset),
	KTAP_CASE(rcu_api_sync_states),
	KTAP_CASE(rcu_api_sync_readers),
	KTAP_CASE(rcu_api_list_splice),
	KTAP_CASE(rcu_api_list_splice_readers),
	KTAP_CASE(rcu_api_hlist_before_behind),
	KTAP_CASE(rcu_api_list_srcu),
	KTAP_CASE(rcu_api_hlist_nulls),
	KTAP_CASE(rcu_api_hlist_nulls_readers),
	KTAP_CASE(rcu_api_hlist_bl),
	KTAP_CASE(rcu_api_hlist_bl_readers),
	KTAP_CASE(rcu_api_rwlock),
	KTAP_CASE(rcu_api_rwsem),
};
KTAP_SUITE(rcu_api, rcu_api_cases, &rcu_api_selftest);
