/*
 * rcutorture: the state every part reads, at the bottom of the parts
 * (it calls none of them): the rcutorture.* parameters and their const
 * view rtp, the flavor under test (cur_ops), the current element and the
 * lists the elements travel on, and what the writer is doing. The
 * counters are rcutorture_stats.c's; the element pool's functions
 * rcutorture_pool.c's; rcutorture.c (the core) starts and ends the test.
 */
#define pr_fmt(fmt) fmt
#define KPARAM_SUBSYS "rcu"
#define TORTURE_PARAM_PREFIX "rcutorture."

#include <kernel/torture_param.h>
#include "rcutorture.h"

/* ===== parameters ============================================================== */

/*
 * The one copy of the rcutorture.* values: defaults and KPARAM entries
 * from rcutorture_param_list.h. Only this file writes it (the command
 * line before it starts; rcu_torture_params_settle() at start); the
 * other parts read it through the const view rtp.
 */
static struct rcu_torture_params rcu_torture_param_store = {
#define RCUTORTURE_PARAM(type, name, def, min, max, desc)	.name = (def),
#define RCUTORTURE_PARAM_BOOL(name, def, desc)			.name = (def),
#define RCUTORTURE_PARAM_STRING(name, size, def, desc)		.name = def,
#include "rcutorture_param_list.h"
#undef RCUTORTURE_PARAM
#undef RCUTORTURE_PARAM_BOOL
#undef RCUTORTURE_PARAM_STRING
};
const struct rcu_torture_params *const rcu_torture_params_view = &rcu_torture_param_store;

#define RCUTORTURE_PARAM(type, name, def, min, max, desc)			\
	torture_param_field(rcu_torture_param_store, type, name, min, max, desc);
#define RCUTORTURE_PARAM_BOOL(name, def, desc)					\
	torture_param_field_bool(rcu_torture_param_store, name, desc);
#define RCUTORTURE_PARAM_STRING(name, size, def, desc)				\
	torture_param_field_string(rcu_torture_param_store, name, desc);
#include "rcutorture_param_list.h"
#undef RCUTORTURE_PARAM
#undef RCUTORTURE_PARAM_BOOL
#undef RCUTORTURE_PARAM_STRING

/*
 * At start, with the flavor chosen: what the parameters leave to the
 * test to decide (Linux's adjustments in rcu_torture_init()).
 */
void rcu_torture_params_settle(void)
{
	struct rcu_torture_params *p = &rcu_torture_param_store;

	if (!cur_ops->fqs && p->fqs_duration) {
		pr_alert("rcu-torture: ->fqs NULL and non-zero fqs_duration, fqs disabled.\n");
		p->fqs_duration = 0;
	}
	if (p->nreaders >= 0) {
		p->nrealreaders = p->nreaders;
	} else {
		p->nrealreaders = num_online_cpus() - 2 - p->nreaders;
		if (p->nrealreaders <= 0)
			p->nrealreaders = 1;
	}
}

/* ===== shared state =============================================================== */

struct rcu_torture_ops *cur_ops;	/* the flavor under test */
struct rcu_torture __rcu *rcu_torture_current;
unsigned long rcu_torture_current_version;
LIST_HEAD(rcu_torture_freelist);
LIST_HEAD(rcu_torture_removed);	/* writer-private: waiting for synchronous GPs */
struct task_struct *rcu_torture_writer_task;
struct rcu_torture_reader_check *rcu_torture_reader_mbchk;	/* one per reader */
atomic_t rcu_fwd_cb_nodelay;		/* readers skip long delays while non-zero (floods under way) */

int rcu_torture_writer_state;	/* RTWS_*: what the writer is doing */
static const char * const rcu_torture_writer_state_names[] = {
	"RTWS_FIXED_DELAY", "RTWS_DELAY", "RTWS_REPLACE", "RTWS_DEF_FREE",
	"RTWS_EXP_SYNC", "RTWS_COND_GET", "RTWS_COND_GET_FULL", "RTWS_COND_GET_EXP",
	"RTWS_COND_GET_EXP_FULL", "RTWS_COND_SYNC", "RTWS_COND_SYNC_FULL", "RTWS_COND_SYNC_EXP",
	"RTWS_COND_SYNC_EXP_FULL", "RTWS_POLL_GET", "RTWS_POLL_GET_FULL", "RTWS_POLL_GET_EXP",
	"RTWS_POLL_GET_EXP_FULL", "RTWS_POLL_WAIT", "RTWS_POLL_WAIT_FULL", "RTWS_POLL_WAIT_EXP",
	"RTWS_POLL_WAIT_EXP_FULL", "RTWS_SYNC", "RTWS_STUTTER", "RTWS_STOPPING",
};
_Static_assert(ARRAY_SIZE(rcu_torture_writer_state_names) == RTWS_STOPPING + 1,
	       "one name per RTWS_* state");

const char *rcu_torture_writer_state_getname(void)
{
	unsigned int i = READ_ONCE(rcu_torture_writer_state);

	return i < ARRAY_SIZE(rcu_torture_writer_state_names) ?
	       rcu_torture_writer_state_names[i] : "???";
}

/*
 * Stop the CPU-hogging tests (forward progress) a little before the
 * shutdown, so they do not disturb the final report: Linux uses 30 s;
 * short boot tests here get a quarter of their run instead.
 */
static u64 test_end_ns;			/* shutdown deadline on local_clock(), 0: none */

/* At start: the deadline from shutdown_secs (none if 0). */
void rcu_torture_set_test_end(void)
{
	test_end_ns = rtp->shutdown_secs ?
		      local_clock() + (u64)rtp->shutdown_secs * NSEC_PER_SEC : 0;
}

bool rcu_torture_shutdown_time_arrived(void)
{
	u64 margin;

	if (!test_end_ns)
		return false;
	margin = (u64)rtp->shutdown_secs * NSEC_PER_SEC / 4;
	if (margin > 30 * NSEC_PER_SEC)
		margin = 30 * NSEC_PER_SEC;
	return local_clock() + margin >= test_end_ns;
}
