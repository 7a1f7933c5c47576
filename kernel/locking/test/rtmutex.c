/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * rt_mutex priority inheritance, direct and along a chain.
 */
#include "../../sched/test/suite.h"

/* --- rt_mutex priority inheritance ----------------------------------------------------- */

#define ST_PI_BOOST_PRIO	(MAX_RT_PRIO - 1 - 50)	/* FIFO 50 */

/*
 * One lock holder: takes `lock`, optionally then blocks on `then`, reports
 * `locked`, waits for `release`, unlocks in reverse order and records its
 * priority right after each unlock.
 */
struct st_pi_actor {
	struct rt_mutex *lock, *then;
	struct completion locked, release, done;
	int prio_after_unlock;
	bool got_then;
};

static int st_pi_actor_fn(void *data)
{
	struct st_pi_actor *a = data;

	rt_mutex_lock(a->lock);
	complete(&a->locked);
	if (a->then) {
		rt_mutex_lock(a->then);		/* blocks: someone holds it */
		a->got_then = true;
		rt_mutex_unlock(a->then);
	} else {
		ktest_wait(&a->release, 5000);	/* bounded even if the test gives up */
	}
	rt_mutex_unlock(a->lock);
	a->prio_after_unlock = current->prio;
	complete(&a->done);
	ktest_wait_stop();
	return 0;
}

static void st_pi_actor_init(struct st_pi_actor *a, struct rt_mutex *lock, struct rt_mutex *then)
{
	memset(a, 0, sizeof(*a));
	a->lock = lock;
	a->then = then;
	init_completion(&a->locked);
	init_completion(&a->release);
	init_completion(&a->done);
}

/* A waiter blocked in rt_mutex_lock() is on the lock's waiter list. */
static bool st_rt_mutex_has_waiters(struct rt_mutex *lock)
{
	return READ_ONCE(lock->waiters.next) != &lock->waiters;
}

static struct {
	struct rt_mutex l1, l2;
	struct st_pi_actor owner, mid, top;
} st_pi;

void sched_rt_mutex_pi(void)
{
	struct task_struct *o, *w;
	bool locked, boosted, done_o, done_w;

	rt_mutex_init(&st_pi.l1);
	st_pi_actor_init(&st_pi.owner, &st_pi.l1, NULL);
	st_pi_actor_init(&st_pi.top, &st_pi.l1, NULL);
	complete(&st_pi.top.release);	/* the waiter unlocks as soon as it gets the lock */
	o = ktest_kthread(st_pi_actor_fn, &st_pi.owner, -1, "st_pi_owner");
	w = ktest_kthread(st_pi_actor_fn, &st_pi.top, -1, "st_pi_fifo50");
	if (!o || !w)
		return;
	KTAP_EXPECT(st_set_fifo(w, 50) == 0);
	wake_up_process(o);
	locked = ktest_wait(&st_pi.owner.locked, ST_START_MS);
	KTAP_EXPECT_MSG(locked, "owner never took the rt_mutex");
	if (!locked)
		return;
	KTAP_EXPECT(rt_mutex_owner(&st_pi.l1) == o);
	KTAP_EXPECT_MSG(o->prio == DEFAULT_PRIO, "owner prio %d before any waiter", o->prio);
	wake_up_process(w);
	boosted = st_poll(READ_ONCE(o->prio) == ST_PI_BOOST_PRIO, 1000);
	KTAP_EXPECT_MSG(boosted, "owner prio %d with a FIFO 50 waiter, expected %d (queued: %d)",
			READ_ONCE(o->prio), ST_PI_BOOST_PRIO, st_rt_mutex_has_waiters(&st_pi.l1));
	KTAP_EXPECT(!completion_done(&st_pi.top.locked));
	complete(&st_pi.owner.release);
	done_o = ktest_wait(&st_pi.owner.done, ST_START_MS);
	done_w = ktest_wait(&st_pi.top.done, ST_START_MS);
	KTAP_EXPECT_MSG(done_o, "owner did not unlock");
	KTAP_EXPECT_MSG(done_w, "FIFO 50 waiter never got the lock");
	if (done_o)
		KTAP_EXPECT_MSG(st_pi.owner.prio_after_unlock == DEFAULT_PRIO,
				"owner prio %d right after unlock, expected %d",
				st_pi.owner.prio_after_unlock, DEFAULT_PRIO);
	KTAP_EXPECT_MSG(READ_ONCE(o->prio) == DEFAULT_PRIO, "owner prio %d after unlock",
			READ_ONCE(o->prio));
	KTAP_EXPECT(READ_ONCE(w->prio) == ST_PI_BOOST_PRIO);
	KTAP_EXPECT(!rt_mutex_is_locked(&st_pi.l1));
	ktap_diag("owner prio 120 -> %d while FIFO 50 waited, %d after unlock",
		  boosted ? ST_PI_BOOST_PRIO : -1, st_pi.owner.prio_after_unlock);
	st_stop_if(o, done_o);
	st_stop_if(w, done_w);
}

