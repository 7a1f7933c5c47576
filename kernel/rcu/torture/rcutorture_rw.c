/*
 * rcutorture: the writer, the fake writers and the readers (kthreads and
 * timer handlers) that check no element ages past a grace period.
 */
#include "rcutorture.h"

/* ===== writer and fake writers ============================================================== */

/*
 * The update-side primitives the writer picks from, chosen once by
 * rcu_torture_write_types(); the fake writers pick from the same table
 * (as Linux's), so both mixes follow the gp_* parameters alike.
 */
static int synctype[11], nsynctypes;

/*
 * How long a polled grace period may take on its own before the wait counts
 * as lost: twice the stall timeout, so that a CPU really holding up the grace
 * period gets its stall warning first, plus the length of the CPU stall this
 * test provokes on purpose (stall_cpu): that stall holds every grace period
 * started before it ends, so it must not count against the wait. A cookie
 * that is never completed on an otherwise idle system (nothing else asks for
 * grace periods) would hang the writer silently; this turns it into a failure.
 */
static unsigned long rcu_torture_poll_limit(void)
{
	int sd = cur_ops->stall_dur ? cur_ops->stall_dur() : 0;
	unsigned long limit = sd > 0 ? 2UL * (unsigned long)sd : 60UL * HZ;

	if (rtp->stall_cpu > 0)
		limit += (unsigned long)rtp->stall_cpu * HZ;
	return limit;
}

/*
 * A cookie the writers poll: an ordinary one (oldstate, checked with poll:
 * the flavor's poll_gp_state or poll_gp_state_exp) or a full-state one
 * (full, checked with poll_gp_state_full).
 */
struct rcu_torture_cookie {
	bool (*poll)(unsigned long oldstate);
	unsigned long oldstate;
	struct rcu_gp_oldstate *full;
};

static bool rcu_torture_cookie_done(const struct rcu_torture_cookie *c)
{
	return c->full ? cur_ops->poll_gp_state_full(c->full) : c->poll(c->oldstate);
}

/*
 * Wait for a polled cookie, sleeping a random while between polls as Linux's
 * writer does. Returns true once it is complete. If it is still not complete
 * after rcu_torture_poll_limit(), reports it (a "poll-timeouts" failure) and
 * waits for two full grace periods instead, so that the caller may still free
 * what it retired; returns false then, or when the test is stopping.
 */
static bool rcu_torture_poll_wait(const struct rcu_torture_cookie *c,
				  struct torture_random_state *trsp, const char *who)
{
	unsigned long start = jiffies, limit = rcu_torture_poll_limit();

	while (!rcu_torture_cookie_done(c)) {
		if (torture_must_stop())
			return false;
		if (time_after(jiffies, start + limit)) {
			atomic_inc(&rcu_torture_counters.poll_timeouts);
			pr_alert("%s%s !!! %s: polled grace period %lu%s not complete after %lu jiffies (now at %lu)\n",
				 rtp->torture_type, TORTURE_FLAG, who,
				 c->full ? c->full->rgos_norm : c->oldstate,
				 c->full ? " (full state)" : "", jiffies - start,
				 cur_ops->get_gp_state ? cur_ops->get_gp_state() : 0UL);
			cur_ops->sync();
			cur_ops->sync();
			return false;
		}
		torture_hrtimeout_jiffies(torture_random(trsp) % 16, trsp);
	}
	return true;
}

/*
 * A synchronous grace period of the writer (normal or expedited). One time in
 * four it also checks, as Linux's writer does, that a cookie taken before the
 * wait is complete after it. That takes two waits: the first may join a polled
 * phase opened before the cookie was taken, and closing that phase falls short
 * of the cookie; the second one's phase starts after the cookie.
 */
