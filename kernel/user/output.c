/*
 * What user processes write to the console (write() on fd 1 and 2): kept
 * a line at a time, then printed without printk's timestamp, as Linux
 * prints what user space writes to /dev/console, so that no user line can
 * pass for a kernel line (console_write_user_line() says how they are told
 * apart). Each process may print USER_OUTPUT_BUDGET bytes per second; lines
 * past it are dropped and counted, and the count is reported once, in a
 * kernel line, when the process next prints after that second or exits:
 * a flood then costs the copy from user memory, not seconds of console
 * (minutes on a real 115200-baud line) with the CPU held.
 */
#include "user.h"
#include <kernel/printk.h>
#include <sched/task.h>
#include <time/time.h>

#define USER_OUTPUT_BUDGET	4096	/* bytes (newlines counted) one process prints per second */

/* The lines dropped in the last second, in Linux's "N callbacks suppressed" manner. */
static void report_suppressed(struct user_process *up)
{
	if (!up->out_dropped_lines)
		return;
	pr_warn("user: %s[%d]: %lu lines of output suppressed (%lu bytes)\n", current->comm,
		current->pid, up->out_dropped_lines, up->out_dropped_bytes);
	up->out_dropped_lines = 0;
	up->out_dropped_bytes = 0;
}

/* Print the held line (a newline ended it, it is full, or the process exits) or count it dropped. */
static void line_out(struct user_process *up)
{
	unsigned long now = jiffies;
	unsigned int cost = up->line_len + 1;

	if (!up->out_window_open || time_after_eq(now, up->out_window + HZ)) {
		report_suppressed(up);
		up->out_window = now;
		up->out_window_open = true;
		up->out_used = 0;
	}
	if (up->out_used + cost > USER_OUTPUT_BUDGET) {
		up->out_dropped_lines++;
		up->out_dropped_bytes += cost;
	} else {
		up->out_used += cost;
		console_write_user_line(up->line, up->line_len);
	}
	up->line_len = 0;
}

void user_output(struct user_process *up, const char *s, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		if (s[i] == '\n' || up->line_len == UPROC_LINE_MAX)
			line_out(up);
		/* Control bytes (a NUL would cut the line short, CR could hide it) print as '.'. */
		if (s[i] != '\n')
			up->line[up->line_len++] = (s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\t' ? s[i] : '.';
	}
}

void user_output_exit(struct user_process *up)
{
	if (up->line_len)
		line_out(up);
	report_suppressed(up);
}
