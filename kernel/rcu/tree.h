/*
 * Tree RCU's data structures, shared by tree.c and the files split from it
 * (tree_stall.c, tree_params.c, ...). One global rcu_state, a combining
 * tree of rcu_node structures, one rcu_data per CPU.
 *
 * Quiescent states flow up: a CPU clears its bit in its leaf's qsmask
 * under the leaf's lock; the last bit of a node clears the node's bit in
 * its parent; the root's mask emptying ends the grace period. Grace-period
 * requests flow up the same path through gp_seq_needed.
 */
#ifndef _KERNEL_RCU_TREE_H
#define _KERNEL_RCU_TREE_H

#ifndef CONFIG_TREE_RCU
#error "tree.h is Tree RCU's private header: flavor-independent code includes rcu.h"
#endif

#include <locking/spinlock.h>
#include <kernel/percpu.h>
#include <kernel/atomic.h>
#include <sched/task.h>
#include <sched/wait.h>
#include <locking/mutex.h>
#include <sched/completion.h>
#include <rcu/torture.h>
#include "rcu.h"
#include "eqs_debug.h"
#include "rcu_trace.h"
#include "rcu_segcblist.h"
#include "tree_geometry.h"
#include "tree_param_list.h"
#include <time/timer.h>

/* Why lazy callbacks were moved into ->cblist (tree_nocb_lazy.c's statistics). */
enum { RCU_LAZY_TIMEOUT, RCU_LAZY_SIZE, RCU_LAZY_HURRY, RCU_LAZY_BARRIER, RCU_LAZY_MEMORY,
       RCU_LAZY_OTHER, RCU_LAZY_NR_WHY };

#define RCU_MAX_NODES	(1 + DIV_ROUND_UP(NR_CPUS, 2) + DIV_ROUND_UP(NR_CPUS, 4) + DIV_ROUND_UP(NR_CPUS, 8) + 4)

struct rcu_node {
	spinlock_t lock;		/* guards the fields below */
	unsigned long gp_seq;		/* grace period this node has seen start */
	unsigned long gp_seq_needed;	/* furthest grace period requested through here */
	unsigned long qsmask;		/* CPUs/children still to report for this GP */
	unsigned long qsmaskinit;	/* CPUs/children that take part in every GP */
	/*
	 * CPU hotplug (tree_hotplug.c), under ->lock and rcu_state.ofl_lock:
	 * a leaf's online CPUs right now. Copied into ->qsmaskinit (and up
	 * the tree) only at grace-period start, so that a grace period's
	 * masks never change under it. wait_blkd_tasks: the leaf has no
	 * online CPU left but keeps its parent's bit for the tasks preempted
	 * in readers on its list. expmaskinit (every node): CPUs/children
	 * ever online below here, what an expedited GP starts from;
	 * expmaskinitnext (leaves): every CPU that ever ran
	 * rcu_cpu_starting() here, never cleared, folded into expmaskinit at
	 * each expedited GP's start (Linux's ->expmaskinitnext).
	 */
	unsigned long qsmaskinitnext;
	unsigned long expmaskinit;
	unsigned long expmaskinitnext;
	bool wait_blkd_tasks;
	unsigned long grpmask;		/* this node's bit in its parent's masks */
	int grplo, grphi;		/* CPUs covered */
	int grpnum;			/* index among the parent's children */
	int level;			/* 0 = root */
	struct rcu_node *parent;
	unsigned long n_qs_reported;	/* bits cleared here (statistics) */
	/*
	 * Statistics, under ->lock: acquisitions through the *_rcu_node()
	 * macros below and how many found the lock held (skew_tick's measure).
	 */
	unsigned long n_lock_acquired;
	unsigned long n_lock_contended;
	/*
	 * Expedited grace periods (tree_exp.c): CPUs/children that still owe
	 * the running expedited grace period a quiescent state. Set from
	 * qsmaskinit at its start, under ->lock.
	 */
	unsigned long expmask;
	/*
	 * The expedited funnel (tree_exp.c), under ->exp_lock (not ->lock, so
	 * that callers queueing do not contend with quiescent-state reports):
	 * the furthest expedited sequence number asked for through this node,
	 * and the queues its later callers sleep on, indexed by the counter
	 * of the sequence number they wait for, modulo 4.
	 */
	spinlock_t exp_lock;
	unsigned long exp_seq_rq;
	struct wait_queue_head exp_wq[4];
#ifdef CONFIG_PREEMPT_RCU
	/*
	 * Preemptible RCU (tree_plugin.c), leaves only, under ->lock: tasks
	 * preempted inside readers on this leaf's CPUs, newest at the head.
	 * gp_tasks (exp_tasks) points at the first entry that blocks the
	 * current normal (expedited) grace period: it and every entry
	 * after it, to the tail, do. NULL: no task blocks that grace period.
	 */
	struct list_head blkd_tasks;
	struct list_head *gp_tasks;
	struct list_head *exp_tasks;
	unsigned long n_tasks_blocked;	/* tasks queued here (statistics) */
#endif
#ifdef CONFIG_RCU_BOOST
	/* Priority boosting (tree_boost.c), leaves only. */
	struct list_head *boost_tasks;	/* next blocked task to boost, NULL: none */
	unsigned long boost_time;	/* jiffies from which this GP's readers may be boosted */
	struct rt_mutex boost_mtx;	/* proxy-locked for the reader being boosted */
	struct task_struct *boost_kthread_task;	/* rcub/N */
	struct wait_queue_head boost_wq;
	unsigned long n_boosts;		/* readers boosted (statistics) */
#endif
};

