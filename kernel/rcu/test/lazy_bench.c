/*
 * Lazy callbacks measured (CONFIG_RCU_LAZY with CONFIG_RCU_GP_BENCH), our
 * own boot benchmark: rcutree.lazy_bench=S runs, from a late initcall, a
 * trickle of call_rcu() callbacks that each free a kmalloc()'d object,
 * about 100 a second (one every 10 ms) from a kthread bound to CPU 1, for
 * S seconds, and prints
 *
 *   rcu-lazy-bench: lazy=L secs=S cbs=N invoked=I gps=G gps_per_s=R idle_cpu_irqs_per_s=W \
 *       cpuC=W ... held_at_end=H
 *
 * L: rcutree.enable_rcu_lazy; N callbacks queued, I of them invoked
 * during the window; G grace periods completed; W: local-timer,
 * reschedule and function-call interrupts per second, summed over the
 * CPUs other than CPU 1 (their wakeups: with NO_HZ_IDLE an idle CPU takes
 * an interrupt only when something wants it), then per CPU. Boot it with
 * rcu_nocbs= covering CPU 1 (the benchmark skips otherwise) and compare
 * rcutree.enable_rcu_lazy=0 and =1. Then rcu_barrier(), and power-off.
 * A benchmark, not a test: nothing here passes or fails.
 */
#define pr_fmt(fmt) "rcu-lazy-bench: " fmt
#define KPARAM_SUBSYS "rcu"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include "../tree.h"	/* Tree-only (test/Kbuild): reads rcu_state and rcu_data */
#include <rcu/rcupdate.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/irq.h>
#include <kernel/shutdown.h>
#include <kernel/init.h>
#include <kernel/errno.h>
#include <kernel/smp.h>
#include <mm/slab.h>
#include <time/time.h>
#include <time/delay.h>
#include <sched/kthread.h>

#define LB_CPU		1	/* the trickling CPU */
#define LB_PERIOD_MS	10	/* one callback per period: ~100/s */

static int lazy_bench;
KPARAM("rcutree.lazy_bench", lazy_bench, KPARAM_INT, 0, 600,
       "seconds of the lazy-callback benchmark (100 call_rcu()/s from CPU 1); 0: off");

struct lb_obj {
	struct rcu_head rh;
	char payload[48];
};

static atomic_t lb_invoked;

static void lb_free(struct rcu_head *rhp)
{
	atomic_inc(&lb_invoked);
	kfree(container_of(rhp, struct lb_obj, rh));
}

static unsigned long lb_irqs(unsigned int cpu)
{
	struct irq_stat *st = per_cpu_ptr(&irq_stat, cpu);

	return (unsigned long)READ_ONCE(st->local_timer) + READ_ONCE(st->resched) +
	       READ_ONCE(st->call_function);
}

static int lb_thread(void *unused)
{
	unsigned long irqs0[NR_CPUS], t0, gp0, n = 0, total = 0, gps;
	unsigned int cpu, secs = lazy_bench;
	char buf[256];
	int len = 0, inv;

	for_each_online_cpu(cpu)
		irqs0[cpu] = lb_irqs(cpu);
	atomic_set(&lb_invoked, 0);
	gp0 = READ_ONCE(rcu_state.gp_seq);	/* raw: the counter starts near its wrap */
	t0 = jiffies;
	while (time_before(jiffies, t0 + secs * HZ)) {
		struct lb_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

		if (o) {
			call_rcu(&o->rh, lb_free);
			n++;
		}
		msleep(LB_PERIOD_MS);
	}
	inv = atomic_read(&lb_invoked);
	gps = (READ_ONCE(rcu_state.gp_seq) - gp0) >> RCU_SEQ_CTR_SHIFT;	/* +-1: phase bits */
	for_each_online_cpu(cpu) {
		unsigned long d = lb_irqs(cpu) - irqs0[cpu];

		if (cpu == LB_CPU)
			continue;
		total += d;
		len += snprintf(buf + len, sizeof(buf) - len, " cpu%u=%lu.%02lu", cpu, d / secs,
				(d * 100 / secs) % 100);
	}
	pr_info("lazy=%d secs=%u cbs=%lu invoked=%d gps=%lu gps_per_s=%lu.%02lu idle_cpu_irqs_per_s=%lu.%02lu%s held_at_end=%ld\n",
		rcu_lazy_enabled(), secs, n, inv, gps, gps / secs, (gps * 100 / secs) % 100,
		total / secs, (total * 100 / secs) % 100, buf,
		rcu_lazy_held_len(per_cpu_ptr(&rcu_data, LB_CPU)));
	rcu_barrier();
	shutdown_request();	/* a benchmark boot: done */
	return 0;
}

static int rcu_lazy_bench_run(void)
{
	struct task_struct *t;

	if (!lazy_bench)
		return 0;
	if (!cpu_online(LB_CPU) || !rcu_rdp_is_offloaded(per_cpu_ptr(&rcu_data, LB_CPU))) {
		pr_info("skipped: CPU %d is not an online offloaded CPU (rcu_nocbs=)\n", LB_CPU);
		return 0;
	}
	t = kthread_create_on_cpu(lb_thread, NULL, LB_CPU, "rcu_lazy_bench/%u");
	if (!t) {
		pr_err("cannot create the benchmark kthread\n");
		return -ENOMEM;
	}
	wake_up_process(t);
	return 0;
}
late_initcall(rcu_lazy_bench_run);
