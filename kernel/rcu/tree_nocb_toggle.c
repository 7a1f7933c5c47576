/*
 * Run-time callback (de)offloading (CONFIG_RCU_NOCB_CPU), Linux 6.1's
 * rcu_nocb_cpu_offload() and rcu_nocb_cpu_deoffload(): a CPU named by
 * rcu_nocbs= at boot (it has rcuo kthreads) is switched between
 * offloaded (rcuog/rcuos serve its list under ->nocb_lock) and not
 * offloaded (the CPU serves it, unlocked, from call_rcu() and rcuc/N),
 * with callbacks queued, none lost, reordered, or run before its grace
 * period. rcutorture's nocbs_nthreads kthreads call these.
 *
 * The state machine, per CPU (rdp->offloaded, rdp->nocb_toggle_req and
 * rdp->nocb_cb_busy, all under ->nocb_lock):
 *
 *   OFFLOADED --deoffload()--> OFFLOADED + REQ_DEOFFLOAD
 *       rcuos starts no batch; the one it may be invoking (nocb_cb_busy)
 *       ends and kicks rcuc/N; call_rcu() and rcuog go on as offloaded.
 *   OFFLOADED + REQ_DEOFFLOAD --rcuc/N, !nocb_cb_busy--> NOT OFFLOADED
 *       rcuc/N, interrupts off, under ->nocb_lock: ->offloaded = false;
 *       then advances and accelerates the list it now owns (rcuog may
 *       have slept through the end of their grace periods).
 *   NOT OFFLOADED --offload()--> NOT OFFLOADED + REQ_OFFLOAD
 *       nothing changes until rcuc/N looks.
 *   NOT OFFLOADED + REQ_OFFLOAD --rcuc/N--> OFFLOADED
 *       rcuc/N, interrupts off, under ->nocb_lock: ->offloaded = true;
 *       wakes rcuog, which advances the list and wakes rcuos.
 *
 * Why rcuc/N flips: the unlocked users of a list that is not offloaded
 * all run on the CPU itself with interrupts off (call_rcu(),
 * note_gp_changes(), rcu_barrier()'s IPI) or are rcuc/N itself
 * (rcu_do_batch(), which holds extracted callbacks while it invokes
 * them). rcuc/N at the top of rcu_core(), interrupts off, is therefore
 * between all of them, and ->offloaded never changes under a CPU-local
 * reader. The locked users (rcuog, rcuos, rcu_barrier()'s entrain) read
 * ->offloaded under ->nocb_lock. Only one invoker at a time: rcuc/N
 * takes the list only when rcuos holds none of it, and rcuos takes it
 * only after the flip to offloaded, which rcuc/N makes between batches.
 * Callbacks keep their segments and grace-period numbers across a flip
 * (both sides use rcu_seq_snap() and the leaf's ->gp_seq), so none runs
 * early.
 *
 * Ordering (Documentation/RCU/ordering.md): the list moves between the
 * CPU and the kthreads through ->nocb_lock alone (release by the last
 * holder, acquire by the next); the CPU's unlocked accesses before a
 * flip to offloaded are in program order before the flip's unlock. A
 * callback the CPU accelerates after taking the list back reads
 * rcu_seq_snap() under the leaf lock, whose smp_mb__after_unlock_lock()
 * pairs with rcu_seq_start()'s smp_mb(), as every rcu_accelerate_cbs()
 * does.
 *
 * Exclusion: a switch holds cpus_read_lock() and rcu_state.barrier_mutex
 * (as Linux), so no CPU comes or goes and rcu_barrier() never sees a list
 * change hands. An offline CPU is refused (-EINVAL), as in Linux 6.1.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "tree.h"
#include <rcu/rcupdate.h>
#include <kernel/cpu.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <sched/sched.h>
#include <sched/wait.h>

/* The switchers wait here for rcuc/N (rcu_nocb_toggle_local()). */
static DECLARE_WAIT_QUEUE_HEAD(rcu_nocb_toggle_wq);

/*
 * Ask rcuc/N to run rcu_core(). No barrier: a switcher repeats the kick
 * each jiffy until its request is served, so a kick lost to rcuc/N's
 * clearing of ->rcu_cpu_has_work costs a jiffy, not the switch.
 */
void rcu_nocb_toggle_kick(struct rcu_data *rdp)
{
	WRITE_ONCE(rdp->rcu_cpu_has_work, true);
	if (rdp->rcu_cpu_kthread_task)
		wake_up_process(rdp->rcu_cpu_kthread_task);
}

/*
 * The CPU takes its list back. rdp's CPU, interrupts off, ->nocb_lock
 * held, rcuos holding nothing. Returns whether the GP kthread needs a wake.
 */
