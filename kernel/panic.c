/*
 * panic(), BUG and WARN reporting, and the orderly power-off path. Output
 * follows Linux: "Kernel panic - not syncing: ...", "kernel BUG at ...",
 * "WARNING: CPU: N PID: P at file:line func", "reboot: Power down".
 */
#include <kernel/user.h>
#include <kernel/bug.h>
#include <kernel/printk.h>
#include <kernel/console.h>
#include <locking/lockdep.h>
#include <kernel/sprintf.h>
#include <kernel/smp.h>
#include <kernel/irq.h>
#include <kernel/irqflags.h>
#include <kernel/reboot.h>
#include <time/time.h>
#include <kernel/sched_hooks.h>
#include <mm/mm.h>
#include <rcu/rcupdate.h>
#include <rcu/hooks.h>
#include <kernel/cpu.h>
#include <rcu/trace.h>
#include <kernel/debugobjects.h>
#include <kernel/kcsan.h>
#include <time/tick.h>

static int panic_cpu = -1;
static bool test_failed;
static int warn_count;

void kernel_note_test_failure(void)
{
	WRITE_ONCE(test_failed, true);
}

void panic(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int me, old = -1;

	local_irq_disable();
	me = raw_smp_processor_id();
	/* Only the first CPU to panic reports; others wait here for the stop. */
	if (!__atomic_compare_exchange_n(&panic_cpu, &old, me, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && old != me)
		for (;;)
			arch_halt();
	console_force_unlock();
	va_start(ap, fmt);
	vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", buf);
	if (old != me) {
		dump_stack();
		smp_send_stop();
		rcu_trace_panic_dump();		/* ftrace_dump_on_oops (RCU_TRACE) */
	}
	printk_flush_lines();	/* lines other CPUs left open stop here */
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", buf);
	console_flush();	/* the last line out of the device before the power goes */
	arch_power_off(POWEROFF_PANIC);
}

void __bug(const char *file, int line, const char *func)
{
	printk(KERN_EMERG "kernel BUG at %s:%d!\n", file, line);
	panic("BUG in %s", func);
}

void __warn(const char *file, int line, const char *func, const char *cond)
{
	warn_count++;
	printk(KERN_WARNING "------------[ cut here ]------------\n");
	printk(KERN_WARNING "WARNING: CPU: %d PID: %d at %s:%d %pS\n",
	       raw_smp_processor_id(), sched_current_pid(), file, line,
	       __builtin_return_address(0));
	dump_stack();
	printk(KERN_WARNING "---[ end trace %016x ]---\n", warn_count);
}

static void __noreturn power_off(enum poweroff_status status)
{
	u64 ns = local_clock();

	show_interrupts();
	mm_show_stats();
	rcu_show_stats();
	rcu_check_cb_accounting();	/* queued = invoked + pending per CPU, across hotplug */
	cpuhp_show_stats();
	user_mode_show_stats();
	debug_objects_show_stats();
	lockdep_show_stats();
	kcsan_show_stats();		/* CONFIG_KCSAN: watchpoints set, races found */
	rcu_trace_shutdown_dump();	/* rcutree.trace_dump_at_shutdown=1 (RCU_TRACE) */
	tick_show_jiffies();
	tick_show_stats();
	tick_nohz_full_show_stats();	/* CONFIG_NO_HZ_FULL: busy tick stops per nohz_full CPU */
	printk(KERN_INFO "Uptime: %llu.%03llu seconds\n",
	       (unsigned long long)(ns / NSEC_PER_SEC),
	       (unsigned long long)(ns % NSEC_PER_SEC / NSEC_PER_MSEC));
	smp_send_stop();
	printk_flush_lines();	/* lines the stopped CPUs left open */
	printk(KERN_EMERG "reboot: Power down\n");
	console_flush();
	arch_power_off(status);
}

void kernel_power_off(void)
{
	power_off(READ_ONCE(test_failed) ? POWEROFF_TEST_FAILED : POWEROFF_OK);
}

void kernel_power_off_failed(void)
{
	power_off(POWEROFF_TEST_FAILED);
}
