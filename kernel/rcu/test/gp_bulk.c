/*
 * KTAP suite "rcu_gp", case gp_bulk_number: call_rcu()'s bulk numbering
 * (kernel/rcu/tree_call.c, rcu_cb_bulk()). A callback queued on a CPU
 * that already has callbacks waiting, while a grace period runs, is left
 * unnumbered and numbered later with the others. Each round makes that
 * case on one CPU:
 *
 *   1. on another CPU, a reader begins (a cross call: interrupts off, so
 *      that CPU cannot pass a quiescent state) for GBN_READ_US;
 *   2. callback A is queued on the first CPU (numbered at once: nothing
 *      waits yet);
 *   3. the grace period A waits for starts (rcu_state.gp_seq polled):
 *      it starts after the reader began, so the reader holds it open;
 *   4. callback B is queued on the first CPU, a polling cookie taken
 *      just before it, while that reader runs.
 * (With A first, a grace-period kthread that runs at once, SCHED_FIFO
 * under rcutree.kthread_prio, started and ended A's grace period on the
 * reader's idle CPU before the reader began, and no round reached step
 * 4.)
 *
 * B must not run before a full grace period that started after it was
 * queued: its callback finds the cookie complete and the reader ended.
 * A B numbered with A's grace period, already running when B was queued,
 * runs at A's end, before the cookie's grace period (in every round that
 * reached step 4, with that bug planted by hand); the reader check
 * catches it only if A's grace period did not wait for that reader. And
 * B must run at all, within GBN_WAIT_MS, the test task asleep meanwhile
 * so that the queuing CPU may go idle (dyntick-idle): the numbering left
 * to later must happen (a B lost by the bulk path, planted by hand, fails
 * it). Each round first waits (100 ms at most) for no grace period to
 * run, so that A's is the next to start: one still running, asked for by
 * other callbacks, would make A's the one after it, which the reader
 * holds back. A round whose A's grace period did not start within half
 * the reader is not counted; a diagnostic line gives the rounds not
 * counted, by cause. One CPU has no reader to hold a grace period open,
 * so the case is skipped there. The test task and the grace-period
 * kthread are kept off the reader's CPU meanwhile (the kthread must
 * start A's grace period while the reader runs). The bulk path must have
 * been taken in some round; the diagnostic line says in how many.
 */
#include "../tree.h"
#include <rcu/rcupdate.h>
#include <kernel/ktap.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <time/delay.h>
#include "keep_off_cpu.h"

void gp_bulk_number(void);

#define GBN_ROUNDS	20
#define GBN_READ_US	20000	/* the reader's length: steps 2 and 4 fit in it */
#define GBN_WAIT_MS	3000	/* a grace period on an idle guest takes milliseconds */
#define GBN_SPIN_MS	20ULL	/* step 2's bound, preemption off */

static struct rcu_head gbn_a, gbn_b;
static int gbn_a_ran, gbn_b_ran;	/* READ_ONCE/WRITE_ONCE: set by the callbacks */
static unsigned long gbn_cookie_a;	/* rcu_state.gp_seq's number of A's grace period */
static unsigned long gbn_cookie_b;	/* get_state_synchronize_rcu() before B */
static bool gbn_b_early_gp, gbn_b_early_reader;
static int gbn_reader_state;		/* 0 not yet, 1 in its reader, 2 done */
static bool gbn_armed;			/* B was queued inside the reader */
static bool gbn_b_bulk;			/* B took the bulk path */

static void gbn_a_cb(struct rcu_head *head)
{
	WRITE_ONCE(gbn_a_ran, 1);
}

static void gbn_b_cb(struct rcu_head *head)
{
	gbn_b_early_gp = !poll_state_synchronize_rcu(gbn_cookie_b);
	gbn_b_early_reader = gbn_armed && smp_load_acquire(&gbn_reader_state) != 2;
	WRITE_ONCE(gbn_b_ran, 1);
}

/* On the queuing CPU, interrupts off. */
static void gbn_queue_a(void *unused)
{
	smp_mb();	/* as get_state_synchronize_rcu(): pairs with rcu_seq_start()'s */
	gbn_cookie_a = rcu_seq_snap(&rcu_state.gp_seq);
	call_rcu(&gbn_a, gbn_a_cb);
}

static void gbn_queue_b(void *unused)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	unsigned long bulk = rdp->n_cbs_bulk;

	/* Before the call_rcu(): B needs at least the grace period this names. */
	gbn_armed = READ_ONCE(gbn_reader_state) == 1;
	gbn_cookie_b = get_state_synchronize_rcu();
	call_rcu(&gbn_b, gbn_b_cb);
	gbn_b_bulk = rdp->n_cbs_bulk != bulk;
}

/* On the other CPU, from a cross call: interrupts off, no quiescent state inside. */
static void gbn_reader(void *unused)
{
	rcu_read_lock();
	WRITE_ONCE(gbn_reader_state, 1);
	udelay(GBN_READ_US);
	/* Ends after this store: B's callback reading 2 ran after the reader's end. */
	smp_store_release(&gbn_reader_state, 2);
	rcu_read_unlock();
}

/* Wait (sleeping 1 ms at a time) until *flag is set, at most ms: true if it was. */
static bool gbn_wait(int *flag, unsigned int ms)
{
	u64 end = local_clock() + (u64)ms * NSEC_PER_MSEC;

	while (!READ_ONCE(*flag) && local_clock() < end)
		msleep(1);
	return READ_ONCE(*flag);
}

