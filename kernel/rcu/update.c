/*
 * Flavor-independent RCU pieces: wait_rcu_gp() and synchronize_rcu_mult(), the
 * expedite steering, cond_synchronize_rcu() and, with the stall machinery (CONFIG_RCU_STALL_COMMON, Tree RCU), the
 * rcupdate.* boot parameters and the stall-timeout arithmetic.
 *
 * As in Linux, this file has no "rcu: " prefix on its boot lines: they
 * are indented continuations of the implementation banner that
 * rcu_params_init() prints ("\tRCU CPU stall warnings ...").
 */
#define KPARAM_SUBSYS "rcu"

#include "rcu.h"
#include <kernel/param.h>
#include <kernel/printk.h>
#include <time/time.h>
#include <kernel/atomic.h>
#include <rcu/rcupdate.h>
#include <rcu/tasks.h>
#include <rcu/rcupdate_trace.h>
#include <rcu/torture.h>	/* rcutorture_gp_seq_in_progress(), rcu_jiffies_till_stall_check() */
#include <sched/completion.h>

#define RCU_STALL_TIMEOUT_MIN	3	/* seconds */
#define RCU_STALL_TIMEOUT_MAX	300
/* Extra jiffies on top of the timeout (Linux adds 5 s with lockdep-RCU; we have none). */
#define RCU_STALL_DELAY_DELTA	0

/* Stall warnings need the stall machinery, which Tiny RCU does not have. */
#ifdef CONFIG_RCU_STALL_COMMON
int rcu_cpu_stall_timeout = CONFIG_RCU_CPU_STALL_TIMEOUT;
KPARAM_CLAMP("rcupdate.rcu_cpu_stall_timeout", rcu_cpu_stall_timeout, KPARAM_INT,
	     RCU_STALL_TIMEOUT_MIN, RCU_STALL_TIMEOUT_MAX,
	     "seconds a grace period may last before an RCU CPU stall warning");

bool rcu_cpu_stall_suppress;
KPARAM_BOOL("rcupdate.rcu_cpu_stall_suppress", rcu_cpu_stall_suppress,
	    "do not print RCU CPU stall warnings");
#endif

/*
 * Expedite steering, as Linux's update.c. rcu_expedited: synchronize_rcu()
 * runs an expedited grace period. rcu_normal: synchronize_rcu_expedited()
 * waits for a normal one, overriding rcu_expedited and the boot-time
 * expediting. rcu_normal_after_boot: rcu_normal is set when the boot
 * phase ends (rcu_end_inkernel_boot()).
 */
static bool rcu_expedited;
static bool rcu_normal;
static bool rcu_normal_after_boot;
/*
 * As in Linux, Tiny RCU has no such parameters: every grace period it has
 * is as fast as an expedited one (the generated kernel/params_absent.c
 * says they do not apply).
 */
#ifndef CONFIG_TINY_RCU
KPARAM_BOOL("rcupdate.rcu_expedited", rcu_expedited,
	    "synchronize_rcu() uses expedited grace periods");
KPARAM_BOOL("rcupdate.rcu_normal", rcu_normal,
	    "synchronize_rcu_expedited() waits for normal grace periods (overrides rcu_expedited)");
KPARAM_BOOL("rcupdate.rcu_normal_after_boot", rcu_normal_after_boot,
	    "set rcu_normal once the kernel's boot phase has ended");
#endif

/*
 * wait_rcu_gp(): synchronize_rcu() and its kin for every flavor (Tree,
 * Tiny, Tasks RCU): queue one callback through crf and sleep until it has
 * run. The callback runs only after a full grace period of crf's flavor,
 * and complete()/wait_for_completion() order everything the grace period
 * saw before the waiter's return (the completion's lock).
 */
struct rcu_synchronize {
	struct rcu_head head;
	struct completion completion;
};

static void wakeme_after_rcu(struct rcu_head *head)
{
	complete(&container_of(head, struct rcu_synchronize, head)->completion);
}

void wait_rcu_gp(call_rcu_func_t crf)
{
	struct rcu_synchronize rs;

	init_completion(&rs.completion);
	init_rcu_head_on_stack(&rs.head);	/* DEBUG_OBJECTS_RCU_HEAD: a stack head, on purpose */
	crf(&rs.head, wakeme_after_rcu);
	wait_for_completion(&rs.completion);
	destroy_rcu_head_on_stack(&rs.head);
}

/* Flavors one synchronize_rcu_mult() may name (Linux's callers name at most three). */
#define RCU_MULT_MAX	8

/*
 * synchronize_rcu_mult()'s body (<rcu/rcupdate.h>): queue one callback per
 * distinct function first, then wait for each, so the grace periods run
 * at the same time. A duplicate is queued once (its head is in use) and
 * waited for once. Each completion is ordered after its grace period as
 * in wait_rcu_gp().
 */
void __wait_rcu_gp(bool checktiny, unsigned int n, call_rcu_func_t *crcu_array)
{
	struct rcu_synchronize rs[RCU_MULT_MAX];
	bool queued[RCU_MULT_MAX];

	if (WARN_ON_ONCE(n > RCU_MULT_MAX))
		n = RCU_MULT_MAX;
	for (unsigned int i = 0; i < n; i++) {
		queued[i] = false;
		if (checktiny && crcu_array[i] == call_rcu)
			continue;	/* Tiny RCU: blocking here is call_rcu's grace period */
		for (unsigned int j = 0; j < i; j++)
			if (crcu_array[j] == crcu_array[i])
				goto next;
		init_completion(&rs[i].completion);
		init_rcu_head_on_stack(&rs[i].head);
		crcu_array[i](&rs[i].head, wakeme_after_rcu);
		queued[i] = true;
next:		;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (!queued[i])
			continue;
		wait_for_completion(&rs[i].completion);
		destroy_rcu_head_on_stack(&rs[i].head);
	}
}

