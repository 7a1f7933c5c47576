/*
 * What the two halves of scftorture share: kernel/scftorture.c (parameters,
 * invoker kthreads, statistics, start and end) and kernel/scftorture_check.c
 * (one call, its handlers and their checks).
 */
#ifndef _KERNEL_SCFTORTURE_H
#define _KERNEL_SCFTORTURE_H

#include <kernel/torture.h>
#include <kernel/atomic.h>
#include <kernel/percpu.h>
#include <kernel/smp.h>

#define SCFTORT_STRING "scftorture"
#define SCFTORT_FLAG SCFTORT_STRING ": "

#define VERBOSE_SCFTORTOUT(s, x...) \
	do { if (verbose) pr_alert(SCFTORT_FLAG s "\n", ## x); } while (0)
#define VERBOSE_SCFTORTOUT_ERRSTRING(s, x...) \
	do { if (verbose) pr_alert(SCFTORT_FLAG "!!! " s "\n", ## x); } while (0)

/* The primitives, Linux's numbering; each but RESCHED and SINGLE_RPC has wait and no-wait forms. */
#define SCF_PRIM_RESCHED	0
#define SCF_PRIM_SINGLE		1
#define SCF_PRIM_SINGLE_RPC	2
#define SCF_PRIM_MANY		3
#define SCF_PRIM_ALL		4
#define SCF_NPRIMS		8

/* Cumulative weights: entry i is picked for a draw up to its scfs_weight. */
struct scf_selector {
	unsigned long scfs_weight;
	int scfs_prim;
	bool scfs_wait;
};
const struct scf_selector *scf_sel_rand(struct torture_random_state *trsp);

/* One invoker's counts (Linux's), written by it alone; *_ofl: the target was offline. */
struct scf_statistics {
	struct task_struct *task;
	int cpu;
	long long n_resched;
	long long n_single;
	long long n_single_ofl;
	long long n_single_rpc;
	long long n_single_rpc_ofl;
	long long n_single_wait;
	long long n_single_wait_ofl;
	long long n_many;
	long long n_many_wait;
	long long n_all;
	long long n_all_wait;
	/* Ours: no-wait single calls accepted, and their handlers run (on any CPU). */
	long long n_single_sent;
	atomic_long_t n_single_done;
};

extern struct scf_statistics *scf_stats_p;
/* Copies of scftorture.longwait, use_cpus_read_lock and nthreads (the thread count used). */
extern int scf_longwait, scf_nthreads;
extern bool scf_use_cpus_read_lock;
extern atomic_t scf_n_errs, scf_n_mb_in_errs, scf_n_mb_out_errs, scf_n_alloc_errs;
DECLARE_PER_CPU(atomic_long_t, scf_invoked_count);
DECLARE_PER_CPU(struct torture_random_state, scf_torture_rand);

/* Pick a primitive and call it once (scftorture_check.c). */
void scftorture_invoke_one(struct scf_statistics *scfp, struct torture_random_state *trsp);
/* At the end, every CPU flushed: count the no-wait single calls whose handler never ran. */
void scf_check_lost(void);
/* Our checks' counts, one "scftorture: ours: ..." line. */
void scf_print_ours(void);

#endif
