/*
 * rcutorture: readers made of segments, as Linux's rcutorture_one_extend()
 * builds them. A read is not one rcu_read_lock()/rcu_read_unlock() pair but
 * a chain of protections chosen at random, each taken before the previous
 * one is dropped so the critical section never has a gap: the flavor's own
 * reader (once, or nested twice), and for the consolidated "rcu" flavor
 * also interrupts disabled, preemption disabled, rcu_read_lock_sched() and
 * rcu_read_lock_bh(), each of which is a reader of that flavor on its own.
 * So readers exist in every context a grace period must respect, and the
 * transitions between them (an rcu_read_unlock() that ends inside an
 * interrupts-off or preempt-off stretch, which preemptible RCU must defer)
 * are exercised at random.
 *
 * rcutorture.extendables (Linux's name and bits) says which of the
 * non-reader protections may be used: 0x02 interrupts, 0x04 preemption,
 * 0x08 rcu_read_lock_bh(), 0x10 rcu_read_lock_sched(). Linux's 0x01
 * (local_bh_disable()) does not exist here: this kernel has no softirqs
 * (callbacks run in rcuc kthreads, timers in the tick's interrupt), so it
 * is dropped with a warning. A read that saw an element two or more grace
 * periods old (an error or a close call) leaves its chain of segments for
 * the end of the test ("Failure/close-call rcutorture reader segments:").
 */
#define KPARAM_SUBSYS "rcu"
#include "rcutorture.h"

#define RCUTORTURE_MAX_EXTEND	(RCUTORTURE_RDR_IRQ | RCUTORTURE_RDR_PREEMPT | \
				 RCUTORTURE_RDR_RBH | RCUTORTURE_RDR_SCHED)
#define RCUTORTURE_RDR_NBITS	7	/* bits of a state, as Linux (BH among them, never set) */

#define TORTURE_PARAM_PREFIX "rcutorture."
#include <kernel/torture_param.h>

/* Linux's default is 0x1f, every bit; here the bits that exist. */
torture_param(int, extendables, RCUTORTURE_MAX_EXTEND, 0, 0x1f,
	      "extend readers by disabling irqs (2), preempt (4), rcu_read_lock_bh() (8), rcu_read_lock_sched() (16); 1 (bh) is ignored here");

/* The first read that saw an old element: its segments, for the end of the test. */
static atomic_t err_segs_recorded;
static struct rt_read_seg err_segs[RCUTORTURE_RDR_MAX_SEGS];
static int rt_read_nsegs;

/* rcu_torture_init(): drop the bits this kernel cannot honour, saying so once. */
void rcutorture_extend_init(void)
{
	int bad = extendables & ~RCUTORTURE_MAX_EXTEND;

	if (!bad)
		return;
	pr_warn("rcutorture.extendables: value %#x has bits this kernel lacks (%#x: no local_bh_disable(), no softirqs), using %#x\n",
		extendables, bad, extendables & RCUTORTURE_MAX_EXTEND);
	extendables &= RCUTORTURE_MAX_EXTEND;
}

/*
 * Go from the protections held in rs to newstate: take the new ones first,
 * then drop the old ones, strongest first (interrupts before preemption,
 * the flavor's own readers last), so that no moment is unprotected and no
 * unlock runs in a context its slow path must defer from without need.
 * Between two non-empty states, linger as a reader does.
 */
void rcutorture_one_extend(struct rcu_torture_rdr *rs, int newstate,
			   struct torture_random_state *trsp, struct rt_read_seg *rtrsp)
{
	int statesnew = ~rs->state & newstate;
	int statesold = rs->state & ~newstate;
	int oldstate = rs->state;

	rtrsp->rt_readstate = newstate;
	if (statesnew & RCUTORTURE_RDR_RBH)
		rcu_read_lock_bh();
	if (statesnew & RCUTORTURE_RDR_IRQ)
		local_irq_save(rs->irqflags);	/* a timer reader: already off, stays off */
	if (statesnew & RCUTORTURE_RDR_PREEMPT)
		preempt_disable();
	if (statesnew & RCUTORTURE_RDR_SCHED)
		rcu_read_lock_sched();
	if (statesnew & RCUTORTURE_RDR_RCU_1)
		rs->idx1 = cur_ops->readlock();
	if (statesnew & RCUTORTURE_RDR_RCU_2)
		rs->idx2 = cur_ops->readlock();

