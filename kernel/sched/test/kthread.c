/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * kthreads on every CPU, and kthread_park()/unpark()/stop() of
 * parked and never-woken threads.
 */
#include "suite.h"

static int st_do_park(void *p) { return kthread_park(p); }

/* --- kthreads on every CPU ------------------------------------------------------ */

static struct st_percpu_slot {
	struct task_struct *p;
	int seen_cpu;
	struct completion ran;
} st_slots[NR_CPUS];

static int st_percpu_fn(void *data)
{
	struct st_percpu_slot *s = data;
	unsigned int cpu = s - st_slots;

	WRITE_ONCE(s->seen_cpu, smp_processor_id());
	complete(&s->ran);
	ktest_wait_stop();
	return 1000 + cpu;
}

void sched_kthread_every_cpu(void)
{
	unsigned int cpu, n = 0;

	for_each_online_cpu(cpu) {
		struct st_percpu_slot *s = &st_slots[cpu];

		s->seen_cpu = -1;
		init_completion(&s->ran);
		s->p = ktest_kthread(st_percpu_fn, s, cpu, "st_cpu/%u");
		if (s->p)
			wake_up_process(s->p);
	}
	for_each_online_cpu(cpu) {
		struct st_percpu_slot *s = &st_slots[cpu];
		bool ran;
		int ret = 0;

		if (!s->p)
			continue;
		ran = ktest_wait(&s->ran, ST_START_MS);
		KTAP_EXPECT_MSG(ran, "kthread bound to CPU %u never ran", cpu);
		KTAP_EXPECT_MSG(!ran || s->seen_cpu == (int)cpu,
				"kthread bound to CPU %u ran on CPU %d", cpu, s->seen_cpu);
		if (ran && st_stop(s->p, &ret)) {
			KTAP_EXPECT_MSG(ret == (int)(1000 + cpu),
					"kthread_stop() returned %d, expected %u", ret, 1000 + cpu);
			n++;
		} else if (!ran) {
			st_stop_if(s->p, false);
		}
	}
	ktap_diag("%u of %u CPUs ran their bound kthread", n, num_online_cpus());
}

/* --- kthread_park/unpark and kthread_stop of a parked and an unwoken thread ---------------- */

static struct {
	unsigned long loops;
	unsigned int parks, unparks;
	struct completion started;
} st_park;

static int st_park_fn(void *data)
{
	complete(&st_park.started);
	while (!kthread_should_stop()) {
		if (kthread_should_park()) {
			st_park.parks++;
			kthread_parkme();
			st_park.unparks++;
			continue;
		}
		WRITE_ONCE(st_park.loops, st_park.loops + 1);
		schedule_timeout_interruptible(1);
	}
	return 42;
}

void sched_kthread_park(void)
{
	struct task_struct *p;
	int ret = -1, round;

	memset(&st_park, 0, sizeof(st_park));
	init_completion(&st_park.started);
	p = ktest_kthread(st_park_fn, NULL, -1, "st_park");
	if (!p)
		return;
	wake_up_process(p);
	if (!ktest_wait(&st_park.started, ST_START_MS)) {
		KTAP_EXPECT_MSG(false, "thread never started");
		return;
	}
	for (round = 0; round < 3; round++) {
		unsigned long before;
		bool ok = ktest_call_timeout("st_call", -1, st_do_park, p, ST_STOP_MS, &ret, NULL);

		KTAP_EXPECT_MSG(ok, "kthread_park() did not return within %u ms (round %d)",
				ST_STOP_MS, round);
		if (!ok)
			return;
		KTAP_EXPECT(ret == 0);
		KTAP_EXPECT_MSG(task_state(p) == TASK_PARKED, "state %#lx after kthread_park()",
				task_state(p));
		before = READ_ONCE(st_park.loops);
		msleep(10);
		KTAP_EXPECT_MSG(READ_ONCE(st_park.loops) == before, "parked thread kept running");
		kthread_unpark(p);
		KTAP_EXPECT_MSG(st_poll(READ_ONCE(st_park.loops) != before, 1000),
				"unparked thread did not resume (round %d)", round);
	}
	KTAP_EXPECT(st_park.parks == 3 && st_park.unparks == 3);
	/* kthread_stop() of a parked thread unparks it and returns its result. */
	if (ktest_call_timeout("st_call", -1, st_do_park, p, ST_STOP_MS, NULL, NULL)) {
		ret = 0;
		if (st_stop(p, &ret))
			KTAP_EXPECT_MSG(ret == 42, "kthread_stop() of a parked thread returned %d",
					ret);
	} else {
		KTAP_EXPECT_MSG(false, "last kthread_park() did not return");
	}
}

