/*
 * printk: formats into a per-call buffer, prefixes each line with a
 * "[    0.123456] " timestamp and writes whole lines under the console lock,
 * so lines from different CPUs never interleave. The lock knows its owner:
 * a nested printk on the same CPU (an NMI or a fault inside printk) writes
 * straight through instead of deadlocking, and panic can break the lock.
 */
#include <kernel/printk.h>
#include <kernel/console.h>
#include <kernel/sprintf.h>
#include <kernel/string.h>
#include <time/time.h>
#include <kernel/smp.h>
#include <kernel/atomic.h>
#include <kernel/irqflags.h>
#include <kernel/param.h>

#define PRINTK_LINE_MAX	1024

int console_loglevel = 7;	/* print everything but KERN_DEBUG */
KPARAM("loglevel", console_loglevel, KPARAM_INT, 0, 8,
       "console log level: messages with a level >= this are not shown");

static int console_owner = -1;	/* CPU holding the console, -1 if free */
static bool console_line_open;	/* last output did not end with '\n' */

void console_write(const char *s, size_t len)
{
	serial8250_write(s, len);
}

/* What printk prints goes to the console and to the in-memory log (kernel/printk_log.c). */
static void emit(const char *s, size_t len)
{
	log_buf_store(s, len);
	console_write(s, len);
}

void console_force_unlock(void)
{
	WRITE_ONCE(console_owner, -1);
}

/* Returns false when this CPU already owns the console (nested call). */
static bool console_lock(void)
{
	int me = raw_smp_processor_id();
	int owner = -1;

	if (READ_ONCE(console_owner) == me)
		return false;
	while (!__atomic_compare_exchange_n(&console_owner, &owner, me, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		owner = -1;
		cpu_relax();
	}
	return true;
}

static void console_unlock(void)
{
	__atomic_store_n(&console_owner, -1, __ATOMIC_RELEASE);
}

static int printk_level(const char **fmt)
{
	int level = 4;	/* default_message_loglevel, as in Linux */
	const char *f = *fmt;

	while (f[0] == KERN_SOH[0] && f[1]) {
		if (f[1] >= '0' && f[1] <= '7')
			level = f[1] - '0';
		else if (f[1] == 'c')
			level = -1;	/* continuation */
		f += 2;
	}
	*fmt = f;
	return level;
}

static void emit_timestamp(void)
{
	char ts[32];
	u64 ns = local_clock();
	int n = snprintf(ts, sizeof(ts), "[%5llu.%06llu] ",
			 (unsigned long long)(ns / NSEC_PER_SEC),
			 (unsigned long long)(ns % NSEC_PER_SEC / 1000));
	emit(ts, n);
}

int vprintk(const char *fmt, va_list args)
{
	char buf[PRINTK_LINE_MAX];
	int level = printk_level(&fmt);
	int len = vscnprintf(buf, sizeof(buf), fmt, args);
	unsigned long flags;
	bool locked;

	if (level >= console_loglevel)
		return len;
	local_irq_save(flags);
	locked = console_lock();
	for (int pos = 0; pos < len;) {
		int end = pos;

		while (end < len && buf[end] != '\n')
			end++;
		if (end < len)
			end++;	/* include the newline */

		if (!console_line_open)
			emit_timestamp();
		else if (level >= 0 && pos == 0)
			emit("\n", 1), emit_timestamp();
		emit(buf + pos, end - pos);
		console_line_open = buf[end - 1] != '\n';
		pos = end;
	}
	if (locked)
		console_unlock();
	local_irq_restore(flags);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vprintk(fmt, ap);
	va_end(ap);
	return r;
}
