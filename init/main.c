/*
 * start_kernel(): the boot sequence in one straight line, from the boot
 * CPU's first C code (after arch setup.c) to every CPU idling.
 */
#include <kernel/user.h>
#include <kernel/boot.h>
#include <kernel/arch_setup.h>
#include <kernel/printk.h>
#include <kernel/param.h>
#include <sched/isolation.h>
#include <mm/mm.h>
#include <kernel/percpu.h>
#include <kernel/smp.h>
#include <kernel/init.h>
#include <kernel/irqflags.h>
#include <kernel/sched_hooks.h>
#include <time/timer.h>
#include <kernel/ktap.h>
#include <kernel/kallsyms.h>
#include <kernel/kcsan.h>
#include <kernel/debugobjects.h>
#include <rcu/rcupdate.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include <kernel/processor.h>
#include <kernel/monitor.h>

#define BOOT_CPU_STACK_SIZE	(16 * 1024)
static void *boot_cpu_stack;
enum system_states system_state = SYSTEM_BOOTING;

extern const initcall_t __start_initcalls[], __stop_initcalls[];

static void do_initcalls(void)
{
	for (const initcall_t *fn = __start_initcalls; fn < __stop_initcalls; fn++)
		(*fn)();
}

static void start_kernel_rest(void);

/* The banner's build flags, as Linux's UTS_VERSION has them ("SMP PREEMPT"): what was built. */
#ifdef CONFIG_SMP
#define BANNER_SMP " SMP"
#else
#define BANNER_SMP ""
#endif
#ifdef CONFIG_PREEMPT
#define BANNER_PREEMPT " PREEMPT"
#else
#define BANNER_PREEMPT ""
#endif

void start_kernel(void)
{
	kallsyms_init();	/* before anything can print a %pS */
	printk(KERN_NOTICE "rcukernel version 0.1 (gcc " __VERSION__ ") x86_64" BANNER_SMP BANNER_PREEMPT "\n");
	printk(KERN_INFO "Command line: %s\n", boot_info.cmdline);
	printk(KERN_INFO "Boot loader: %s, machine: %s\n", boot_info.loader, arch_machine_name());
	arch_early_setup();
	parse_boot_params();
	mm_init();
	setup_per_cpu_areas();
	debug_objects_early_init();	/* its pool's per-CPU caches need the areas */
	/* Leave the boot stack (in .bss, unguarded) for one with a guard page. */
	arch_run_on_stack(alloc_kernel_stack(BOOT_CPU_STACK_SIZE, &boot_cpu_stack), start_kernel_rest);
}

/*
 * pid 1: brings up the other CPUs and runs the initcalls, as Linux's
 * kernel_init does, then exits; the boot phase ends with it.
 */
static int kernel_init(void *unused)
{
	rcu_init_kthreads();
	smp_init();
	kcsan_init();		/* every CPU has its per-CPU area now; a no-op without KCSAN */
	smp_measure_ipi_rtt();
	/* Every CPU is up: boot-time RCU expediting ends here, before the initcalls (update.c). */
	rcu_end_inkernel_boot();
	do_initcalls();
	ktap_run_suites();
	system_state = SYSTEM_RUNNING;
	user_mode_start();		/* init= and user.run= programs */
	console_monitor_start();	/* the console prompt, once boot is over */
	return 0;
}

static void start_kernel_rest(void)
{
	housekeeping_init();	/* nohz_full=: before the first kthread and rcu_init() */
	sched_isolation_init();	/* isolcpus= */
	sched_init();
	rcu_init();
	timers_init();
	arch_boot_cpu_init();
	local_irq_enable();
	if (!kthread_run(kernel_init, NULL, "init"))
		panic("cannot start init");
	cpu_startup_entry();
}
