/*
 * scftorture's calls and their checks (kernel/scftorture.c has the rest):
 * one random cross call per scftorture_invoke_one(), the handlers, and
 * what each side checks.
 *
 * Linux's checks: the handler must see the caller's scfc_in store (made
 * before the call: the cross call must order it), must run on the CPU a
 * _single() call named, and a waiting caller must see the handler's
 * scfc_out store once the call returns.
 *
 * Ours: a waiting call records in scfc_ran every CPU its handler ran on.
 * The handler finds its own bit already set: it ran twice there (a csd
 * run twice). It runs on the caller's CPU, or outside a _many() mask:
 * wrong CPU (_many() and smp_call_function() never call the caller's
 * own CPU). After the call, each CPU of the targets that was online all
 * through the call must be in scfc_ran: one that is not lost its call.
 * "Online all through" is known without excluding hotplug: the CPU is in
 * the online mask before and after the call, and no CPU-offline
 * operation completed in between (cpuhp_nr_offline_ops() unchanged). A
 * CPU seen online before the call that left the mask meanwhile can only
 * come back through cpu_up(), which waits for the offline to complete
 * and be counted; so an unchanged count with the CPU online at both ends
 * means it never left. The count is read before the first mask and
 * after the second, smp_rmb() in between: each pairs with the release of
 * cpu_hotplug_lock in cpu_down() (after the count's increment) and its
 * acquisition in cpu_up() (before the CPU sets its online bit), so a
 * mask that shows the CPU back comes with the incremented count.
 */
#include <kernel/cpu.h>
#include <kernel/cpumask.h>
#include <kernel/barrier.h>
#include <kernel/bug.h>
#include <kernel/preempt.h>
#include <sched/completion.h>
#include <sched/sched.h>
#include <time/time.h>
#include <mm/slab.h>
#include "scftorture.h"

/* Caller and handler's shared record of one call (Linux's fields, then ours). */
struct scf_check {
	bool scfc_in;		/* set by the caller before the call */
	bool scfc_out;		/* set by the handler at its end (waiting forms) */
	int scfc_cpu;		/* the CPU a _single() call named; -1 for the others */
	bool scfc_wait;
	bool scfc_rpc;
	struct completion scfc_completion;
	/* Ours. */
	int scfc_caller;		/* the caller's CPU, -1: unknown (it could move) */
	bool scfc_masked;		/* scfc_mask holds a _many() call's targets */
	struct cpumask scfc_mask;
	struct cpumask scfc_ran;	/* CPUs the handler ran on (waiting forms) */
	struct scf_statistics *scfc_stats;	/* whose no-wait single call this is */
};

/* Our counts: n_dup, n_wrong and n_missed add to Linux's scf_n_errs too. */
static atomic_t n_dup, n_wrong, n_missed;
static long long n_lost;

static void scf_err(atomic_t *which)
{
	atomic_inc(which);
	atomic_inc(&scf_n_errs);
}

/*
 * Count the invocation, now and then spend a little time (or, with
 * scftorture.longwait, up to that many seconds) and signal the caller.
 */
static void scf_handler(void *arg)
{
	struct scf_check *scfcp = arg;
	unsigned long r = torture_random(this_cpu_ptr(&scf_torture_rand));
	int me = raw_smp_processor_id();

	if (likely(scfcp)) {
		WRITE_ONCE(scfcp->scfc_out, false);	/* for multiple receivers */
		if (WARN_ON_ONCE(!READ_ONCE(scfcp->scfc_in)))
			atomic_inc(&scf_n_mb_in_errs);
		if (scfcp->scfc_wait) {
			if (WARN_ONCE(test_and_set_bit(me, scfcp->scfc_ran.bits),
				      "%s: handler ran twice on CPU %d\n", __func__, me))
				scf_err(&n_dup);
			/* _many() and smp_call_function() (no named CPU) skip the caller's. */
			if (WARN_ONCE(scfcp->scfc_cpu < 0 && (me == scfcp->scfc_caller ||
				      (scfcp->scfc_masked && !cpumask_test_cpu(me, &scfcp->scfc_mask))),
				      "%s: handler on CPU %d, caller CPU %d, not a target\n",
				      __func__, me, scfcp->scfc_caller))
				scf_err(&n_wrong);
		}
	}
	atomic_long_inc(this_cpu_ptr(&scf_invoked_count));
	if (scf_longwait <= 0) {
		if (!(r & 0xffc0))
			udelay(r & 0x3f);
	} else if (!(r & 0xfff)) {
		r = (r >> 12) % scf_longwait + 1;
		for (unsigned long i = 0; i < r * 1000; i++) {
			udelay(1000);
			cpu_relax();
		}
	}
	if (unlikely(!scfcp))
		return;
	if (scfcp->scfc_wait) {
		WRITE_ONCE(scfcp->scfc_out, true);
		if (scfcp->scfc_rpc)
			complete(&scfcp->scfc_completion);
	} else {
		atomic_long_inc(&scfcp->scfc_stats->n_single_done);
		kfree(scfcp);
	}
}

