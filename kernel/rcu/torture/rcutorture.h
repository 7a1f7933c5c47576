/*
 * What the parts of rcutorture share (kernel/rcu/torture/rcutorture*.c):
 * the torture element and the flavor operations, the parameters, the
 * statistics counters, and each tester's start and stop functions.
 * The parts, from the bottom up (each uses only those below it):
 * rcutorture_state.c the parameters (read through the const view rtp)
 * and the state every part reads; rcutorture_stats.c the counters and
 * the statistics lines; rcutorture_pool.c the elements;
 * rcutorture_ops.c the "rcu", "busted" and "trivial" flavors, on which
 * the other flavors' files build (rcutorture_tasks.c, rcutorture_srcu.c);
 * rcutorture_extend.c the segments a read is made of; rcutorture_rw.c
 * the readers and writers; one file per independent tester (boost,
 * stall and fqs, forward progress, rcu_barrier(), read-then-exit,
 * callback-offload toggling, object debug). On top, rcutorture.c, the
 * core: it lists the flavors (torture_ops[]) and the testers, starts and
 * stops everything and gives the verdict.
 */
#ifndef _RCU_TORTURE_RCUTORTURE_H
#define _RCU_TORTURE_RCUTORTURE_H

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#include <rcu/rcupdate.h>
#include <rcu/torture.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/wait.h>
#include <locking/mutex.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <time/time.h>
#include <time/timer.h>
#include <mm/slab.h>
#include <kernel/atomic.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/bug.h>
#include <kernel/reboot.h>
#include <kernel/torture.h>
#include <kernel/list.h>
#include <locking/spinlock.h>
#include <kernel/percpu.h>
#include <kernel/irqflags.h>

#define RCU_TORTURE_PIPE_LEN	10

/*
 * The rcutorture.* parameters (rcutorture_param_list.h, where each is
 * declared once), as the parts read them: through rtp, a const view of
 * the one copy that rcutorture_state.c owns, registers and settles at
 * start (rcu_torture_params_settle()).
 */
struct rcu_torture_params {
#define RCUTORTURE_PARAM(type, name, def, min, max, desc)	type name;
#define RCUTORTURE_PARAM_BOOL(name, def, desc)			bool name;
#define RCUTORTURE_PARAM_STRING(name, size, def, desc)		char name[size];
#include "rcutorture_param_list.h"
#undef RCUTORTURE_PARAM
#undef RCUTORTURE_PARAM_BOOL
#undef RCUTORTURE_PARAM_STRING
	/* Derived at start (rcu_torture_params_settle()), not a parameter of its own. */
	int nrealreaders;		/* reader kthreads: nreaders, or from the online CPUs */
};
extern const struct rcu_torture_params *const rcu_torture_params_view;
#define rtp rcu_torture_params_view

/*
 * The statistics counters (Linux's n_rcu_torture_* and friends), one
 * struct owned by rcutorture_stats.c, which zeroes it at start and prints
 * it; the parts bump the fields they own. Comments give the names in the
 * statistics line.
 */
struct rcu_torture_counters {
	atomic_t alloc;			/* rta: elements taken from the freelist */
	atomic_t alloc_fail;		/* rtaf: ... when it was empty */
	atomic_t free;			/* rtf: elements given back */
	atomic_t mberror;		/* rtmbe: reads of a recycled element */
	atomic_t mbchk_fail;		/* rtmbkf: memory-ordering checks failed / */
	atomic_t mbchk_tries;		/* ... tried */
	atomic_t error;			/* statistics intervals that found an error */
	atomic_t lost;			/* elements neither free nor current after a stutter pause */
	atomic_t poll_timeouts;		/* polled grace periods that never completed on their own */
	atomic_t freelist_waits;	/* free-list checks that had to wait for the pipeline */
	long barrier_error;		/* rtbe: rcu_barrier() returned before a callback */
	long boost_ktrerror;		/* rtbke: booster kthreads that could not be created */
	long boost_rterror;		/* rtbre: boosters that could not go SCHED_FIFO */
	long boost_failure;		/* rtbf: grace periods that outlived a boost window */
	long boosts;			/* rtb: boost-test windows completed */
	atomic_long_t timers;		/* nt: reads from timer handlers (irqreader) */
	long barrier_attempts;		/* barrier: successes/attempts */
	long barrier_successes;
	unsigned long read_exits;	/* read-exits: */
	atomic_long_t nocb_offload;	/* nocb-toggles: offload:de-offload */
	atomic_long_t nocb_deoffload;
	atomic_t wcount[RCU_TORTURE_PIPE_LEN + 1];	/* Free-Block Circulation */
};
extern struct rcu_torture_counters rcu_torture_counters;
/* Per CPU, reads by the element's age: Reader Pipe, and by batch: Reader Batch. */
DECLARE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_count);
DECLARE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_batch);

