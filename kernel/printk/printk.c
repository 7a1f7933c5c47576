/*
 * printk: formats into a per-call buffer, prefixes each line with a
 * "[    0.123456] " timestamp and writes whole lines under the console lock,
 * so lines from different CPUs never interleave; a line built from several
 * calls (pr_cont()) is held per caller until it ends (printk_cont.c),
 * so it stays whole too. The consoles and their lock are console.c's;
 * printk knows none by name. The lock knows its owner: a nested printk on the
 * same CPU (an NMI or a fault inside printk) writes straight through
 * instead of deadlocking, and panic can break the lock.
 */
#include <kernel/printk.h>
#include <kernel/printk_cont.h>
#include <kernel/sprintf.h>
#include <kernel/string.h>
#include <time/time.h>
#include <kernel/smp.h>
#include <kernel/atomic.h>
#include <kernel/irqflags.h>
#include <kernel/param.h>
#include <kernel/preempt.h>
#include <sched/task.h>
#include "internal.h"

#define PRINTK_LINE_MAX	1024

int console_loglevel = 7;	/* print everything but KERN_DEBUG */
KPARAM("loglevel", console_loglevel, KPARAM_INT, 0, 8,
       "console log level: messages with a level >= this are not shown");
/* Linux's CONSOLE_LOGLEVEL_QUIET: errors and more urgent only (KERN_WARNING is 4). */
#define CONSOLE_LOGLEVEL_QUIET	4
static bool quiet;
KPARAM_BOOL("quiet", quiet, "console log level 4 (errors and more urgent only), unless loglevel= is given");
static bool ignore_loglevel;
KPARAM_BOOL("ignore_loglevel", ignore_loglevel,
	    "print every message on the console whatever the log level");

/*
 * After the command line is parsed. Linux applies quiet and loglevel= in
 * command-line order; here loglevel= wins whatever the order (each keeps
 * only its last value, not its place).
 */
void printk_setup_params(void)
{
	if (quiet && !kparam_given("loglevel"))
		console_loglevel = CONSOLE_LOGLEVEL_QUIET;
	if (ignore_loglevel)
		printk(KERN_INFO "debug: ignoring loglevel setting.\n");
}

/* What printk prints goes to the consoles and to the in-memory log (printk_log.c). */
static void emit(const char *s, size_t len)
{
	log_buf_store(s, len);
	console_write(s, len);
}

/*
 * Callers whose open line (no '\n' yet) was below the log level: their
 * continuations (pr_cont()) are dropped too. A few slots, reused in turn;
 * updated under the console lock.
 */
#define DROPPED_OPEN_SLOTS	8
static unsigned long dropped_open[DROPPED_OPEN_SLOTS];
static unsigned int nr_dropped_open, dropped_open_next;

static bool dropped_open_line(unsigned long caller)
{
	for (unsigned int i = 0; i < DROPPED_OPEN_SLOTS; i++)
		if (dropped_open[i] == caller)
			return true;
	return false;
}

static void note_dropped_open_line(unsigned long caller, bool dropped)
{
	for (unsigned int i = 0; i < DROPPED_OPEN_SLOTS; i++)
		if (dropped_open[i] == caller) {
			if (!dropped) {
				dropped_open[i] = 0;
				WRITE_ONCE(nr_dropped_open, nr_dropped_open - 1);
			}
			return;
		}
	if (!dropped)
		return;
	if (!dropped_open[dropped_open_next])
		WRITE_ONCE(nr_dropped_open, nr_dropped_open + 1);
	dropped_open[dropped_open_next] = caller;
	dropped_open_next = (dropped_open_next + 1) % DROPPED_OPEN_SLOTS;
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

static void emit_timestamp(u64 ns)
{
	char ts[32];
	int n = snprintf(ts, sizeof(ts), "[%5llu.%06llu] ",
			 (unsigned long long)(ns / NSEC_PER_SEC),
			 (unsigned long long)(ns % NSEC_PER_SEC / 1000));
	emit(ts, n);
}

static const struct printk_sink console_sink = {
	.write = emit,
	.timestamp = emit_timestamp,
};

/*
 * Whose line a continuation belongs to, as Linux's caller id: the task in
 * task context (it may move between CPUs between two pieces), the CPU in
 * an interrupt or before the first task runs. Task pointers are even, so
 * the odd CPU ids never collide with them.
 */
static unsigned long printk_caller(void)
{
	struct task_struct *t = in_task() ? current : NULL;

	return t ? (unsigned long)t : 1 | ((unsigned long)raw_smp_processor_id() << 1);
}

int vprintk(const char *fmt, va_list args)
{
	char buf[PRINTK_LINE_MAX];
	int level = printk_level(&fmt);
	int len = vscnprintf(buf, sizeof(buf), fmt, args);
	unsigned long flags, caller;
	bool drop = level >= console_loglevel && !READ_ONCE(ignore_loglevel);
	bool open = !len || buf[len - 1] != '\n';
	u64 now;

	/* Not printed, and not logged either: the log holds what the console showed. */
	if (drop && !open && !READ_ONCE(nr_dropped_open))
		return len;
	caller = printk_caller();
	local_irq_save(flags);
	now = local_clock();
	if (console_lock()) {
		/* A continuation shares the fate of the line it continues, as in Linux. */
		if (level < 0)
			drop = dropped_open_line(caller);
		note_dropped_open_line(caller, drop && open);
		if (drop) {
			console_unlock();
			local_irq_restore(flags);
			return len;
		}
	} else if (drop) {
		local_irq_restore(flags);
		return len;
	} else {
		/* Nested on this CPU: the held lines may be mid-update; write through. */
		emit_timestamp(now);
		emit(buf, len);
		if (open)
			emit("\n", 1);
		local_irq_restore(flags);
		return len;
	}
	for (int pos = 0; pos < len;) {
		int end = pos;

		while (end < len && buf[end] != '\n')
			end++;
		if (end < len)
			end++;	/* include the newline */
		/* Only the first piece can continue a line: the ones after follow a '\n'. */
		printk_cont_piece(&console_sink, caller, level < 0 || pos > 0, buf + pos,
				  end - pos, now);
		pos = end;
	}
	console_unlock();
	local_irq_restore(flags);
	return len;
}

/*
 * A line a user process wrote (kernel/user/output.c): to the console only,
 * not the kernel log, and without the timestamp, as Linux prints what user
 * space writes to /dev/console. Every kernel line begins with its
 * "[    1.234567] " stamp; a user line that would begin with '[' gets a
 * space before it, so none can pass for a kernel line: tests/lib.sh and
 * parse-console.sh judge only lines that begin with a stamp.
 */
void console_write_user_line(const char *s, size_t len)
{
	unsigned long flags;
	bool locked;

	local_irq_save(flags);
	locked = console_lock();
	if (locked)
		printk_cont_line_start(&console_sink);
	if (len && s[0] == '[')
		console_write(" ", 1);
	console_write(s, len);
	console_write("\n", 1);
	if (locked)
		console_unlock();
	local_irq_restore(flags);
}

void printk_flush_lines(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (console_lock()) {
		printk_cont_flush_all(&console_sink);
		console_unlock();
	}
	local_irq_restore(flags);
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
