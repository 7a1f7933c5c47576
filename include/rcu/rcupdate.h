/*
 * The RCU API, as Linux spells it. Readers: rcu_read_lock()/unlock() (and
 * the _sched/_bh spellings, one consolidated flavor since Linux 4.20),
 * rcu_dereference*(). Updaters: rcu_assign_pointer(), call_rcu(),
 * kfree_rcu(), synchronize_rcu(), rcu_barrier() and the polling API.
 * The hooks the scheduler, tick and idle loop call are in <rcu/hooks.h>,
 * included below with the flavor's own header: <rcu/rcutree.h> or
 * <rcu/rcutiny.h> (CONFIG_TINY_RCU: UP and non-preemptible), as in Linux.
 *
 * In a non-preemptible kernel (CONFIG_PREEMPT_NONE) a reader is a region
 * without a voluntary context switch: rcu_read_lock() costs a compiler
 * barrier plus the preempt-count update debug builds want anyway. With
 * CONFIG_PREEMPT_RCU it is a per-task counter and readers may be preempted.
 *
 * With CONFIG_PROVE_RCU (lockdep-RCU, kernel/rcu/lockdep.c) readers are also
 * entries "rcu_read_lock" on the task's lockdep held-lock stack, and
 * rcu_dereference*() and RCU_LOCKDEP_WARN() check the conditions they are
 * given, printing Linux's "WARNING: suspicious RCU usage" splat once per
 * call site. Without it those checks compile to nothing.
 */
#ifndef _RCU_RCUPDATE_H
#define _RCU_RCUPDATE_H

#include <kernel/compiler.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/barrier.h>
#include <rcu/types.h>
#include <rcu/objdebug.h>	/* init_rcu_head() and friends */
#include <sched/task.h>	/* current, for the preemptible readers */
#include <locking/lockdep.h>
#include <kernel/errno.h>
#include <kernel/bug.h>

/* --- lockdep-RCU hooks (CONFIG_PROVE_RCU) ----------------------------------- */

#ifdef CONFIG_PROVE_RCU
/* The pseudo-lock readers hold (listed as "rcu_read_lock" in the reports). */
extern struct lockdep_map rcu_lock_map;
#define rcu_lock_acquire(map)	lock_acquire((map), false, true, LOCKDEP_HERE)
#define rcu_lock_release(map)	((void)lock_release((map), LOCKDEP_HERE))
/* Print the splat (kernel/rcu/lockdep.c). */
void lockdep_rcu_suspicious(const char *file, int line, const char *s);
/* Checks are on: lockdep still trusts itself and the scheduler runs. */
bool debug_lockdep_rcu_enabled(void);
/* Linux's rcu_scheduler_active for the splat: 0 inactive, 2 running (tree.c, tiny.c). */
int rcu_lockdep_scheduler_state(void);
/*
 * RCU_LOCKDEP_WARN(c, s): if c holds, print the splat with message s, once
 * for this call site. c is evaluated only while the checks are on.
 */
#define RCU_LOCKDEP_WARN(c, s)							\
	do {									\
		static bool __rcu_warned;					\
		if (debug_lockdep_rcu_enabled() && !__rcu_warned && (c)) {	\
			__rcu_warned = true;					\
			lockdep_rcu_suspicious(__FILE__, __LINE__, (s));	\
		}								\
	} while (0)
/*
 * For synchronize_rcu(): true (after the splat) when called inside
 * rcu_read_lock(), where waiting for a grace period could never end.
 */
#define rcu_sync_in_reader()							\
	({									\
		bool __in = debug_lockdep_rcu_enabled() && lock_is_held(&rcu_lock_map); \
		RCU_LOCKDEP_WARN(__in, "Illegal synchronize_rcu() in RCU read-side critical section"); \
		__in;								\
	})
#else
#define rcu_sync_in_reader()	false
#define rcu_lock_acquire(map)	do { } while (0)
#define rcu_lock_release(map)	do { } while (0)
/* Off: the condition still has to compile, but is never evaluated. */
#define RCU_LOCKDEP_WARN(c, s)	do { } while (0 && (c))
#endif

/* --- readers --------------------------------------------------------------- */

/*
 * CONFIG_RCU_STRICT_GRACE_PERIOD (kernel/rcu/tree_strict.c): a reader's
 * outermost unlock reports this CPU's quiescent state at once. The
 * non-preemptible rcu_read_unlock() calls rcu_read_unlock_strict() after
 * re-enabling preemption; the preemptible rcu_read_lock() sets the task's
 * need_qs so that its unlock takes the slow path, which reports (once the
 * grace-period machinery runs: before, there is nothing to report to).
 */