/* Per-reader mailbox for the memory-ordering check (rtmbkf). */
struct rcu_torture_reader_check {
	unsigned long rtc_myloops;	/* this reader's read count */
	int rtc_chkrdr;			/* reader this one asked to be checked, -1: none */
	unsigned long rtc_chkloops;	/* that reader's count when we asked */
	int rtc_ready;			/* the grace period after asking has ended */
	struct rcu_torture_reader_check *rtc_assigner;	/* who asked us to check */
} __aligned(64);

struct rcu_torture {
	struct rcu_head rtort_rcu;
	int rtort_pipe_count;		/* grace periods since it was replaced */
	struct list_head rtort_free;	/* on the freelist, or on rcu_torture_removed */
	int rtort_mbtest;		/* 1 while in use; 0 once recycled */
	struct rcu_torture_reader_check *rtort_chkp;	/* a pending ordering check */
};

/* What the writer is doing: Linux 6.1's states, numbers and names (rcutorture.c). */
extern int rcu_torture_writer_state;
#define RTWS_FIXED_DELAY	0
#define RTWS_DELAY		1
#define RTWS_REPLACE		2
#define RTWS_DEF_FREE		3
#define RTWS_EXP_SYNC		4
#define RTWS_COND_GET		5
#define RTWS_COND_GET_FULL	6
#define RTWS_COND_GET_EXP	7
#define RTWS_COND_GET_EXP_FULL	8
#define RTWS_COND_SYNC		9
#define RTWS_COND_SYNC_FULL	10
#define RTWS_COND_SYNC_EXP	11
#define RTWS_COND_SYNC_EXP_FULL	12
#define RTWS_POLL_GET		13
#define RTWS_POLL_GET_FULL	14
#define RTWS_POLL_GET_EXP	15
#define RTWS_POLL_GET_EXP_FULL	16
#define RTWS_POLL_WAIT		17
#define RTWS_POLL_WAIT_FULL	18
#define RTWS_POLL_WAIT_EXP	19
#define RTWS_POLL_WAIT_EXP_FULL	20
#define RTWS_SYNC		21
#define RTWS_STUTTER		22
#define RTWS_STOPPING		23

/*
 * Reader segments (rcutorture_extend.c), Linux's bits: what protects the
 * read at each step. RCU_1 and RCU_2 are the flavor's own reader, once or
 * nested; the others are readers of the consolidated "rcu" flavor only.
 * BH (local_bh_disable()) has no counterpart here and is never set.
 */
#define RCUTORTURE_RDR_BH	0x01	/* Linux: local_bh_disable() */
#define RCUTORTURE_RDR_IRQ	0x02	/* interrupts disabled */
#define RCUTORTURE_RDR_PREEMPT	0x04	/* preemption disabled */
#define RCUTORTURE_RDR_RBH	0x08	/* rcu_read_lock_bh() */
#define RCUTORTURE_RDR_SCHED	0x10	/* rcu_read_lock_sched() */
#define RCUTORTURE_RDR_RCU_1	0x20	/* the flavor's readlock() */
#define RCUTORTURE_RDR_RCU_2	0x40	/* ... nested inside it */
#define RCUTORTURE_RDR_MAX_LOOPS 0x7	/* at most this many extensions + 1 (a power of 2, less 1) */
#define RCUTORTURE_RDR_MAX_SEGS	(RCUTORTURE_RDR_MAX_LOOPS + 3)

/* One segment of a read, kept for the end-of-test dump when the read saw an old element. */
struct rt_read_seg {
	int rt_readstate;		/* RCUTORTURE_RDR_* held in this segment */
	unsigned long rt_delay_jiffies;	/* how it lingered (read_delay) */
	unsigned long rt_delay_ms;
	unsigned long rt_delay_us;
	bool rt_preempted;
};

/* A read under way: the protections held and what releasing them needs. */
struct rcu_torture_rdr {
	int state;			/* RCUTORTURE_RDR_* */
	int idx1, idx2;			/* readlock()'s values for RCU_1 and RCU_2 */
	unsigned long irqflags;		/* for RDR_IRQ */
};

