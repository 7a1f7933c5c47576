/*
 * rcutorture's SRCU flavors, as Linux's: "srcu" tortures a domain defined
 * with DEFINE_STATIC_SRCU(), "srcud" one set up by init_srcu_struct() at
 * the start of the test and torn down by cleanup_srcu_struct() at its end
 * (which WARNs if the test left readers or callbacks behind). Readers
 * sometimes sleep inside their critical sections, which only SRCU allows;
 * each statistics print adds the domain's "Tree SRCU" (or "Tiny SRCU")
 * line. "busted_srcud" is srcud with readers that SRCU does not protect,
 * which the test must catch.
 */
#include "rcutorture.h"
#include <rcu/srcu.h>

DEFINE_STATIC_SRCU(srcu_ctl);
static struct srcu_struct srcu_ctld;
static struct srcu_struct *srcu_ctlp = &srcu_ctl;

static int srcu_torture_read_lock(void)
{
	return srcu_read_lock(srcu_ctlp);
}

static void srcu_torture_read_unlock(int idx)
{
	srcu_read_unlock(srcu_ctlp, idx);
}

/*
 * Linux's srcu_read_delay(): long-sleeping readers now and then (about
 * one read in nrealreaders * 20 ticks' worth of microseconds sleeps 10
 * jiffies), a one-jiffy sleep somewhat more often, otherwise the RCU
 * flavor's delays. Only a task may sleep: timer readers never do.
 */
static void srcu_read_delay(struct torture_random_state *rrsp, struct rt_read_seg *rtrsp)
{
	const long uspertick = 1000000 / HZ;
	const long longdelay = 10;
	unsigned long r = torture_random(rrsp);
	/* Without CONFIG_PREEMPT_COUNT an enclosing non-sleepable reader cannot be seen: never sleep. */
	bool can_sleep = IS_ENABLED(CONFIG_PREEMPT_COUNT) && in_task() && !preempt_count() &&
			 !irqs_disabled();

	if (can_sleep && !(r % (rtp->nrealreaders * 2 * longdelay * uspertick))) {
		schedule_timeout_interruptible(longdelay);
		rtrsp->rt_delay_jiffies = longdelay;
	} else if (can_sleep && !(r % (rtp->nrealreaders * 200))) {
		schedule_timeout_interruptible(1);
		rtrsp->rt_delay_jiffies = 1;
	} else {
		rcu_read_delay(rrsp, rtrsp);
	}
}

static unsigned long srcu_torture_completed(void)
{
	return srcu_batches_completed(srcu_ctlp);
}

static void srcu_torture_deferred_free(struct rcu_torture *rp)
{
	call_srcu(srcu_ctlp, &rp->rtort_rcu, rcu_torture_cb);
}

static void srcu_torture_synchronize(void)
{
	synchronize_srcu(srcu_ctlp);
}

static void srcu_torture_synchronize_expedited(void)
{
	synchronize_srcu_expedited(srcu_ctlp);
}

static unsigned long srcu_torture_get_gp_state(void)
{
	return get_state_synchronize_srcu(srcu_ctlp);
}

static unsigned long srcu_torture_start_gp_poll(void)
{
	return start_poll_synchronize_srcu(srcu_ctlp);
}

static bool srcu_torture_poll_gp_state(unsigned long oldstate)
{
	return poll_state_synchronize_srcu(srcu_ctlp, oldstate);
}

static void srcu_torture_call(struct rcu_head *head, rcu_callback_t func)
{
	call_srcu(srcu_ctlp, head, func);
}

static void srcu_torture_barrier(void)
{
	srcu_barrier(srcu_ctlp);
}

static void srcu_torture_gp_data(int *flags, unsigned long *gp_seq)
{
	*flags = 0;
	*gp_seq = srcu_batches_completed(srcu_ctlp);
}

static int srcu_torture_stall_dur(void)
{
	return (int)rcu_jiffies_till_stall_check();
}

static void srcu_torture_stats(void)
{
	srcu_torture_stats_print(srcu_ctlp, rtp->torture_type, TORTURE_FLAG);
}

