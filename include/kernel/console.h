/*
 * Consoles: the devices printk writes to, in Linux's shape. A driver
 * describes its device with a struct console and registers it from its
 * console_initcall(); printk (kernel/printk/) then writes every line to
 * every registered console and knows none by name. The console
 * initcalls run from console_init(), which the arch calls before its
 * first printk, so the kernel's first line already has a console.
 */
#ifndef _KERNEL_CONSOLE_H
#define _KERNEL_CONSOLE_H

#include <kernel/types.h>
#include <kernel/compiler.h>

/* struct console's flags, Linux's names and meanings. */
#define CON_ENABLED	4	/* registered and written to */

struct console {
	char name[16];		/* "ttyS": with index, what console= names ("ttyS0") */
	/*
	 * Write len bytes, '\n' as a line end. Called with interrupts off,
	 * from any context, NMI and panic included, and in panic without the
	 * console lock: it must not sleep, take locks or allocate, and must
	 * give up rather than wait forever on missing hardware.
	 */
	void (*write)(struct console *con, const char *s, unsigned int len);
	/* Optional: wait (bounded) until written bytes have left the device, before power-off. */
	void (*flush)(struct console *con);
	/*
	 * Optional: console=<name><index>,<options> named this console; apply
	 * the options (after the command line is parsed). A bad value is the
	 * driver's to report; the return is 0 or -EINVAL.
	 */
	int (*setup)(struct console *con, const char *options);
	short flags;		/* CON_*, set by register_console() */
	short index;		/* ttyS0's 0 */
	struct console *next;	/* the registered list, kernel/printk/console.c */
};

/*
 * Add con to the consoles printk writes to (con must stay allocated for
 * good: a panic writer may still be using it after unregister_console()).
 */
void register_console(struct console *con);
/* Stop writing to con; 0, or -ENODEV if it was not registered. */
int unregister_console(struct console *con);

/*
 * A driver's console registration, run by console_init() (Linux's
 * console_initcall(), its own linker section): before start_kernel(),
 * with interrupts off, on the boot CPU, before any other initcall.
 */
typedef int (*console_initcall_t)(void);
#define console_initcall(fn) \
	static const console_initcall_t __con_initcall_##fn __used \
		__section(".con_initcall.init") = fn
/* Run every console_initcall(); the arch calls it before its first printk. */
void console_init(void);

/* console=<name><index>[,options], once the command line is parsed (kernel/params.c). */
void console_setup_params(void);
/* Every console's flush(): the last line out before the machine powers off. */
void console_flush(void);

#endif
