/*
 * BUG_ON/WARN_ON and friends. A BUG prints "kernel BUG at file:line!", a
 * register dump and a backtrace, then panics. A WARN prints Linux's
 * "WARNING: CPU: N PID: ... at file:line func" block and a backtrace and
 * carries on; the _ONCE variants warn at most once per call site.
 */
#ifndef _KERNEL_BUG_H
#define _KERNEL_BUG_H

#include <kernel/compiler.h>
#include <kernel/printk.h>

__noreturn __printf(1, 2) void panic(const char *fmt, ...);
__noreturn void __bug(const char *file, int line, const char *func);
void __warn(const char *file, int line, const char *func, const char *cond);
/*
 * Print a frame-pointer backtrace of the current context ("Call Trace:").
 * Arch contract (arch/x86_64/kernel/traps.c); the wrapper is inlined, so
 * the trace starts at dump_stack()'s caller, as before.
 */
void arch_dump_stack(void);
static __always_inline void dump_stack(void) { arch_dump_stack(); }

#define BUG() __bug(__FILE__, __LINE__, __func__)
#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)
#define WARN_ON(cond) ({							\
	bool __ret = !!(cond);							\
	if (unlikely(__ret))							\
		__warn(__FILE__, __LINE__, __func__, #cond);			\
	unlikely(__ret); })
#define WARN_ON_ONCE(cond) ({							\
	static bool __warned;							\
	bool __ret = !!(cond);							\
	if (unlikely(__ret) && !__warned) {					\
		__warned = true;						\
		__warn(__FILE__, __LINE__, __func__, #cond);			\
	}									\
	unlikely(__ret); })
#define WARN(cond, fmt, ...) ({							\
	bool __ret = !!(cond);							\
	if (unlikely(__ret)) {							\
		printk(KERN_WARNING fmt, ##__VA_ARGS__);			\
		__warn(__FILE__, __LINE__, __func__, #cond);			\
	}									\
	unlikely(__ret); })
#define WARN_ONCE(cond, fmt, ...) ({						\
	static bool __warned;							\
	bool __ret = !!(cond);							\
	if (unlikely(__ret) && !__warned) {					\
		__warned = true;						\
		printk(KERN_WARNING fmt, ##__VA_ARGS__);			\
		__warn(__FILE__, __LINE__, __func__, #cond);			\
	}									\
	unlikely(__ret); })

#endif
