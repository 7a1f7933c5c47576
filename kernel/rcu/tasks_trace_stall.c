/*
 * Tasks Trace RCU's reports: the stall warning (Linux's words and line
 * format), the shutdown statistics line and the boot banner's line. The
 * stall timeout is rcupdate.rcu_task_stall_timeout, shared by every Tasks
 * flavor as in Linux (tasks_params.c). No "rcu: " prefix: Linux prints
 * these from update.c, which has none.
 */
#include "tasks_trace.h"
#include <rcu/tasks.h>
#include <sched/isolation.h>
#include <kernel/printk.h>
#include <kernel/cpu.h>
#include <time/time.h>

int rcu_tasks_trace_stall_timeout(void)
{
	return rcu_tasks_stall_timeout();
}

struct trc_stall_chk_rdr {
	int nesting;
	int ipi_to_cpu;
	u8 needqs;
};

/* task_call_func() callback: read a task that is not running; decline (0) if it runs. */
static int trc_check_slow_task(struct task_struct *t, void *arg)
{
	struct trc_stall_chk_rdr *r = arg;

	if (task_curr(t) && cpu_online(task_cpu(t)))
		return 0;
	r->nesting = READ_ONCE(t->trc_reader_nesting);
	r->ipi_to_cpu = READ_ONCE(t->trc_ipi_to_cpu);
	r->needqs = trc_ld_need_qs(t);
	return 1;
}

/*
 * One holdout, in Linux's format: "P<pid>: " then I (IPI in flight),
 * i (idle task), N (nohz_full CPU), B (on a blocked-readers list), the
 * nesting, need_qs as ' ' none, '!' asked, 'C' checked, 'N' both, and its
 * CPU. A running task is not read: pid and the first two flags only.
 */
void trc_show_stalled_task(struct task_struct *t, bool *firstreport)
{
	struct trc_stall_chk_rdr r;
	int cpu = task_cpu(t);
	bool idle = is_idle_task(t);

	if (*firstreport) {
		pr_err("INFO: rcu_tasks_trace detected stalls on tasks:\n");
		*firstreport = false;
	}
	if (!task_call_func(t, trc_check_slow_task, &r))
		pr_alert("P%d: %c%c\n", t->pid, ".I"[READ_ONCE(t->trc_ipi_to_cpu) >= 0], ".i"[idle]);
	else
		pr_alert("P%d: %c%c%c%c nesting: %d%c%c cpu: %d%s\n", t->pid,
			 ".I"[r.ipi_to_cpu >= 0], ".i"[idle], ".N"[tick_nohz_full_cpu(cpu)],
			 ".B"[!!READ_ONCE(t->trc_reader_special.b.blocked)], r.nesting,
			 " !CN"[r.needqs & 0x3], " ?"[r.needqs > 0x3], cpu,
			 cpu_online(cpu) ? "" : "(offline)");
	sched_show_task(t);
}

/* After a scan that was due to report: the CPUs an IPI is still outstanding to. */
void trc_show_stalled_ipis(bool firstreport)
{
	int cpu;

	if (firstreport)
		pr_err("INFO: rcu_tasks_trace detected stalls? (Late IPI?)\n");
	for_each_possible_cpu(cpu)
		if (READ_ONCE(per_cpu(trc_ipi_to_cpu, cpu)))
			pr_alert("\tIPI outstanding to CPU %d\n", cpu);
}

unsigned long rcu_tasks_trace_gp_completed(void)
{
	return READ_ONCE(rcu_tasks_trace.n_gps);
}

unsigned long rcu_tasks_trace_stall_warnings(void)
{
	return READ_ONCE(rcu_tasks_trace.n_stalls);
}

unsigned long rcu_tasks_trace_ipis(void)
{
	return READ_ONCE(rcu_tasks_trace.n_ipis);
}

unsigned long rcu_tasks_trace_ipi_readers(void)
{
	return READ_ONCE(rcu_tasks_trace.n_ipi_readers);
}

void rcu_tasks_trace_bootup_oddness(void)
{
	pr_info("\tTracing variant of Tasks RCU enabled.\n");
}

void rcu_tasks_trace_show_stats(void)
{
	unsigned long n = READ_ONCE(rcu_tasks_trace.n_gps);

	pr_info("rcu_tasks_trace: %lu grace periods, mean %llu ms, longest %llu ms, %lu rescans, %lu IPIs (%lu failed, %lu found readers), h:%lu/%lu, %lu stall warnings, %lu callbacks invoked\n",
		n, n ? rcu_tasks_trace.gp_ns_total / n / NSEC_PER_MSEC : 0,
		rcu_tasks_trace.gp_ns_max / NSEC_PER_MSEC, rcu_tasks_trace.n_scans,
		rcu_tasks_trace.n_ipis, rcu_tasks_trace.n_ipis_fails, rcu_tasks_trace.n_ipi_readers,
		rcu_tasks_trace.n_heavy_reader_updates, rcu_tasks_trace.n_heavy_reader_attempts,
		rcu_tasks_trace.n_stalls, rcu_tasks_trace.cbs.n_invoked);
}