/* What the grace-period kthread is doing (for stall reports). */
enum rcu_gp_state {
	RCU_GP_IDLE, RCU_GP_WAIT_GPS, RCU_GP_INIT, RCU_GP_WAIT_FQS, RCU_GP_DOING_FQS,
	RCU_GP_CLEANUP, RCU_GP_CLEANED,
};

#define RCU_GP_FLAG_INIT	0x1	/* start a grace period */
#define RCU_GP_FLAG_FQS		0x2	/* force quiescent states now */

struct rcu_state {
	struct rcu_node node[RCU_MAX_NODES];
	struct rcu_node *level[RCU_NUM_LVLS];	/* first node of each level */
	struct rcu_geometry geo;
	int ncpus;
	unsigned long gp_seq;			/* guarded by the root's lock */
	/*
	 * The polling API's own grace-period number: started and ended with
	 * each normal grace period, and also stepped by synchronize_rcu()'s
	 * single-CPU fast path, which completes a grace period without the
	 * kthread. Ended as soon as the root clears, so a caller that waited
	 * for a grace period always finds its earlier cookie done.
	 */
	unsigned long gp_seq_polled;		/* guarded by poll_lock */
	/*
	 * The latest cookie start_poll_synchronize_rcu() handed out (guarded
	 * by poll_lock): while gp_seq_polled is short of it, every normal
	 * grace period's cleanup asks for another one, since a phase opened
	 * by an expedited grace period can swallow the one it requested.
	 */
	unsigned long gp_seq_polled_needed;
	raw_spinlock_t poll_lock;
	unsigned long gp_max;			/* longest grace period, jiffies */
	struct task_struct *gp_kthread;
	struct wait_queue_head gp_wq;		/* the GP kthread sleeps here */
	int gp_flags;				/* RCU_GP_FLAG_*, under the root's lock */
	int gp_state;
	unsigned long gp_wake_time, gp_activity, gp_start;
	unsigned long jiffies_force_qs;		/* when the next FQS scan is due */
	unsigned long jiffies_kick_kthreads;
	unsigned long jiffies_stall;		/* when to warn about this GP */
	unsigned long jiffies_resched;		/* when holdouts get resched IPIs */
	unsigned long n_force_qs;		/* FQS scans */
	unsigned long n_gp_kthread_wakeups;
	unsigned long n_gp_started, n_gp_completed;
	unsigned long n_kthread_kicks;
	/* Orders CPUs leaving and joining (qsmaskinitnext) against GP start (tree_hotplug.c). */
	raw_spinlock_t ofl_lock;
	struct mutex barrier_mutex;		/* one rcu_barrier() at a time */
	atomic_t barrier_cpu_count;
	struct completion barrier_completion;
	unsigned long barrier_sequence;
	/* Expedited grace periods (tree_exp.c). */
	unsigned long expedited_sequence;	/* rcu_seq; written under exp_mutex */
	struct mutex exp_mutex;			/* one expedited grace period at a time */
	struct mutex exp_wake_mutex;		/* one funnel wake-up walk at a time */
	struct wait_queue_head exp_wq;		/* its driver waits here for the root's expmask */
	unsigned long n_exp_gps;		/* expedited grace periods run */
	unsigned long n_exp_ipis_sent;		/* expedited IPIs sent */
	unsigned long n_exp_idle_skips;		/* CPUs skipped as dyntick-idle */
	/* rcu_exp_latency(): written by the driver (exp_mutex) but exp_done_ns (root's lock). */
	u64 exp_done_ns;			/* local_clock() when the root's last bit went */
	unsigned long n_exp_lat_gps, n_exp_lat_ipis;
	u64 exp_ipi_sum_ns, exp_ipi_max_ns, exp_wake_sum_ns, exp_wake_max_ns;
	const char *name;			/* "rcu_sched" */
	char abbr;				/* 's' */
};

