/*
 * KTAP suite "rcu_gp", case gp_wake_count: rcu_state.n_gp_kthread_wakeups
 * (the power-off line's "GP kthread wakeups") is counted by every CPU that
 * wakes the grace-period kthread, with no lock in common: the increment
 * must be atomic, or increments are lost and KCSAN reports a data race
 * (kvm.sh --kcsan FWD01 found "data-race in __rcu_gp_kthread_wake /
 * rcu_gp_kthread_wake", rcuc on one CPU against a context switch on
 * another). Two kthreads, on the first and the last online CPU, wake the
 * kthread in a loop while KCSAN watches the counter; the race on it must
 * not be found. Without CONFIG_KCSAN_SELFTEST (KCSAN's hooks) it skips.
 */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/kcsan.h>
#include <kernel/smp.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <time/time.h>
#include <time/delay.h>

void gp_wake_count(void);

#ifdef CONFIG_KCSAN_SELFTEST
#define GWC_MS	2000	/* longest run: KCSAN finds the old race in well under it */

static bool gwc_stop;
static struct completion gwc_done[2];
static unsigned long gwc_calls[2];

static int gwc_thread(void *data)
{
	long i = (long)data;

	while (!READ_ONCE(gwc_stop)) {
		for (int j = 0; j < 100; j++)
			rcu_gp_kthread_wake();
		gwc_calls[i] += 100;
		cond_resched();
	}
	complete(&gwc_done[i]);
	ktest_wait_stop();
	return 0;
}

void gp_wake_count(void)
{
	unsigned int cpus[2] = { 0, ktest_last_online_cpu() };
	struct task_struct *p[2];
	unsigned long races0, races, end;
	bool ok[2];

	if (cpus[1] == 0) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	kcsan_test_watch_addr(&rcu_state.n_gp_kthread_wakeups, sizeof(rcu_state.n_gp_kthread_wakeups));
	races0 = kcsan_test_races_at();
	WRITE_ONCE(gwc_stop, false);
	for (long i = 0; i < 2; i++) {	/* each starts as soon as it exists */
		init_completion(&gwc_done[i]);
		gwc_calls[i] = 0;
		p[i] = ktest_kthread(gwc_thread, (void *)i, cpus[i], "gwc/%u");
		ok[i] = p[i] != NULL;
		if (ok[i])
			wake_up_process(p[i]);
	}
	end = jiffies + msecs_to_jiffies(GWC_MS);
	while (time_before(jiffies, end) && kcsan_test_races_at() == races0)
		msleep(10);
	WRITE_ONCE(gwc_stop, true);
	for (int i = 0; i < 2; i++) {
		if (!ok[i])
			continue;
		ok[i] = ktest_wait(&gwc_done[i], 5000);
		ktest_stop_if(p[i], ok[i], 5000);	/* a stuck one is left running */
	}
	races = kcsan_test_races_at() - races0;
	ktap_diag("CPUs %u and %u: %lu and %lu wakeups, races on the counter: %lu",
		  cpus[0], cpus[1], gwc_calls[0], gwc_calls[1], races);
	KTAP_EXPECT(ok[0] && ok[1]);
	KTAP_EXPECT_MSG(!races, "%lu races on rcu_state.n_gp_kthread_wakeups", races);
}
#else
void gp_wake_count(void)
{
	ktap_skip("needs CONFIG_KCSAN_SELFTEST");
}
#endif