	if (statesold & RCUTORTURE_RDR_IRQ)
		local_irq_restore(rs->irqflags);
	if (statesold & RCUTORTURE_RDR_PREEMPT)
		preempt_enable();
	if (statesold & RCUTORTURE_RDR_SCHED)
		rcu_read_unlock_sched();
	if (statesold & RCUTORTURE_RDR_RBH)
		rcu_read_unlock_bh();
	if (statesold & RCUTORTURE_RDR_RCU_2)
		cur_ops->readunlock(rs->idx2);
	if (statesold & RCUTORTURE_RDR_RCU_1)
		cur_ops->readunlock(rs->idx1);

	if ((statesnew || statesold) && oldstate && newstate)
		cur_ops->read_delay(trsp, rtrsp);
	rs->state = newstate;
}

/* The protections this flavor and rcutorture.extendables allow, the flavor's readers always. */
static int rcutorture_extend_mask_max(void)
{
	return (extendables & cur_ops->extendables) | RCUTORTURE_RDR_RCU_1 | RCUTORTURE_RDR_RCU_2;
}

/*
 * A random next state, never empty: usually a single protection (so that
 * a preemptible reader stays preemptible most of the time), one time in
 * eight any mix. The nested flavor reader needs the outer one.
 */
int rcutorture_extend_mask(int oldmask, struct torture_random_state *trsp)
{
	int mask = rcutorture_extend_mask_max();
	unsigned long randmask1 = torture_random(trsp) >> 8;
	unsigned long randmask2 = randmask1 >> 3;

	if (!(randmask1 & 0x7))
		mask &= randmask2;
	else
		mask &= 1 << (randmask2 % RCUTORTURE_RDR_NBITS);
	if (!(mask & RCUTORTURE_RDR_RCU_1) && (mask & RCUTORTURE_RDR_RCU_2)) {
		if (oldmask & RCUTORTURE_RDR_RCU_1)
			mask &= ~RCUTORTURE_RDR_RCU_2;
		else
			mask |= RCUTORTURE_RDR_RCU_1;
	}
	return mask ?: RCUTORTURE_RDR_RCU_1;
}

/*
 * One to eight further segments (biased towards more) of a read already
 * under way; returns the next free record. A flavor with nothing but its
 * own reader to offer still nests it.
 */
struct rt_read_seg *rcutorture_loop_extend(struct rcu_torture_rdr *rs,
					   struct torture_random_state *trsp,
					   struct rt_read_seg *rtrsp)
{
	int mask = rcutorture_extend_mask_max();
	int i, j;

	WARN_ON_ONCE(!rs->state);
	if (!((mask - 1) & mask))
		return rtrsp;
	i = torture_random(trsp) >> 3;
	i = ((i | (i >> 3)) & RCUTORTURE_RDR_MAX_LOOPS) + 1;
	for (j = 0; j < i; j++)
		rcutorture_one_extend(rs, rcutorture_extend_mask(rs->state, trsp), trsp, &rtrsp[j]);
	return &rtrsp[j];
}

/* A read saw an old element (pipe_count or completed above 1): keep its segments, first time only. */
void rcutorture_record_segs(const struct rt_read_seg *segs, int n)
{
	if (atomic_xchg(&err_segs_recorded, 1))
		return;
	memcpy(err_segs, segs, n * sizeof(*segs));
	rt_read_nsegs = n;
}

/* Linux's end-of-test dump of the recorded read, one line per segment. */
void rcutorture_print_read_segs(void)
{
	bool first = true;

	if (!atomic_read(&err_segs_recorded))
		return;
	pr_alert("Failure/close-call rcutorture reader segments:\n");
	if (rt_read_nsegs == 0)
		pr_alert("\t: No segments recorded!!!\n");
	for (int i = 0; i < rt_read_nsegs; i++) {
		pr_alert("\t%d: %#x ", i, err_segs[i].rt_readstate);
		if (err_segs[i].rt_delay_jiffies) {
			pr_cont("%s%ldjiffies", first ? "" : "+", err_segs[i].rt_delay_jiffies);
			first = false;
		}
		if (err_segs[i].rt_delay_ms) {
			pr_cont("%s%ldms", first ? "" : "+", err_segs[i].rt_delay_ms);
			first = false;
		}
		if (err_segs[i].rt_delay_us) {
			pr_cont("%s%ldus", first ? "" : "+", err_segs[i].rt_delay_us);
			first = false;
		}
		pr_cont("%s\n", err_segs[i].rt_preempted ? "preempted" : "");
	}
}