#ifdef CONFIG_RCU_STRICT_GRACE_PERIOD
extern bool rcu_scheduler_active;
void rcu_read_unlock_strict(void);
static __always_inline void rcu_read_lock_strict(struct task_struct *t)
{
	if (READ_ONCE(rcu_scheduler_active))
		WRITE_ONCE(t->rcu_read_unlock_special.b.need_qs, true);
}
#else
static __always_inline void rcu_read_unlock_strict(void) { }
static __always_inline void rcu_read_lock_strict(struct task_struct *t) { }
#endif

#ifdef CONFIG_PREEMPT_RCU
/*
 * Preemptible RCU (kernel/rcu/tree_plugin.c): a reader is a per-task
 * nesting count, so it may be preempted. The task's context switch moves
 * it onto its rcu_node's blocked-tasks list; the outermost unlock finds
 * the rarely set "special" word non-zero and takes the slow path
 * (leave the list, report a deferred quiescent state, drop a boost).
 * Interrupt handlers nest on the interrupted task's count; they see a
 * zero count only in the window inside rcu_read_unlock() itself, where
 * the task's own check still follows.
 */
void rcu_read_unlock_special(struct task_struct *t);

static __always_inline void rcu_read_lock(void)
{
	current->rcu_read_lock_nesting++;
	rcu_read_lock_strict(current);
	barrier();	/* the critical section starts after the increment */
	rcu_lock_acquire(&rcu_lock_map);
}
static __always_inline void rcu_read_unlock(void)
{
	struct task_struct *t = current;

	rcu_lock_release(&rcu_lock_map);
	barrier();	/* the critical section ends before the decrement */
	if (--t->rcu_read_lock_nesting == 0) {
		barrier();	/* decrement before the special check (pairs with the switch hook) */
		if (unlikely(READ_ONCE(t->rcu_read_unlock_special.s)))
			rcu_read_unlock_special(t);
	}
}
/* Depth of the current task's rcu_read_lock() nesting (0 outside readers). */
static __always_inline int rcu_preempt_depth(void)
{
	return READ_ONCE(current->rcu_read_lock_nesting);
}
#else
static __always_inline void rcu_read_lock(void)
{
	preempt_disable();	/* no context switch = no quiescent state inside */
	rcu_lock_acquire(&rcu_lock_map);
}
static __always_inline void rcu_read_unlock(void)
{
	rcu_lock_release(&rcu_lock_map);
	preempt_enable();
	rcu_read_unlock_strict();
}
static __always_inline int rcu_preempt_depth(void) { return 0; }
#endif
#define rcu_read_lock_sched()		preempt_disable()
#define rcu_read_unlock_sched()		preempt_enable()
#define rcu_read_lock_sched_notrace()	preempt_disable()
#define rcu_read_unlock_sched_notrace()	preempt_enable()
#define rcu_read_lock_bh()		rcu_read_lock()
#define rcu_read_unlock_bh()		rcu_read_unlock()

#ifdef CONFIG_PROVE_RCU
/*
 * kernel/rcu/lockdep.c. True inside a reader of that kind; true as well
 * when the checks are off (lockdep gave up, or early boot: nothing to
 * prove); false on a CPU RCU is not watching (idle), where no reader counts.
 */
bool rcu_read_lock_held(void);
bool rcu_read_lock_sched_held(void);
bool rcu_read_lock_bh_held(void);
#else
/*
 * True in any context RCU treats as a reader (preemption or interrupts off,
 * or a handler). Without CONFIG_PREEMPT_COUNT a reader leaves no trace:
 * true, as Linux answers without lockdep.
 */
static inline bool rcu_read_lock_held(void)
{
	return !IS_ENABLED(CONFIG_PREEMPT_COUNT) ||
	       rcu_preempt_depth() > 0 || preempt_count() != 0 ||
	       irqs_disabled_flags(arch_local_save_flags());
}
#define rcu_read_lock_sched_held()	rcu_read_lock_held()
#define rcu_read_lock_bh_held()		rcu_read_lock_held()
#endif