struct rcu_data {
	/* Touched by this CPU only (interrupts off), except where noted. */
	unsigned long gp_seq;		/* the grace period this CPU has seen */
	unsigned long gp_seq_needed;
	long qlen_last_fqs_check;	/* queue length at the last flood FQS request */
	bool cpu_no_qs;			/* no quiescent state yet in the current GP */
	bool core_needs_qs;		/* RCU waits for this CPU in the current GP */
	bool beenonline;
	bool cpu_started;		/* rcu_cpu_starting() ran, rcu_report_dead() not since */
	bool gpwrap;			/* gp_seq too stale to compare (rcu_gpnum_ovf()); rnp->lock */
	struct rcu_node *mynode;	/* this CPU's leaf */
	unsigned long grpmask;		/* this CPU's bit in mynode's masks */
	struct rcu_segcblist cblist;
	bool urgent_qs;			/* GP is long: report a QS at the next chance (cond_resched) */
	bool need_heavy_qs;		/* GP is very long: resched IPIs too */
	int dynticks_snap;		/* FQS: counter value at the first scan */
	unsigned long last_fqs_resched;	/* when the last resched IPI went */
	bool rcu_forced_tick;		/* set TICK_DEP_BIT_RCU on this nohz_full CPU; rnp->lock */
	unsigned long n_forced_ticks;	/* times it was set (statistics) */
	int cpu;
	/* Callback processing in the rcuc/N kthread. */
	struct task_struct *rcu_cpu_kthread_task;
	bool rcu_cpu_has_work;
	struct wait_queue_head rcuc_wq;
	long blimit;			/* current batch limit */
	/*
	 * A callback invoked here queued another (requeued itself) and only
	 * real-time tasks ran here since the last time: no grace period is
	 * asked for this CPU's new callbacks before the next jiffy
	 * (rcu_accelerate_cbs()), as Linux asks only from rcu_core() after a
	 * tick. Else one CPU alone runs grace period after grace period in
	 * its FIFO rcuc and GP kthreads and nothing else (tree.c, issue 28).
	 */
	bool cbs_invoking;		/* rcu_do_batch() is invoking callbacks */
	bool cbs_rt_only;		/* ... and only RT tasks ran since the last batch that requeued */
	bool cbs_requeued;		/* ... and one of them queued a callback */
	unsigned long gp_req_holdoff;	/* that jiffy + 1; this CPU only, interrupts off */
	u64 requeue_nonrt_switches;	/* sched_nr_nonrt_switches() at that batch's start */
	unsigned long n_gp_req_held;	/* requests put off to the next tick (statistics) */
	struct rcu_head barrier_head;
	/* Statistics (rcu_show_stats). */
	unsigned long n_cbs_queued, n_cbs_invoked, n_max_batch;
	unsigned long n_cbs_bulk;	/* of n_cbs_queued, left to bulk numbering (tree_call.c) */
	/* CPU hotplug: callbacks handed to (adopted from) another CPU, times gone offline. */
	unsigned long n_cbs_orphaned, n_cbs_adopted, n_offline;
	unsigned long n_qs_reported, n_dynticks_credit, n_resched_ipis;
	unsigned long n_rcu_core;	/* rcu_core() runs: rcuc/N wake-ups that found work */
	unsigned long n_gpwrap;		/* times an FQS scan found gp_seq a quarter-wrap stale */
	unsigned long ticks_this_gp;	/* scheduling-clock ticks in the current GP (stall report) */
	/* Expedited grace periods (tree_exp.c). */
	bool exp_deferred_qs;		/* IPI found a reader: report at the next rcu_qs() */
	unsigned long n_exp_ipis;	/* expedited IPIs received (statistics) */
	unsigned long n_exp_deferred;	/* of which found a reader and deferred */
	/* rcu_exp_latency(): this CPU's side, under its leaf's lock. */
	u64 exp_ipi_ns;			/* local_clock() when the handler last needed a report ... */
	unsigned long exp_ipi_seq;	/* ... in this expedited grace period */
	unsigned long n_exp_deferred_reports, n_exp_deferred_irq;
	u64 exp_defer_sum_ns, exp_defer_max_ns;
	/*
	 * Lazy callbacks among cblist's: kfree_rcu()'s, which only free
	 * memory, so nothing waits on them and RCU_FAST_NO_HZ lets an idle
	 * CPU holding only those sleep for seconds (tree_nohz.c). Counted in
	 * every build: call_rcu() adds, rcu_do_batch() subtracts.
	 */
	long n_lazy_cbs;
#ifdef CONFIG_RCU_FAST_NO_HZ
	/* Dyntick-idle grace-period acceleration (tree_nohz.c): this CPU, interrupts off. */
	unsigned long last_accelerate;	/* jiffy of the last idle-entry acceleration */
	unsigned long last_advance_all;	/* jiffy the idle code last looked for ended GPs */
	unsigned long nohz_wake_j;	/* the jiffy rcu_needs_cpu() asked to be woken at ... */
	bool nohz_wake_set;		/* ... while this is set (cleared once it came) */
	int nohz_idle_kind;		/* this idle period: RCU_NOHZ_{NONE,ORDINARY,LAZY} */
	u64 nohz_idle_start_ns;		/* local_clock() at its start */
	/* Statistics (rcu_nohz_show_stats()). */
	unsigned long n_nohz_idle_cbs;	/* idle entries holding callbacks */
	unsigned long n_nohz_timer_wakeups;	/* idle exits at or after RCU's requested jiffy */
	unsigned long n_nohz_wakeups[2];	/* idle exits, [0]: ordinary callbacks held, [1]: only lazy */
	u64 nohz_idle_ns[2];		/* time idle holding them, same index */
#endif
#ifdef CONFIG_RCU_NOCB_CPU
	/*
	 * Callback offloading (tree_nocb.c). On an offloaded CPU every
	 * access to ->cblist, from any CPU, is under ->nocb_lock (interrupts
	 * off); the CPU itself never advances or invokes its callbacks.
	 * ->offloaded changes only on the CPU itself, interrupts off, under
	 * ->nocb_lock (tree_nocb_toggle.c): the CPU's own lockless readers
	 * (call_rcu(), rcu_core()) see it stable.
	 */
	bool offloaded;			/* rcu_nocbs= at boot; then rcu_nocb_cpu_(de)offload() */
	u8 nocb_toggle_req;		/* RCU_NOCB_REQ_*: a switch asked of rcuc/N (nocb_lock) */
	bool nocb_cb_busy;		/* rcuos holds extracted callbacks (nocb_lock) */
	spinlock_t nocb_lock;		/* guards ->cblist when offloaded */
	struct rcu_data *nocb_gp_rdp;	/* this CPU's group leader (may be itself) */
	struct rcu_data *nocb_next_rdp;	/* next offloaded CPU of the group, NULL at the end */
	/* Leader only: the rcuog/N kthread and its sleep flag (under nocb_gp_lock). */
	struct task_struct *nocb_gp_kthread;
	spinlock_t nocb_gp_lock;
	bool nocb_gp_sleep;
	bool nocb_gp_waiting;		/* rcuog sleeps until a grace period ends ... */
	unsigned long nocb_gp_wait_seq;	/* ... this one (statistics, stall dumps) */
	struct wait_queue_head nocb_gp_wq;
	/* The rcuos/N (rcuop/N) kthread that invokes this CPU's callbacks. */
	struct task_struct *nocb_cb_kthread;
	bool nocb_cb_sleep;		/* under nocb_lock */
	struct wait_queue_head nocb_cb_wq;
	unsigned long n_nocb_cbs_invoked;	/* invoked for this CPU by rcuos (under nocb_lock) */
	unsigned long n_nocb_wakeups;	/* call_rcu()s here that woke rcuog or (flood) the GP kthread */
	unsigned long n_nocb_gp_passes;	/* leader: rcuog scans of its group */
	unsigned long n_nocb_floods;	/* qhimark crossings by this CPU's call_rcu() */
	unsigned long n_nocb_toggles;	/* run-time switches (under barrier_mutex) */
	unsigned long n_nocb_toggle_waits;	/* de-offloads that found rcuos mid-batch (nocb_lock) */
#ifdef CONFIG_RCU_LAZY
	/*
	 * Lazy callbacks (tree_nocb_lazy.c): call_rcu()s of an offloaded CPU
	 * held apart from ->cblist, unnumbered, under ->nocb_lock, until
	 * rcutree.jiffies_lazy_flush after the first, a size limit, a
	 * call_rcu_hurry(), rcu_barrier() or a de-offload moves them in.
	 */
	struct rcu_cblist lazy_cbs;
	unsigned long lazy_first;	/* jiffies of the first held one */
	struct timer_list lazy_timer;	/* wakes rcuog at lazy_first + the timeout */
	unsigned long n_lazy_queued;	/* call_rcu()s held lazily */
	unsigned long lazy_peak;	/* most held at once (bounded by rcutree.qhimark) */
	unsigned long n_lazy_flushes[RCU_LAZY_NR_WHY];	/* flushes by RCU_LAZY_* reason */
	bool lazy_flush_asap;		/* memory is short: rcuog's next pass flushes (no lock) */
#endif
#endif
};

