/*
 * KTAP suite "rcu_nocb": callback offloading (CONFIG_RCU_NOCB_CPU) seen
 * through the per-CPU counters, run at boot with rcutree.selftest=1 and
 * rcu_nocbs= naming some CPU (without an offloaded CPU the cases skip).
 *
 *  - nocb_offloaded_loop: a kthread on an offloaded CPU runs a call_rcu()
 *    loop; that CPU invokes none of its callbacks itself, rcuos invokes
 *    them all, on other CPUs when there are housekeeping CPUs, none is
 *    lost (queued = invoked + pending), and with rcu_nocb_poll its
 *    call_rcu() sends no wakeup;
 *  - nocb_contrast_loop: the same loop on a CPU that is not offloaded,
 *    whose callbacks its own rcuc kthread invokes, on itself;
 *  - nocb_flood: qhimark + 100 callbacks queued back to back on an
 *    offloaded CPU count as a flood (an FQS request) and are all invoked
 *    by rcuo, none by the CPU, by the end of rcu_barrier(). Needs
 *    rcutree.qhimark <= NST_FLOOD_MAX (skips otherwise);
 *  - nocb_resched_each_cb: rcuo has a reschedule point after every
 *    callback, as Linux 6.1's rcu_do_batch() in kthread context: a
 *    callback asks for a reschedule, the next one in the same batch must
 *    find the request served.
 *
 * The figures of both are printed side by side ("# ..." lines) for the
 * boot test (tests/boot/36-rcu-nocb.sh) and the notes.
 */
#include "common.h"
#include "../tree.h"	/* a Tree-only suite (test/Kbuild): it reads rcu_data */
#include <kernel/ktap.h>

extern bool rcu_selftest;

#define NST_ROUNDS	20
#define NST_PER_ROUND	100
#define NST_CBS		(NST_ROUNDS * NST_PER_ROUND)

struct nst_run {
	unsigned int cpu;
	struct rcu_head heads[NST_CBS];	/* static, never freed: a stuck callback may still hold one */
	atomic_t invoked, on_self;
};

/* One record per case: a case whose callbacks are stuck leaves its own behind. */
static struct nst_run nst_offl, nst_plain;

static void nst_cb_offl(struct rcu_head *rhp)
{
	if (raw_smp_processor_id() == nst_offl.cpu)
		atomic_inc(&nst_offl.on_self);
	atomic_inc(&nst_offl.invoked);
}

static void nst_cb_plain(struct rcu_head *rhp)
{
	if (raw_smp_processor_id() == nst_plain.cpu)
		atomic_inc(&nst_plain.on_self);
	atomic_inc(&nst_plain.invoked);
}

struct nst_loop_arg {
	struct nst_run *r;
	rcu_callback_t fn;
};

/* Bound to r->cpu: rounds of call_rcu() a few ms apart, so several grace periods serve them. */
static int nst_loop(void *data)
{
	struct nst_loop_arg *a = data;

	for (int i = 0; i < NST_ROUNDS; i++) {
		for (int j = 0; j < NST_PER_ROUND; j++)
			call_rcu(&a->r->heads[i * NST_PER_ROUND + j], a->fn);
		msleep(3);
	}
	return 0;
}

struct nst_snap {
	unsigned long queued, self, rcuo, wakeups, rcuc;
	long pending;
};

/* rdp's counters; under the nocb lock when offloaded, so queued = invoked + pending exactly. */
static void nst_snap(unsigned int cpu, struct nst_snap *s)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	unsigned long flags;
	bool offl = rcu_rdp_is_offloaded(rdp);

	if (offl)
		spin_lock_irqsave(&rdp->nocb_lock, flags);
	s->queued = READ_ONCE(rdp->n_cbs_queued);
	s->self = READ_ONCE(rdp->n_cbs_invoked);
	s->rcuo = offl ? rdp->n_nocb_cbs_invoked : 0;
	s->pending = READ_ONCE(rdp->cblist.len);
	s->wakeups = offl ? READ_ONCE(rdp->n_nocb_wakeups) : 0;
	s->rcuc = READ_ONCE(rdp->n_rcu_core);
	if (offl)
		spin_unlock_irqrestore(&rdp->nocb_lock, flags);
}