/*
 * rcu_read_lock_any_held(): inside a reader of any of RCU's spellings
 * (rcu_read_lock(), _bh(), _sched(), or any region with preemption or
 * interrupts off), for lockdep conditions such as rcu_sync_is_idle()'s.
 * With one consolidated flavor this is the union of the three checks;
 * like them it is true whenever the checks cannot tell (no lockdep-RCU and
 * no preempt count, or lockdep gone), as Linux's is.
 */
static inline bool rcu_read_lock_any_held(void)
{
	return rcu_read_lock_held() || rcu_read_lock_bh_held() || rcu_read_lock_sched_held();
}

/* --- pointers -------------------------------------------------------------- */

/*
 * An RCU-protected pointer is declared `T __rcu *p` (<kernel/compiler.h>). To
 * sparse (`make C=2`) __rcu is a separate address space marked noderef, so a
 * plain `p->field`, `*p` or `p = q` is reported, and these accessors are the
 * only way between an __rcu pointer and a plain one: each casts through
 * __force, and __rcu_check_sparse() makes sparse report one applied to a
 * pointer that lacks __rcu ("different address spaces" in a comparison).
 * For the compiler the casts and the check vanish.
 */
#ifdef __CHECKER__
#define __rcu_check_sparse(p)	((void)(((__typeof__(*(p)) __force __rcu *)(p)) == (p)))
#else
#define __rcu_check_sparse(p)	((void)0)
#endif
/* The plain pointer an __rcu one holds (the cast is all; no load of its own). */
#define __rcu_unannotate(p)	((__typeof__(*(p)) __force __kernel *)(p))

/* x86 keeps dependent loads ordered, so a READ_ONCE is the whole rcu_dereference(). */
#define rcu_dereference_raw(p) ({					\
	__rcu_check_sparse(p);						\
	__rcu_unannotate(READ_ONCE(p));					\
})
/* The updater's view, under the lock that excludes other updaters: no READ_ONCE needed. */
#define __rcu_dereference_protected(p) ({				\
	__rcu_check_sparse(p);						\
	__rcu_unannotate(p);						\
})
#ifdef CONFIG_PROVE_RCU
/*
 * rcu_dereference_check(p, c): p may be loaded inside a reader or wherever
 * c holds (typically lockdep_is_held(&update_lock)). _protected(p, c): the
 * update side, c must hold (no reader needed, and no READ_ONCE either).
 */
#define __rcu_dereference_check(p, c, what)					\
	({									\
		RCU_LOCKDEP_WARN(!(c), "suspicious " what "() usage");		\
		rcu_dereference_raw(p);						\
	})
#define rcu_dereference_check(p, c)						\
	__rcu_dereference_check(p, (c) || rcu_read_lock_held(), "rcu_dereference_check")
#define rcu_dereference_bh_check(p, c)						\
	__rcu_dereference_check(p, (c) || rcu_read_lock_bh_held(), "rcu_dereference_bh_check")
#define rcu_dereference_sched_check(p, c)					\
	__rcu_dereference_check(p, (c) || rcu_read_lock_sched_held(), "rcu_dereference_sched_check")
#define rcu_dereference_protected(p, c)						\
	({									\
		RCU_LOCKDEP_WARN(!(c), "suspicious rcu_dereference_protected() usage"); \
		__rcu_dereference_protected(p);					\
	})
#else
#define rcu_dereference_check(p, c)	rcu_dereference_raw(p)
#define rcu_dereference_bh_check(p, c)	rcu_dereference_raw(p)
#define rcu_dereference_sched_check(p, c) rcu_dereference_raw(p)
#define rcu_dereference_protected(p, c)	__rcu_dereference_protected(p)
#endif
#define rcu_dereference(p)		rcu_dereference_check(p, 0)
#define rcu_dereference_sched(p)	rcu_dereference_sched_check(p, 0)
#define rcu_dereference_bh(p)		rcu_dereference_bh_check(p, 0)
/* The pointer's value only, never to be dereferenced (a NULL test, a comparison). */
#define rcu_access_pointer(p)		rcu_dereference_raw(p)
/* A plain pointer as the value of an __rcu one (static initialisers, stores). */
#define RCU_INITIALIZER(v)		((__typeof__(*(v)) __force __rcu *)(v))
/* Publish: every initialising store to *v happens before the pointer is visible. */
#define rcu_assign_pointer(p, v) do {					\
	__rcu_check_sparse(p);						\
	smp_store_release(&(p), RCU_INITIALIZER(v));			\
} while (0)
/* A store without ordering: NULL, or a pointer readers cannot reach yet. */
#define RCU_INIT_POINTER(p, v) do {					\
	__rcu_check_sparse(p);						\
	WRITE_ONCE(p, RCU_INITIALIZER(v));				\
} while (0)
/* Publish v in p under the updaters' lock c and return p's old value. */
#define rcu_replace_pointer(p, v, c) ({					\
	__typeof__(__rcu_unannotate(p)) __rcu_old = rcu_dereference_protected(p, c); \
	rcu_assign_pointer(p, v);					\
	__rcu_old;							\
})

