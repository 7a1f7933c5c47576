/*
 * Tree RCU's trace events (CONFIG_RCU_TRACE, kernel/rcu/rcu_trace.c), one
 * static inline per event, named and printed after Linux's
 * include/trace/events/rcu.h events:
 *   rcu_grace_period            gp_seq and what happened ("start", "end",
 *                               "fqsstart", "fqsend")
 *   rcu_quiescent_state_report  gp_seq, mask reported > mask left, node
 *   rcu_fqs                     an FQS scan's verdict on one CPU ("dti":
 *                               credited as idle, "rqc": reschedule IPI)
 *   rcu_callback / rcu_kvfree_callback            call_rcu() / kfree_rcu()
 *   rcu_invoke_callback / rcu_invoke_kvfree_callback  its invocation
 *   rcu_exp_grace_period        expedited sequence and step
 *   rcu_boost                   priority boosting of a leaf's readers
 *   rcu_stall_warning           a stall warning was printed
 *   srcu_grace_period           ours (Linux 6.1 has no SRCU events): a Tree
 *                               SRCU domain's gp_seq and step ("req",
 *                               "start", "scan1", "scan2", "end", "wait N"
 *                               jiffies, "run" in srcu_gp, "done" in
 *                               synchronize_srcu())
 * Without the option rcu_trace_record() is an empty static inline: the
 * arguments (plain loads) are dropped by the compiler, no code remains.
 */
#ifndef _KERNEL_RCU_TRACE_H
#define _KERNEL_RCU_TRACE_H

#include <kernel/types.h>
#include <rcu/trace.h>

enum rcu_trace_event {
	RCU_TEV_GP,
	RCU_TEV_QS_REPORT,
	RCU_TEV_FQS,
	RCU_TEV_CALLBACK,
	RCU_TEV_KVFREE_CALLBACK,
	RCU_TEV_INVOKE,
	RCU_TEV_INVOKE_KVFREE,
	RCU_TEV_EXP_GP,
	RCU_TEV_BOOST,
	RCU_TEV_STALL,
	RCU_TEV_SRCU_GP,
	RCU_TEV_NR,
};

#ifdef CONFIG_RCU_TRACE
/* s must be a string constant (only its address is kept). */
void rcu_trace_record(enum rcu_trace_event ev, const char *s, unsigned long a0,
		      unsigned long a1, unsigned long a2, unsigned long a3);
void rcu_trace_init(void);
#else
static inline void rcu_trace_record(enum rcu_trace_event ev, const char *s, unsigned long a0,
				    unsigned long a1, unsigned long a2, unsigned long a3) { }
static inline void rcu_trace_init(void) { }
#endif
#define RCU_TRACE_REC(ev, s, a0, a1, a2, a3)					\
	rcu_trace_record(ev, s, (unsigned long)(a0), (unsigned long)(a1),	\
			 (unsigned long)(a2), (unsigned long)(a3))

/* Node geometry packed into one word: level, first and last CPU. */
#define RCU_TRACE_NODE(level, lo, hi) \
	(((unsigned long)(level) << 40) | ((unsigned long)(lo) << 20) | (unsigned long)(hi))

#define trace_rcu_grace_period(gp_seq, what) \
	RCU_TRACE_REC(RCU_TEV_GP, what, gp_seq, 0, 0, 0)
#define trace_rcu_quiescent_state_report(gp_seq, mask, qsmask, level, lo, hi) \
	RCU_TRACE_REC(RCU_TEV_QS_REPORT, NULL, gp_seq, mask, qsmask, RCU_TRACE_NODE(level, lo, hi))
#define trace_rcu_fqs(gp_seq, cpu, what) \
	RCU_TRACE_REC(RCU_TEV_FQS, what, gp_seq, cpu, 0, 0)
/* call_rcu(): a kfree_rcu() "function" is the head's offset in its object. */
#define trace_rcu_callback(rhp, func, qlen)						\
	RCU_TRACE_REC(__is_kfree_rcu_offset(func) ? RCU_TEV_KVFREE_CALLBACK : RCU_TEV_CALLBACK, \
		      NULL, rhp, func, qlen, 0)
#define trace_rcu_invoke_callback(rhp, func)						\
	RCU_TRACE_REC(__is_kfree_rcu_offset(func) ? RCU_TEV_INVOKE_KVFREE : RCU_TEV_INVOKE, \
		      NULL, rhp, func, 0, 0)
#define trace_rcu_exp_grace_period(seq, what) \
	RCU_TRACE_REC(RCU_TEV_EXP_GP, what, seq, 0, 0, 0)
#define trace_rcu_boost(lo, hi, what) \
	RCU_TRACE_REC(RCU_TEV_BOOST, what, lo, hi, 0, 0)
#define trace_rcu_stall_warning(what) \
	RCU_TRACE_REC(RCU_TEV_STALL, what, 0, 0, 0, 0)
/* name: the domain's (a string constant), n: the delay of "wait", else 0. */
#define trace_srcu_grace_period(name, gp_seq, what, n) \
	RCU_TRACE_REC(RCU_TEV_SRCU_GP, what, gp_seq, name, n, 0)

#endif
