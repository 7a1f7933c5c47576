/*
 * RCU event tracing (CONFIG_RCU_TRACE), what code outside kernel/rcu/
 * calls: the dumps of the per-CPU trace buffers on panic (with the boot
 * parameter ftrace_dump_on_oops) and at power-off (with
 * rcutree.trace_dump_at_shutdown=1). The events themselves are recorded
 * from kernel/rcu/ through kernel/rcu/rcu_trace.h. Without the option
 * both are empty static inlines.
 */
#ifndef _RCU_TRACE_H
#define _RCU_TRACE_H

#ifdef CONFIG_RCU_TRACE
/* Print every CPU's buffer merged in time order, with why in the header line. */
void rcu_trace_dump(const char *why);
void rcu_trace_panic_dump(void);
void rcu_trace_shutdown_dump(void);
#else
static inline void rcu_trace_dump(const char *why) { }
static inline void rcu_trace_panic_dump(void) { }
static inline void rcu_trace_shutdown_dump(void) { }
#endif

#endif