/*
 * rcu_pointer_handoff(p): documents that p, loaded with rcu_dereference()
 * inside a reader, is now protected by something else the reader took
 * (a reference count, a lock), so it may outlive the reader. No code.
 */
#define rcu_pointer_handoff(p)	(p)

/* --- updaters -------------------------------------------------------------- */

void call_rcu(struct rcu_head *head, rcu_callback_t func);
/*
 * call_rcu_hurry(): a callback someone waits for (synchronize_rcu()'s,
 * rcutorture's). With CONFIG_RCU_LAZY, call_rcu() callbacks of offloaded
 * CPUs may wait up to rcutree.jiffies_lazy_flush (Documentation/RCU/lazy.md);
 * this one does not, and moves those already held along with it.
 * Without it, call_rcu() itself.
 */
/*
 * rcu_lazy_flush_all(): memory is short (a shrinker-like hook): every
 * lazily held callback gets its grace period now. Any context but NMI;
 * returns how many were held. Without CONFIG_RCU_LAZY none ever are.
 */
#ifdef CONFIG_RCU_LAZY
void call_rcu_hurry(struct rcu_head *head, rcu_callback_t func);
unsigned long rcu_lazy_flush_all(void);
#else
static inline void call_rcu_hurry(struct rcu_head *head, rcu_callback_t func)
{
	call_rcu(head, func);
}
static inline unsigned long rcu_lazy_flush_all(void) { return 0; }
#endif
void synchronize_rcu(void);
void synchronize_rcu_expedited(void);
void rcu_barrier(void);

/*
 * Run-time callback offloading (Tree RCU, CONFIG_RCU_NOCB_CPU): switch a
 * CPU named by rcu_nocbs= at boot to offloaded (rcuo kthreads invoke its
 * callbacks) or back (the CPU does). 0 on success or if it already is;
 * -EINVAL for a CPU without rcuo kthreads, an offline one, or a kernel
 * without offloading. Process context; may sleep.
 */
#ifdef CONFIG_RCU_NOCB_CPU
int rcu_nocb_cpu_offload(int cpu);
int rcu_nocb_cpu_deoffload(int cpu);
#else
static inline int rcu_nocb_cpu_offload(int cpu) { return -EINVAL; }
static inline int rcu_nocb_cpu_deoffload(int cpu) { return -EINVAL; }
#endif
unsigned long get_state_synchronize_rcu(void);
unsigned long start_poll_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long oldstate);
void cond_synchronize_rcu(unsigned long oldstate);
/*
 * Linux 6.1's additions to the polling API (Documentation/RCU/expedited.md).
 *
 * RCU_GET_STATE_COMPLETED: a cookie that every poll finds complete (no
 * snapshot ever takes this value: its low bits say "in progress"), for
 * data structures that need an initial "no grace period owed" state.
 *
 * Expedited: start_poll_synchronize_rcu_expedited() returns an ordinary
 * cookie and, unless it is already complete, gets expedited grace periods
 * run for it in the background (Tree RCU: the rcu_exp_poll kthread); the
 * caller never blocks. cond_synchronize_rcu_expedited() waits with
 * synchronize_rcu_expedited() if its cookie is not complete yet.
 *
 * Full state: struct rcu_gp_oldstate holds a snapshot of both the normal
 * and the expedited grace-period sequences, and is complete once either
 * kind of grace period has run in full since. It costs two words where
 * the ordinary cookie costs one, but no grace period of either kind is
 * missed: an ordinary cookie may need one more grace period than has
 * really elapsed when normal and expedited ones overlap. Tiny RCU keeps
 * only the normal word (every grace period of it is both kinds at once).
 */