/* Per-CPU extended-quiescent-state tracking. */
struct rcu_dynticks {
	long nesting;			/* process level: 0 in idle, 1 otherwise */
	long nmi_nesting;		/* interrupt/NMI level, +2 per level, 1 if entered from idle */
	atomic_t dynticks;		/* even: in an extended quiescent state */
	unsigned long n_user_eqs;	/* entries into user mode's EQS (rcu_user_enter()) */
	unsigned long n_user_ticks;	/* ticks taken from user mode: quiescent states */
};

extern struct rcu_state rcu_state;
DECLARE_PER_CPU(struct rcu_data, rcu_data);
DECLARE_PER_CPU(struct rcu_dynticks, rcu_dynticks);

#define rcu_get_root()	(&rcu_state.node[0])
static inline bool rcu_gp_in_progress(void)
{
	return rcu_seq_state(rcu_seq_current(&rcu_state.gp_seq));
}
#define rcu_is_leaf_node(rnp)	((rnp)->level == rcu_state.geo.levels - 1)
#define rcu_for_each_node_breadth_first(rnp) \
	for ((rnp) = &rcu_state.node[0]; (rnp) < &rcu_state.node[rcu_state.geo.num_nodes]; (rnp)++)
#define rcu_for_each_leaf_node(rnp) \
	for ((rnp) = rcu_state.level[rcu_state.geo.levels - 1]; \
	     (rnp) < &rcu_state.node[rcu_state.geo.num_nodes]; (rnp)++)
#define for_each_leaf_node_possible_cpu(rnp, cpu) \
	for ((cpu) = (rnp)->grplo; (cpu) <= (rnp)->grphi; (cpu)++) if (cpu_possible(cpu))
#define leaf_node_cpu_bit(rnp, cpu)	(1UL << ((cpu) - (rnp)->grplo))

/*
 * rcu_node locks: always with interrupts off. Every acquisition is followed
 * by smp_mb__after_unlock_lock(), which makes it a full barrier: all that a
 * CPU did before it handed a quiescent state (or a grace-period step) to
 * the tree through one rcu_node lock is ordered before all that any CPU
 * does after a later acquisition of that lock, and so, going up the tree,
 * before the root and the grace period's end (Documentation/RCU/ordering.md).
 * A plain acquire would not do on a weakly ordered arch: a store before one
 * unlock could pass a load after the next lock. Pairs with itself: each
 * acquisition's barrier pairs with those of the lock's earlier holders, and
 * with the root's in tree_gp.c:rcu_gp_cleanup(). Unlocking is a plain release.
 * Those who take a leaf with do_raw_spin_trylock() (tree.c: call_rcu(),
 * note_gp_changes()) add the barrier themselves on success, and tell
 * lockdep (spin_acquire()), as these helpers do.
 */
static __always_inline void rcu_node_lock_counted(struct rcu_node *rnp, unsigned long pc)
{
	bool busy;

	spin_acquire(&rnp->lock, false, LOCKDEP_HERE);
	busy = !do_raw_spin_trylock(&rnp->lock, pc);

	if (busy)
		do_raw_spin_lock(&rnp->lock, pc);
	rnp->n_lock_acquired++;
	rnp->n_lock_contended += busy;
}
#define raw_spin_lock_irqsave_rcu_node(rnp, flags)				\
	do {									\
		local_irq_save(flags);						\
		preempt_disable();						\
		rcu_node_lock_counted((rnp), __THIS_PC);			\
		smp_mb__after_unlock_lock();					\
	} while (0)