/* Has the grace period A waits for started (and not ended)? */
static bool gbn_a_gp_running(void)
{
	unsigned long s = rcu_seq_snap(&rcu_state.gp_seq);

	return rcu_gp_in_progress() && s == gbn_cookie_a + (1UL << RCU_SEQ_CTR_SHIFT);
}

void gp_bulk_number(void)
{
	struct task_struct *gp_kthread = READ_ONCE(rcu_state.gp_kthread);
	unsigned int cpu, c = nr_cpu_ids, d = nr_cpu_ids;
	int round, reached = 0, bulk = 0, hung = 0, early_gp = 0, early_reader = 0;
	int busy = 0, no_reader = 0, no_gp = 0;	/* rounds not counted, by cause */
	struct cpumask gp_allowed, my_allowed;

	for_each_online_cpu(cpu)
		d = cpu;	/* the reader's: the last one */
	for_each_online_cpu(cpu)
		if (cpu != d && !rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu))) {
			c = cpu;
			break;
		}
	if (c == nr_cpu_ids) {
		ktap_skip("one CPU, or every other CPU offloaded: no reader to hold a grace period open");
		return;
	}
	/*
	 * The reader's CPU has interrupts off for GBN_READ_US: the grace-period
	 * kthread must start A's grace period elsewhere meanwhile, and a
	 * reader sent to this task's own CPU would run at once, before B.
	 */
	if (rcu_test_keep_off_cpu(current, d, &my_allowed)) {
		ktap_skip("cannot keep the test task off the reader's CPU");
		return;
	}
	if (rcu_test_keep_off_cpu(gp_kthread, d, &gp_allowed)) {
		set_cpus_allowed_ptr(current, &my_allowed);
		ktap_skip("cannot keep the grace-period kthread off the reader's CPU");
		return;
	}
	msleep(1);	/* off it now */
	for (round = 0; round < GBN_ROUNDS; round++) {
		u64 end;

		rcu_barrier();	/* nothing of an earlier round (or case) left on CPU c */
		/*
		 * A's grace period must be the next one to start: one still
		 * running now (asked for by other callbacks) would make A's the
		 * one after it, which the reader then holds back past step 3.
		 */
		end = local_clock() + 100 * NSEC_PER_MSEC;
		while (rcu_gp_in_progress() && local_clock() < end)
			msleep(1);
		busy += rcu_gp_in_progress();
		WRITE_ONCE(gbn_a_ran, 0);
		WRITE_ONCE(gbn_b_ran, 0);
		WRITE_ONCE(gbn_reader_state, 0);
		smp_call_function_single(d, gbn_reader, NULL, 0);
		end = local_clock() + NSEC_PER_SEC;
		while (!READ_ONCE(gbn_reader_state) && local_clock() < end)
			cpu_relax();
		smp_call_function_single(c, gbn_queue_a, NULL, 1);
		/* Step 3, polled: the grace-period kthread may need this CPU. */
		end = local_clock() + GBN_READ_US / 2 * NSEC_PER_USEC;
		while (!gbn_a_gp_running() && !READ_ONCE(gbn_a_ran) && local_clock() < end)
			cond_resched();
		if (READ_ONCE(gbn_reader_state) != 1 || !gbn_a_gp_running()) {
			if (READ_ONCE(gbn_reader_state) != 1)
				no_reader++;
			else
				no_gp++;
			while (READ_ONCE(gbn_reader_state) == 1)
				cond_resched();
			rcu_barrier();	/* not the order steps 2-4 need: next round */
			continue;
		}
		smp_call_function_single(c, gbn_queue_b, NULL, 1);
		reached++;
		bulk += gbn_b_bulk;
		if (!gbn_wait(&gbn_b_ran, GBN_WAIT_MS)) {
			ktap_diag("round %d: callback B (bulk path %d) not invoked in %u ms, CPU %u: %ld callbacks queued, gp_seq %#lx",
				  round, gbn_b_bulk, GBN_WAIT_MS, c,
				  rcu_segcblist_n_cbs(&per_cpu_ptr(&rcu_data, c)->cblist), rcu_state.gp_seq);
			hung++;
			break;	/* B is still queued: its rcu_head may not be reused */
		}
		early_gp += gbn_b_early_gp;
		early_reader += gbn_b_early_reader;
		while (READ_ONCE(gbn_reader_state) == 1)
			cond_resched();	/* the reader's cross call is over */
	}
	if (!hung)
		rcu_barrier();
	set_cpus_allowed_ptr(gp_kthread, &gp_allowed);
	set_cpus_allowed_ptr(current, &my_allowed);
	ktap_diag("CPU %u (reader on %u): %d of %d rounds queued B during A's grace period, %d of them by the bulk path",
		  c, d, reached, GBN_ROUNDS, bulk);
	ktap_diag("rounds not counted: %d with the reader over, %d with A's grace period not running (%d began with one running)",
		  no_reader, no_gp, busy);
	KTAP_EXPECT_MSG(!hung, "a callback left to bulk numbering was never invoked");
	KTAP_EXPECT_MSG(!early_gp, "%d callbacks invoked before the grace period their cookie named", early_gp);
	KTAP_EXPECT_MSG(!early_reader, "%d callbacks invoked while a reader older than them ran", early_reader);
	KTAP_EXPECT_MSG(bulk > 0, "the bulk path was not taken in %d rounds", reached);
}
