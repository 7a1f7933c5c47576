/*
 * Tasks Trace RCU's state shared by its two files: tasks_trace.c (readers'
 * slow paths, grace periods, the kthread) and tasks_trace_stall.c (stall
 * warnings, statistics, boot line).
 */
#ifndef _KERNEL_RCU_TASKS_TRACE_H
#define _KERNEL_RCU_TASKS_TRACE_H

#include <rcu/rcupdate_trace.h>
#include <sched/sched.h>
#include <locking/spinlock.h>
#include <kernel/percpu.h>
#include "tasks_cbs.h"
#include "tasks_params.h"	/* rcu_task_ipi_delay: every flavor has it, only this one uses it */

struct rcu_tasks_trace {
	struct rcu_tasks_cbs cbs;	/* callbacks queued, not yet taken by the kthread */
	struct task_struct *kthread;	/* set once, at early_initcall time */
	unsigned long init_fract;	/* first holdout-scan sleep, jiffies (grows by one to HZ) */

	/* Written by the kthread only; read locklessly for tests, reports and statistics. */
	unsigned long gp_start;		/* jiffies at the current grace period's start */
	unsigned long n_gps;		/* grace periods completed */
	u64 gp_ns_total, gp_ns_max;	/* their durations */
	unsigned long n_holdouts;	/* tasks on the holdout list now */
	unsigned long n_scans;		/* holdout rescans after the first, all grace periods */
	unsigned long n_ipis, n_ipis_fails;
	unsigned long n_ipi_readers;	/* readers the IPI handler asked to report (its CPUs only) */
	unsigned long n_heavy_reader_attempts, n_heavy_reader_updates;	/* READ_MB remote reads */
	unsigned long n_stalls;		/* stall warnings printed */
};
extern struct rcu_tasks_trace rcu_tasks_trace;
DECLARE_PER_CPU(bool, trc_ipi_to_cpu);

u8 trc_ld_need_qs(struct task_struct *t);
/* tasks_trace_stall.c */
void trc_show_stalled_task(struct task_struct *t, bool *firstreport);
void trc_show_stalled_ipis(bool firstreport);

#endif
