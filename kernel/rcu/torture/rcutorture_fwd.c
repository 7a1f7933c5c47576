/*
 * rcutorture: the forward-progress test (fwd_progress*): a cond_resched()
 * loop and a call_rcu() flood, during which grace periods must keep ending.
 *
 * As in Linux 6.1, rcutorture.fwd_progress is the number of kthreads that
 * run the test (0: none, negative: one per CPU, at most one per CPU).
 * Kthread 0 paces the rounds (fwd_progress_holdoff seconds apart) and bumps
 * rcu_fwd_seq; the others wait for the bump, so that every round's floods
 * run at the same time and grace periods must keep up with all of them.
 */
#include "rcutorture.h"
#include <mm/mm.h>

static struct task_struct **fwd_prog_tasks;
static int nfwd;			/* fwd_progress kthreads started */
static unsigned long rcu_fwd_seq;	/* kthread 0's round number */
static atomic_long_t rcu_fwd_max_cbs;	/* callbacks allocated by this round's floods */
static DEFINE_MUTEX(rcu_fwd_mutex);	/* one histogram on the console at a time */

/* ===== forward progress ============================================================================ */

/* A callback that requeues itself until told to stop: GPs must go on regardless. */
struct fwd_cb_state {
	struct rcu_head rh;
	int stop;
};

static void rcu_torture_fwd_prog_cb(struct rcu_head *rhp)
{
	struct fwd_cb_state *fcsp = container_of(rhp, struct fwd_cb_state, rh);

	if (READ_ONCE(fcsp->stop)) {
		WRITE_ONCE(fcsp->stop, 2);
		return;
	}
	cur_ops->call(&fcsp->rh, rcu_torture_fwd_prog_cb);
}

/* A flood callback: after each grace period it goes back on the flooder's list. */
struct rcu_fwd_cb {
	struct rcu_head rh;
	struct rcu_fwd_cb *rfc_next;
	struct rcu_fwd *rfc_rfp;
	int rfc_gps;
};

#define MAX_FWD_CB_JIFFIES	(8 * HZ)	/* longest flood */
#define MIN_FWD_CB_LAUNDERS	3		/* a callback must go around this often... */
#define MIN_FWD_CBS_LAUNDERED	100		/* ...this many times for the flood to end */
#define FWD_CBS_HIST_DIV	10		/* histogram buckets per second */
#define N_LAUNDERS_HIST		(2 * MAX_FWD_CB_JIFFIES / (HZ / FWD_CBS_HIST_DIV))
/*
 * The flood may allocate at most 1/FWD_CBS_MEM_DIV of the memory free when it
 * starts. It allocates only when no invoked callback is ready for reuse, so
 * reaching the limit means grace periods and invocation fell behind: that is
 * a failure (a WARN and the flood's emergency stop), as Linux's OOM notifier
 * makes running out of memory one. The flood is never throttled to fit:
 * throttling would hide slow invocation.
 */
#define FWD_CBS_MEM_DIV		2

struct rcu_launder_hist {
	long n_launders;
	unsigned long launder_gp_seq;
};

struct rcu_fwd {
	spinlock_t rcu_fwd_lock;
	int rcu_fwd_id;			/* which fwd_progress kthread */
	struct torture_random_state rcu_fwd_trs;	/* its own: Linux's static one would be shared */
	struct rcu_fwd_cb *rcu_fwd_cb_head;
	struct rcu_fwd_cb **rcu_fwd_cb_tail;
	long n_launders_cb;
	unsigned long rcu_fwd_startat;
	struct rcu_launder_hist n_launders_hist[N_LAUNDERS_HIST];
	unsigned long rcu_launder_gp_seq_start;
};

static struct rcu_fwd *rcu_fwds;
static bool rcu_fwd_emergency_stop;

static void rcu_torture_fwd_cb_hist(struct rcu_fwd *rfp)
{
	unsigned long gps, gps_old;
	char buf[768];
	int i, j, n;

	for (i = ARRAY_SIZE(rfp->n_launders_hist) - 1; i > 0; i--)
		if (rfp->n_launders_hist[i].n_launders > 0)
			break;
	/* scnprintf(): a long flood's buckets may not all fit; the line is then cut, not overrun. */
	n = scnprintf(buf, sizeof(buf), "%s: Callback-invocation histogram %d (duration %lu jiffies):",
		      __func__, rfp->rcu_fwd_id, jiffies - rfp->rcu_fwd_startat);
	gps_old = rfp->rcu_launder_gp_seq_start;
	for (j = 0; j <= i; j++) {
		gps = rfp->n_launders_hist[j].launder_gp_seq;
		n += scnprintf(buf + n, sizeof(buf) - n, " %ds/%d: %ld:%ld", j + 1, FWD_CBS_HIST_DIV,
			       rfp->n_launders_hist[j].n_launders, (long)(gps - gps_old));
		gps_old = gps;
	}
	pr_alert("%s\n", buf);
}