static void rcu_torture_do_sync(struct torture_random_state *trsp, void (*sync)(void),
				const char *name)
{
	bool dopoll = cur_ops->get_gp_state && cur_ops->poll_gp_state &&
		      !(torture_random(trsp) & 0x300);
	unsigned long cookie = 0;

	if (dopoll) {
		cookie = cur_ops->get_gp_state();
		sync();
	}
	sync();
	WARN_ONCE(dopoll && !cur_ops->poll_gp_state(cookie),
		  "%s: Cookie check 3 failed %s() %lu->%lu\n", "rcu_torture_writer", name,
		  cookie, cur_ops->get_gp_state());
}

/*
 * The writer's update types, in the order Linux's rcu_torture_write_types()
 * looks at them: the gp_* parameter that asks for each, the word its
 * "Testing ... GPs." line uses, and the two flavor operations it needs
 * (the same one twice if it needs one).
 */
#define RTWT(type, gp, kind, op1, op2)						\
	{ RTWS_##type, offsetof(struct rcu_torture_params, gp), #gp, kind,	\
	  offsetof(struct rcu_torture_ops, op1), offsetof(struct rcu_torture_ops, op2) }
static const struct rcu_torture_write_type {
	int rtws;		/* RTWS_*: the first state of a wait of this type */
	size_t param;		/* rcutorture.gp_*: its offset in struct rcu_torture_params */
	const char *param_name;
	const char *kind;
	size_t op1, op2;	/* offsets in struct rcu_torture_ops */
} rcu_torture_write_type_list[] = {
	RTWT(COND_GET, gp_cond, "conditional", get_gp_state, cond_sync),
	RTWT(COND_GET_EXP, gp_cond_exp, "conditional expedited", get_gp_state_exp, cond_sync_exp),
	RTWT(COND_GET_FULL, gp_cond_full, "conditional full-state", get_gp_state_full, cond_sync_full),
	RTWT(COND_GET_EXP_FULL, gp_cond_exp_full, "conditional full-state expedited",
	     get_gp_state_full, cond_sync_exp_full),
	RTWT(EXP_SYNC, gp_exp, "expedited", exp_sync, exp_sync),
	RTWT(DEF_FREE, gp_normal, "asynchronous", deferred_free, deferred_free),
	RTWT(POLL_GET, gp_poll, "polling", start_gp_poll, poll_gp_state),
	RTWT(POLL_GET_FULL, gp_poll_full, "polling full-state",
	     start_gp_poll_full, poll_gp_state_full),
	RTWT(POLL_GET_EXP, gp_poll_exp, "polling expedited", start_gp_poll_exp, poll_gp_state_exp),
	RTWT(POLL_GET_EXP_FULL, gp_poll_exp_full, "polling full-state expedited",
	     start_gp_poll_exp_full, poll_gp_state_full),
	RTWT(SYNC, gp_sync, "normal", sync, sync),
};
#undef RTWT

/* Did the command line ask for this update type (its gp_* parameter)? */
static bool rcu_torture_write_type_asked(const struct rcu_torture_write_type *t)
{
	return *(const bool *)((const char *)rtp + t->param);
}
_Static_assert(ARRAY_SIZE(rcu_torture_write_type_list) == ARRAY_SIZE(synctype),
	       "synctype[] holds every update type");

/* Does the flavor under test have the operation at offset off? Every one is a pointer. */
static bool rcu_torture_has_op(size_t off)
{
	return *(void * const *)((const char *)cur_ops + off) != NULL;
}

/*
 * Fill synctype[] from the gp_* parameters (all of the flavor's primitives
 * when none is set), before the writer and fake writers start. A type
 * asked for that the flavor lacks gets Linux's "... without primitives."
 * alert.
 */
void rcu_torture_write_types(void)
{
	const struct rcu_torture_write_type *t;
	bool none = true;

	nsynctypes = 0;
	for (t = rcu_torture_write_type_list; t < rcu_torture_write_type_list + ARRAY_SIZE(rcu_torture_write_type_list); t++)
		none &= !rcu_torture_write_type_asked(t);
	for (t = rcu_torture_write_type_list; t < rcu_torture_write_type_list + ARRAY_SIZE(rcu_torture_write_type_list); t++) {
		if (!none && !rcu_torture_write_type_asked(t))
			continue;
		if (rcu_torture_has_op(t->op1) && rcu_torture_has_op(t->op2)) {
			synctype[nsynctypes++] = t->rtws;
			pr_info("%s: Testing %s GPs.\n", __func__, t->kind);
		} else if (rcu_torture_write_type_asked(t)) {
			pr_alert("%s: %s without primitives.\n", __func__, t->param_name);
		}
	}
}

