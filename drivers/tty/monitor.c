/*
 * The kernel monitor: a small command prompt on the serial console, so
 * that `make run` ends in something to talk to. init starts it once boot
 * is over; it then reads lines (drivers/tty/tty_input.c, fed by the UART's
 * receive interrupt), echoes what is typed, and runs one command per
 * line. Command output is ordinary printk lines.
 *
 * It prints nothing but its ready line until something is typed: unattended
 * boots (every test) keep the console they had, with no prompt left
 * dangling in front of later lines. The prompt is written raw, without
 * printk's lock, so a line printed meanwhile by another CPU may land after
 * it on the same line; the person typing can live with that.
 *
 * rcutorture, rcuperf and refscale start at boot only (their parameters
 * are read once and they power the machine off when done), so the
 * monitor does not start them; it runs the KTAP self-test suites instead.
 */
#define pr_fmt(fmt) "monitor: " fmt

#include <kernel/monitor.h>
#include <kernel/tty.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/sysrq.h>
#include <kernel/ktap.h>
#include <kernel/shutdown.h>
#include <kernel/smp.h>
#include <time/time.h>
#include <mm/mm.h>
#include <rcu/rcupdate.h>
#include <sched/sched.h>
#include <sched/kthread.h>

#define MONITOR_LINE_MAX	128
#define MONITOR_ARGS_MAX	8
#define PROMPT			"mon> "

struct monitor_cmd {
	const char *name;
	const char *usage;
	void (*run)(int argc, char **argv);
};

static const struct monitor_cmd monitor_cmds[];

static void cmd_help(int argc, char **argv);

static void cmd_rcu(int argc, char **argv)
{
	rcu_show_gp_state();
	if (argc > 1 && !strcmp(argv[1], "stats"))
		rcu_show_stats();
}

static void show_task(struct task_struct *p, void *unused)
{
	sched_show_task(p);
}

static void cmd_ps(int argc, char **argv)
{
	sched_for_each_task(show_task, NULL);
}

static void cmd_mem(int argc, char **argv)
{
	mm_show_stats();
}

static void list_suite(const char *name, unsigned int ncases)
{
	pr_info("  ktap %-16s (%u cases)\n", name, ncases);
}

static void cmd_ktap(int argc, char **argv)
{
	int ret;

	if (!IS_ENABLED(CONFIG_KTEST)) {
		pr_info("no self-tests in this kernel: needs CONFIG_KERNEL_TESTS (make test_defconfig)\n");
		return;
	}
	if (argc < 2 || !strcmp(argv[1], "list")) {
		pr_info("self-test suites (each also runs at boot with its own parameter):\n");
		ktap_for_each_suite(list_suite);
		return;
	}
	ret = ktap_run_suite_named(argv[1]);
	if (ret == -ENOENT)
		pr_info("no suite '%s' (ktap list)\n", argv[1]);
}

/*
 * The tests that only start at boot: say how to run them, or, in a kernel
 * built without one, which option it needs (as the boot parameters do).
 */
static void cmd_boot_only(int argc, char **argv)
{
	static const struct { const char *cmd, *how, *opt; bool built; } how[] = {
		{ "torture", "rcutorture.torture_runnable=1 [rcutorture.torture_type=rcu|srcu|tasks ...]",
		  "CONFIG_RCU_TORTURE_TEST", IS_ENABLED(CONFIG_RCU_TORTURE_TEST) },
		{ "perf", "rcuperf.perf_runnable=1 [rcuperf.nwriters=N ...]",
		  "CONFIG_RCU_PERF_TEST", IS_ENABLED(CONFIG_RCU_PERF_TEST) },
		{ "refscale", "refscale.scale_runnable=1 [refscale.nreaders=N ...]",
		  "CONFIG_RCU_REF_SCALE_TEST", IS_ENABLED(CONFIG_RCU_REF_SCALE_TEST) },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(how); i++) {
		if (strcmp(argv[0], how[i].cmd))
			continue;
		if (!how[i].built)
			pr_info("%s: not in this kernel: needs %s (CONFIG_KERNEL_TESTS; make test_defconfig)\n",
				argv[0], how[i].opt);
		else
			pr_info("%s runs at boot only: boot with %s (make run CMDLINE=\"...\"); try 'ktap list'\n",
				argv[0], how[i].how);
	}
}

static void cmd_sysrq(int argc, char **argv)
{
	if (!IS_ENABLED(CONFIG_MAGIC_SYSRQ))
		pr_info("no Magic SysRq in this kernel\n");
	else if (argc < 2 || strlen(argv[1]) != 1)
		pr_info("usage: sysrq KEY (sysrq h lists the keys)\n");
	else
		handle_sysrq((u8)argv[1][0]);
}