static void rcu_torture_fwd_cb_cr(struct rcu_head *rhp)
{
	struct rcu_fwd_cb *rfcp = container_of(rhp, struct rcu_fwd_cb, rh);
	struct rcu_fwd *rfp = rfcp->rfc_rfp;
	struct rcu_fwd_cb **rfcpp;
	unsigned long flags;
	int i;

	rfcp->rfc_next = NULL;
	rfcp->rfc_gps++;
	spin_lock_irqsave(&rfp->rcu_fwd_lock, flags);
	rfcpp = rfp->rcu_fwd_cb_tail;
	rfp->rcu_fwd_cb_tail = &rfcp->rfc_next;
	WRITE_ONCE(*rfcpp, rfcp);
	WRITE_ONCE(rfp->n_launders_cb, rfp->n_launders_cb + 1);
	i = (jiffies - rfp->rcu_fwd_startat) / (HZ / FWD_CBS_HIST_DIV);
	if (i >= (int)ARRAY_SIZE(rfp->n_launders_hist))
		i = ARRAY_SIZE(rfp->n_launders_hist) - 1;
	rfp->n_launders_hist[i].n_launders++;
	rfp->n_launders_hist[i].launder_gp_seq = cur_ops->get_gp_seq();
	spin_unlock_irqrestore(&rfp->rcu_fwd_lock, flags);
}

/* Free the callbacks back on the flooder's list; returns how many. */
static unsigned long rcu_torture_fwd_prog_cbfree(struct rcu_fwd *rfp)
{
	unsigned long flags, freed = 0;
	struct rcu_fwd_cb *rfcp;

	for (;;) {
		spin_lock_irqsave(&rfp->rcu_fwd_lock, flags);
		rfcp = rfp->rcu_fwd_cb_head;
		if (!rfcp) {
			spin_unlock_irqrestore(&rfp->rcu_fwd_lock, flags);
			break;
		}
		rfp->rcu_fwd_cb_head = rfcp->rfc_next;
		if (!rfp->rcu_fwd_cb_head)
			rfp->rcu_fwd_cb_tail = &rfp->rcu_fwd_cb_head;
		spin_unlock_irqrestore(&rfp->rcu_fwd_lock, flags);
		kfree(rfcp);
		freed++;
		cond_resched();
	}
	return freed;
}

/* A tight loop of short readers with only cond_resched(): grace periods must still end. */
static void rcu_torture_fwd_prog_nr(struct rcu_fwd *rfp, int *tested, int *tested_tries)
{
	unsigned long cver, gps, dur, stopat;
	struct fwd_cb_state fcs;
	bool selfpropcb = false;
	int idx, sd, sd4;

	pr_alert("%s: Starting forward-progress test %d\n", __func__, rfp->rcu_fwd_id);
	if (!cur_ops->sync)
		return;
	if (cur_ops->call && cur_ops->cb_barrier)
		selfpropcb = true;
	atomic_inc(&rcu_fwd_cb_nodelay);	/* several kthreads: a count, as Linux's */
	cur_ops->sync();	/* readers from now on see the flag */
	if (selfpropcb) {
		WRITE_ONCE(fcs.stop, 0);
		init_rcu_head_on_stack(&fcs.rh);	/* DEBUG_OBJECTS_RCU_HEAD, as Linux */
		cur_ops->call(&fcs.rh, rcu_torture_fwd_prog_cb);
	}
	cver = READ_ONCE(rcu_torture_current_version);
	gps = cur_ops->get_gp_seq();
	sd = cur_ops->stall_dur() + 1;
	sd4 = (sd + rtp->fwd_progress_div - 1) / rtp->fwd_progress_div;
	dur = sd4 + torture_random(&rfp->rcu_fwd_trs) % (sd - sd4);
	WRITE_ONCE(rfp->rcu_fwd_startat, jiffies);
	stopat = rfp->rcu_fwd_startat + dur;
	while (time_before(jiffies, stopat) && !rcu_torture_shutdown_time_arrived() &&
	       !READ_ONCE(rcu_fwd_emergency_stop) && !torture_must_stop()) {
		idx = cur_ops->readlock();
		udelay(10);
		cur_ops->readunlock(idx);
		if (!rtp->fwd_progress_need_resched || need_resched())
			cond_resched();
	}
	(*tested_tries)++;
	if (!time_before(jiffies, stopat) && !rcu_torture_shutdown_time_arrived() &&
	    !READ_ONCE(rcu_fwd_emergency_stop) && !torture_must_stop()) {
		(*tested)++;
		cver = READ_ONCE(rcu_torture_current_version) - cver;
		gps = cur_ops->get_gp_seq() - gps;
		WARN_ON(!cver && gps < 2);
		pr_alert("%s: Duration %ld cver %ld gps %ld\n", __func__, dur, cver, gps);
	}
	if (selfpropcb) {
		WRITE_ONCE(fcs.stop, 1);
		cur_ops->sync();	/* a running callback finishes */
		cur_ops->cb_barrier();	/* and a queued one is invoked */
		WARN_ON(READ_ONCE(fcs.stop) != 2);
		destroy_rcu_head_on_stack(&fcs.rh);
	}
	schedule_timeout_uninterruptible(HZ / 10);
	atomic_dec(&rcu_fwd_cb_nodelay);
}

