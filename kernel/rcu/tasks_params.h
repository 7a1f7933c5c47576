/*
 * The rcupdate.rcu_task_* parameters every Tasks RCU flavor shares
 * (tasks_params.c, built with CONFIG_TASKS_RCU_GENERIC), for the flavors
 * that read a variable directly. The stall timeout is read through
 * rcu_tasks_stall_timeout() (<rcu/tasks.h>), which tests use too.
 */
#ifndef _KERNEL_RCU_TASKS_PARAMS_H
#define _KERNEL_RCU_TASKS_PARAMS_H

/* rcupdate.rcu_task_ipi_delay: jiffies before a Tasks Trace grace period IPIs a running task. */
extern int rcu_task_ipi_delay;

#endif
