/*
 * The kernel log in memory: every byte printk writes to the console is
 * also kept here, in a ring of the last LOG_BUF_LEN bytes, so that a
 * debugger attached to a stopped guest can read what was printed
 * (scripts/gdb/rcukernel.py's lx-dmesg, as Linux's log_buf serves
 * Linux's). Written under printk's console lock; a nested printk (NMI,
 * fault inside printk) may interleave its bytes, as on the console.
 */
#include <kernel/printk.h>
#include <kernel/compiler.h>
#include <kernel/barrier.h>

#define LOG_BUF_SHIFT	15
#define LOG_BUF_LEN	(1UL << LOG_BUF_SHIFT)

/* Not static and not renamed lightly: the gdb scripts read them by name. */
char log_buf[LOG_BUF_LEN];
unsigned long log_next;		/* bytes ever stored; the next goes to log_next % LOG_BUF_LEN */

void log_buf_store(const char *s, size_t len)
{
	unsigned long next = log_next;

	for (size_t i = 0; i < len; i++)
		log_buf[(next + i) & (LOG_BUF_LEN - 1)] = s[i];
	/* The bytes before the count: a reader that sees the count sees them (gdb stops all CPUs anyway). */
	smp_wmb();
	WRITE_ONCE(log_next, next + len);
}
