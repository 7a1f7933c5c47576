/*
 * KCSAN runtime internals shared by core.c (the watchpoints, the compiler's
 * entry points) and report.c (pairing the two sides of a race, printing).
 */
#ifndef _KERNEL_KCSAN_INTERNAL_H
#define _KERNEL_KCSAN_INTERNAL_H

#include <kernel/types.h>

/* Access types, as in Linux's KCSAN_ACCESS_* (combined with |). */
#define KCSAN_ACCESS_WRITE	0x1	/* a store (alone, or the store half of an RMW) */
#define KCSAN_ACCESS_ATOMIC	0x2	/* marked: volatile (READ_ONCE/WRITE_ONCE), __atomic builtin */
#define KCSAN_ACCESS_COMPOUND	0x4	/* read-modify-write (atomic RMW builtins) */

/* Frames kept per side of a report. */
#define KCSAN_STACK_DEPTH	24

/* One side of a race: what was accessed, by whom, and the stack that did it. */
struct kcsan_access_info {
	unsigned long addr;
	size_t size;
	int type;
	unsigned long ip;		/* return address into the accessing function */
	int pid;			/* -1: interrupt context */
	int cpu;
	unsigned int nr_entries;
	unsigned long entries[KCSAN_STACK_DEPTH];
};

/* Fill in the stack of the running context from the accessing function (ip) outward. */
void kcsan_save_access(struct kcsan_access_info *ai, unsigned long addr, size_t size, int type,
		       unsigned long ip);

/*
 * The consumer's side (a CPU whose access hit a watchpoint): publish ai for
 * the watcher of slot, and wait (bounded) until it has been taken.
 */
void kcsan_report_set_info(const struct kcsan_access_info *ai, int slot);

/*
 * The watcher's side, after removing its watchpoint of slot. consumed: some
 * access hit it (fetch the other side's info, a pair report); otherwise the
 * value changed under the watch (a race at unknown origin). old/new are the
 * values seen before and after the delay (sizes up to 8 bytes).
 */
void kcsan_report(const struct kcsan_access_info *self, int slot, bool consumed,
		  bool value_changed, u64 old, u64 new);

/* Maximum time the two sides wait for each other (microseconds). */
#define KCSAN_PAIR_WAIT_US	10000

#endif
