/*
 * printk with Linux's log levels and "[    0.123456] " timestamps. Each
 * call emits whole lines atomically with respect to other CPUs. A file may
 * #define pr_fmt(fmt) "rcu: " fmt before including this header.
 */
#ifndef _KERNEL_PRINTK_H
#define _KERNEL_PRINTK_H

#include <kernel/compiler.h>

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

__printf(1, 2) int printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list args);

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { if (0) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__); } while (0)

#define pr_info_once(fmt, ...) ({ static bool __p; if (!__p) { __p = true; pr_info(fmt, ##__VA_ARGS__); } })
#define pr_warn_once(fmt, ...) ({ static bool __p; if (!__p) { __p = true; pr_warn(fmt, ##__VA_ARGS__); } })

/* Log level: messages above it are not printed (the `loglevel=` parameter). */
extern int console_loglevel;
/* quiet and ignore_loglevel, once the command line is parsed (kernel/params.c). */
void printk_setup_params(void);

/*
 * Panic/NMI path: take the console even if another CPU holds its lock, so
 * the last words always come out.
 */
void console_force_unlock(void);
/*
 * End every line still held open by pr_cont() callers (kernel/printk/printk_cont.c)
 * and write it out: before power-off and at the end of a panic, when no
 * further piece will come.
 */
void printk_flush_lines(void);
/* Write raw text to every registered console (<kernel/console.h>), without the lock or timestamps. */
void console_write(const char *s, size_t len);
/* One line a user process wrote (len bytes, no '\n'): unstamped, never taken for a kernel line. */
void console_write_user_line(const char *s, size_t len);
/* Append printed text to the in-memory log that debuggers read (log_buf). */
void log_buf_store(const char *s, size_t len);
/* That log (kernel/printk/printk_log.c): global so that scripts/gdb reads them by name. */
extern char log_buf[];
extern unsigned long log_next;

#endif