struct rcu_torture_ops {
	void (*init)(void);
	void (*cleanup)(void);
	int (*readlock)(void);
	void (*read_delay)(struct torture_random_state *rrsp, struct rt_read_seg *rtrsp);
	void (*readunlock)(int idx);
	unsigned long (*get_gp_seq)(void);	/* grace periods completed */
	void (*deferred_free)(struct rcu_torture *p);
	void (*sync)(void);
	void (*exp_sync)(void);
	unsigned long (*get_gp_state)(void);
	unsigned long (*start_gp_poll)(void);
	bool (*poll_gp_state)(unsigned long oldstate);
	void (*cond_sync)(unsigned long oldstate);
	/* Linux 6.1's expedited and full-state polling (NULL where the flavor has none). */
	unsigned long (*get_gp_state_exp)(void);
	unsigned long (*start_gp_poll_exp)(void);
	bool (*poll_gp_state_exp)(unsigned long oldstate);
	void (*cond_sync_exp)(unsigned long oldstate);
	void (*get_gp_state_full)(struct rcu_gp_oldstate *rgosp);
	void (*start_gp_poll_full)(struct rcu_gp_oldstate *rgosp);
	void (*start_gp_poll_exp_full)(struct rcu_gp_oldstate *rgosp);
	bool (*poll_gp_state_full)(struct rcu_gp_oldstate *rgosp);
	void (*cond_sync_full)(struct rcu_gp_oldstate *rgosp);
	void (*cond_sync_exp_full)(struct rcu_gp_oldstate *rgosp);
	void (*exp_current)(void);	/* rcu_expedite_gp(): synchronize_*() expedited from now */
	void (*exp_restore)(void);	/* rcu_unexpedite_gp(): undo one exp_current() */
	call_rcu_func_t call;
	void (*cb_barrier)(void);
	void (*fqs)(void);
	void (*gp_data)(int *flags, unsigned long *gp_seq);
	int (*stall_dur)(void);		/* jiffies until a stall warning */
	/* Boost test: a GP outlived its window; is boosting to blame (not a CPU)? */
	bool (*check_boost_failed)(unsigned long gp_state, int *cpup);
	void (*gp_kthread_dbg)(void);	/* the grace-period state, after a boost failure */
	void (*stats)(void);		/* a flavor's own statistics line(s), after Linux's four */
	int extendables;		/* RCUTORTURE_RDR_* besides its own reader that protect it */
	int irq_capable;
	int can_boost;			/* the flavor boosts preempted readers */
	int slow_gps;			/* grace periods too slow for the after-stutter freelist check */
	const char *name;
};

/* Features of Linux's rcutorture not present here; printed as 0 in the parameter line. */
#define stall_cpu_block		0

#define KBUILD_MODNAME "rcutorture"

/*
 * rcutorture_state.c: the state every part reads (besides rtp); the
 * bottom of the parts, calling none of them.
 */
void rcu_torture_params_settle(void);
const char *rcu_torture_writer_state_getname(void);
void rcu_torture_set_test_end(void);
bool rcu_torture_shutdown_time_arrived(void);
extern struct rcu_torture_ops *cur_ops;
extern struct list_head rcu_torture_freelist;
extern struct list_head rcu_torture_removed;
extern struct task_struct *rcu_torture_writer_task;
extern struct rcu_torture __rcu *rcu_torture_current;
extern unsigned long rcu_torture_current_version;
extern struct rcu_torture_reader_check *rcu_torture_reader_mbchk;
extern atomic_t rcu_fwd_cb_nodelay;

/* rcutorture_pool.c: the elements */
void rcu_torture_pool_init(void);
struct rcu_torture *rcu_torture_alloc(void);
void rcu_torture_free(struct rcu_torture *p);
int rcu_torture_check_freelist(void);

/*
 * rcutorture_ops.c: "rcu", "busted" and "trivial"; the core's torture_ops[]
 * lists every flavor.
 */
void rcu_torture_pipe_update(struct rcu_torture *old_rp);
/* What other flavors' files (rcutorture_tasks.c) reuse of the "rcu" flavor. */
void rcu_torture_cb(struct rcu_head *p);
void rcu_read_delay(struct torture_random_state *rrsp, struct rt_read_seg *rtrsp);
void rcu_sync_torture_init(void);
/* The "trivial" flavor's reader, preempt_disable()/preempt_enable(), which "tasks-rude" reuses. */
int rcu_torture_read_lock_trivial(void);
void rcu_torture_read_unlock_trivial(int idx);
extern struct rcu_torture_ops rcu_ops;
extern struct rcu_torture_ops rcu_busted_ops;
extern struct rcu_torture_ops trivial_ops;
/* rcutorture_tasks.c: "tasks", Tasks RCU (plain RCU in a non-preemptible kernel) */
extern struct rcu_torture_ops tasks_ops;
/* rcutorture_rude.c: "tasks-rude", Tasks Rude RCU (CONFIG_TASKS_RUDE_RCU) */
#ifdef CONFIG_TASKS_RUDE_RCU
extern struct rcu_torture_ops tasks_rude_ops;
#define TASKS_RUDE_TORTURE_OPS	&tasks_rude_ops,
#else
#define TASKS_RUDE_TORTURE_OPS
#endif
/* rcutorture_trace.c: "tasks-tracing", Tasks Trace RCU (CONFIG_TASKS_TRACE_RCU) */
#ifdef CONFIG_TASKS_TRACE_RCU
extern struct rcu_torture_ops tasks_tracing_ops;
#define TRACE_TORTURE_OPS	&tasks_tracing_ops,
#else
#define TRACE_TORTURE_OPS
#endif