static void srcu_torture_init(void)
{
	INIT_LIST_HEAD(&rcu_torture_removed);
	srcu_ctlp = &srcu_ctl;
}

/* srcud: a fresh domain per test; a failed allocation leaves the static one in use. */
static void srcud_torture_init(void)
{
	INIT_LIST_HEAD(&rcu_torture_removed);
	if (WARN_ON(init_srcu_struct(&srcu_ctld)))
		srcu_ctlp = &srcu_ctl;
	else
		srcu_ctlp = &srcu_ctld;
}

/*
 * The test has stopped and run srcu_barrier(); one more grace period
 * serves any polled request still pending. The domain stays the current
 * one, so the final statistics show it torn down, as in Linux.
 */
static void srcud_torture_cleanup(void)
{
	if (srcu_ctlp != &srcu_ctld)
		return;
	synchronize_srcu(&srcu_ctld);
	cleanup_srcu_struct(&srcu_ctld);
}

#define SRCU_TORTURE_OPS_COMMON						\
	.readlock	= srcu_torture_read_lock,				\
	.read_delay	= srcu_read_delay,					\
	.readunlock	= srcu_torture_read_unlock,				\
	.get_gp_seq	= srcu_torture_completed,				\
	.deferred_free	= srcu_torture_deferred_free,				\
	.sync		= srcu_torture_synchronize,				\
	.exp_sync	= srcu_torture_synchronize_expedited,			\
	.get_gp_state	= srcu_torture_get_gp_state,				\
	.start_gp_poll	= srcu_torture_start_gp_poll,				\
	.poll_gp_state	= srcu_torture_poll_gp_state,				\
	.exp_current	= rcu_expedite_gp,					\
	.exp_restore	= rcu_unexpedite_gp,					\
	.call		= srcu_torture_call,					\
	.cb_barrier	= srcu_torture_barrier,					\
	.gp_data	= srcu_torture_gp_data,					\
	.stall_dur	= srcu_torture_stall_dur,				\
	.stats		= srcu_torture_stats,					\
	.irq_capable	= 1

struct rcu_torture_ops srcu_ops = {
	.init		= srcu_torture_init,
	SRCU_TORTURE_OPS_COMMON,
	.name		= "srcu",
};

struct rcu_torture_ops srcud_ops = {
	.init		= srcud_torture_init,
	.cleanup	= srcud_torture_cleanup,
	SRCU_TORTURE_OPS_COMMON,
	.name		= "srcud",
};

/*
 * "busted_srcud", as Linux's: srcud whose readers are also made of
 * interrupts-off, preemption-off, _bh and _sched segments (the "rcu"
 * flavor's extendables). Those protect nothing against an SRCU grace
 * period, so a read that dereferenced the element in such a segment, or
 * lingers in one after its srcu_read_unlock(), sees it recycled: the run
 * must end in FAILURE with reads aged two or more grace periods, as
 * "busted" does. The readers never sleep (rcu_read_delay(): a sleep in
 * an irqs-off segment would be a bug of its own), and there are no
 * polled primitives (their cookie checks would catch it first, through
 * a WARN rather than the reader pipeline).
 */
struct rcu_torture_ops busted_srcud_ops = {
	.init		= srcud_torture_init,
	.cleanup	= srcud_torture_cleanup,
	.readlock	= srcu_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= srcu_torture_read_unlock,
	.get_gp_seq	= srcu_torture_completed,
	.deferred_free	= srcu_torture_deferred_free,
	.sync		= srcu_torture_synchronize,
	.exp_sync	= srcu_torture_synchronize_expedited,
	.call		= srcu_torture_call,
	.cb_barrier	= srcu_torture_barrier,
	.gp_data	= srcu_torture_gp_data,
	.stall_dur	= srcu_torture_stall_dur,
	.stats		= srcu_torture_stats,
	.extendables	= RCUTORTURE_RDR_IRQ | RCUTORTURE_RDR_PREEMPT | RCUTORTURE_RDR_RBH |
			  RCUTORTURE_RDR_SCHED,
	.irq_capable	= 1,
	.name		= "busted_srcud",
};
