/*
 * The RCU API, as Linux spells it. Readers: rcu_read_lock()/unlock() (and
 * the _sched/_bh spellings, one consolidated flavor since Linux 4.20),
 * rcu_dereference*(). Updaters: rcu_assign_pointer(), call_rcu(),
 * kfree_rcu(), synchronize_rcu(), rcu_barrier() and the polling API.
 * The flavor-specific parts come from <rcu/rcutree.h>.
 *
 * In this non-preemptible kernel (CONFIG_PREEMPT_NONE) a reader is a
 * region without a voluntary context switch: rcu_read_lock() costs a
 * compiler barrier plus the preempt-count update debug builds want anyway.
 */
#ifndef _RCU_RCUPDATE_H
#define _RCU_RCUPDATE_H

#include <kernel/compiler.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <asm/barrier.h>
#include <rcu/types.h>

/* --- readers --------------------------------------------------------------- */

static __always_inline void rcu_read_lock(void)
{
	preempt_disable();	/* no context switch = no quiescent state inside */
}
static __always_inline void rcu_read_unlock(void)
{
	preempt_enable();
}
#define rcu_read_lock_sched()		preempt_disable()
#define rcu_read_unlock_sched()		preempt_enable()
#define rcu_read_lock_sched_notrace()	preempt_disable()
#define rcu_read_unlock_sched_notrace()	preempt_enable()
#define rcu_read_lock_bh()		rcu_read_lock()
#define rcu_read_unlock_bh()		rcu_read_unlock()

/* True in any context RCU treats as a reader (preemption or interrupts off, or a handler). */
static inline bool rcu_read_lock_held(void)
{
	return preempt_count() != 0 || irqs_disabled_flags(arch_local_save_flags());
}
#define rcu_read_lock_sched_held()	rcu_read_lock_held()
#define rcu_read_lock_bh_held()		rcu_read_lock_held()

/* --- pointers -------------------------------------------------------------- */

/* x86 keeps dependent loads ordered, so a READ_ONCE is the whole rcu_dereference(). */
#define rcu_dereference_raw(p)		READ_ONCE(p)
#define rcu_dereference(p)		rcu_dereference_raw(p)
#define rcu_dereference_check(p, c)	rcu_dereference_raw(p)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_dereference_sched(p)	rcu_dereference_raw(p)
#define rcu_dereference_bh(p)		rcu_dereference_raw(p)
#define rcu_access_pointer(p)		READ_ONCE(p)
/* Publish: every initialising store to *v happens before the pointer is visible. */
#define rcu_assign_pointer(p, v)	smp_store_release(&(p), (v))
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)
#define RCU_INITIALIZER(v)		(v)

/* --- updaters -------------------------------------------------------------- */

void call_rcu(struct rcu_head *head, rcu_callback_t func);
void synchronize_rcu(void);
void synchronize_rcu_expedited(void);
void rcu_barrier(void);
unsigned long get_state_synchronize_rcu(void);
unsigned long start_poll_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long oldstate);
void cond_synchronize_rcu(unsigned long oldstate);
#define call_rcu_sched			call_rcu
#define call_rcu_bh			call_rcu
#define synchronize_sched		synchronize_rcu
#define synchronize_rcu_bh		synchronize_rcu
#define rcu_barrier_sched		rcu_barrier
#define rcu_barrier_bh			rcu_barrier

/*
 * kfree_rcu(ptr, field): kfree(ptr) after a grace period, with no callback
 * function of the caller's: the offset of the rcu_head in its object
 * travels in place of the function pointer (offsets are below 4096, no
 * function lives there), as Linux does.
 */
#define __is_kfree_rcu_offset(off)	((unsigned long)(off) < 4096)
#define kfree_rcu(ptr, field) do {						\
	__typeof__(ptr) ___p = (ptr);						\
	BUILD_BUG_ON(offsetof(__typeof__(*(ptr)), field) >= 4096);		\
	if (___p)								\
		call_rcu(&___p->field,						\
			 (rcu_callback_t)(unsigned long)offsetof(__typeof__(*(ptr)), field)); \
} while (0)

/* Wait for a grace period through a given call_rcu-style function. */
typedef void (*call_rcu_func_t)(struct rcu_head *head, rcu_callback_t func);
void wait_rcu_gp(call_rcu_func_t crf);

/* --- boot and CPU hooks ----------------------------------------------------- */

void rcu_init(void);		/* start_kernel, after the scheduler exists */
void rcu_init_kthreads(void);	/* init, before SMP bring-up */

#include <rcu/rcutree.h>

#endif