/*
 * Each wait that starts in RTWS_{COND,POLL}_GET* goes on in the state four
 * further on (RTWS_COND_SYNC*, RTWS_POLL_WAIT*), as Linux numbers them.
 */
#define RTWS_WAIT_STATE(rtws)	((rtws) + 4)
_Static_assert(RTWS_WAIT_STATE(RTWS_COND_GET) == RTWS_COND_SYNC &&
	       RTWS_WAIT_STATE(RTWS_COND_GET_EXP_FULL) == RTWS_COND_SYNC_EXP_FULL &&
	       RTWS_WAIT_STATE(RTWS_POLL_GET) == RTWS_POLL_WAIT &&
	       RTWS_WAIT_STATE(RTWS_POLL_GET_EXP_FULL) == RTWS_POLL_WAIT_EXP_FULL,
	       "RTWS_* numbering");

/* Only the writer shows its steps in rcu_torture_writer_state. */
static void rcu_torture_set_state(bool writer, int rtws)
{
	if (writer)
		rcu_torture_writer_state = rtws;
}

/*
 * One grace period of update type rtws (any but RTWS_DEF_FREE), waited for
 * in full, by the writer (writer: its state shows each step, and the
 * synchronous waits check a cookie now and then) or by a fake writer. The
 * conditional types take their cookie a random while before waiting on it.
 * No cookie check follows them: the one grace period a conditional wait
 * may do can close a polled phase opened before the cookie, short of it
 * (as in Linux). Returns false if a polled wait gave up (the test is
 * stopping, or it timed out: then two grace periods have passed instead).
 */
static bool rcu_torture_one_gp(int rtws, struct torture_random_state *trsp, bool writer,
			       const char *who)
{
	bool exp = rtws == RTWS_COND_GET_EXP || rtws == RTWS_COND_GET_EXP_FULL ||
		   rtws == RTWS_POLL_GET_EXP || rtws == RTWS_POLL_GET_EXP_FULL;
	struct rcu_torture_cookie c = { .poll = exp ? cur_ops->poll_gp_state_exp :
						      cur_ops->poll_gp_state };
	struct rcu_gp_oldstate full;

	rcu_torture_set_state(writer, rtws);
	switch (rtws) {
	case RTWS_EXP_SYNC:
	case RTWS_SYNC:
		if (writer)
			rcu_torture_do_sync(trsp, rtws == RTWS_SYNC ? cur_ops->sync : cur_ops->exp_sync,
					    rtws == RTWS_SYNC ? "sync" : "exp_sync");
		else
			(rtws == RTWS_SYNC ? cur_ops->sync : cur_ops->exp_sync)();
		return true;
	case RTWS_COND_GET:
	case RTWS_COND_GET_EXP:
		c.oldstate = exp ? cur_ops->get_gp_state_exp() : cur_ops->get_gp_state();
		torture_hrtimeout_jiffies(torture_random(trsp) % 16, trsp);
		rcu_torture_set_state(writer, RTWS_WAIT_STATE(rtws));
		(exp ? cur_ops->cond_sync_exp : cur_ops->cond_sync)(c.oldstate);
		return true;
	case RTWS_COND_GET_FULL:
	case RTWS_COND_GET_EXP_FULL:
		cur_ops->get_gp_state_full(&full);
		torture_hrtimeout_jiffies(torture_random(trsp) % 16, trsp);
		rcu_torture_set_state(writer, RTWS_WAIT_STATE(rtws));
		(exp ? cur_ops->cond_sync_exp_full : cur_ops->cond_sync_full)(&full);
		return true;
	case RTWS_POLL_GET:
	case RTWS_POLL_GET_EXP:
		c.oldstate = (exp ? cur_ops->start_gp_poll_exp : cur_ops->start_gp_poll)();
		break;
	case RTWS_POLL_GET_FULL:
	case RTWS_POLL_GET_EXP_FULL:
		(exp ? cur_ops->start_gp_poll_exp_full : cur_ops->start_gp_poll_full)(&full);
		c.full = &full;
		break;
	default:
		WARN_ON_ONCE(1);
		return true;
	}
	rcu_torture_set_state(writer, RTWS_WAIT_STATE(rtws));
	return rcu_torture_poll_wait(&c, trsp, who);
}