/* As above, for a _single() call: on the CPU it named. */
static void scf_handler_1(void *arg)
{
	struct scf_check *scfcp = arg;

	if (likely(scfcp) &&
	    WARN_ONCE((int)raw_smp_processor_id() != scfcp->scfc_cpu,
		      "%s: Wanted CPU %d got CPU %u\n", __func__, scfcp->scfc_cpu,
		      raw_smp_processor_id()))
		atomic_inc(&scf_n_errs);
	scf_handler(scfcp);
}

/* Ours: a random set of CPUs below nr_cpu_ids, offline ones included (maybe none). */
static void scf_random_mask(struct cpumask *m, struct torture_random_state *trsp)
{
	unsigned long r = 0;

	cpumask_clear(m);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!(cpu % 32))
			r = torture_random(trsp);
		if (r & 1)
			cpumask_set_cpu(cpu, m);
		r >>= 1;
	}
}

/* The online mask and the offline-operation count, read in that order (see the top). */
static unsigned long scf_hotplug_before(struct cpumask *online)
{
	unsigned long gen = cpuhp_nr_offline_ops();

	smp_rmb();	/* count before mask: pairs with cpu_hotplug_lock's release/acquire (top) */
	cpumask_copy(online, cpu_online_mask);
	return gen;
}

static unsigned long scf_hotplug_after(struct cpumask *online)
{
	cpumask_copy(online, cpu_online_mask);
	smp_rmb();	/* mask before count: pairs with cpu_hotplug_lock's release/acquire (top) */
	return cpuhp_nr_offline_ops();
}

/*
 * After a waiting _many()/smp_call_function(): each target online all
 * through the call, other than the caller's CPU, must have run it.
 */
static void scf_check_ran(struct scf_check *scfcp, const struct cpumask *targets,
			  const struct cpumask *before, unsigned long gen, int me)
{
	struct cpumask after, want;
	unsigned int cpu;

	if (scf_hotplug_after(&after) != gen || me < 0)
		return;	/* a CPU may have left during the call, or the caller moved */
	cpumask_and(&want, targets, before);
	cpumask_and(&want, &want, &after);
	cpumask_clear_cpu(me, &want);
	cpumask_andnot(&want, &want, &scfcp->scfc_ran);
	if (cpumask_empty(&want))
		return;
	cpu = cpumask_first(&want);
	WARN_ONCE(1, "%s: CPU %u online throughout, its handler never ran (caller CPU %d)\n",
		  __func__, cpu, me);
	scf_err(&n_missed);
}

/* A multi-CPU call's last step before it is made: the hotplug snapshot, then scfc_in. */
static unsigned long scf_call_prepare(struct scf_check *scfcp, struct cpumask *before)
{
	unsigned long gen = scf_hotplug_before(before);

	barrier();	/* no compiler shortcut around the store the handler checks */
	scfcp->scfc_in = true;
	return gen;
}

static void scf_lock(void)
{
	if (scf_use_cpus_read_lock)
		cpus_read_lock();
	else
		preempt_disable();
}

static void scf_unlock(void)
{
	if (scf_use_cpus_read_lock)
		cpus_read_unlock();
	else
		preempt_enable();
}

