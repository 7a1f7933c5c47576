/*
 * The "sched" KTAP suite (sched.selftest=1, kernel/sched/test/suite.c):
 * mutexes: counter increments with a reschedule inside the
 * critical section, from threads on every CPU.
 */
#include "../../sched/test/suite.h"

/* --- mutex: counter increments with a reschedule inside the critical section ------------ */

/*
 * Each thread increments 10000 times unless the deadline passes first: on
 * 2 CPUs under MTTCG on a busy host every handoff to the other CPU waits
 * for the host to run that vCPU thread, and 40000 handoffs have taken 3 to
 * 25 s. Past the deadline each thread stops at its next iteration; the
 * count must still be exact, and every thread must have made progress.
 */
#define ST_MUTEX_THREADS	4
#define ST_MUTEX_LOOPS		10000
#define ST_MUTEX_DEADLINE_NS	(10000 * NSEC_PER_MSEC)
#define ST_MUTEX_MIN_LOOPS	100
static DEFINE_MUTEX(st_mutex);
static struct {
	unsigned long counter;
	unsigned int loops[ST_MUTEX_THREADS];
	struct completion done[ST_MUTEX_THREADS];
	u64 deadline;
	bool overlap;
	int holder;
} st_mtx;

static int st_mutex_fn(void *data)
{
	int me = (long)data + 1;
	unsigned int i;

	for (i = 0; i < ST_MUTEX_LOOPS && local_clock() < st_mtx.deadline; i++) {
		unsigned long v;

		mutex_lock(&st_mutex);
		if (READ_ONCE(st_mtx.holder))
			st_mtx.overlap = true;
		WRITE_ONCE(st_mtx.holder, me);
		v = READ_ONCE(st_mtx.counter);
		cond_resched();
		WRITE_ONCE(st_mtx.counter, v + 1);
		if (READ_ONCE(st_mtx.holder) != me)
			st_mtx.overlap = true;
		WRITE_ONCE(st_mtx.holder, 0);
		mutex_unlock(&st_mutex);
	}
	st_mtx.loops[me - 1] = i;
	complete(&st_mtx.done[me - 1]);
	ktest_wait_stop();
	return 0;
}

void sched_mutex_counter(void)
{
	struct task_struct *p[ST_MUTEX_THREADS];
	bool done[ST_MUTEX_THREADS];
	unsigned int ncpus = num_online_cpus(), cpu = cpumask_first(cpu_online_mask);
	unsigned long sum = 0;
	u64 t0, dt;

	memset(&st_mtx, 0, sizeof(st_mtx));
	mutex_init(&st_mutex);
	for (int i = 0; i < ST_MUTEX_THREADS; i++) {
		init_completion(&st_mtx.done[i]);
		/* Spread over the CPUs, several per CPU when there are few. */
		p[i] = ktest_kthread(st_mutex_fn, (void *)(long)i, cpu, "st_mutex/%u");
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	t0 = local_clock();
	st_mtx.deadline = t0 + ST_MUTEX_DEADLINE_NS;
	for (int i = 0; i < ST_MUTEX_THREADS; i++)
		if (p[i])
			wake_up_process(p[i]);
	for (int i = 0; i < ST_MUTEX_THREADS; i++) {
		done[i] = p[i] &&
			  ktest_wait(&st_mtx.done[i], ST_MUTEX_DEADLINE_NS / NSEC_PER_MSEC + 5000);
		KTAP_EXPECT_MSG(done[i], "mutex thread %d did not finish", i);
		if (done[i]) {
			sum += st_mtx.loops[i];
			KTAP_EXPECT_MSG(st_mtx.loops[i] >= ST_MUTEX_MIN_LOOPS,
					"mutex thread %d got the lock only %u times", i,
					st_mtx.loops[i]);
		}
	}
	dt = local_clock() - t0;
	KTAP_EXPECT_MSG(st_mtx.counter == sum, "counter %lu, expected %lu", st_mtx.counter, sum);
	KTAP_EXPECT_MSG(!st_mtx.overlap, "two threads were inside the mutex at once");
	KTAP_EXPECT(!mutex_is_locked(&st_mutex));
	KTAP_EXPECT(mutex_trylock(&st_mutex));
	KTAP_EXPECT(!mutex_trylock(&st_mutex));
	mutex_unlock(&st_mutex);
	ktap_diag("%d threads on %u CPUs: %lu locked increments in %llu ms%s", ST_MUTEX_THREADS,
		  min(ncpus, (unsigned int)ST_MUTEX_THREADS), st_mtx.counter, dt / NSEC_PER_MSEC,
		  sum < ST_MUTEX_THREADS * ST_MUTEX_LOOPS ? " (stopped at the deadline)" : "");
	for (int i = 0; i < ST_MUTEX_THREADS; i++)
		st_stop_if(p[i], done[i]);
}