/* Flood call_rcu(), reusing callbacks once invoked: grace periods must keep up. */
static void rcu_torture_fwd_prog_cr(struct rcu_fwd *rfp)
{
	long n_launders = 0, n_launders_cb_snap, n_launders_sa = 0, n_max_cbs = 0, n_max_gps = 0;
	unsigned long cver, gps, stopat, stoppedat, dur, rate100;
	unsigned long free_bytes, objsz = 0, max_cbs = 0;
	unsigned long gp_now, gp_last, gp_last_at, gp_longest = 0;
	struct rcu_fwd_cb *rfcp, *rfcpn;
	int i;

	pr_alert("%s: Starting forward-progress test %d\n", __func__, rfp->rcu_fwd_id);
	if (READ_ONCE(rcu_fwd_emergency_stop) || !cur_ops->call)
		return;
	atomic_inc(&rcu_fwd_cb_nodelay);
	cur_ops->sync();
	/* The floods of one round share the limit: each gets its part of it. */
	free_bytes = nr_free_pages() * PAGE_SIZE / nfwd;
	WRITE_ONCE(rfp->rcu_fwd_startat, jiffies);
	stopat = rfp->rcu_fwd_startat + MAX_FWD_CB_JIFFIES;
	rfp->n_launders_cb = 0;
	for (i = 0; i < (int)ARRAY_SIZE(rfp->n_launders_hist); i++)
		rfp->n_launders_hist[i].n_launders = 0;
	cver = READ_ONCE(rcu_torture_current_version);
	gps = cur_ops->get_gp_seq();
	rfp->rcu_launder_gp_seq_start = gps;
	gp_last = gps;
	gp_last_at = rfp->rcu_fwd_startat;
	while (time_before(jiffies, stopat) && !rcu_torture_shutdown_time_arrived() &&
	       !READ_ONCE(rcu_fwd_emergency_stop) && !torture_must_stop()) {
		/* The longest wait between two grace-period ends seen while flooding. */
		gp_now = cur_ops->get_gp_seq();
		if (gp_now != gp_last) {
			if (jiffies - gp_last_at > gp_longest)
				gp_longest = jiffies - gp_last_at;
			gp_last = gp_now;
			gp_last_at = jiffies;
		}
		rfcp = READ_ONCE(rfp->rcu_fwd_cb_head);
		rfcpn = rfcp ? READ_ONCE(rfcp->rfc_next) : NULL;
		if (rfcpn) {
			/* Reuse an invoked callback (keep the last: the tail points at it). */
			if (rfcp->rfc_gps >= MIN_FWD_CB_LAUNDERS &&
			    ++n_max_gps >= MIN_FWD_CBS_LAUNDERED)
				break;
			rfp->rcu_fwd_cb_head = rfcpn;
			n_launders++;
			n_launders_sa++;
		} else if (max_cbs && (unsigned long)n_max_cbs >= max_cbs) {
			WARN(1, "%s: %ld callbacks (%lu KiB, 1/%d of the memory free at the start) outstanding: grace periods and invocation fell behind the flood\n",
			     __func__, n_max_cbs, n_max_cbs * objsz / 1024, FWD_CBS_MEM_DIV);
			WRITE_ONCE(rcu_fwd_emergency_stop, true);
			break;
		} else {
			rfcp = kmalloc(sizeof(*rfcp), GFP_KERNEL);
			if (WARN(!rfcp, "%s: out of memory after %ld callbacks\n", __func__, n_max_cbs)) {
				WRITE_ONCE(rcu_fwd_emergency_stop, true);
				break;
			}
			if (!objsz) {	/* what each one really costs, from its size class */
				objsz = ksize(rfcp);
				max_cbs = free_bytes / FWD_CBS_MEM_DIV / objsz;
			}
			n_max_cbs++;
			n_launders_sa = 0;
			rfcp->rfc_gps = 0;
			rfcp->rfc_rfp = rfp;
		}
		cur_ops->call(&rfcp->rh, rcu_torture_fwd_cb_cr);
		cond_resched();
	}
	stoppedat = jiffies;
	if (stoppedat - gp_last_at > gp_longest)
		gp_longest = stoppedat - gp_last_at;	/* a grace period still not over */
	n_launders_cb_snap = READ_ONCE(rfp->n_launders_cb);
	cver = READ_ONCE(rcu_torture_current_version) - cver;
	gps = cur_ops->get_gp_seq() - gps;
	cur_ops->cb_barrier();	/* every flood callback has been invoked */
	(void)rcu_torture_fwd_prog_cbfree(rfp);
	if (!torture_must_stop() && !rcu_torture_shutdown_time_arrived()) {
		dur = stoppedat - rfp->rcu_fwd_startat;
		if (!READ_ONCE(rcu_fwd_emergency_stop))
			WARN_ON(n_max_gps < MIN_FWD_CBS_LAUNDERED);
		pr_alert("%s Duration %lu barrier: %lu pending %ld n_launders: %ld n_launders_sa: %ld n_max_gps: %ld n_max_cbs: %ld cver %ld gps %ld\n",
			 __func__, dur, jiffies - stoppedat,
			 n_launders + n_max_cbs - n_launders_cb_snap, n_launders, n_launders_sa,
			 n_max_gps, n_max_cbs, cver, gps);
		atomic_long_add(n_max_cbs, &rcu_fwd_max_cbs);
		/* Not in Linux: the flood's figures in one line (rates in hundredths). */
		rate100 = dur ? (unsigned long)n_launders_cb_snap * 100 / dur : 0;
		pr_alert("%s: %ld callbacks invoked in %lu jiffies (%lu.%02lu per jiffy), %ld grace periods, longest %lu jiffies; %ld allocated (%lu KiB of a %lu KiB limit)\n",
			 __func__, n_launders_cb_snap, dur, rate100 / 100, rate100 % 100, (long)gps,
			 gp_longest, n_max_cbs, n_max_cbs * objsz / 1024,
			 free_bytes / FWD_CBS_MEM_DIV / 1024);
		mutex_lock(&rcu_fwd_mutex);
		rcu_torture_fwd_cb_hist(rfp);
		mutex_unlock(&rcu_fwd_mutex);
	}
	schedule_timeout_uninterruptible(HZ);	/* let the callbacks drain */
	atomic_dec(&rcu_fwd_cb_nodelay);
}

