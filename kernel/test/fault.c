/*
 * test_fault=<kind>: a test-only parameter that provokes a failure once
 * boot is complete, so the test suite can check the exception, BUG, WARN
 * and panic paths end to end. Kinds: null, pf, ud, gp, bug, warn, panic,
 * stack (overflow into the guard page), lock (spinlock recursion, caught
 * with CONFIG_DEBUG_SPINLOCK), csd (a cross call another CPU answers only
 * after 300 ms with interrupts off: with smp.csd_lock_timeout=100, Linux's
 * "csd: Detected non-responsive CSD lock" report, which then resolves).
 */
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include <kernel/param.h>
#include <kernel/init.h>
#include <kernel/bug.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <locking/spinlock.h>
#include <kernel/smp.h>
#include <kernel/cpumask.h>
#include <kernel/preempt.h>
#include <time/delay.h>
#include <time/time.h>

static char test_fault[16];
KPARAM("test_fault", test_fault, KPARAM_STRING, 0, 0,
       "test only: provoke null|pf|ud|gp|bug|warn|panic|stack|lock|csd after boot");

/* Recurses until the stack runs into its guard page (the limit is never reached). */
static __noinline int recurse_deep(int depth, int limit)
{
	volatile char pad[256];

	pad[0] = (char)depth;
	if (depth >= limit)
		return pad[0];
	return recurse_deep(depth + 1, limit) + pad[0];
}

/* Runs in the target's cross-call handler: interrupts stay off throughout. */
static void test_fault_irqs_off(void *unused)
{
	mdelay(300);
}

static void test_fault_nop(void *unused)
{
}

/* Keep another CPU's handler busy, then wait for a second call behind it. */
static int test_fault_csd(void)
{
	u64 start = local_clock();
	int me, cpu;

	preempt_disable();
	me = smp_processor_id();
	for_each_online_cpu(cpu)
		if (cpu != me)
			break;
	if (cpu >= (int)nr_cpu_ids) {
		preempt_enable();
		pr_warn("test_fault: csd needs a second CPU\n");
		return 0;
	}
	smp_call_function_single(cpu, test_fault_irqs_off, NULL, 0);
	smp_call_function_single(cpu, test_fault_nop, NULL, 1);
	preempt_enable();
	pr_info("test_fault: csd: CPU %d answered after %llu ms\n", cpu,
		(unsigned long long)((local_clock() - start) / NSEC_PER_MSEC));
	return 0;
}

static int test_fault_run(void)
{
	const char *k = test_fault;

	if (!k[0])
		return 0;
	pr_info("test_fault: provoking '%s'\n", k);
	if (!strcmp(k, "null"))
		return *(volatile int *)8;
	if (!strcmp(k, "pf"))
		return *(volatile int *)0x100000000000UL;	/* canonical, never mapped */
	if (!strcmp(k, "gp"))
		return *(volatile int *)0xdead000000000000UL;	/* non-canonical */
	if (!strcmp(k, "ud"))
		__builtin_trap();
	if (!strcmp(k, "bug"))
		BUG();
	if (!strcmp(k, "warn")) {
		WARN_ON(1);
		return 0;
	}
	if (!strcmp(k, "panic"))
		panic("test_fault=panic");
	if (!strcmp(k, "stack"))
		return recurse_deep(0, 1 << 30);
	if (!strcmp(k, "lock")) {
		static DEFINE_SPINLOCK(test_lock);

		spin_lock(&test_lock);
		spin_lock(&test_lock);	/* recursion: DEBUG_SPINLOCK reports it, else we hang */
		spin_unlock(&test_lock);
		spin_unlock(&test_lock);
		return 0;
	}
	if (!strcmp(k, "csd"))
		return test_fault_csd();
	pr_warn("test_fault: unknown kind '%s'\n", k);
	return 0;
}
late_initcall(test_fault_run);
