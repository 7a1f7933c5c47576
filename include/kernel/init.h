/*
 * Boot-time initcalls: functions registered with early_initcall(),
 * core_initcall(), device_initcall() or late_initcall() run once, in level
 * order, from start_kernel() after every CPU is online.
 */
#ifndef _KERNEL_INIT_H
#define _KERNEL_INIT_H

#include <kernel/compiler.h>

#define __init
#define __initdata

typedef int (*initcall_t)(void);
#define __define_initcall(fn, lvl) \
	static const initcall_t __initcall_##fn __used __section(".initcall" #lvl) = fn
#define early_initcall(fn)	__define_initcall(fn, 0)
#define core_initcall(fn)	__define_initcall(fn, 1)
#define device_initcall(fn)	__define_initcall(fn, 6)
#define late_initcall(fn)	__define_initcall(fn, 7)

/*
 * Where boot is: SYSTEM_BOOTING until init (pid 1) has run every initcall,
 * then SYSTEM_RUNNING (rcupdate.rcu_normal_after_boot keys off this).
 */
enum system_states { SYSTEM_BOOTING, SYSTEM_RUNNING, SYSTEM_POWER_OFF };
extern enum system_states system_state;

#endif