/*
 * One fwd_progress kthread. Kthread 0 waits fwd_progress_holdoff seconds,
 * reports the previous round's allocations (Linux's "n_max_cbs" line) and
 * starts the next round; the others follow its rounds. Only kthread 0
 * reports tested/tested_tries at the end, as in Linux.
 */
static int rcu_torture_fwd_prog(void *args)
{
	struct rcu_fwd *rfp = args;
	unsigned long oldseq = READ_ONCE(rcu_fwd_seq);
	int tested = 0, tested_tries = 0;
	bool firsttime = true;

	VERBOSE_TOROUT_STRING("rcu_torture_fwd_progress task started");
	/*
	 * Linux 6.1's niceness: nice 19 at the start (without RCU_BOOST or on
	 * UP), then back to the nice it started with (0, every kthread's) once
	 * a stutter pause has been waited through (below). Keeping nice 19 for
	 * good made the flooder share a CPU evenly with the nice-19 reader that
	 * rcutorture's shuffler puts beside it at -smp 2, where Linux's floods
	 * after the first run at nice 0 and get nearly all of that CPU: half
	 * Linux's loop steps per jiffy for no RCU reason.
	 */
	if (!IS_ENABLED(CONFIG_SMP) || !IS_ENABLED(CONFIG_RCU_BOOST))
		set_user_nice(current, 19);
	do {
		if (!rfp->rcu_fwd_id) {
			schedule_timeout_interruptible(rtp->fwd_progress_holdoff * HZ);
			WRITE_ONCE(rcu_fwd_emergency_stop, false);
			if (!firsttime)
				pr_alert("%s n_max_cbs: %ld\n", __func__,
					 atomic_long_xchg(&rcu_fwd_max_cbs, 0));
			firsttime = false;
			WRITE_ONCE(rcu_fwd_seq, rcu_fwd_seq + 1);
		} else {
			while (READ_ONCE(rcu_fwd_seq) == oldseq && !torture_must_stop())
				schedule_timeout_interruptible(HZ / 20);
			oldseq = READ_ONCE(rcu_fwd_seq);
		}
		if (torture_must_stop())
			break;
		/*
		 * More floods than online CPUs (hotplug) would only starve the
		 * rest. Linux 6.1's order: the call_rcu() flood first, right after
		 * the holdoff or the stutter pause, then the cond_resched() loop.
		 */
		if ((int)num_online_cpus() > rfp->rcu_fwd_id) {
			rcu_torture_fwd_prog_cr(rfp);
			rcu_torture_fwd_prog_nr(rfp, &tested, &tested_tries);
		}
		if (stutter_wait("rcu_torture_fwd_prog"))
			set_user_nice(current, 0);	/* Linux: sched_set_normal(current, oldnice) */
	} while (!torture_must_stop());
	/* A short run may hold no complete attempt; several failed ones are suspicious. */
	if (!rfp->rcu_fwd_id) {
		WARN_ON(!tested && tested_tries >= 5);
		pr_alert("%s: tested %d tested_tries %d\n", __func__, tested, tested_tries);
	}
	torture_kthread_stopping("rcu_torture_fwd_prog");
	return 0;
}