/* Run the loop on r->cpu, wait for its callbacks (rcu_barrier()), return the counter deltas. */
static bool nst_run_loop(struct nst_run *r, rcu_callback_t fn, struct nst_snap *d,
			 struct nst_snap *after)
{
	struct nst_loop_arg a = { .r = r, .fn = fn };
	struct nst_snap before;

	atomic_set(&r->invoked, 0);
	atomic_set(&r->on_self, 0);
	nst_snap(r->cpu, &before);
	if (!ktest_call_timeout("rcu_nocb_st/%u", r->cpu, nst_loop, &a, RST_GP_MS, NULL, NULL)) {
		KTAP_EXPECT_MSG(false, "call_rcu() loop on CPU %u did not finish", r->cpu);
		return false;
	}
	if (!rst_barrier())
		return false;
	nst_snap(r->cpu, after);
	d->queued = after->queued - before.queued;
	d->self = after->self - before.self;
	d->rcuo = after->rcuo - before.rcuo;
	d->wakeups = after->wakeups - before.wakeups;
	d->rcuc = after->rcuc - before.rcuc;
	return true;
}

/* The first online CPU that is (offl) or is not offloaded; -1 if none. */
static int nst_pick_cpu(bool offl)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, cpu)) == offl)
			return cpu;
	return -1;
}

static void nocb_offloaded_loop(void)
{
	struct nst_snap d, after;
	int cpu = nst_pick_cpu(true);
	bool housekeeping = nst_pick_cpu(false) >= 0;

	if (cpu < 0) {
		ktap_skip("no offloaded CPU (boot with rcu_nocbs=)");
		return;
	}
	nst_offl.cpu = cpu;
	if (!nst_run_loop(&nst_offl, nst_cb_offl, &d, &after))
		return;
	ktap_diag("offloaded CPU %d%s: %d call_rcu(): queued %lu, invoked by itself %lu, by rcuo %lu, "
		  "on CPU %d %d, wakeups sent %lu, rcuc runs %lu",
		  cpu, rcu_nocb_polling() ? " (rcu_nocb_poll)" : "", NST_CBS, d.queued, d.self, d.rcuo,
		  cpu, atomic_read(&nst_offl.on_self), d.wakeups, d.rcuc);
	KTAP_EXPECT_MSG(atomic_read(&nst_offl.invoked) == NST_CBS, "%d of %d callbacks invoked",
			atomic_read(&nst_offl.invoked), NST_CBS);
	/* Over the loop only: suite rcu_nocb_toggle may have had this CPU invoke some, de-offloaded. */
	KTAP_EXPECT_MSG(d.self == 0, "offloaded CPU invoked %lu callbacks itself", d.self);
	KTAP_EXPECT_MSG(d.rcuo >= NST_CBS, "rcuo invoked %lu of %d", d.rcuo, NST_CBS);
	KTAP_EXPECT_MSG(after.queued == after.self + after.rcuo + after.pending,
			"queued %lu != invoked %lu + %lu + pending %ld", after.queued, after.self,
			after.rcuo, after.pending);
	if (housekeeping)
		KTAP_EXPECT_MSG(atomic_read(&nst_offl.on_self) == 0,
				"%d callbacks ran on the offloaded CPU", atomic_read(&nst_offl.on_self));
	if (rcu_nocb_polling())
		KTAP_EXPECT_MSG(d.wakeups == 0, "%lu wakeups sent under rcu_nocb_poll", d.wakeups);
}