int rcu_torture_writer(void *arg)
{
	bool cookie_checks = cur_ops->get_gp_state && cur_ops->poll_gp_state;
	struct rcu_torture *rp, *old_rp;
	struct rcu_gp_oldstate cookie_full;
	unsigned long cookie = 0;
	DEFINE_TORTURE_RANDOM(rand);
	int i, idx, rtws, expediting = 0;
	unsigned long n_expedited = 0, n_freelist_checks = 0, stutter_start;
	bool can_expedite, stutter_waited;

	VERBOSE_TOROUT_STRING("rcu_torture_writer task started");
	set_user_nice(current, 0);
	/*
	 * As Linux: now and then make synchronize_*() expedited for a few
	 * passes with the flavor's rcu_expedite_gp(), then undo it as many
	 * times, unless the command line already forces expedited
	 * (rcupdate.rcu_expedited) or normal (rcupdate.rcu_normal) GPs.
	 */
	can_expedite = cur_ops->exp_current && cur_ops->exp_restore &&
		       !rcu_gp_is_expedited() && !rcu_gp_is_normal();
	if (WARN_ONCE(nsynctypes == 0, "rcu_torture_writer: No update-side primitives.\n")) {
		rcu_torture_writer_state = RTWS_STOPPING;
		torture_kthread_stopping("rcu_torture_writer");
		return 0;
	}

	do {
		rcu_torture_writer_state = RTWS_FIXED_DELAY;
		torture_hrtimeout_us(500, 1000, &rand);
		rp = rcu_torture_alloc();
		if (!rp)
			continue;
		rp->rtort_pipe_count = 0;
		rcu_torture_writer_state = RTWS_DELAY;
		udelay(torture_random(&rand) & 0x3ff);
		rcu_torture_writer_state = RTWS_REPLACE;
		old_rp = rcu_dereference_protected(rcu_torture_current, 1);	/* the only writer */
		rp->rtort_mbtest = 1;
		rcu_assign_pointer(rcu_torture_current, rp);
		smp_wmb();	/* the old element's updates come after the publication */
		if (old_rp) {
			i = old_rp->rtort_pipe_count;
			if (i > RCU_TORTURE_PIPE_LEN)
				i = RCU_TORTURE_PIPE_LEN;
			atomic_inc(&rcu_torture_counters.wcount[i]);
			WRITE_ONCE(old_rp->rtort_pipe_count, old_rp->rtort_pipe_count + 1);
			/*
			 * A polling cookie taken now, inside a reader, must not be
			 * complete yet (the checks that cookies are complete after
			 * each kind of wait follow the waits).
			 */
			if (cookie_checks) {
				idx = cur_ops->readlock();
				cookie = cur_ops->get_gp_state();
				WARN_ONCE(cur_ops->poll_gp_state(cookie),
					  "%s: Cookie check 1 failed %s(%d) %lu->%lu\n",
					  __func__, rcu_torture_writer_state_getname(),
					  rcu_torture_writer_state, cookie, cur_ops->get_gp_state());
				cur_ops->readunlock(idx);
			}
			/* The same for a full-state cookie (Linux's check 5). */
			if (cur_ops->get_gp_state_full && cur_ops->poll_gp_state_full) {
				idx = cur_ops->readlock();
				cur_ops->get_gp_state_full(&cookie_full);
				WARN_ONCE(cur_ops->poll_gp_state_full(&cookie_full),
					  "%s: Cookie check 5 failed %s(%d) online %*pbl\n",
					  __func__, rcu_torture_writer_state_getname(),
					  rcu_torture_writer_state, NR_CPUS,
					  cpumask_bits(cpu_online_mask));
				cur_ops->readunlock(idx);
			}
			rtws = synctype[torture_random(&rand) % nsynctypes];
			if (rtws == RTWS_DEF_FREE) {
				rcu_torture_writer_state = RTWS_DEF_FREE;
				cur_ops->deferred_free(old_rp);
			} else {
				if (!rcu_torture_one_gp(rtws, &rand, true, __func__) && torture_must_stop())
					cur_ops->sync();	/* stopping: still free it safely */
				rcu_torture_pipe_update(old_rp);
			}
		}
		WRITE_ONCE(rcu_torture_current_version, rcu_torture_current_version + 1);
		/* Linux's cycle: one pass in 256 starts 4 expedites, then 4 unexpedites. */
		if (can_expedite && !(torture_random(&rand) & 0xff & (!!expediting - 1))) {
			if (expediting >= 0) {
				cur_ops->exp_current();
				n_expedited++;
			} else {
				cur_ops->exp_restore();
			}
			if (++expediting > 3)
				expediting = -expediting;
		}
		rcu_torture_writer_state = RTWS_STUTTER;
		stutter_start = jiffies;
		stutter_waited = stutter_wait("rcu_torture_writer");
		/*
		 * After a pause (at least a second of it: callbacks need ten grace
		 * periods to come home), every element but the current one must
		 * be free, unless a callback flood is slowing invocation or the
		 * flavor's grace periods take longer than that (Linux's slow_gps).
		 */
		if (stutter_waited && time_after_eq(jiffies, stutter_start + HZ) &&
		    !atomic_read(&rcu_fwd_cb_nodelay) && !cur_ops->slow_gps && !torture_must_stop()) {
			rcu_torture_check_freelist();
			n_freelist_checks++;
		}
	} while (!torture_must_stop());
	RCU_INIT_POINTER(rcu_torture_current, NULL);	/* tells the stats kthread we are done */
	/* Undo our expediting. */
	if (expediting > 0)
		expediting = -expediting;
	while (can_expedite && expediting++ < 0)
		cur_ops->exp_restore();
	if (can_expedite)
		pr_info("%s: %lu rcu_expedite_gp() calls, all undone\n", __func__, n_expedited);
	pr_info("%s: %lu free-list checks after stutter pauses (%d waited for the pipeline to drain), %d missing element(s) found in all\n",
		__func__, n_freelist_checks, atomic_read(&rcu_torture_counters.freelist_waits),
		atomic_read(&rcu_torture_counters.lost));
	rcu_torture_writer_state = RTWS_STOPPING;
	torture_kthread_stopping("rcu_torture_writer");
	return 0;
}