#define raw_spin_unlock_irqrestore_rcu_node(rnp, flags) spin_unlock_irqrestore(&(rnp)->lock, flags)
#define raw_spin_lock_rcu_node(rnp)						\
	do { rcu_node_lock_counted((rnp), __THIS_PC); smp_mb__after_unlock_lock(); } while (0)
#define raw_spin_unlock_rcu_node(rnp)						\
	do { spin_release(&(rnp)->lock, LOCKDEP_HERE); do_raw_spin_unlock(&(rnp)->lock); } while (0)

/*
 * --- boot parameters (tree_params.c) ---
 * The rcutree.* values, one field per entry of RCU_TREE_PARAMS
 * (tree_param_list.h), owned and validated by tree_params.c; the rest of
 * Tree RCU reads them as rcu_params.<name>.
 */
struct rcu_tree_params {
#define RCU_TREE_PARAM_FIELD(decl, ctype, ktype, name, def, min, max, desc)	ctype name;
	RCU_TREE_PARAMS(RCU_TREE_PARAM_FIELD)
#undef RCU_TREE_PARAM_FIELD
};
extern struct rcu_tree_params rcu_params;
/* Apply defaults, validate, print the "Boot-time adjustment" banners. */
void rcu_params_init(void);

/* --- tree.c --- */
bool rcu_dynticks_in_eqs(int snap);
/* Full dynticks: make a nohz_full CPU busy in the kernel tick, and stop once it reported (tree.c). */
void rcu_force_tick(struct rcu_data *rdp);
void rcu_disable_urgency_upon_qs(struct rcu_data *rdp);
int rcu_dynticks_snap(int cpu);
void rcu_report_qs_rnp(unsigned long mask, struct rcu_node *rnp, unsigned long gps, unsigned long flags);
void rcu_gp_kthread_wake(void);
/* The same from a task that sleeps right after (WF_SYNC): the kthread may take its CPU. */
void rcu_gp_kthread_wake_sync(void);
/* This CPU is in a quiescent state now; interrupts off. */
void rcu_qs(void);
/* Catch rdp (this CPU's) up with its leaf's grace periods; interrupts need not be off. */
void note_gp_changes(struct rcu_data *rdp);
/* In an interrupt: did it interrupt the idle loop itself? */
bool rcu_is_cpu_rrupt_from_idle(void);

/*
 * --- strict grace periods (tree_strict.c, CONFIG_RCU_STRICT_GRACE_PERIOD) ---
 * The grace-period kthread's IPIs: every online CPU at a grace period's
 * start and end, the holdouts at each later FQS scan; before a reader's
 * report, noting the running grace period even if the leaf lock is busy;
 * the unlock-time delay (rcutree.rcu_unlock_delay) after it.
 */
#ifdef CONFIG_RCU_STRICT_GRACE_PERIOD
void rcu_strict_gp_boundary_ipi(void);
void rcu_strict_fqs_ipi(void);
void rcu_strict_unlock_delay(void);
void rcu_strict_note_gp(void);
/* Strict IPIs cpu has taken so far (the strict self-test's evidence; 0 without the option). */
unsigned long rcu_strict_ipis(int cpu);
#else
static inline void rcu_strict_gp_boundary_ipi(void) { }
static inline void rcu_strict_fqs_ipi(void) { }
static inline void rcu_strict_unlock_delay(void) { }
static inline void rcu_strict_note_gp(void) { }
static inline unsigned long rcu_strict_ipis(int cpu) { return 0; }
#endif

/* --- expedited grace periods (tree_exp.c) --- */
void rcu_exp_init(void);
/* rcu_init_nodes(): the funnel fields of one rcu_node. */
void rcu_exp_init_node(struct rcu_node *rnp);
/* How synchronize_rcu_expedited() calls left the funnel, summed over CPUs (for the selftest). */
struct rcu_exp_funnel_stats {
	unsigned long reached_root;	/* went for exp_mutex (counted before sleeping on it) */
	unsigned long ran_gp;		/* of those: ran a grace period (the rest were served) */
	unsigned long node_waits;	/* slept on an rcu_node's queue until served */
	unsigned long done_early;	/* found theirs done before queueing anywhere */
};
void rcu_exp_funnel_stats(struct rcu_exp_funnel_stats *st);
/* From rcu_qs(), interrupts off: report the QS an expedited IPI deferred. */
void rcu_exp_report_deferred(struct rcu_data *rdp);
void rcu_exp_show_stats(void);
/* The root's expedited mask is emptying (its lock held): stamp it for rcu_exp_latency(). */
void rcu_exp_root_done(void);
/* One console line of rcu_exp_latency(), for SysRq and rcuperf. */
void rcu_exp_latency_show(const char *who);
/* tree.c: true if a synchronous wait needs no grace period (steps the polled number). */
bool rcu_sync_is_trivial(void);
/*
 * tree_exp.c: a synchronous wait that rcu_sync_is_trivial() found over
 * counts as an expedited grace period: the sequence steps through one
 * whole phase (exp_mutex and rcu_state.ofl_lock held), then
 * rcu_exp_trivial_gp_wake() wakes the funnel and drops exp_mutex (task
 * context, ofl_lock released).
 */
void rcu_exp_trivial_gp(void);
void rcu_exp_trivial_gp_wake(void);
/* tree.c: the polled grace-period number, for expedited grace periods too. */
unsigned long rcu_exp_poll_start(void);
void rcu_exp_poll_end(unsigned long snap);
/* rcu_exp_poll_idle() (tree_exp_poll.c) is declared in <rcu/torture.h>, for the tests. */

