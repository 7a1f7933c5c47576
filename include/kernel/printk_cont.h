/*
 * Continuation lines for printk (kernel/printk/printk_cont.c): a message that
 * leaves its line open (no final '\n') is held back per caller until the
 * caller ends the line, so that another CPU's whole lines never land in
 * the middle of it. A caller is a task in task context and a CPU in
 * interrupt context, as Linux's printk caller id. Pure logic, no locking:
 * printk calls it with the console held; tests/host drives it directly.
 *
 * What a caller sees on the console is the same text as before, with its
 * line's timestamp taken when the line began. A line longer than
 * PRINTK_CONT_MAX goes out in pieces as it comes (a whole line from
 * another caller then breaks it, as before this buffering).
 */
#ifndef _KERNEL_PRINTK_CONT_H
#define _KERNEL_PRINTK_CONT_H

#include <kernel/types.h>

#define PRINTK_CONT_SLOTS	8	/* callers with a line open at once */
#define PRINTK_CONT_MAX		2048	/* bytes of one held-back line */

/* Where finished output goes: raw bytes, and the "[    1.234567] " prefix for ns. */
struct printk_sink {
	void (*write)(const char *s, size_t len);
	void (*timestamp)(u64 ns);
};

/*
 * One piece of one message: text[0..len) holds at most one '\n', at its
 * end. cont: the message was KERN_CONT, or this is not its first piece;
 * a piece that is not cont ends the caller's open line first. caller is
 * nonzero. now_ns stamps a line that begins here.
 */
void printk_cont_piece(const struct printk_sink *sink, unsigned long caller, bool cont,
		       const char *text, size_t len, u64 now_ns);

/* Before output that is no caller's: end a streamed line the console is in the middle of. */
void printk_cont_line_start(const struct printk_sink *sink);

/* End every open line (panic, power-off): whatever is held back goes out, with '\n'. */
void printk_cont_flush_all(const struct printk_sink *sink);

#endif /* _KERNEL_PRINTK_CONT_H */
