/*
 * Magic SysRq on the serial console (CONFIG_MAGIC_SYSRQ). As with Linux's
 * serial SysRq, a BREAK followed within 5 seconds by a key runs that key's
 * action. Terminals and sockets that cannot send a BREAK use a sequence
 * instead (sysrq_serial_seq=, Ctrl-O by default, as Linux's
 * CONFIG_MAGIC_SYSRQ_SERIAL_SEQUENCE does): the sequence, then the key.
 *
 * Actions run at once in the UART's interrupt, on whatever the machine is
 * doing, because SysRq is for the moment nothing else works. They only
 * print (without taking locks that a wedged CPU could hold, where they
 * can avoid it), or end the machine. Keys and messages are Linux's; `y`
 * (RCU's state) is there with rcutree.sysrq_rcu=1, as in Linux.
 *
 * Which actions are allowed: sysrq=<mask> with Linux's kernel.sysrq
 * meaning (0 nothing, 1 everything, else a bitmask of groups below);
 * sysrq_always_enabled allows everything whatever the mask.
 */
#define pr_fmt(fmt) "sysrq: " fmt

#include <kernel/sysrq.h>
#include <kernel/errno.h>
#include <kernel/cmpxchg.h>
#include <kernel/printk.h>
#include <kernel/param.h>
#include <kernel/init.h>
#include <kernel/bug.h>
#include <kernel/smp.h>
#include <kernel/reboot.h>
#include <kernel/shutdown.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <time/time.h>
#include <mm/mm.h>
#include <sched/sched.h>
#include <sched/task.h>
#include <rcu/rcupdate.h>

#define SYSRQ_TIMEOUT_NS	(5ULL * NSEC_PER_SEC)	/* BREAK -> key, as Linux's serial core */
#define SYSRQ_SEQ_MAX		8

static unsigned int sysrq_enabled = 1;
KPARAM("sysrq", sysrq_enabled, KPARAM_UINT, 0, 0x1ff,
       "allowed SysRq functions: 0 none, 1 all, else Linux's kernel.sysrq bitmask");
static bool sysrq_always_enabled;
KPARAM_BOOL("sysrq_always_enabled", sysrq_always_enabled,
	    "allow every SysRq function whatever sysrq= says");
static char sysrq_serial_seq[16] = "^O";
KPARAM_STRING("sysrq_serial_seq", sysrq_serial_seq,
	      "serial input that stands for a BREAK (^X = Ctrl-X; empty: BREAK only)");

static u8 seq[SYSRQ_SEQ_MAX];	/* sysrq_serial_seq decoded */
static unsigned int seq_len, seq_pos;
static u64 key_deadline;	/* local_clock() until which the next character is a key; 0: none */

static bool sysrq_on(void)
{
	return READ_ONCE(sysrq_enabled) || sysrq_always_enabled;
}

static bool sysrq_on_mask(unsigned int mask)
{
	unsigned int e = READ_ONCE(sysrq_enabled);

	return sysrq_always_enabled || e == 1 || (e & mask);
}

/* ---- the actions ---- */

static void sysrq_handle_loglevel(u8 key)
{
	console_loglevel = key - '0';
	pr_info("Loglevel set to %d\n", key - '0');
}

static void sysrq_handle_reboot(u8 key)
{
	arch_emergency_restart();
}

static void sysrq_handle_crash(u8 key)
{
	panic("sysrq triggered crash");
}

static void sysrq_handle_showallcpus(u8 key)
{
	trigger_all_cpu_backtrace();
}

static void sysrq_handle_showmem(u8 key)
{
	printk(KERN_INFO "Mem-Info:\n");
	mm_show_stats();
}

/* Power-off runs from CPU 0's idle loop (kernel/shutdown.c), not in this interrupt. */
static void sysrq_handle_poweroff(u8 key)
{
	shutdown_request();
}

static void show_task(struct task_struct *p, void *blocked_only)
{
	if (!blocked_only || (READ_ONCE(p->__state) & TASK_UNINTERRUPTIBLE))
		sched_show_task(p);
}

static void sysrq_handle_showstate(u8 key)
{
	sched_for_each_task(show_task, NULL);
}

static void sysrq_handle_showstate_blocked(u8 key)
{
	sched_for_each_task(show_task, (void *)1);
}

static const struct sysrq_key_op loglevel_op = {
	sysrq_handle_loglevel, "loglevel(0-9)", "Changing Loglevel", SYSRQ_ENABLE_LOG,
};