/* --- preemptible RCU (tree_plugin.c); stubs for the non-preemptible flavor --- */
#ifdef CONFIG_PREEMPT_RCU
/* Does some task preempted in a reader hold up this leaf for the current GP? */
static inline bool rcu_preempt_blocked_readers_cgp(struct rcu_node *rnp)
{
	return READ_ONCE(rnp->gp_tasks) != NULL;
}
void rcu_preempt_init_node(struct rcu_node *rnp);
/* Context switch, interrupts off: queue current if it is inside a reader. */
void rcu_preempt_note_context_switch(bool preempt);
/* GP init, rnp locked: every task already blocked on rnp blocks the new GP. */
void rcu_preempt_gp_init_node(struct rcu_node *rnp);
/* The tick, for a task inside a reader or with a deferred quiescent state. */
void rcu_preempt_sched_clock_irq(int user);
/* Stall report: print rnp's blocking tasks ("Tasks blocked on level-N ..."); returns how many. */
int rcu_print_task_stall(struct rcu_node *rnp);
/*
 * For expedited grace periods (tree_exp.c): at their start, leaf locked,
 * the queued tasks block them (->exp_tasks); the IPI defers the CPU's
 * report when it interrupted a reader (true); a leaf is done only when
 * ->expmask is empty and no task blocks it (tree_plugin.c reports the
 * leaf up itself when its last blocking task leaves).
 */
void rcu_preempt_exp_start_node(struct rcu_node *rnp);
bool rcu_preempt_exp_defer(struct rcu_data *rdp);
static inline bool rcu_preempt_exp_blocked(struct rcu_node *rnp)
{
	return READ_ONCE(rnp->exp_tasks) != NULL;
}
#else
static inline bool rcu_preempt_blocked_readers_cgp(struct rcu_node *rnp) { return false; }
static inline void rcu_preempt_init_node(struct rcu_node *rnp) { }
static inline void rcu_preempt_note_context_switch(bool preempt) { }
static inline void rcu_preempt_gp_init_node(struct rcu_node *rnp) { }
static inline void rcu_preempt_sched_clock_irq(int user) { }
static inline int rcu_print_task_stall(struct rcu_node *rnp) { return 0; }
static inline void rcu_preempt_exp_start_node(struct rcu_node *rnp) { }
static inline bool rcu_preempt_exp_defer(struct rcu_data *rdp) { return false; }
static inline bool rcu_preempt_exp_blocked(struct rcu_node *rnp) { return false; }
#endif

/* --- priority boosting (tree_boost.c) --- */
/* Give an RCU kthread rcutree.kthread_prio (no-op when 0). */
void rcu_kthread_set_prio(struct task_struct *t);
#ifdef CONFIG_RCU_BOOST
void rcu_boost_init_node(struct rcu_node *rnp);
/* GP init, rnp locked: boosting for this GP may start RCU_BOOST_DELAY ms from now. */
void rcu_boost_gp_start(struct rcu_node *rnp);
/* FQS on a leaf whose CPUs all reported, rnp locked (released): boost its readers if due. */
void rcu_initiate_boost(struct rcu_node *rnp, unsigned long flags);
void rcu_spawn_boost_kthreads(void);
#else
static inline void rcu_boost_init_node(struct rcu_node *rnp) { }
static inline void rcu_boost_gp_start(struct rcu_node *rnp) { }
static inline void rcu_initiate_boost(struct rcu_node *rnp, unsigned long flags)
{
	raw_spin_unlock_irqrestore_rcu_node(rnp, flags);
}
static inline void rcu_spawn_boost_kthreads(void) { }
#endif

/*
 * --- dyntick-idle grace-period acceleration (tree_nohz.c) ---
 * rcu_needs_cpu() (tree.c) asks rcu_nohz_needs_cpu() about a CPU holding
 * callbacks: without RCU_FAST_NO_HZ it keeps the tick; with it, the CPU
 * may sleep and *nextj says when RCU wants it back. rcu_idle_enter() and
 * rcu_idle_exit() call the other two, interrupts off, while RCU watches.
 */
#define RCU_NOHZ_ORDINARY	0	/* some callback is not lazy */
#define RCU_NOHZ_LAZY		1	/* every callback is lazy */
#define RCU_NOHZ_NONE		2	/* no callbacks held */
#ifdef CONFIG_RCU_FAST_NO_HZ
int rcu_nohz_needs_cpu(struct rcu_data *rdp, unsigned long basej, unsigned long *nextj);
void rcu_prepare_for_idle(void);
void rcu_cleanup_after_idle(void);
void rcu_nohz_show_stats(void);
/* GP cleanup: is rdp's CPU idle on an RCU one-shot of its own (so not to be kicked)? */
bool rcu_nohz_sleeping(struct rcu_data *rdp);
/*
 * The test's switch (kernel/rcu/test/fast_nohz.c): false makes a
 * CPU holding callbacks keep its tick, as a kernel without the option,
 * so both behaviours can be measured in one boot. Default true.
 */
void rcu_nohz_set_active(bool on);
/* rcutree.rcu_idle_lazy_gp_delay as in force, for the test. */
int rcu_nohz_lazy_gp_delay(void);
#else
static inline int rcu_nohz_needs_cpu(struct rcu_data *rdp, unsigned long basej,
				     unsigned long *nextj)
{
	return 1;	/* callbacks queued: keep the tick until they are through */
}
static inline void rcu_prepare_for_idle(void) { }
static inline void rcu_cleanup_after_idle(void) { }
static inline void rcu_nohz_show_stats(void) { }
static inline bool rcu_nohz_sleeping(struct rcu_data *rdp) { return false; }
#endif