/*
 * rcutorture_srcu.c: "srcu" (a DEFINE_STATIC_SRCU() domain), "srcud"
 * (init_srcu_struct()) and "busted_srcud" (srcud with unprotected readers).
 */
#ifdef CONFIG_SRCU
extern struct rcu_torture_ops srcu_ops;
extern struct rcu_torture_ops srcud_ops;
extern struct rcu_torture_ops busted_srcud_ops;
#define SRCU_TORTURE_OPS	&srcu_ops, &srcud_ops, &busted_srcud_ops,
#else
#define SRCU_TORTURE_OPS
#endif

/*
 * The independent testers, each started and stopped by the core from its
 * table (rcutorture.c): init returns 0 (also when its parameters leave it
 * off) or -errno; cleanup undoes whatever init did, and is safe after a
 * failed or skipped init.
 */
/* rcutorture_boost.c (test_boost*); the summary follows the final statistics */
int rcu_torture_boost_init(void);
void rcu_torture_boost_summary(void);
void rcu_torture_boost_cleanup(void);

/* rcutorture_stall.c: the fqs kthread (fqs_*) and the CPU stall (stall_cpu*) */
int rcu_torture_fqs_init(void);
void rcu_torture_fqs_cleanup(void);
int rcu_torture_stall_init(void);
void rcu_torture_stall_cleanup(void);

/* rcutorture_rw.c */
void rcu_torture_write_types(void);
int rcu_torture_writer(void *arg);
int rcu_torture_fakewriter(void *arg);
bool rcu_torture_one_read(struct torture_random_state *trsp, long myid);
int rcu_torture_reader(void *arg);

/* rcutorture_extend.c: reader segments */
void rcutorture_extend_init(void);
void rcutorture_one_extend(struct rcu_torture_rdr *rs, int newstate,
			   struct torture_random_state *trsp, struct rt_read_seg *rtrsp);
int rcutorture_extend_mask(int oldmask, struct torture_random_state *trsp);
struct rt_read_seg *rcutorture_loop_extend(struct rcu_torture_rdr *rs,
					   struct torture_random_state *trsp,
					   struct rt_read_seg *rtrsp);
void rcutorture_record_segs(const struct rt_read_seg *segs, int n);
void rcutorture_print_read_segs(void);

/* rcutorture_stats.c */
void rcu_torture_stats_reset(void);
bool rcu_torture_stats_failed(void);
void rcu_torture_stats_print(void);
int rcu_torture_stats(void *arg);
void rcu_torture_print_module_parms(struct rcu_torture_ops *ops, const char *tag);

/* rcutorture_fwd.c */
int rcu_torture_fwd_prog_init(void);
void rcu_torture_fwd_prog_cleanup(void);

/* rcutorture_barrier.c */
int rcu_torture_barrier_init(void);
void rcu_torture_barrier_cleanup(void);

/* rcutorture_read_exit.c */
int rcu_torture_read_exit_init(void);
void rcu_torture_read_exit_cleanup(void);
/* rcutorture_nocb.c: the callback-offloading togglers (nocbs_nthreads). */
int rcu_torture_nocb_init(void);
void rcu_torture_nocb_cleanup(void);

/*
 * rcutorture.object_debug=1: Linux's duplicate call_rcu() check, which
 * needs the rcu_head debug objects (rcutorture_objdebug.c).
 */
#ifdef CONFIG_DEBUG_OBJECTS_RCU_HEAD
int rcu_torture_objdebug_init(void);
#else
static inline int rcu_torture_objdebug_init(void)
{
	if (rtp->object_debug)
		pr_alert("rcutorture: !CONFIG_DEBUG_OBJECTS_RCU_HEAD, not testing duplicate call_rcu()\n");
	return 0;
}
#endif

#endif