static void cmd_uptime(int argc, char **argv)
{
	u64 ns = local_clock();

	pr_info("up %llu.%03llu s, %u CPUs online, %lu grace periods completed\n",
		(unsigned long long)(ns / NSEC_PER_SEC),
		(unsigned long long)(ns % NSEC_PER_SEC / NSEC_PER_MSEC),
		cpumask_weight(cpu_online_mask), rcu_gp_completed());
}

/* Orderly: CPU 0's idle loop runs the shutdown sequence ("reboot: Power down"). */
static void cmd_poweroff(int argc, char **argv)
{
	shutdown_request();
	for (;;)
		schedule_timeout_interruptible(HZ);
}

static const struct monitor_cmd monitor_cmds[] = {
	{ "help", "this list", cmd_help },
	{ "rcu", "[stats]  grace-period state: the rcu_node tree, each CPU's dyntick state and callbacks", cmd_rcu },
	{ "ps", "  tasks (Linux's task: lines)", cmd_ps },
	{ "mem", "  page allocator and kmalloc counters", cmd_mem },
	{ "uptime", "  time since boot, CPUs, grace periods", cmd_uptime },
	{ "ktap", "[list|SUITE]  list the self-test suites, or run one", cmd_ktap },
	{ "torture", "  (rcutorture: boot only)", cmd_boot_only },
	{ "perf", "  (rcuperf: boot only)", cmd_boot_only },
	{ "refscale", "  (refscale: boot only)", cmd_boot_only },
	{ "sysrq", "KEY  run a Magic SysRq key's action", cmd_sysrq },
	{ "poweroff", "  power the machine off", cmd_poweroff },
};

static void cmd_help(int argc, char **argv)
{
	pr_info("commands:\n");
	for (unsigned int i = 0; i < ARRAY_SIZE(monitor_cmds); i++)
		pr_info("  %s %s\n", monitor_cmds[i].name, monitor_cmds[i].usage);
}

/* Split line in place on blanks; returns the number of words (at most max). */
static int split_words(char *line, char **argv, int max)
{
	int argc = 0;

	while (*line && argc < max) {
		while (*line == ' ' || *line == '\t')
			*line++ = '\0';
		if (!*line)
			break;
		argv[argc++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
	}
	return argc;
}

static void monitor_run_line(char *line)
{
	char *argv[MONITOR_ARGS_MAX];
	int argc = split_words(line, argv, MONITOR_ARGS_MAX);

	if (!argc)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(monitor_cmds); i++) {
		if (!strcmp(argv[0], monitor_cmds[i].name)) {
			monitor_cmds[i].run(argc, argv);
			return;
		}
	}
	pr_info("unknown command '%s' (try 'help')\n", argv[0]);
}

/*
 * Read one line with the editing a serial terminal expects: echo, Backspace
 * or DEL to erase, Ctrl-U to drop the line; CR, LF or CR LF end it.
 */
static void monitor_read_line(char *buf, size_t size)
{
	static bool last_was_cr;
	size_t len = 0;

	for (;;) {
		int c = tty_read_char();

		if (c == '\n' && last_was_cr) {
			last_was_cr = false;
			continue;	/* the LF of a CR LF */
		}
		last_was_cr = (c == '\r');
		if (c == '\r' || c == '\n') {
			console_write("\n", 1);
			buf[len] = '\0';
			return;
		}
		if (c == 0x7f || c == '\b') {
			if (len) {
				len--;
				console_write("\b \b", 3);
			}
		} else if (c == 0x15) {		/* Ctrl-U */
			while (len) {
				len--;
				console_write("\b \b", 3);
			}
		} else if (c >= ' ' && c <= '~' && len + 1 < size) {
			char ch = (char)c;

			buf[len++] = ch;
			console_write(&ch, 1);
		}
	}
}

static int monitor_thread(void *unused)
{
	char line[MONITOR_LINE_MAX];

	for (;;) {
		monitor_read_line(line, sizeof(line));
		monitor_run_line(line);
		console_write(PROMPT, sizeof(PROMPT) - 1);
	}
	return 0;
}

void console_monitor_start(void)
{
	if (!kthread_run(monitor_thread, NULL, "monitor")) {
		pr_err("cannot start the monitor kthread\n");
		return;
	}
	/* Like Linux's "Run /init as init process": boot is over, here is what to do. */
	printk(KERN_INFO "Kernel monitor ready: type 'help'\n");
}