/*
 * Fake writers: as Linux's, each pass picks one of the writer's primitives
 * (synctype[]) at random and waits for it, freeing nothing (the deferred
 * free does nothing here), or one time in nfakewriters * 8 does an
 * rcu_barrier(); between passes they sleep up to ten jiffies.
 */
int rcu_torture_fakewriter(void *arg)
{
	DEFINE_TORTURE_RANDOM(rand);

	VERBOSE_TOROUT_STRING("rcu_torture_fakewriter task started");
	set_user_nice(current, 19);
	if (WARN_ONCE(nsynctypes == 0, "%s: No update-side primitives.\n", __func__)) {
		torture_kthread_stopping("rcu_torture_fakewriter");
		return 0;
	}
	do {
		torture_hrtimeout_jiffies(torture_random(&rand) % 10, &rand);
		if (cur_ops->cb_barrier && torture_random(&rand) % (rtp->nfakewriters * 8) == 0) {
			cur_ops->cb_barrier();
		} else {
			int rtws = synctype[torture_random(&rand) % nsynctypes];

			if (rtws != RTWS_DEF_FREE)	/* nothing to free here */
				(void)rcu_torture_one_gp(rtws, &rand, false, __func__);
		}
		stutter_wait("rcu_torture_fakewriter");
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_fakewriter");
	return 0;
}

/* ===== readers =================================================================================== */

/*
 * Memory-ordering check across readers (rtmbkf: failures/tries). Reader A
 * notes reader B's read count and hangs a request on the element it is
 * reading; once that element has aged a grace period, reader C (chosen by
 * A, and as in Linux possibly A itself) reads B's count again: it must not
 * be below what A saw, since everything before a grace period is visible
 * to everything after it. Needs two readers (rcutorture.nreaders=2 at
 * -smp 2, where the default is one).
 */
static void rcu_torture_reader_do_mbchk(long myid, struct rcu_torture *rp,
					struct torture_random_state *trsp)
{
	struct rcu_torture_reader_check *me, *assigner, *chked, *chker;
	int rdrchked, rdrchker;
	unsigned long loops;

	if (myid < 0 || rtp->nrealreaders < 2)
		return;	/* not from timers; needs another reader to check */
	me = &rcu_torture_reader_mbchk[myid];
	WRITE_ONCE(me->rtc_myloops, me->rtc_myloops + 1);

	/* Try to hand out a check. */
	rdrchked = torture_random(trsp) % rtp->nrealreaders;
	rdrchker = torture_random(trsp) % rtp->nrealreaders;
	chked = &rcu_torture_reader_mbchk[rdrchked];
	chker = &rcu_torture_reader_mbchk[rdrchker];
	/* As Linux: the checked reader is another one; the checker may be us. */
	if (rdrchked != myid && rdrchked != rdrchker &&
	    smp_load_acquire(&me->rtc_chkrdr) < 0 &&
	    !READ_ONCE(rp->rtort_chkp) && !smp_load_acquire(&chker->rtc_assigner)) {
		me->rtc_chkloops = READ_ONCE(chked->rtc_myloops);
		me->rtc_chkrdr = rdrchked;
		if (cmpxchg(&chker->rtc_assigner, NULL, me) != NULL)
			me->rtc_chkrdr = -1;	/* someone else got there first */
		else if (cmpxchg(&rp->rtort_chkp, NULL, me) != NULL) {
			(void)cmpxchg(&chker->rtc_assigner, me, NULL);
			me->rtc_chkrdr = -1;
		}
	}

	/* Do a check handed to us, once its grace period has ended. */
	assigner = READ_ONCE(me->rtc_assigner);
	if (!assigner || !smp_load_acquire(&assigner->rtc_ready))
		return;
	rdrchked = assigner->rtc_chkrdr;
	if (WARN_ON_ONCE(rdrchked < 0))
		return;
	chked = &rcu_torture_reader_mbchk[rdrchked];
	loops = READ_ONCE(chked->rtc_myloops);
	atomic_inc(&rcu_torture_counters.mbchk_tries);
	if ((long)(loops - assigner->rtc_chkloops) < 0)	/* loops before chkloops, wrap-safe */
		atomic_inc(&rcu_torture_counters.mbchk_fail);
	assigner->rtc_ready = 0;
	smp_store_release(&me->rtc_assigner, NULL);
	smp_store_release(&assigner->rtc_chkrdr, -1);
}

/*
 * One read, as Linux's rcu_torture_one_read(): enter a random first
 * segment (rcutorture_extend.c), dereference the current element, extend
 * the read through further random segments, then record the element's
 * pipeline age and how many grace periods passed, and leave. A read that
 * saw an element two or more grace periods old keeps its segments for the
 * end-of-test dump. Returns false before the writer has published anything.
 */
bool rcu_torture_one_read(struct torture_random_state *trsp, long myid)
{
	bool cookie_checks = cur_ops->get_gp_state && cur_ops->poll_gp_state;
	unsigned long started, completed, cookie = 0, flags;
	struct rt_read_seg rtseg[RCUTORTURE_RDR_MAX_SEGS] = { { 0 } };
	struct rt_read_seg *rtrsp = &rtseg[0];
	struct rcu_torture_rdr rs = { 0 };
	struct rcu_torture *p;
	int pipe_count;

	WARN_ON_ONCE(!rcu_is_watching());
	rcutorture_one_extend(&rs, rcutorture_extend_mask(rs.state, trsp), trsp, rtrsp++);
	if (cookie_checks)
		cookie = cur_ops->get_gp_state();
	started = cur_ops->get_gp_seq();
	p = rcu_dereference_raw(rcu_torture_current);	/* any segment protects it */
	if (!p) {
		rcutorture_one_extend(&rs, 0, trsp, rtrsp);
		return false;	/* the writer has not started yet */
	}
	if (READ_ONCE(p->rtort_mbtest) == 0)
		atomic_inc(&rcu_torture_counters.mberror);
	rcu_torture_reader_do_mbchk(myid, p, trsp);
	rtrsp = rcutorture_loop_extend(&rs, trsp, rtrsp);
	local_irq_save(flags);	/* the timer readers count on this CPU too */
	pipe_count = READ_ONCE(p->rtort_pipe_count);
	if (pipe_count > RCU_TORTURE_PIPE_LEN)
		pipe_count = RCU_TORTURE_PIPE_LEN;
	completed = cur_ops->get_gp_seq() - started;
	if (completed > RCU_TORTURE_PIPE_LEN)
		completed = RCU_TORTURE_PIPE_LEN;
	(*this_cpu_ptr(&rcu_torture_count))[pipe_count]++;
	(*this_cpu_ptr(&rcu_torture_batch))[completed]++;
	local_irq_restore(flags);
	if (cookie_checks)
		WARN_ONCE(cur_ops->poll_gp_state(cookie),
			  "%s: Cookie check 2 failed %s(%d) %lu->%lu\n", __func__,
			  rcu_torture_writer_state_getname(), rcu_torture_writer_state,
			  cookie, cur_ops->get_gp_state());
	rcutorture_one_extend(&rs, 0, trsp, rtrsp);
	WARN_ON_ONCE(rs.state);
	if (pipe_count > 1 || completed > 1)
		rcutorture_record_segs(rtseg, rtrsp - rtseg);
	return true;
}

static DEFINE_PER_CPU(struct torture_random_state, rcu_torture_timer_rand);

static void rcu_torture_timer_cb(struct rcu_head *rhp)
{
	kfree(rhp);
}

/* A reader in a timer handler, which also queues a callback from interrupt context. */
static void rcu_torture_timer(struct timer_list *unused)
{
	atomic_long_inc(&rcu_torture_counters.timers);
	(void)rcu_torture_one_read(this_cpu_ptr(&rcu_torture_timer_rand), -1);
	if (cur_ops->call && !torture_must_stop_irq()) {
		struct rcu_head *rhp = kmalloc(sizeof(*rhp), GFP_ATOMIC);

		if (rhp)
			cur_ops->call(rhp, rcu_torture_timer_cb);
	}
}

int rcu_torture_reader(void *arg)
{
	unsigned long lastsleep = jiffies;
	long myid = (long)arg;
	DEFINE_TORTURE_RANDOM(rand);
	struct timer_list t;
	bool timers = rtp->irqreader && cur_ops->irq_capable;

	VERBOSE_TOROUT_STRING("rcu_torture_reader task started");
	set_user_nice(current, 19);
	if (timers)
		timer_setup(&t, rcu_torture_timer, 0);
	do {
		if (timers && !timer_pending(&t))
			mod_timer(&t, jiffies + 1);
		if (!rcu_torture_one_read(&rand, myid) && !torture_must_stop())
			schedule_timeout_interruptible(HZ);
		if (time_after(jiffies, lastsleep) && !torture_must_stop()) {
			torture_hrtimeout_us(500, 1000, &rand);
			lastsleep = jiffies + 10;
		}
		stutter_wait("rcu_torture_reader");
	} while (!torture_must_stop());
	if (timers)
		del_timer_sync(&t);
	torture_kthread_stopping("rcu_torture_reader");
	return 0;
}