#define RCU_GET_STATE_COMPLETED		0x1UL
unsigned long get_completed_synchronize_rcu(void);
bool same_state_synchronize_rcu(unsigned long oldstate1, unsigned long oldstate2);
unsigned long start_poll_synchronize_rcu_expedited(void);
void cond_synchronize_rcu_expedited(unsigned long oldstate);
struct rcu_gp_oldstate;		/* <rcu/rcutree.h> or <rcu/rcutiny.h> */
void get_completed_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
bool same_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp1,
				     struct rcu_gp_oldstate *rgosp2);
void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
void cond_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
void start_poll_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp);
void cond_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp);
/*
 * Expedite steering (kernel/rcu/update.c), as Linux: rcupdate.rcu_expedited
 * or a nonzero rcu_expedite_gp() nesting makes synchronize_rcu() expedited;
 * rcupdate.rcu_normal makes synchronize_rcu_expedited() a normal wait and
 * wins over both. Grace periods are expedited during boot, until
 * rcu_end_inkernel_boot() (init, once every CPU is up, before the initcalls).
 */
bool rcu_gp_is_expedited(void);
bool rcu_gp_is_normal(void);
void rcu_expedite_gp(void);
void rcu_unexpedite_gp(void);
void rcu_end_inkernel_boot(void);
/* Expedited grace periods completed so far (statistics, tests). */
unsigned long rcu_exp_gp_completed(void);
/*
 * Where expedited grace periods spend their time (Tree RCU's tree_exp.c;
 * Tiny RCU has no IPIs and reports zeros): since boot or the last
 * rcu_exp_latency_reset(). Sums and maxima in local_clock() nanoseconds;
 * the IPI and wake-up figures compare two CPUs' clocks (negative
 * differences count as zero). Documentation/RCU/expedited.md.
 */
struct rcu_exp_latency {
	unsigned long gps;		/* expedited grace periods measured */
	unsigned long ipis;		/* IPIs whose handler ran within their grace period */
	u64 ipi_sum_ns, ipi_max_ns;	/* sent -> the target CPU's handler ran */
	unsigned long deferred;		/* reports the handler deferred (it found a reader) */
	unsigned long deferred_irq;	/* of which made from an interrupt (the tick) */
	u64 defer_sum_ns, defer_max_ns;	/* the handler -> the deferred report, on that CPU */
	u64 wake_sum_ns, wake_max_ns;	/* the last report -> the waiting driver runs again */
};
void rcu_exp_latency(struct rcu_exp_latency *st);
void rcu_exp_latency_reset(void);
#define call_rcu_sched			call_rcu
#define call_rcu_bh			call_rcu
#define synchronize_sched		synchronize_rcu
#define synchronize_rcu_bh		synchronize_rcu
#define rcu_barrier_sched		rcu_barrier
#define rcu_barrier_bh			rcu_barrier

/*
 * kvfree_rcu(ptr, field) / kvfree_rcu(ptr), kfree_rcu() the same, as
 * Linux 6.1 has them: kvfree(ptr) after a grace period, with no callback
 * function of the caller's. The two-argument form passes the offset of
 * the rcu_head in its object in place of the function pointer (offsets are
 * below 4096, no function lives there); the one-argument ("headless")
 * form passes the pointer itself with a NULL head, and may sleep: when no
 * memory can be had it waits for a grace period with synchronize_rcu().
 * kfree_rcu_mightsleep(ptr) (Linux 6.3's name) is the headless form.
 * Tree RCU batches the pointers per CPU into pages (kernel/rcu/kvfree.c),
 * Tiny RCU queues the rcu_head with call_rcu() (kernel/rcu/tiny_kvfree.c).
 * Documentation/RCU/kvfree_rcu.md.
 */
#define __is_kfree_rcu_offset(off)	((unsigned long)(off) < 4096)
#define __is_kvfree_rcu_offset(off)	__is_kfree_rcu_offset(off)
void kvfree_call_rcu(struct rcu_head *head, rcu_callback_t func);
/*
 * Wait until every object passed to kvfree_rcu() before the call has been
 * freed (Linux 6.12's name; 6.1 has no such call, and rcu_barrier() does
 * not cover kvfree_rcu()'s batches). Process context; sleeps.
 */
void kvfree_rcu_barrier(void);