int rcu_torture_fwd_prog_init(void)
{
	int i, n, ret;

	if (!rtp->fwd_progress)
		return 0;
	n = rtp->fwd_progress;	/* kthreads to start */
	if (n >= (int)nr_cpu_ids) {
		VERBOSE_TOROUT_STRING("rcu_torture_fwd_prog_init: Limiting fwd_progress to # CPUs.");
		n = nr_cpu_ids;
	} else if (n < 0) {
		n = nr_cpu_ids;
	}
	/*
	 * slow_gps (Tasks RCU): its stall timeout is ten minutes, and the
	 * cond_resched() loop below is one long reader for it (Linux's tasks
	 * flavor has no stall_dur, which disables the test the same way).
	 */
	if ((!cur_ops->sync && !cur_ops->call) || !cur_ops->stall_dur ||
	    cur_ops->stall_dur() <= 0 || cur_ops->slow_gps || cur_ops == &rcu_busted_ops) {
		VERBOSE_TOROUT_STRING("rcu_torture_fwd_prog_init: Disabled, unsupported by RCU flavor under test");
		return 0;
	}
	if (rtp->stall_cpu > 0) {
		VERBOSE_TOROUT_STRING("rcu_torture_fwd_prog_init: Disabled, conflicts with CPU-stall testing");
		return 0;
	}
	rcu_fwds = kcalloc(n, sizeof(*rcu_fwds), GFP_KERNEL);
	fwd_prog_tasks = kcalloc(n, sizeof(*fwd_prog_tasks), GFP_KERNEL);
	if (!rcu_fwds || !fwd_prog_tasks) {
		kfree(rcu_fwds);
		kfree(fwd_prog_tasks);
		rcu_fwds = NULL;
		fwd_prog_tasks = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		spin_lock_init(&rcu_fwds[i].rcu_fwd_lock);
		rcu_fwds[i].rcu_fwd_cb_tail = &rcu_fwds[i].rcu_fwd_cb_head;
		rcu_fwds[i].rcu_fwd_id = i;
	}
	nfwd = n;
	atomic_long_set(&rcu_fwd_max_cbs, 0);
	for (i = 0; i < nfwd; i++) {
		ret = torture_create_kthread(rcu_torture_fwd_prog, &rcu_fwds[i], fwd_prog_tasks[i]);
		if (ret)
			return ret;	/* the cleanup stops the ones started */
	}
	return 0;
}

void rcu_torture_fwd_prog_cleanup(void)
{
	int i;

	if (fwd_prog_tasks) {
		for (i = 0; i < nfwd; i++)
			torture_stop_kthread(rcu_torture_fwd_prog, fwd_prog_tasks[i]);
	}
	kfree(fwd_prog_tasks);
	fwd_prog_tasks = NULL;
	kfree(rcu_fwds);
	rcu_fwds = NULL;
	nfwd = 0;
}