static bool rcu_nocb_take_back(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	bool needwake;

	rcu_lazy_flush(rdp, RCU_LAZY_OTHER);	/* the CPU's own list holds nothing lazily */
	WRITE_ONCE(rdp->offloaded, false);
	/*
	 * rcuog may not have moved callbacks whose grace period has ended
	 * (it sleeps until the one it waits for ends), and this CPU only
	 * advances when it sees a new ->gp_seq: advance now, or they would
	 * wait for the next grace period, or forever on an idle system.
	 * Then give the rest a grace period (rcu_accelerate_cbs() now sees
	 * the list as ours). The leaf lock's smp_mb__after_unlock_lock()
	 * orders the list (acquired through ->nocb_lock) before the
	 * rcu_seq_snap() inside; pairs with rcu_seq_start()'s smp_mb().
	 */
	raw_spin_lock_rcu_node(rnp);
	rcu_segcblist_advance(&rdp->cblist, rnp->gp_seq);
	needwake = rcu_accelerate_cbs(rnp, rdp);
	raw_spin_unlock_rcu_node(rnp);
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		WRITE_ONCE(rdp->rcu_cpu_has_work, true);
	return needwake;
}

/*
 * rcu_core() on rdp's CPU, in rcuc/N, before any other use of the list:
 * carry out a pending switch (the state machine above). A de-offload
 * whose rcuos is mid-batch is left pending; rcuos kicks us when done.
 */
void rcu_nocb_toggle_local(struct rcu_data *rdp)
{
	bool needwake = false, wake_gp = false, done = false;
	unsigned long flags;

	if (!READ_ONCE(rdp->nocb_toggle_req))
		return;		/* the common case; the lock below decides */
	spin_lock_irqsave(&rdp->nocb_lock, flags);
	switch (rdp->nocb_toggle_req) {
	case RCU_NOCB_REQ_DEOFFLOAD:
		if (rdp->nocb_cb_busy) {
			rdp->n_nocb_toggle_waits++;
			break;	/* rcuos is invoking part of the list: its kick brings us back */
		}
		needwake = rcu_nocb_take_back(rdp);
		done = true;
		break;
	case RCU_NOCB_REQ_OFFLOAD:
		/*
		 * This CPU's unlocked accesses to the list (call_rcu(),
		 * rcu_do_batch()) are all before this point in program order;
		 * the unlock below publishes them to rcuog's and rcuos's next
		 * acquisition of ->nocb_lock.
		 */
		WRITE_ONCE(rdp->offloaded, true);
		wake_gp = true;
		done = true;
		break;
	}
	if (done)
		WRITE_ONCE(rdp->nocb_toggle_req, RCU_NOCB_REQ_NONE);
	spin_unlock_irqrestore(&rdp->nocb_lock, flags);
	if (needwake)
		rcu_gp_kthread_wake();
	if (wake_gp)
		rcu_nocb_wake_gp(rdp);	/* rcuog: advance, accelerate, wake rcuos for the ready ones */
	if (done)
		wake_up(&rcu_nocb_toggle_wq);
}

static bool rcu_nocb_toggle_served(struct rcu_data *rdp)
{
	return READ_ONCE(rdp->nocb_toggle_req) == RCU_NOCB_REQ_NONE;
}

/* Switch cpu to offloaded (offload) or not; process context, may sleep. */
static int rcu_nocb_toggle(int cpu, bool offload)
{
	struct rcu_data *rdp;
	unsigned long flags;
	int ret = 0;

	if (cpu < 0 || !rcu_nocb_cpu_toggleable(cpu))
		return -EINVAL;		/* no rcuo kthreads: Linux 6.1 switches only those */
	rdp = per_cpu_ptr(&rcu_data, cpu);
	cpus_read_lock();
	mutex_lock(&rcu_state.barrier_mutex);
	if (rcu_rdp_is_offloaded(rdp) == offload)
		goto out;
	if (!rdp->rcu_cpu_kthread_task) {
		ret = -EINVAL;		/* before rcu_init_kthreads(): no rcuc/N to do it */
		goto out;
	}
	if (!cpu_online(cpu)) {
		pr_info("NOCB: Cannot CB-%s offline CPU %d\n", offload ? "offload" : "deoffload", cpu);
		ret = -EINVAL;
		goto out;
	}
	pr_info("%s %d\n", offload ? "Offloading" : "De-offloading", cpu);
	spin_lock_irqsave(&rdp->nocb_lock, flags);
	WRITE_ONCE(rdp->nocb_toggle_req, offload ? RCU_NOCB_REQ_OFFLOAD : RCU_NOCB_REQ_DEOFFLOAD);
	spin_unlock_irqrestore(&rdp->nocb_lock, flags);
	do
		rcu_nocb_toggle_kick(rdp);
	while (!wait_event_timeout(rcu_nocb_toggle_wq, rcu_nocb_toggle_served(rdp), 1));
	rdp->n_nocb_toggles++;
out:
	mutex_unlock(&rcu_state.barrier_mutex);
	cpus_read_unlock();
	return ret;
}

int rcu_nocb_cpu_offload(int cpu)
{
	return rcu_nocb_toggle(cpu, true);
}

int rcu_nocb_cpu_deoffload(int cpu)
{
	return rcu_nocb_toggle(cpu, false);
}
