/*
 * What the files of the "rcu" KTAP suite share (kernel/rcu/test/api.c,
 * which lists the cases, rculist.c and poll.c): budgets, the bounded helpers
 * and the list cases.
 */
#ifndef _RCU_TEST_COMMON_H
#define _RCU_TEST_COMMON_H

#include "../rcu.h"
#include <rcu/torture.h>	/* what the tests may read of a flavor's state */
#include <rcu/rcupdate.h>
#include <rcu/rculist.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <kernel/irq.h>
#include <time/time.h>
#include <time/delay.h>
#include <kernel/atomic.h>
#include <mm/slab.h>
#include <mm/mm.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/barrier.h>

/* Budgets. Generous: under TCG, and with busy CPUs a grace period waits ~100 ms for cond_resched(). */
#define RST_GP_MS	10000	/* one synchronize_rcu() or rcu_barrier() */
#define RST_START_MS	5000	/* per-CPU workers finish their (short) job */
#define RST_STOP_MS	5000	/* kthread_stop() returns */
#define RST_LIST_MS	1500	/* update phase of the list test */
#define RST_LIST_WAIT_MS	30000	/* at most this much longer, for readers still to walk */

/* rcutree.selftest=1 (api.c); the rcu_gp and rcu_exp suites run on it too. */
extern bool rcu_selftest;
/* rcutree.preempt_selftest=1 (preempt.c); the rcu_preempt_exp suite runs on it too. */
extern bool rcu_preempt_selftest;

/* Run fn(arg) in a helper kthread for at most ms; a timeout fails the case. *ns: its duration. */
bool rst_call(int (*fn)(void *), void *arg, unsigned int ms, const char *what, u64 *ns);
/* synchronize_rcu()/rcu_barrier() in a helper kthread, at most RST_GP_MS; false (reported) if stuck. */
bool rst_barrier(void);
/* Poll an ordinary cookie every step_ms for at most ms: 0 once it is done, -1 on timeout. */
int rst_poll_until(unsigned long cookie, unsigned int ms, unsigned int step_ms);
/* Run fn(cpu) in a kthread on every CPU of mask, all within ms; false (reported) otherwise. */
bool rst_run_on_cpus(const struct cpumask *mask, void (*fn)(unsigned int cpu), unsigned int ms);

/* A conditional wait: on an ordinary cookie (cond), or on a full-state one (cond_full). */
struct rst_cond {
	void (*cond)(unsigned long oldstate);
	unsigned long oldstate;
	void (*cond_full)(struct rcu_gp_oldstate *rgosp);
	struct rcu_gp_oldstate *rgosp;
};

/* Run *c (struct rst_cond *), for rst_call() or ktest_call_timeout(): returns how often it slept. */
int rst_do_cond(void *arg);
/* *c on a complete cookie returns at once: no sleep, no expedited grace period, under 50 ms. */
void rst_cond_at_once(struct rst_cond *c, const char *what);

/* poll.c: Linux 6.1's full-state and expedited polling API */
void rcu_poll_full_api(void);
void rcu_poll_exp_api(void);
void rcu_poll_completed(void);

/* rculist.c */
void rcu_rculist_api(void);
void rcu_list_readers(void);

#endif