/* Unpark and park again at once: the thread has not left kthread_parkme() yet. */
static int st_do_unpark_park(void *p)
{
	kthread_unpark(p);
	return kthread_park(p);
}

void sched_kthread_park_again(void)
{
	struct task_struct *p;
	int ret = -1;

	memset(&st_park, 0, sizeof(st_park));
	init_completion(&st_park.started);
	p = ktest_kthread(st_park_fn, NULL, -1, "st_repark");
	if (!p)
		return;
	wake_up_process(p);
	if (!ktest_wait(&st_park.started, ST_START_MS)) {
		KTAP_EXPECT_MSG(false, "thread never started");
		return;
	}
	if (!ktest_call_timeout("st_call", -1, st_do_park, p, ST_STOP_MS, NULL, NULL)) {
		KTAP_EXPECT_MSG(false, "kthread_park() did not return");
		return;
	}
	for (int round = 0; round < 5; round++) {
		bool ok = ktest_call_timeout("st_call", -1, st_do_unpark_park, p, ST_STOP_MS, &ret, NULL);

		KTAP_EXPECT_MSG(ok, "kthread_park() right after kthread_unpark() hung (round %d)",
				round);
		if (!ok)
			return;		/* the thread stays parked for good: leave it */
		KTAP_EXPECT(task_state(p) == TASK_PARKED);
	}
	if (st_stop(p, &ret))
		KTAP_EXPECT(ret == 42);
}

static bool st_unwoken_ran;

static int st_unwoken_fn(void *data)
{
	WRITE_ONCE(st_unwoken_ran, true);
	ktest_wait_stop();
	return 0;
}

void sched_kthread_stop_unwoken(void)
{
	struct task_struct *p = ktest_kthread(st_unwoken_fn, NULL, -1, "st_unwoken");
	int ret = 0;

	if (!p)
		return;
	st_unwoken_ran = false;
	if (st_stop(p, &ret))
		KTAP_EXPECT_MSG(ret == -EINTR, "kthread_stop() of a never-woken thread returned %d",
				ret);
	KTAP_EXPECT_MSG(!READ_ONCE(st_unwoken_ran), "the thread function ran");
}

/* --- a dead task outlives an interrupts-off region that began before its death ------------ */

static int st_exit_at_once(void *data)
{
	return 0;
}

/*
 * try_to_wake_up() still holds the wakee's pi_lock after queueing it; a
 * wakee bound to another CPU may run there, exit and switch out before the
 * waker's unlock. Its task_struct must outlive that (it is freed a grace
 * period after its final switch: put_task_struct_rcu_user()). Here the
 * waker, pinned to one CPU, wakes an exiting kthread bound to another and,
 * still with interrupts off, waits until it is dead and off its CPU, then
 * a while longer: its task_struct must still be intact (a freed one is
 * poisoned with slub_debug=P, on in test kernels by CONFIG_SLUB_DEBUG_ON).
 * Freed at the switch, as before,
 * TREE01 once faulted in the waker's unlock.
 */
void sched_task_freed_after_gp(void)
{
	unsigned int me, other = ktest_last_online_cpu();
	bool dead = false, intact;
	struct cpumask saved;
	struct task_struct *p;
	unsigned long flags;
	int pid, pid_now = 0, usage_now = 0;
	u64 end;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	me = other == 0 ? 1 : 0;
	while (me < nr_cpu_ids && (me == other || !cpu_online(me)))
		me++;
	p = ktest_kthread(st_exit_at_once, NULL, other, "st_exit/%u");
	if (!p)
		return;
	pid = p->pid;
	ktest_pin_current(me, &saved);
	local_irq_save(flags);
	wake_up_process(p);	/* no reference kept: as any waker's wakee, p may die at once */
	end = local_clock() + (u64)ST_START_MS * NSEC_PER_MSEC;
	while (local_clock() < end) {
		/* Acquire: pairs with finish_task_switch()'s release of on_cpu. */
		if ((READ_ONCE(p->__state) == TASK_DEAD &&
		     !__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE)) ||
		    READ_ONCE(p->pid) != pid) {		/* or already freed and poisoned */
			dead = true;
			break;
		}
		cpu_relax();
	}
	if (dead)
		mdelay(5);	/* a free at the switch would have happened by now */
	pid_now = READ_ONCE(p->pid);
	usage_now = READ_ONCE(p->usage);
	intact = pid_now == pid && usage_now == 1;
	local_irq_restore(flags);	/* from here p may be freed: not touched again */
	ktest_unpin_current(&saved);
	KTAP_EXPECT_MSG(dead, "the kthread on CPU %u did not exit within %u ms", other, ST_START_MS);
	KTAP_EXPECT_MSG(!dead || intact,
			"task_struct freed while a waker on CPU %u still had interrupts off (pid %d, usage %d)",
			me, pid_now, usage_now);
}