#define kvfree_rcu_arg_2(ptr, field) do {					\
	__typeof__(ptr) ___p = (ptr);						\
	BUILD_BUG_ON(!__is_kvfree_rcu_offset(offsetof(__typeof__(*(ptr)), field))); \
	if (___p)								\
		kvfree_call_rcu(&___p->field,					\
			(rcu_callback_t)(unsigned long)offsetof(__typeof__(*(ptr)), field)); \
} while (0)
#define kvfree_rcu_arg_1(ptr) do {						\
	__typeof__(ptr) ___p = (ptr);						\
	if (___p)								\
		kvfree_call_rcu(NULL, (rcu_callback_t)(unsigned long)(___p));	\
} while (0)
#define KVFREE_GET_MACRO(_1, _2, NAME, ...)	NAME
#define kvfree_rcu(...)	KVFREE_GET_MACRO(__VA_ARGS__, kvfree_rcu_arg_2, kvfree_rcu_arg_1)(__VA_ARGS__)
#define kfree_rcu(...)			kvfree_rcu(__VA_ARGS__)
#define kfree_rcu_mightsleep(ptr)	kvfree_rcu_arg_1(ptr)
#define kvfree_rcu_mightsleep(ptr)	kvfree_rcu_arg_1(ptr)

/* Wait for a grace period through a given call_rcu-style function. */
typedef void (*call_rcu_func_t)(struct rcu_head *head, rcu_callback_t func);
void wait_rcu_gp(call_rcu_func_t crf);

/*
 * synchronize_rcu_mult(call_rcu, call_rcu_tasks, ...): wait for a grace
 * period of every flavor named, in parallel: one callback is queued
 * through each distinct function, then all are waited for, so the wait is
 * the longest of the grace periods rather than their sum. A function
 * named twice is queued once. Under Tiny RCU call_rcu's grace period is
 * the caller's own blocking (one CPU, non-preemptible), so call_rcu is
 * not queued at all there (checktiny), as in Linux.
 */
void __wait_rcu_gp(bool checktiny, unsigned int n, call_rcu_func_t *crcu_array);
#define _wait_rcu_gp(checktiny, ...) do {					\
	call_rcu_func_t __crcu_array[] = { __VA_ARGS__ };			\
	__wait_rcu_gp(checktiny, ARRAY_SIZE(__crcu_array), __crcu_array);	\
} while (0)
#define synchronize_rcu_mult(...)						\
	_wait_rcu_gp(IS_ENABLED(CONFIG_TINY_RCU), __VA_ARGS__)

/*
 * rcu_head_init() marks a head as not queued; rcu_head_after_call_rcu(rhp, f)
 * then says whether call_rcu(rhp, f) has been called on it since (its
 * ->func became f). For objects that must know, say at teardown, whether
 * a callback was ever posted. The caller orders the call against the test
 * (it holds the lock both take, or the call happened in its own thread);
 * a head queued with a function other than f, or never initialised, is a
 * bug: one warning.
 */
#define RCU_HEAD_INIT_FUNC	((rcu_callback_t)~0UL)
static inline void rcu_head_init(struct rcu_head *rhp)
{
	rhp->func = RCU_HEAD_INIT_FUNC;
}

static inline bool rcu_head_after_call_rcu(struct rcu_head *rhp, rcu_callback_t f)
{
	rcu_callback_t func = READ_ONCE(rhp->func);

	if (func == f)
		return true;
	WARN_ON_ONCE(func != RCU_HEAD_INIT_FUNC);
	return false;
}

/*
 * rcu_cpu_stall_reset(): no RCU CPU stall warning for the grace period in
 * progress (for a caller that knows the system was stopped for a long
 * time: a debugger, a suspend); the next grace period warns as usual.
 * Tree RCU only (tree_stall.c); Tiny RCU has no stall warnings.
 */
#ifdef CONFIG_RCU_STALL_COMMON
void rcu_cpu_stall_reset(void);
#else
static inline void rcu_cpu_stall_reset(void) { }
#endif

/* --- boot and CPU hooks ----------------------------------------------------- */

void rcu_init(void);		/* start_kernel, after the scheduler exists */
void rcu_init_kthreads(void);	/* init, before SMP bring-up */

/* The scheduler, tick, idle and CPU bring-up hooks, and rcutree.h or rcutiny.h. */
#include <rcu/hooks.h>

/* True if RCU is watching this CPU (not in an extended quiescent state). */
bool rcu_is_watching(void);
/* The statistics report (at shutdown and on stalls). */
void rcu_show_stats(void);
/* Grace periods completed so far (for tests and reports). */
unsigned long rcu_gp_completed(void);
/* The grace-period sequence number, in <kernel/rcu/rcu.h>'s encoding (tests, reports). */
unsigned long rcu_get_gp_seq(void);

#endif