void scftorture_invoke_one(struct scf_statistics *scfp, struct torture_random_state *trsp)
{
	const struct scf_selector *scfsp = scf_sel_rand(trsp);
	struct scf_check *scfcp = NULL;
	const struct cpumask *targets = NULL;
	struct cpumask before;
	unsigned long gen = 0;
	int cpu, ret, me;

	scf_lock();
	me = raw_smp_processor_id();
	if (scfsp->scfs_prim == SCF_PRIM_SINGLE || scfsp->scfs_wait) {
		scfcp = kzalloc(sizeof(*scfcp), GFP_ATOMIC);
		if (WARN_ON_ONCE(!scfcp)) {
			atomic_inc(&scf_n_alloc_errs);
		} else {
			scfcp->scfc_cpu = -1;
			scfcp->scfc_wait = scfsp->scfs_wait;
			scfcp->scfc_caller = scf_use_cpus_read_lock ? -1 : me;
			scfcp->scfc_stats = scfp;
		}
	}
	switch (scfsp->scfs_prim) {
	case SCF_PRIM_RESCHED:
		cpu = torture_random(trsp) % nr_cpu_ids;
		scfp->n_resched++;
		resched_cpu(cpu);
		atomic_long_inc(this_cpu_ptr(&scf_invoked_count));
		break;
	case SCF_PRIM_SINGLE:
		cpu = torture_random(trsp) % nr_cpu_ids;
		if (scfsp->scfs_wait)
			scfp->n_single_wait++;
		else
			scfp->n_single++;
		if (scfcp) {
			scfcp->scfc_cpu = cpu;
			barrier();	/* no compiler shortcut around the store the handler checks */
			scfcp->scfc_in = true;
		}
		ret = smp_call_function_single(cpu, scf_handler_1, scfcp, scfsp->scfs_wait);
		if (ret) {
			if (scfsp->scfs_wait)
				scfp->n_single_wait_ofl++;
			else
				scfp->n_single_ofl++;
			kfree(scfcp);
			scfcp = NULL;
		} else if (scfcp && !scfsp->scfs_wait) {
			scfp->n_single_sent++;
			scfcp = NULL;	/* the handler frees it */
		}
		break;
	case SCF_PRIM_SINGLE_RPC:
		if (!scfcp)
			break;
		cpu = torture_random(trsp) % nr_cpu_ids;
		scfp->n_single_rpc++;
		scfcp->scfc_cpu = cpu;
		scfcp->scfc_wait = true;
		init_completion(&scfcp->scfc_completion);
		scfcp->scfc_rpc = true;
		barrier();
		scfcp->scfc_in = true;
		ret = smp_call_function_single(cpu, scf_handler_1, scfcp, 0);
		if (!ret) {
			scf_unlock();
			wait_for_completion(&scfcp->scfc_completion);
			scf_lock();
		} else {
			scfp->n_single_rpc_ofl++;
			kfree(scfcp);
			scfcp = NULL;
		}
		break;
	case SCF_PRIM_MANY:
		if (scfsp->scfs_wait)
			scfp->n_many_wait++;
		else
			scfp->n_many++;
		targets = cpu_online_mask;
		if (scfcp && (torture_random(trsp) & 0x100)) {	/* ours: random targets */
			scf_random_mask(&scfcp->scfc_mask, trsp);
			scfcp->scfc_masked = true;
			targets = &scfcp->scfc_mask;
		}
		if (scfcp)
			gen = scf_call_prepare(scfcp, &before);
		smp_call_function_many(targets, scf_handler, scfcp, scfsp->scfs_wait);
		break;
	case SCF_PRIM_ALL:
		if (scfsp->scfs_wait)
			scfp->n_all_wait++;
		else
			scfp->n_all++;
		targets = cpu_online_mask;
		if (scfcp)
			gen = scf_call_prepare(scfcp, &before);
		smp_call_function(scf_handler, scfcp, scfsp->scfs_wait);
		break;
	default:
		WARN_ON_ONCE(1);
		if (scfcp)
			scfcp->scfc_out = true;
	}
	if (scfcp && scfsp->scfs_wait) {
		/*
		 * Linux's check: the handler's stores are seen. Linux skips it for
		 * _many()/smp_call_function() when one CPU is online; here when no
		 * handler ran at all (a random mask may name no other online CPU),
		 * and scf_check_ran() says whether one should have.
		 */
		if (WARN_ON_ONCE(!scfcp->scfc_out &&
				 (!targets || !cpumask_empty(&scfcp->scfc_ran)))) {
			pr_warn("%s: Memory-ordering failure, scfs_prim: %d.\n", __func__,
				scfsp->scfs_prim);
			atomic_inc(&scf_n_mb_out_errs);	/* leak rather than trash */
		} else {
			/* With cpus_read_lock() only, a task on the one CPU it is bound to cannot move. */
			bool fixed = !scf_use_cpus_read_lock || (current->nr_cpus_allowed == 1 &&
					cpumask_test_cpu(me, &current->cpus_mask));

			if (targets)
				scf_check_ran(scfcp, targets, &before, gen, fixed ? me : -1);
			kfree(scfcp);
		}
		barrier();
	}
	scf_unlock();
	if (!(torture_random(trsp) & 0xfff))
		schedule_timeout_uninterruptible(1);
}

void scf_check_lost(void)
{
	long long sent = 0, done = 0;

	for (int i = 0; i < scf_nthreads; i++) {
		sent += scf_stats_p[i].n_single_sent;
		done += atomic_long_read(&scf_stats_p[i].n_single_done);
	}
	n_lost = sent - done;
	if (n_lost) {
		pr_alert(SCFTORT_FLAG "!!! %lld of %lld no-wait smp_call_function_single() calls never ran\n",
			 n_lost, sent);
		atomic_inc(&scf_n_errs);
	}
}

void scf_print_ours(void)
{
	pr_alert(SCFTORT_FLAG "ours: handler twice on a CPU: %d, on a CPU not targeted: %d, online target not run: %d, no-wait single lost: %lld\n",
		 atomic_read(&n_dup), atomic_read(&n_wrong), atomic_read(&n_missed), n_lost);
}