/*
 * After invoking a batch: lower the flood mark (->qlen_last_fqs_check, the
 * list length at the last qhimark crossing) once the list has drained by
 * qhimark, and clear it when the list is empty, as Linux's rcu_do_batch()
 * does. Without the clear, a mark lowered to a few hundred stayed there
 * when the list then emptied, and the next flood had to reach mark +
 * qhimark to count (a 600-callback flood with qhimark 500 was missed).
 */
static inline void rcu_flood_mark_drained(struct rcu_data *rdp)
{
	long n = rcu_segcblist_n_cbs(&rdp->cblist);

	if (!n)
		rdp->qlen_last_fqs_check = 0;
	else if (n < rdp->qlen_last_fqs_check - rcu_params.qhimark)
		rdp->qlen_last_fqs_check = n;
}

/*
 * rcu_do_batch() (tree.c) beyond rcutree.blimit, a flooded list (past
 * rcutree.qhimark) worked through in one batch: after count callbacks, is
 * a reschedule point due? One every RCU_FLOOD_RESCHED_EVERY callbacks, so
 * that the flood does not hold the CPU. (rcuos has a reschedule point
 * after every callback, tree_nocb.c.)
 */
#define RCU_FLOOD_RESCHED_EVERY	32
static inline bool rcu_batch_resched_due(long count)
{
	return !(count % RCU_FLOOD_RESCHED_EVERY);
}

/* --- callback offloading (tree_nocb.c); stubs without CONFIG_RCU_NOCB_CPU --- */
#ifdef CONFIG_RCU_NOCB_CPU
static inline bool rcu_rdp_is_offloaded(struct rcu_data *rdp) { return READ_ONCE(rdp->offloaded); }
/* rcu_init(), after the rcu_data: parse rcu_nocbs=, form the groups, print the banners. */
void rcu_nocb_init(void);
/* rcu_init_kthreads(): the rcuog/N and rcuos/N (rcuop/N) kthreads. */
void rcu_spawn_nocb_kthreads(void);
/* call_rcu(), interrupts off (flags saved): true if queued on an offloaded list (irqs restored). */
bool rcu_nocb_try_enqueue(struct rcu_data *rdp, struct rcu_head *head, unsigned long flags,
			  bool lazy);
/* rcu_barrier(): entrain func behind rdp's callbacks without an IPI; true if rdp is offloaded. */
bool rcu_nocb_barrier_entrain(struct rcu_data *rdp, rcu_callback_t func, atomic_t *count);
/* rcu_gp_cleanup(), after rcu_seq_end(): wake the rcuog kthreads that wait for it. */
void rcu_nocb_gp_cleanup(void);
/* rcu_show_stats(): this CPU's offloading line, if it is offloaded. */
void rcu_nocb_show_stats_cpu(struct rcu_data *rdp);
/* rcu_nocb_poll= (for the self-test). */
bool rcu_nocb_polling(void);
/* Wake rdp's rcuog if it sleeps; true if this call woke it. Any context. */
bool rcu_nocb_wake_gp(struct rcu_data *rdp);
/* Had rcuo kthreads from boot (rcu_nocbs=, not nohz_full=): may be switched at run time. */
bool rcu_nocb_cpu_toggleable(unsigned int cpu);
/*
 * Lazy callbacks (tree_nocb_lazy.c, CONFIG_RCU_LAZY), all under rdp->nocb_lock:
 * hold a lazy callback (true) or not (false: it goes to ->cblist); move the
 * held ones into ->cblist for reason why (true if there were any); rcuog's
 * pass: move them if due, else keep the timer armed (true if moved).
 */
#ifdef CONFIG_RCU_LAZY
bool rcu_lazy_enqueue(struct rcu_data *rdp, struct rcu_head *head);
bool rcu_lazy_flush(struct rcu_data *rdp, int why);
bool rcu_lazy_gp_scan(struct rcu_data *rdp);
static inline long rcu_lazy_held_len(struct rcu_data *rdp) { return rdp->lazy_cbs.len; }
static inline unsigned long rcu_lazy_peak(struct rcu_data *rdp) { return READ_ONCE(rdp->lazy_peak); }
void rcu_lazy_init_rdp(struct rcu_data *rdp);
void rcu_lazy_show_stats_cpu(struct rcu_data *rdp);
/* rcutree.enable_rcu_lazy and rcutree.jiffies_lazy_flush as in force (for the self-test). */
bool rcu_lazy_enabled(void);
unsigned long rcu_lazy_flush_jiffies(void);
#else
static inline bool rcu_lazy_enqueue(struct rcu_data *rdp, struct rcu_head *head) { return false; }
static inline bool rcu_lazy_flush(struct rcu_data *rdp, int why) { return false; }
static inline bool rcu_lazy_gp_scan(struct rcu_data *rdp) { return false; }
static inline long rcu_lazy_held_len(struct rcu_data *rdp) { return 0; }
static inline unsigned long rcu_lazy_peak(struct rcu_data *rdp) { return 0; }
static inline bool rcu_lazy_enabled(void) { return false; }
static inline void rcu_lazy_init_rdp(struct rcu_data *rdp) { }
static inline void rcu_lazy_show_stats_cpu(struct rcu_data *rdp) { }
#endif
/* Requests rcuc/N serves at the top of rcu_core() (tree_nocb_toggle.c). */
enum { RCU_NOCB_REQ_NONE, RCU_NOCB_REQ_OFFLOAD, RCU_NOCB_REQ_DEOFFLOAD };
/* rcu_core() on rdp's own CPU, in rcuc/N, before anything else: carry out a pending switch. */
void rcu_nocb_toggle_local(struct rcu_data *rdp);
/* rcuos, its batch done and a de-offload pending: kick rcuc/N to carry it out. */
void rcu_nocb_toggle_kick(struct rcu_data *rdp);
#else
static inline bool rcu_rdp_is_offloaded(struct rcu_data *rdp) { return false; }
static inline void rcu_nocb_init(void) { }
static inline void rcu_spawn_nocb_kthreads(void) { }
static inline bool rcu_nocb_try_enqueue(struct rcu_data *rdp, struct rcu_head *head,
					unsigned long flags, bool lazy) { return false; }