/* rcu_expedite_gp() nesting; 1 from rcu_init() until rcu_end_inkernel_boot(). */
static atomic_t rcu_expedited_nesting = ATOMIC_INIT(0);

bool rcu_gp_is_normal(void)
{
	return READ_ONCE(rcu_normal);
}

bool rcu_gp_is_expedited(void)
{
	return READ_ONCE(rcu_expedited) || atomic_read(&rcu_expedited_nesting);
}

void rcu_expedite_gp(void)
{
	atomic_inc(&rcu_expedited_nesting);
}

void rcu_unexpedite_gp(void)
{
	atomic_dec(&rcu_expedited_nesting);
}

/*
 * Every flavor: wait only if the polled cookie's grace period has not ended
 * yet. The _expedited forms wait with synchronize_rcu_expedited(), the
 * _full forms take a full-state cookie (<rcu/rcupdate.h>). Task context.
 */
void cond_synchronize_rcu(unsigned long oldstate)
{
	if (!poll_state_synchronize_rcu(oldstate))
		synchronize_rcu();
}

void cond_synchronize_rcu_expedited(unsigned long oldstate)
{
	if (!poll_state_synchronize_rcu(oldstate))
		synchronize_rcu_expedited();
}

void cond_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	if (!poll_state_synchronize_rcu_full(rgosp))
		synchronize_rcu();
}

void cond_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	if (!poll_state_synchronize_rcu_full(rgosp))
		synchronize_rcu_expedited();
}

/* A cookie that is complete from the start (RCU_GET_STATE_COMPLETED), every flavor. */
unsigned long get_completed_synchronize_rcu(void)
{
	return RCU_GET_STATE_COMPLETED;
}

/* Two cookies for the same grace period (a complete cookie may match no other). */
bool same_state_synchronize_rcu(unsigned long oldstate1, unsigned long oldstate2)
{
	return oldstate1 == oldstate2;
}

/*
 * The end of the boot phase: called once by init (pid 1) when every CPU
 * is online, before the initcalls run (init/main.c). Linux ends it later,
 * at free_initmem() after its initcalls; here the initcalls are where the
 * self-tests and benchmarks run, and they must see the configured
 * (after-boot) behaviour, not boot-time expediting.
 */
void rcu_end_inkernel_boot(void)
{
	rcu_unexpedite_gp();
	if (rcu_normal_after_boot)
		WRITE_ONCE(rcu_normal, true);
}

/* The torture tests' view of a sequence number (<rcu/torture.h>), for every flavor. */
bool rcutorture_gp_seq_in_progress(unsigned long gp_seq)
{
	return rcu_seq_state(gp_seq) != 0;
}

#ifdef CONFIG_RCU_STALL_COMMON
/*
 * Jiffies from the start of a grace period to its stall warning. The
 * timeout is read afresh each time (once per grace period), so a changed
 * value takes effect at the next grace period; out-of-range values are
 * clamped and the clamped value stored back, as Linux does.
 */
unsigned long rcu_jiffies_till_stall_check(void)
{
	int secs = READ_ONCE(rcu_cpu_stall_timeout);

	if (secs < RCU_STALL_TIMEOUT_MIN) {
		secs = RCU_STALL_TIMEOUT_MIN;
		WRITE_ONCE(rcu_cpu_stall_timeout, secs);
	} else if (secs > RCU_STALL_TIMEOUT_MAX) {
		secs = RCU_STALL_TIMEOUT_MAX;
		WRITE_ONCE(rcu_cpu_stall_timeout, secs);
	}
	return (unsigned long)secs * HZ + RCU_STALL_DELAY_DELTA;
}

/*
 * The rcupdate.* part of the boot "oddness" list, printed at the end of
 * rcu_params_init()'s, in Linux's order and words.
 */
void rcupdate_announce_bootup_oddness(void)
{
	if (rcu_normal)
		pr_info("\tNo expedited grace period (rcu_normal).\n");
	else if (rcu_normal_after_boot)
		pr_info("\tNo expedited grace period (rcu_normal_after_boot).\n");
	else if (rcu_expedited)
		pr_info("\tAll grace periods are expedited (rcu_expedited).\n");
	if (rcu_cpu_stall_suppress)
		pr_info("\tRCU CPU stall warnings suppressed (rcu_cpu_stall_suppress).\n");
	if (rcu_cpu_stall_timeout != CONFIG_RCU_CPU_STALL_TIMEOUT)
		pr_info("\tRCU CPU stall warnings timeout set to %d (rcu_cpu_stall_timeout).\n",
			rcu_cpu_stall_timeout);
	rcu_tasks_generic_bootup_oddness();
	rcu_tasks_bootup_oddness();
	rcu_tasks_rude_bootup_oddness();
	rcu_tasks_trace_bootup_oddness();
}
#endif /* CONFIG_RCU_STALL_COMMON */
