/*
 * The few scheduler facts that low-level code (panic, WARN, exception
 * dumps) prints: the current task's pid and name. Until the scheduler
 * exists these describe the per-CPU boot/idle context ("swapper/N").
 */
#ifndef _KERNEL_SCHED_HOOKS_H
#define _KERNEL_SCHED_HOOKS_H

int sched_current_pid(void);
const char *sched_current_comm(void);
/* Each CPU's final step of boot: the idle loop. Never returns. */
void cpu_startup_entry(void) __attribute__((noreturn));
/* The reschedule IPI's hook into the scheduler. */
void scheduler_ipi(void);

#endif
