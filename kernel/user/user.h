/* kernel/user/ internals: the embedded programs, processes and the ELF loader. */
#ifndef _KERNEL_USER_INTERNAL_H
#define _KERNEL_USER_INTERNAL_H

#include <kernel/types.h>
#include <kernel/user.h>

/* One program of user/, embedded by programs.S. */
struct user_program {
	const char *name;
	const u8 *start, *end;	/* its ELF file */
};
extern const struct user_program user_programs[];

#define UPROC_LINE_MAX	200

struct user_process {
	const struct user_program *prog;
	u64 uspace;
	unsigned long entry;
	bool is_init;
	int cpu;			/* bound CPU, or -1 */
	long arg;			/* main()'s argument (user.run=PROG:ARG) */
	unsigned int slot;		/* user.run= entry index, from 0: main()'s second argument */
	unsigned int life;		/* user.respawn= restarts before this one: the third */
	unsigned int lives_left;	/* restarts still to come */
	unsigned int line_len;		/* write(): output buffered up to a newline */
	char line[UPROC_LINE_MAX];
	/* output.c's per-second budget: the second began at out_window, out_used bytes printed */
	bool out_window_open;
	unsigned long out_window;
	unsigned int out_used;
	unsigned long out_dropped_lines, out_dropped_bytes;	/* over budget, not yet reported */
};

const struct user_program *user_program_find(const char *name);
/*
 * Start a process like tmpl (its prog, is_init, cpu: bound unless -1, arg,
 * slot, life, lives_left; the rest unused) with main(arg, slot, life);
 * 0 or -ENOMEM.
 */
int user_process_start(const struct user_process *tmpl);
/* Build the address space of up->prog (code, data, stack); 0 or -errno. */
int user_elf_load(struct user_process *up);
/* write() on the console (output.c): n bytes, printed a line at a time, within the budget. */
void user_output(struct user_process *up, const char *s, unsigned long n);
/* At exit: print the unfinished line, report what the budget dropped. */
void user_output_exit(struct user_process *up);

#endif
