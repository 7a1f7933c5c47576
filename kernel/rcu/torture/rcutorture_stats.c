/*
 * rcutorture: the statistics lines (Linux's format) and the parameter line
 * printed at the start and with the verdict.
 */
#include "rcutorture.h"

/* ===== counters ================================================================================== */

struct rcu_torture_counters rcu_torture_counters;
DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_count);
DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_batch);

/* Each run starts from zero; called before any test kthread exists. */
void rcu_torture_stats_reset(void)
{
	int cpu, i;

	memset(&rcu_torture_counters, 0, sizeof(rcu_torture_counters));
	for_each_possible_cpu(cpu) {
		for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++) {
			per_cpu(rcu_torture_count, cpu)[i] = 0;
			per_cpu(rcu_torture_batch, cpu)[i] = 0;
		}
	}
}

/* The verdict's counters (with CPU-hotplug failures, which the core adds). */
bool rcu_torture_stats_failed(void)
{
	const struct rcu_torture_counters *c = &rcu_torture_counters;

	return atomic_read(&c->error) || atomic_read(&c->lost) || atomic_read(&c->poll_timeouts) ||
	       c->barrier_error || c->boost_failure;
}

/* ===== statistics ================================================================================ */

void rcu_torture_stats_print(void)
{
	long pipesummary[RCU_TORTURE_PIPE_LEN + 1] = { 0 };
	long batchsummary[RCU_TORTURE_PIPE_LEN + 1] = { 0 };
	struct rcu_torture_counters *c = &rcu_torture_counters;
	static unsigned long rtcv_snap = ULONG_MAX, stutter_snap;
	static bool splatted;
	struct rcu_torture *rtcp;
	char buf[512];
	int cpu, i, n;

	for_each_possible_cpu(cpu) {
		for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++) {
			pipesummary[i] += READ_ONCE(per_cpu(rcu_torture_count, cpu)[i]);
			batchsummary[i] += READ_ONCE(per_cpu(rcu_torture_batch, cpu)[i]);
		}
	}
	/* The oldest age seen; reads of recycled elements (index PIPE_LEN) count too. */
	for (i = RCU_TORTURE_PIPE_LEN; i >= 0; i--)
		if (pipesummary[i])
			break;

	/* Each line is built whole, so concurrent console output cannot split it. */
	rtcp = rcu_access_pointer(rcu_torture_current);
	n = snprintf(buf, sizeof(buf),
		     "%s%s rtc: %p ver: %lu tfle: %d rta: %d rtaf: %d rtf: %d ",
		     rtp->torture_type, TORTURE_FLAG, rtcp, READ_ONCE(rcu_torture_current_version),
		     list_empty(&rcu_torture_freelist), atomic_read(&c->alloc),
		     atomic_read(&c->alloc_fail), atomic_read(&c->free));
	n += snprintf(buf + n, sizeof(buf) - n,
		      "rtmbe: %d rtmbkf: %d/%d rtbe: %ld rtbke: %ld rtbre: %ld ",
		      atomic_read(&c->mberror), atomic_read(&c->mbchk_fail),
		      atomic_read(&c->mbchk_tries), c->barrier_error,
		      c->boost_ktrerror, c->boost_rterror);
	n += snprintf(buf + n, sizeof(buf) - n, "rtbf: %ld rtb: %ld nt: %ld ",
		      c->boost_failure, c->boosts,
		      atomic_long_read(&c->timers));
	if (IS_ENABLED(CONFIG_HOTPLUG_CPU))	/* Linux's place for it: before barrier */
		n += torture_onoff_stats(buf + n, sizeof(buf) - n);
	n += snprintf(buf + n, sizeof(buf) - n, "barrier: %ld/%ld:%ld ",
		      READ_ONCE(c->barrier_successes), READ_ONCE(c->barrier_attempts),
		      READ_ONCE(c->barrier_error));
	n += snprintf(buf + n, sizeof(buf) - n, "read-exits: %ld ", READ_ONCE(c->read_exits));
	n += snprintf(buf + n, sizeof(buf) - n, "nocb-toggles: %ld:%ld",
		      atomic_long_read(&c->nocb_offload), atomic_long_read(&c->nocb_deoffload));
	/* Not in Linux's line: shown only once a polled wait has run out of time. */
	if (atomic_read(&c->poll_timeouts))
		snprintf(buf + n, sizeof(buf) - n, " poll-timeouts: %d",
			 atomic_read(&c->poll_timeouts));
	pr_alert("%s\n", buf);

	n = snprintf(buf, sizeof(buf), "%s%s ", rtp->torture_type, TORTURE_FLAG);
	if (atomic_read(&c->mberror) || atomic_read(&c->mbchk_fail) ||
	    atomic_read(&c->lost) || atomic_read(&c->poll_timeouts) ||
	    c->barrier_error || c->boost_ktrerror ||
	    c->boost_rterror || c->boost_failure || i > 1) {
		n += snprintf(buf + n, sizeof(buf) - n, "!!! ");
		atomic_inc(&c->error);
	}
	n += snprintf(buf + n, sizeof(buf) - n, "Reader Pipe: ");
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %ld", pipesummary[i]);
	pr_alert("%s\n", buf);

	n = snprintf(buf, sizeof(buf), "%s%s Reader Batch: ", rtp->torture_type, TORTURE_FLAG);
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %ld", batchsummary[i]);
	pr_alert("%s\n", buf);

	n = snprintf(buf, sizeof(buf), "%s%s Free-Block Circulation: ", rtp->torture_type, TORTURE_FLAG);
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %d", atomic_read(&c->wcount[i]));
	pr_alert("%s\n", buf);
	if (cur_ops->stats)
		cur_ops->stats();

	/*
	 * The writer made no progress in a whole interval: say where it is.
	 * A stutter pause in the interval is not a stall.
	 */
	if (rtcv_snap == READ_ONCE(rcu_torture_current_version) && rtcp &&
	    stutter_snap == torture_stutter_pauses()) {
		int flags = 0;
		unsigned long gp_seq = 0;
		struct task_struct *wtp = READ_ONCE(rcu_torture_writer_task);

		if (cur_ops->gp_data)
			cur_ops->gp_data(&flags, &gp_seq);
		pr_alert("??? Writer stall state %s(%d) g%lu f%#x ->state %#lx cpu %d\n",
			 rcu_torture_writer_state_getname(), rcu_torture_writer_state,
			 gp_seq, flags, wtp ? (unsigned long)task_state(wtp) : ~0UL,
			 wtp ? (int)task_cpu(wtp) : -1);
		if (!splatted) {
			sched_show_tasks();	/* once: where everyone is */
			splatted = true;
		}
	}
	rtcv_snap = READ_ONCE(rcu_torture_current_version);
	stutter_snap = torture_stutter_pauses();
}

