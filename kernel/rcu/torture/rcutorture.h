/*
 * What the parts of rcutorture share (kernel/rcu/torture/rcutorture*.c):
 * the torture element and the flavor operations, the parameters, the
 * statistics counters, and each tester's start and stop functions.
 * rcutorture.c is the core (parameters, state, start and verdict);
 * rcutorture_rw.c the readers and writers (rcutorture_extend.c the
 * segments a read is made of); rcutorture_stats.c the
 * statistics lines; rcutorture_ops.c the flavors under test; and one file
 * per independent tester (boost, stall and fqs, forward progress,
 * rcu_barrier(), read-then-exit).
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

/* rcutorture.c */
const char *rcu_torture_writer_state_getname(void);
bool shutdown_time_arrived(void);
struct rcu_torture *rcu_torture_alloc(void);
void rcu_torture_free(struct rcu_torture *p);
int rcu_torture_check_freelist(void);
extern struct list_head rcu_torture_freelist;
DECLARE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_count);
DECLARE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_batch);
extern struct list_head rcu_torture_removed;
extern int nrealreaders;
extern struct task_struct *writer_task;
extern struct rcu_torture __rcu *rcu_torture_current;
extern unsigned long rcu_torture_current_version;
extern atomic_t rcu_torture_wcount[RCU_TORTURE_PIPE_LEN + 1];
extern struct rcu_torture_reader_check *rcu_torture_reader_mbchk;
extern atomic_t n_rcu_torture_alloc;
extern atomic_t n_rcu_torture_alloc_fail;
extern atomic_t n_rcu_torture_free;
extern atomic_t n_rcu_torture_mberror;
extern atomic_t n_rcu_torture_mbchk_fail;
extern atomic_t n_rcu_torture_mbchk_tries;
extern atomic_t n_rcu_torture_error;
extern atomic_t n_rcu_torture_lost;
extern atomic_t n_rcu_torture_poll_timeouts;
extern atomic_t n_rcu_torture_freelist_waits;
extern long n_rcu_torture_barrier_error;
extern long n_rcu_torture_boost_ktrerror;
extern long n_rcu_torture_boost_rterror;
extern long n_rcu_torture_boost_failure;
extern long n_rcu_torture_boosts;
extern atomic_long_t n_rcu_torture_timers;
extern long n_barrier_attempts;
extern long n_barrier_successes;
extern unsigned long n_read_exits;
extern atomic_t rcu_fwd_cb_nodelay;

/* rcutorture_ops.c */
void rcu_torture_pipe_update(struct rcu_torture *old_rp);
/* What other flavors' files (rcutorture_tasks.c) reuse of the "rcu" flavor. */
void rcu_torture_cb(struct rcu_head *p);
void rcu_read_delay(struct torture_random_state *rrsp, struct rt_read_seg *rtrsp);
void rcu_sync_torture_init(void);
extern struct rcu_torture_ops *cur_ops;
extern struct rcu_torture_ops rcu_busted_ops;
/* rcutorture_tasks.c: "tasks", Tasks RCU (plain RCU in a non-preemptible kernel) */
extern struct rcu_torture_ops tasks_ops;
/* rcutorture_trace.c: "tasks-tracing", Tasks Trace RCU (CONFIG_TASKS_TRACE_RCU) */
#ifdef CONFIG_TASKS_TRACE_RCU
extern struct rcu_torture_ops tasks_tracing_ops;
#define TRACE_TORTURE_OPS	&tasks_tracing_ops,
#else
#define TRACE_TORTURE_OPS
#endif
extern struct rcu_torture_ops *torture_ops[];
extern const unsigned int n_torture_ops;

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

/* rcutorture_boost.c */
bool rcu_torture_can_boost(void);
int rcu_torture_boost_init(void);
void rcu_torture_boost_summary(void);
void rcu_torture_boost_cleanup(void);
extern bool boost_tested;

/* rcutorture_stall.c */
int rcu_torture_fqs(void *arg);
unsigned int rcu_torture_last_online_cpu(void);
int rcu_torture_stall(void *args);

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
extern atomic_long_t n_nocb_offload;
extern atomic_long_t n_nocb_deoffload;

/* rcutorture.c: parameters the other parts read */
extern char torture_type[16];
extern int nreaders;
extern int nfakewriters;
extern int stat_interval;
extern int shutdown_secs;
extern bool test_no_idle_hz;
extern int shuffle_interval;
extern int stutter;
extern int irqreader;
extern int fqs_duration;
extern int fqs_holdoff;
extern int fqs_stutter;
extern bool gp_cond;
extern bool gp_cond_exp;
extern bool gp_cond_full;
extern bool gp_cond_exp_full;
extern bool torture_runnable;
extern int object_debug;
extern bool gp_exp;
extern bool gp_normal;
extern bool gp_poll;
extern bool gp_poll_exp;
extern bool gp_poll_full;
extern bool gp_poll_exp_full;
extern bool gp_sync;
extern int n_barrier_cbs;
extern int stall_cpu;
extern int stall_cpu_holdoff;
extern int stall_cpu_irqsoff;
extern bool stall_no_softlockup;
extern int fwd_progress;
extern int fwd_progress_holdoff;
extern int fwd_progress_div;
extern bool fwd_progress_need_resched;
extern int read_exit_delay;
extern int read_exit_burst;
extern int nocbs_nthreads;
extern int nocbs_toggle;
extern int verbose;
extern int onoff_interval;
extern int onoff_holdoff;
extern int test_boost;
extern int test_boost_interval;
extern int test_boost_duration;

/*
 * rcutorture.object_debug=1: Linux's duplicate call_rcu() check, which
 * needs the rcu_head debug objects (rcutorture_objdebug.c).
 */
#ifdef CONFIG_DEBUG_OBJECTS_RCU_HEAD
void rcu_test_debug_objects(void);
#else
static inline void rcu_test_debug_objects(void)
{
	pr_alert("rcutorture: !CONFIG_DEBUG_OBJECTS_RCU_HEAD, not testing duplicate call_rcu()\n");
}
#endif

#endif