/* Indexed by key - 'a'; the digits share loglevel_op. */
static const struct sysrq_key_op key_ops['z' - 'a' + 1] = {
	['b' - 'a'] = { sysrq_handle_reboot, "reboot(b)", "Resetting", SYSRQ_ENABLE_BOOT },
	['c' - 'a'] = { sysrq_handle_crash, "crash(c)", "Trigger a crash", SYSRQ_ENABLE_DUMP },
	['l' - 'a'] = { sysrq_handle_showallcpus, "show-backtrace-all-active-cpus(l)",
			"Show backtrace of all active CPUs", SYSRQ_ENABLE_DUMP },
	['m' - 'a'] = { sysrq_handle_showmem, "show-memory-usage(m)", "Show Memory",
			SYSRQ_ENABLE_DUMP },
	['o' - 'a'] = { sysrq_handle_poweroff, "poweroff(o)", "Power Off", SYSRQ_ENABLE_BOOT },
	['t' - 'a'] = { sysrq_handle_showstate, "show-task-states(t)", "Show State",
			SYSRQ_ENABLE_DUMP },
	['w' - 'a'] = { sysrq_handle_showstate_blocked, "show-blocked-tasks(w)",
			"Show Blocked State", SYSRQ_ENABLE_DUMP },
};
/* Keys other subsystems register (register_sysrq_key()), where key_ops has none. */
static const struct sysrq_key_op *registered_ops['z' - 'a' + 1];

/* The op is static data written before: publishing its pointer needs no ordering. */
int register_sysrq_key(u8 key, const struct sysrq_key_op *op)
{
	if (key < 'a' || key > 'z' || key_ops[key - 'a'].handler ||
	    cmpxchg(&registered_ops[key - 'a'], NULL, op))
		return -EBUSY;
	return 0;
}

static const struct sysrq_key_op *sysrq_get_op(u8 key)
{
	if (key >= '0' && key <= '9')
		return &loglevel_op;
	if (key >= 'a' && key <= 'z' && key_ops[key - 'a'].handler)
		return &key_ops[key - 'a'];
	if (key >= 'a' && key <= 'z')
		return READ_ONCE(registered_ops[key - 'a']);
	return NULL;
}

/* Linux's line: every key's help text in key order, the digits first. */
static void sysrq_print_help(void)
{
	char line[512];
	size_t n;

	strscpy(line, "HELP :", sizeof(line));
	n = strlen(line);
	n += scnprintf(line + n, sizeof(line) - n, " %s", loglevel_op.help_msg);
	for (u8 key = 'a'; key <= 'z'; key++) {
		const struct sysrq_key_op *op = sysrq_get_op(key);

		if (op)
			n += scnprintf(line + n, sizeof(line) - n, " %s", op->help_msg);
	}
	pr_info("%s\n", line);
}

void handle_sysrq(u8 key)
{
	const struct sysrq_key_op *op;
	int orig_loglevel;

	if (!sysrq_on())
		return;
	/* Whatever loglevel= said, the action's own report is what was asked for. */
	orig_loglevel = console_loglevel;
	console_loglevel = 7;
	op = sysrq_get_op(key);
	if (!op) {
		sysrq_print_help();
	} else if (!sysrq_on_mask(op->enable_mask)) {
		pr_info("This sysrq operation is disabled.\n");
	} else {
		pr_info("%s\n", op->action_msg);
		op->handler(key);
		if (op == &loglevel_op)
			return;		/* the new level is the point: keep it */
	}
	console_loglevel = orig_loglevel;
}

/* ---- the serial side: BREAK or sequence, then the key ---- */

void sysrq_serial_break(void)
{
	if (sysrq_on())
		WRITE_ONCE(key_deadline, local_clock() + SYSRQ_TIMEOUT_NS);
}

/*
 * Only the UART interrupt calls this, on one CPU at a time, so the state
 * needs no lock. A partial match of a longer sequence is passed on, not
 * held back: only the sequence's last character is consumed.
 */
bool sysrq_serial_char(u8 c)
{
	u64 deadline = key_deadline;

	if (!sysrq_on())
		return false;
	if (deadline) {
		key_deadline = 0;
		if (local_clock() <= deadline) {
			handle_sysrq(c);
			return true;
		}
	}
	if (!seq_len)
		return false;
	if (c != seq[seq_pos])
		seq_pos = (c == seq[0]);
	else
		seq_pos++;
	if (seq_pos < seq_len)
		return false;
	seq_pos = 0;
	key_deadline = local_clock() + SYSRQ_TIMEOUT_NS;
	return true;
}

/* "^O" -> 0x0f; other printable characters stand for themselves. Returns the length, or -1. */
static int decode_seq(const char *s, u8 *out)
{
	int n = 0;

	for (; *s; s++) {
		u8 c = (u8)*s;

		if (n == SYSRQ_SEQ_MAX)
			return -1;
		if (c == '^' && s[1]) {
			c = (u8)*++s;
			if (c >= 'a' && c <= 'z')
				c -= 'a' - 'A';
			if (c < '@' || c > '_')
				return -1;
			c &= 0x1f;
		} else if (c < ' ' || c > '~') {
			return -1;
		}
		out[n++] = c;
	}
	return n;
}

static int sysrq_init(void)
{
	int n = decode_seq(sysrq_serial_seq, seq);

	if (n < 0) {
		pr_warn("sysrq_serial_seq: invalid value '%s' (at most %d characters, ^@ to ^_ or printable), using ^O\n",
			sysrq_serial_seq, SYSRQ_SEQ_MAX);
		seq[0] = 0x0f;
		n = 1;
	}
	seq_len = n;
	if (sysrq_always_enabled)
		pr_info("sysrq always enabled.\n");
	return 0;
}
core_initcall(sysrq_init);