static inline bool rcu_nocb_barrier_entrain(struct rcu_data *rdp, rcu_callback_t func,
					    atomic_t *count) { return false; }
static inline void rcu_nocb_gp_cleanup(void) { }
static inline void rcu_nocb_show_stats_cpu(struct rcu_data *rdp) { }
static inline void rcu_nocb_toggle_local(struct rcu_data *rdp) { }
#endif

/* --- stall warnings (tree_stall.c) --- */
/* Called when a grace period starts: arm the stall timer. */
void record_gp_stall_check_time(void);
/* Called from the GP kthread's FQS loop and each CPU's tick. */
void rcu_check_cpu_stall(struct rcu_data *rdp);
/* "RCU_GP_WAIT_FQS" and the like for rcu_state.gp_state values; "???" for others. */
const char *rcu_gp_state_name(int gs);

/*
 * call_rcu() (lazy: IS_ENABLED(CONFIG_RCU_LAZY)), call_rcu_hurry()
 * (tree_nocb_lazy.c) and synchronize_rcu()'s own (tree_sync.c, waiter:
 * the caller sleeps until the callback runs, see rcu_gp_kthread_wake_sync()).
 */
void __call_rcu_common(struct rcu_head *head, rcu_callback_t func, bool lazy, bool waiter);

/* --- shared by tree.c, tree_gp.c (the grace-period kthread) and tree_sync.c (waiting) --- */
extern bool rcu_scheduler_active;	/* kthreads exist: grace periods can be waited for */
/* Wake this CPU's rcuc kthread to process callbacks. */
void invoke_rcu_core(void);
/* Request grace period gp_seq_req from rnp_start up; true if the GP kthread must be woken. */
bool rcu_start_this_gp(struct rcu_node *rnp_start, unsigned long gp_seq_req);
/* Assign grace-period numbers to rdp's new callbacks; true if the GP kthread must be woken. */
bool rcu_accelerate_cbs(struct rcu_node *rnp, struct rcu_data *rdp);
/* Catch rdp up with its leaf's gp_seq (rnp locked); true if the GP kthread must be woken. */
bool __note_gp_changes(struct rcu_node *rnp, struct rcu_data *rdp);
/* The grace-period kthread's body (tree_gp.c). */
int rcu_gp_kthread(void *unused);

/* --- CPU hotplug (tree_hotplug.c) --- */
/* rcu_gp_init(), before the masks are set: fold CPUs gone and come into ->qsmaskinit. */
void rcu_hotplug_gp_init(void);
/*
 * rcu_gp_init(), a leaf just set up for the new GP (its lock held, flags
 * saved): report the CPUs that went offline since the fold, and a leaf
 * that only waits for preempted readers that have all left. Releases the
 * lock; returns false if there was nothing to report (lock still held).
 */
bool rcu_hotplug_gp_init_leaf(struct rcu_node *rnp, unsigned long flags);
/* rcu_exp_select_cpus(): grow ->expmaskinit with CPUs that came online. */
void rcu_hotplug_exp_init(void);
/* No CPU but the caller's is in RCU's view of the CPUs that may read (tree_hotplug.c). */
bool rcu_no_other_cpu_reads(void);

/*
 * Test kernels (CONFIG_RCU_HOTPLUG_WINDOW_DELAY, tree_window_delay.c):
 * places where a delay knob, or a self-test's hook, holds the caller.
 */
enum rcu_window {
	RCU_WIN_TRIVIAL_CHECKED,	/* rcu_sync_is_trivial(): after the first look at the CPUs */
	RCU_WIN_TRIVIAL_LOCKED,		/* ... and after taking exp_mutex, before the steps */
	RCU_WIN_GP_FOLD,		/* rcu_gp_init(): before rcu_hotplug_gp_init() */
};
#ifdef CONFIG_RCU_HOTPLUG_WINDOW_DELAY
void rcu_window_delay(enum rcu_window w);
extern void (*rcu_window_hook)(enum rcu_window w);
#else
static inline void rcu_window_delay(enum rcu_window w) { }
#endif

/*
 * Test kernels (CONFIG_RCU_WATCHING_WINDOW_HOOK, tree_watching_hook.c): a
 * self-test's hook called inside rcu_is_watching(), between computing
 * this CPU's counter address and reading it. Under TCG an interrupt (so a
 * preemption) lands only between translation blocks, and those two
 * instructions share one: the call makes the place reachable, as KASAN's
 * outline checks did. NULL outside the "rcu_watching" suite.
 */
#ifdef CONFIG_RCU_WATCHING_WINDOW_HOOK
extern void (*rcu_watching_hook)(void);
static inline void rcu_watching_window(void)
{
	void (*hook)(void) = READ_ONCE(rcu_watching_hook);

	if (unlikely(hook))
		hook();
}
#else
static inline void rcu_watching_window(void) { }
#endif

#endif
