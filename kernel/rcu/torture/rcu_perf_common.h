/*
 * Helpers shared by the RCU benchmarks (rcuperf.c, refscale.c, gp_bench.c):
 * reading percentiles off samples sorted with sort_u64(), and the power-off that
 * waits until every boot-time performance test that asked for one is done.
 */
#ifndef _RCU_PERF_COMMON_H
#define _RCU_PERF_COMMON_H

#include <kernel/types.h>
#include <rcu/types.h>

/* The pct-th percentile (0..100) of n >= 1 sorted samples: a[n * pct / 100], capped at a[n - 1]. */
static inline u64 rcu_perf_percentile(const u64 *sorted, unsigned int n, unsigned int pct)
{
	unsigned long i = (unsigned long)n * pct / 100;

	return sorted[i < n ? i : n - 1];
}

/*
 * A boot-time performance test registers when it starts and reports when it
 * is finished. When the last registered test finishes and any of them asked
 * for a power-off (their "shutdown" parameters), the machine powers off, so
 * rcuperf and refscale in the same boot do not cut each other short.
 */
void rcu_perf_test_begin(void);
void rcu_perf_test_end(bool shutdown);

/* What a flavor offers rcuperf (rcuperf.perf_type), as Linux's struct rcu_scale_ops. */
struct rcu_perf_ops {
	const char *name;
	int (*readlock)(void);
	void (*readunlock)(int idx);
	unsigned long (*get_gp_seq)(void);	/* grace periods completed ("batches") */
	void (*async)(struct rcu_head *head, rcu_callback_t func);
	void (*gp_barrier)(void);
	void (*sync)(void);
	void (*exp_sync)(void);
};
/* rcuperf_rude.c: "tasks-rude" (CONFIG_TASKS_RUDE_RCU). */
extern const struct rcu_perf_ops tasks_rude_perf_ops;
/* rcuperf_trace.c: "tasks-tracing" (CONFIG_TASKS_TRACE_RCU). */
extern const struct rcu_perf_ops tasks_tracing_perf_ops;

#endif