static void nocb_contrast_loop(void)
{
	struct nst_snap d, after;
	int cpu = nst_pick_cpu(false);

	if (cpu < 0) {
		ktap_skip("every CPU is offloaded");
		return;
	}
	nst_plain.cpu = cpu;
	if (!nst_run_loop(&nst_plain, nst_cb_plain, &d, &after))
		return;
	ktap_diag("plain CPU %d: %d call_rcu(): queued %lu, invoked by itself %lu, by rcuo %lu, "
		  "on CPU %d %d, rcuc runs %lu",
		  cpu, NST_CBS, d.queued, d.self, d.rcuo, cpu, atomic_read(&nst_plain.on_self), d.rcuc);
	KTAP_EXPECT_MSG(atomic_read(&nst_plain.invoked) == NST_CBS, "%d of %d callbacks invoked",
			atomic_read(&nst_plain.invoked), NST_CBS);
	KTAP_EXPECT_MSG(d.self >= NST_CBS && d.rcuo == 0, "invoked by itself %lu, by rcuo %lu",
			d.self, d.rcuo);
	KTAP_EXPECT_MSG(atomic_read(&nst_plain.on_self) == NST_CBS, "%d of %d ran on CPU %d",
			atomic_read(&nst_plain.on_self), NST_CBS, cpu);
}

/* --- flood ------------------------------------------------------------------------------ */

#define NST_FLOOD_MAX	5000

static struct {
	unsigned int cpu;
	long n;
	struct rcu_head *heads;
	atomic_t invoked;
} nst_fl;

static void nst_cb_flood(struct rcu_head *rhp)
{
	atomic_inc(&nst_fl.invoked);
}

/* Bound to the offloaded CPU: back to back, faster than any grace period can drain them. */
static int nst_flood_loop(void *unused)
{
	for (long i = 0; i < nst_fl.n; i++)
		call_rcu(&nst_fl.heads[i], nst_cb_flood);
	return 0;
}

static void nocb_flood(void)
{
	struct rcu_data *rdp;
	unsigned long floods0, self0, rcuo0, batch;
	int cpu = nst_pick_cpu(true);

	if (cpu < 0) {
		ktap_skip("no offloaded CPU (boot with rcu_nocbs=)");
		return;
	}
	if (rcu_params.qhimark > NST_FLOOD_MAX) {
		ktap_skip("rcutree.qhimark above 5000");
		return;
	}
	rdp = per_cpu_ptr(&rcu_data, cpu);
	nst_fl.cpu = cpu;
	nst_fl.n = rcu_params.qhimark + 100;
	nst_fl.heads = kcalloc(nst_fl.n, sizeof(*nst_fl.heads), GFP_KERNEL);
	if (!KTAP_EXPECT_MSG(nst_fl.heads != NULL, "cannot allocate %ld callbacks", nst_fl.n))
		return;
	atomic_set(&nst_fl.invoked, 0);
	floods0 = READ_ONCE(rdp->n_nocb_floods);
	self0 = READ_ONCE(rdp->n_cbs_invoked);
	rcuo0 = READ_ONCE(rdp->n_nocb_cbs_invoked);
	if (!ktest_call_timeout("rcu_nocb_fl/%u", cpu, nst_flood_loop, NULL, RST_GP_MS, NULL, NULL)) {
		KTAP_EXPECT_MSG(false, "call_rcu() flood on CPU %d did not finish", cpu);
		return;		/* heads leaked: callbacks may still be queued */
	}
	if (!rst_barrier())
		return;
	batch = READ_ONCE(rdp->n_max_batch);
	ktap_diag("flood of %ld on offloaded CPU %d (qhimark %ld): floods %lu, invoked by itself %lu, "
		  "by rcuo %lu, max rcuo batch %lu", nst_fl.n, cpu, rcu_params.qhimark,
		  READ_ONCE(rdp->n_nocb_floods) - floods0, READ_ONCE(rdp->n_cbs_invoked) - self0,
		  READ_ONCE(rdp->n_nocb_cbs_invoked) - rcuo0, batch);
	KTAP_EXPECT_MSG(atomic_read(&nst_fl.invoked) == nst_fl.n, "%d of %ld invoked",
			atomic_read(&nst_fl.invoked), nst_fl.n);
	KTAP_EXPECT_MSG(READ_ONCE(rdp->n_nocb_floods) > floods0, "no flood counted");
	if (rcu_lazy_enabled()) {
		/* Lazy: the flood was held until qhimark, then moved at once, never more. */
		ktap_diag("lazy: at most %lu held at once on CPU %d (qhimark %ld)",
			  rcu_lazy_peak(rdp), cpu, rcu_params.qhimark);
		KTAP_EXPECT_MSG(rcu_lazy_peak(rdp) > 0 &&
				rcu_lazy_peak(rdp) <= (unsigned long)rcu_params.qhimark,
				"lazy peak %lu, qhimark %ld", rcu_lazy_peak(rdp), rcu_params.qhimark);
	}
	KTAP_EXPECT(READ_ONCE(rdp->n_cbs_invoked) == self0);
	KTAP_EXPECT(READ_ONCE(rdp->n_nocb_cbs_invoked) - rcuo0 >= (unsigned long)nst_fl.n);
	kfree(nst_fl.heads);
	nst_fl.heads = NULL;
}

