/*
 * The idle task's loop. With nothing to run, a CPU tells the tick code and
 * RCU it is going idle (the tick may stop: dyntick-idle), halts until an
 * interrupt, and comes back out; when a task becomes runnable, here or
 * waiting on a busy CPU's queue (balance.c), it schedules. CPU 0 also carries out a requested power-off here.
 */
#include "sched.h"
#include <kernel/context_tracking.h>
#include <time/tick.h>
#include <kernel/shutdown.h>
#include <kernel/reboot.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/sched_hooks.h>
#include <kernel/cpu.h>

void do_idle_loop(void)
{
	for (;;) {
		while (!need_resched()) {
			local_irq_disable();
			/* cpu_down() took this CPU out of the online mask: its last steps. */
			if (IS_ENABLED(CONFIG_HOTPLUG_CPU) && unlikely(!cpu_online(raw_smp_processor_id())))
				cpuhp_idle_dead();
			if (need_resched()) {
				local_irq_enable();
				break;
			}
			if (raw_smp_processor_id() == 0 && shutdown_requested()) {
				local_irq_enable();
				kernel_power_off();
			}
			/*
			 * A task waiting behind another CPU's current one: take it
			 * and run it. The tick may still be stopped from the last
			 * halt (no interrupt ended that idle with need_resched):
			 * restart it, as an ending halt would, or the task runs
			 * without one.
			 */
			if (sched_idle_balance()) {
				tick_nohz_idle_exit();
				local_irq_enable();
				break;
			}
			tick_nohz_idle_enter();
			ct_idle_enter();
			/*
			 * sti;hlt is atomic: a wakeup IPI arriving after the check
			 * still ends the halt. A wakeup made by the idle-entry hooks
			 * themselves (RCU's, after the check above) sends no IPI to
			 * this CPU: do not halt on it, the tick may be off for long.
			 */
			if (!need_resched())
				arch_safe_halt();
			local_irq_disable();
			ct_idle_exit();
			tick_nohz_idle_exit();
			local_irq_enable();
		}
		schedule();
	}
}

/* Each CPU's last step of boot: it becomes its idle task (sched_init/sched_init_ap made it). */
void cpu_startup_entry(void)
{
	local_irq_enable();
	do_idle_loop();
}