int rcu_torture_stats(void *arg)
{
	VERBOSE_TOROUT_STRING("rcu_torture_stats task started");
	do {
		schedule_timeout_interruptible(rtp->stat_interval * HZ);
		if (!torture_must_stop())
			rcu_torture_stats_print();
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_stats");
	return 0;
}

void rcu_torture_print_module_parms(struct rcu_torture_ops *ops, const char *tag)
{
	pr_alert("%s" TORTURE_FLAG
		 "--- %s: nreaders=%d nfakewriters=%d "
		 "stat_interval=%d verbose=%d test_no_idle_hz=%d "
		 "shuffle_interval=%d stutter=%d irqreader=%d "
		 "fqs_duration=%d fqs_holdoff=%d fqs_stutter=%d "
		 "test_boost=%d/%d test_boost_interval=%d "
		 "test_boost_duration=%d shutdown_secs=%d "
		 "stall_cpu=%d stall_cpu_holdoff=%d stall_cpu_irqsoff=%d "
		 "stall_cpu_block=%d "
		 "n_barrier_cbs=%d "
		 "onoff_interval=%d onoff_holdoff=%d "
		 "read_exit_delay=%d read_exit_burst=%d "
		 "nocbs_nthreads=%d nocbs_toggle=%d\n",
		 rtp->torture_type, tag, rtp->nrealreaders, rtp->nfakewriters,
		 rtp->stat_interval, rtp->verbose, rtp->test_no_idle_hz, rtp->shuffle_interval,
		 rtp->stutter, rtp->irqreader, rtp->fqs_duration, rtp->fqs_holdoff, rtp->fqs_stutter,
		 rtp->test_boost, ops ? ops->can_boost : 0, rtp->test_boost_interval, rtp->test_boost_duration,
		 rtp->shutdown_secs,
		 rtp->stall_cpu, rtp->stall_cpu_holdoff, rtp->stall_cpu_irqsoff, stall_cpu_block,
		 rtp->n_barrier_cbs, rtp->onoff_interval, rtp->onoff_holdoff,
		 rtp->read_exit_delay, rtp->read_exit_burst, rtp->nocbs_nthreads, rtp->nocbs_toggle);
}
