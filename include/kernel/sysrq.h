/*
 * Magic SysRq (CONFIG_MAGIC_SYSRQ, drivers/tty/sysrq.c): the console input
 * layer offers every received character and BREAK to it first; it
 * consumes the SysRq prefix (a BREAK, or the sysrq_serial_seq= sequence)
 * and the letter after it, and runs the letter's action.
 */
#ifndef _KERNEL_SYSRQ_H
#define _KERNEL_SYSRQ_H

#include <kernel/types.h>

/* Linux's kernel.sysrq groups (Documentation/admin-guide/sysrq.rst). */
#define SYSRQ_ENABLE_LOG	0x0002
#define SYSRQ_ENABLE_DUMP	0x0008
#define SYSRQ_ENABLE_BOOT	0x0080

struct sysrq_key_op {
	void (*handler)(u8 key);
	const char *help_msg;	/* in the HELP line */
	const char *action_msg;	/* printed before the action */
	unsigned int enable_mask;
};

#ifdef CONFIG_MAGIC_SYSRQ
/*
 * Give a free letter an action (Linux's register_sysrq_key(), e.g.
 * rcutree.sysrq_rcu's 'y'), from an initcall. -EBUSY if the key is taken.
 */
int register_sysrq_key(u8 key, const struct sysrq_key_op *op);
/* A BREAK arrived: the next character within 5 s is a SysRq key. */
void sysrq_serial_break(void);
/* An input character: true if SysRq consumed it (prefix or key). */
bool sysrq_serial_char(u8 c);
/* Run the action of key as if typed after the prefix (the monitor's `sysrq` command). */
void handle_sysrq(u8 key);
#else
static inline int register_sysrq_key(u8 key, const struct sysrq_key_op *op) { return 0; }
static inline void sysrq_serial_break(void) { }
static inline bool sysrq_serial_char(u8 c) { return false; }
static inline void handle_sysrq(u8 key) { }
#endif

#endif