/* A holds L1; B holds L2 and blocks on L1; FIFO 50 C blocks on L2: A runs at C's priority. */
void sched_rt_mutex_pi_chain(void)
{
	struct task_struct *a, *b, *c;
	bool ok, boosted, done_a, done_b, done_c;

	rt_mutex_init(&st_pi.l1);
	rt_mutex_init(&st_pi.l2);
	st_pi_actor_init(&st_pi.owner, &st_pi.l1, NULL);
	st_pi_actor_init(&st_pi.mid, &st_pi.l2, &st_pi.l1);
	st_pi_actor_init(&st_pi.top, &st_pi.l2, NULL);
	complete(&st_pi.top.release);
	a = ktest_kthread(st_pi_actor_fn, &st_pi.owner, -1, "st_pi_a");
	b = ktest_kthread(st_pi_actor_fn, &st_pi.mid, -1, "st_pi_b");
	c = ktest_kthread(st_pi_actor_fn, &st_pi.top, -1, "st_pi_c");
	if (!a || !b || !c)
		return;
	KTAP_EXPECT(st_set_fifo(c, 50) == 0);
	wake_up_process(a);
	ok = ktest_wait(&st_pi.owner.locked, ST_START_MS);
	KTAP_EXPECT_MSG(ok, "A never took L1");
	if (!ok)
		return;
	wake_up_process(b);
	ok = ktest_wait(&st_pi.mid.locked, ST_START_MS) &&
	     st_poll(st_rt_mutex_has_waiters(&st_pi.l1), 1000);
	KTAP_EXPECT_MSG(ok, "B never blocked on L1");
	if (!ok) {
		complete(&st_pi.owner.release);
		return;
	}
	KTAP_EXPECT_MSG(a->prio == DEFAULT_PRIO, "A prio %d with a SCHED_NORMAL waiter", a->prio);
	wake_up_process(c);
	boosted = st_poll(READ_ONCE(a->prio) == ST_PI_BOOST_PRIO, 1000);
	KTAP_EXPECT_MSG(boosted, "A prio %d at the end of the chain, expected %d",
			READ_ONCE(a->prio), ST_PI_BOOST_PRIO);
	KTAP_EXPECT_MSG(READ_ONCE(b->prio) == ST_PI_BOOST_PRIO, "B prio %d, expected %d",
			READ_ONCE(b->prio), ST_PI_BOOST_PRIO);
	complete(&st_pi.owner.release);
	done_a = ktest_wait(&st_pi.owner.done, ST_START_MS);
	done_b = ktest_wait(&st_pi.mid.done, ST_START_MS);
	done_c = ktest_wait(&st_pi.top.done, ST_START_MS);
	KTAP_EXPECT_MSG(done_a && done_b && done_c, "chain did not unwind: A %d B %d C %d",
			done_a, done_b, done_c);
	KTAP_EXPECT(st_pi.mid.got_then);
	if (done_a)
		KTAP_EXPECT_MSG(st_pi.owner.prio_after_unlock == DEFAULT_PRIO,
				"A prio %d right after unlocking L1",
				st_pi.owner.prio_after_unlock);
	if (done_b)
		KTAP_EXPECT_MSG(st_pi.mid.prio_after_unlock == DEFAULT_PRIO,
				"B prio %d right after unlocking L2", st_pi.mid.prio_after_unlock);
	KTAP_EXPECT(READ_ONCE(a->prio) == DEFAULT_PRIO && READ_ONCE(b->prio) == DEFAULT_PRIO);
	KTAP_EXPECT(!rt_mutex_is_locked(&st_pi.l1) && !rt_mutex_is_locked(&st_pi.l2));
	ktap_diag("chain A<-B<-C(FIFO 50): A boosted to %d", boosted ? ST_PI_BOOST_PRIO : -1);
	st_stop_if(a, done_a);
	st_stop_if(b, done_b);
	st_stop_if(c, done_c);
}