/* --- a reschedule point after every callback ------------------------------------------- */

/*
 * Callback a asks for a reschedule of the task invoking it; callback b,
 * queued right after it, records whether that request was still pending.
 * rdp->n_nocb_cbs_invoked changes only between batches, so equal readings
 * in a and b mean one batch. Ours had a point only every rcutree.blimit
 * callbacks (32 when flooded): b found the request pending.
 */
static struct {
	struct rcu_head a, b;
	struct rcu_data *rdp;
	struct task_struct *a_task, *b_task;
	unsigned long a_batch, b_batch;
	bool b_resched;
} nst_rs;

static void nst_cb_rs_a(struct rcu_head *rhp)
{
	nst_rs.a_batch = READ_ONCE(nst_rs.rdp->n_nocb_cbs_invoked);
	nst_rs.a_task = current;
	set_tsk_need_resched(current);
}

static void nst_cb_rs_b(struct rcu_head *rhp)
{
	nst_rs.b_resched = need_resched();
	nst_rs.b_batch = READ_ONCE(nst_rs.rdp->n_nocb_cbs_invoked);
	nst_rs.b_task = current;
}

/* Bound to the offloaded CPU: both queued with interrupts off, so that one grace period serves them. */
static int nst_rs_queue(void *unused)
{
	unsigned long flags;

	local_irq_save(flags);
	call_rcu(&nst_rs.a, nst_cb_rs_a);
	call_rcu(&nst_rs.b, nst_cb_rs_b);
	local_irq_restore(flags);
	return 0;
}

static void nocb_resched_each_cb(void)
{
	int cpu = nst_pick_cpu(true);

	if (cpu < 0) {
		ktap_skip("no offloaded CPU (boot with rcu_nocbs=)");
		return;
	}
	nst_rs.rdp = per_cpu_ptr(&rcu_data, cpu);
	for (int i = 1; i <= 5; i++) {
		nst_rs.a_task = nst_rs.b_task = NULL;
		if (!ktest_call_timeout("rcu_nocb_rs/%u", cpu, nst_rs_queue, NULL, RST_GP_MS, NULL, NULL)) {
			KTAP_EXPECT_MSG(false, "call_rcu() on CPU %d did not return", cpu);
			return;
		}
		if (!rst_barrier())
			return;
		if (nst_rs.a_task && nst_rs.a_task == nst_rs.b_task && nst_rs.a_batch == nst_rs.b_batch) {
			ktap_diag("try %d: both callbacks of offloaded CPU %d in one rcuo batch, blimit %ld",
				  i, cpu, rcu_params.blimit);
			KTAP_EXPECT_MSG(!nst_rs.b_resched,
					"the callback after the one that asked for a reschedule still saw it pending: "
					"no reschedule point between two callbacks of an rcuo batch");
			return;
		}
	}
	ktap_skip("the two callbacks never shared an rcuo batch in 5 tries");
}

static const struct ktap_case rcu_nocb_cases[] = {
	KTAP_CASE(nocb_offloaded_loop),
	KTAP_CASE(nocb_contrast_loop),
	KTAP_CASE(nocb_flood),
	KTAP_CASE(nocb_resched_each_cb),
};
KTAP_SUITE(rcu_nocb, rcu_nocb_cases, &rcu_selftest);
