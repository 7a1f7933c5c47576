/*
 * The kernel monitor (CONFIG_KERNEL_MONITOR, drivers/tty/monitor.c): a
 * command prompt on the serial console, started by init once boot is over.
 */
#ifndef _KERNEL_MONITOR_H
#define _KERNEL_MONITOR_H

#ifdef CONFIG_KERNEL_MONITOR
/* Start the monitor kthread and print "Kernel monitor ready: type 'help'". */
void console_monitor_start(void);
#else
static inline void console_monitor_start(void) { }
#endif

#endif
