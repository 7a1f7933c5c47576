/*
 * User processes: a process is a kthread that loads an embedded program
 * into its own address space and enters user mode; it ends in exit() or
 * when a fault kills it, and its address space is freed then. Started
 * after boot by init=<prog> (once, as Linux's init) and
 * user.run=<prog>@<cpulist> (one bound to each listed CPU); with
 * user.respawn=N each user.run= process is started again in its place when
 * it ends, N times (init's "respawn", for the fuzzer: its processes die).
 */
#include "user.h"
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <kernel/kstrtox.h>
#include <kernel/errno.h>
#include <kernel/atomic.h>
#include <kernel/bitmap.h>
#include <kernel/cpumask.h>
#include <kernel/context_tracking.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <mm/slab.h>

static char init_prog[64];
KPARAM_STRING("init", init_prog,
	      "program from user/ to run as the init process (a path's last component is used)");
static char user_run[512];
KPARAM_STRING("user.run", user_run,
	      "PROG[:ARG]@CPULIST[;|+...]: start user program PROG (main(ARG)) bound to each listed CPU");

static unsigned int user_respawn;
KPARAM("user.respawn", user_respawn, KPARAM_UINT, 0, 1000000,
       "start each user.run= process again in its place when it ends (exit or kill), this many times");

static atomic_t nr_started, nr_exited, nr_killed;

const struct user_program *user_program_find(const char *name)
{
	for (const struct user_program *p = user_programs; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static void list_programs(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (const struct user_program *p = user_programs; p->name && n + 1 < size; p++)
		n += scnprintf(buf + n, size - n, "%s%s", n ? " " : "", p->name);
}

/*
 * The end of the current process: exit() (killed false, code its status)
 * or a fatal fault (killed true, code 128 + the signal, as a shell shows
 * it). The two are counted apart: a program may exit(200) and is then not
 * "killed", nor was it reported as one.
 */
static __noreturn void process_end(int code, bool killed)
{
	struct task_struct *t = current;
	struct user_process *up = t->uproc;
	struct user_process next = *up;
	u64 uspace = t->thread.uspace;

	user_output_exit(up);
	/* Off the process's tables before freeing them (this CPU is the only one using them). */
	arch_uspace_switch(0);
	arch_uspace_destroy(uspace);
	arch_user_fpu_free(t);
	t->uproc = NULL;
	kfree(up);
	atomic_inc(killed ? &nr_killed : &nr_exited);
	pr_info("user: %s[%d] exited with status %d\n", t->comm, t->pid, code);
	/* user.respawn=: the next life of this user.run= slot, same program, CPU and ARG. */
	if (next.lives_left) {
		next.lives_left--;
		next.life++;
		if (user_process_start(&next))
			pr_err("user: out of memory restarting %s on CPU %d\n", next.prog->name,
			       next.cpu);
	}
	kthread_exit(code);
}

__noreturn void user_process_exit(int code)
{
	process_end(code & 0xff, false);
}

__noreturn void user_process_kill(int sig)
{
	process_end(128 + sig, true);
}

static int process_main(void *arg)
{
	struct user_process *up = arg;
	int err;

	current->uproc = up;
	err = user_elf_load(up);
	if (err) {
		pr_err("user: cannot load %s: error %d\n", up->prog->name, err);
		arch_uspace_destroy(up->uspace);
		current->uproc = NULL;
		kfree(up);
		return err;
	}
	arch_uspace_switch(up->uspace);
	/* Every program starts from the FPU/SSE/AVX init state, in its own save area. */
	err = arch_user_fpu_init(current);
	if (err) {
		pr_err("user: cannot start %s: no memory for its FPU state\n", up->prog->name);
		arch_uspace_switch(0);
		arch_uspace_destroy(up->uspace);
		current->uproc = NULL;
		kfree(up);
		return err;
	}
	if (up->is_init)
		pr_info("Run /%s as init process\n", up->prog->name);
	else
		pr_info("user: running %s[%d] on CPU %d\n", up->prog->name, current->pid, up->cpu);
	atomic_inc(&nr_started);
	/* main(arg, slot, life): the fuzzer derives its seed from them (Documentation/user-mode.md). */
	arch_enter_user(up->entry, USER_STACK_TOP,
			(const unsigned long[3]){ up->arg, up->slot, up->life });
}

/* A process from the template's program, is_init, cpu, arg, slot, life and lives_left. */
int user_process_start(const struct user_process *tmpl)
{
	struct user_process *up = kzalloc(sizeof(*up), GFP_KERNEL);
	const struct user_program *prog = tmpl->prog;
	struct task_struct *t;

	if (!up)
		return -ENOMEM;
	up->prog = prog;
	up->is_init = tmpl->is_init;
	up->cpu = tmpl->cpu;
	up->arg = tmpl->arg;
	up->slot = tmpl->slot;
	up->life = tmpl->life;
	up->lives_left = tmpl->lives_left;
	t = kthread_create(process_main, up, "%s", prog->name);
	if (!t) {
		kfree(up);
		return -ENOMEM;
	}
	if (up->cpu >= 0)
		kthread_bind(t, up->cpu);
	wake_up_process(t);
	return 0;
}

/* init=: Linux takes a path; the program is its last component. */
static void start_init(void)
{
	const char *name = strrchr(init_prog, '/') ? strrchr(init_prog, '/') + 1 : init_prog;
	const struct user_program *prog = user_program_find(name);
	char list[128];

	if (!init_prog[0])
		return;
	if (!prog) {
		list_programs(list, sizeof(list));
		pr_warn("init=%s: no such program (have: %s); using none\n", init_prog, list);
		return;
	}
	if (user_process_start(&(struct user_process){ .prog = prog, .is_init = true, .cpu = -1 }))
		pr_err("init=%s: out of memory starting it\n", init_prog);
}

/*
 * One user.run= entry, PROG[:ARG]@CPULIST (NUL-terminated in place):
 * every malformed part is reported naming the whole entry, and nothing of
 * that entry is started.
 */
static void start_user_run_entry(char *entry, unsigned int slot)
{
	static unsigned long cpus[BITS_TO_LONGS(NR_CPUS)];
	const struct user_program *prog;
	char *at = strchr(entry, '@'), *colon, list[128];
	long arg = 0;
	unsigned int cpu;

	if (!at || at == entry) {
		pr_warn("user.run=%s: not PROG[:ARG]@CPULIST; using none\n", entry);
		return;
	}
	*at = 0;
	colon = strchr(entry, ':');
	if (colon) {
		*colon = 0;
		if (kstrtol(colon + 1, 0, &arg)) {
			pr_warn("user.run=%s:%s@%s: ARG '%s' is not a number; using none\n",
				entry, colon + 1, at + 1, colon + 1);
			return;
		}
	}
	prog = user_program_find(entry);
	if (!prog) {
		list_programs(list, sizeof(list));
		pr_warn("user.run=%s@%s: no program '%s' (have: %s); using none\n", entry, at + 1,
			entry, list);
		return;
	}
	if (bitmap_parselist(at + 1, cpus, nr_cpu_ids)) {
		pr_warn("user.run=%s@%s: bad CPU list '%s' (CPUs 0-%u); using none\n", entry, at + 1,
			at + 1, nr_cpu_ids - 1);
		return;
	}
	for_each_set_bit(cpu, cpus, nr_cpu_ids) {
		if (!cpu_online(cpu)) {
			pr_warn("user.run=%s@%s: CPU %u is not online; not started there\n", entry,
				at + 1, cpu);
			continue;
		}
		if (user_process_start(&(struct user_process){ .prog = prog, .cpu = (int)cpu,
							       .arg = arg, .slot = slot,
							       .lives_left = user_respawn }))
			pr_err("user.run=%s@%s: out of memory starting it on CPU %u\n", entry, at + 1, cpu);
	}
}

static void start_user_run(void)
{
	unsigned int slot = 0;
	char *s = user_run;

	while (s && *s) {
		/* ';' or '+' between entries: GRUB's command line (scripts/mkiso.sh) cannot carry ';'. */
		char *next = s;

		while (*next && *next != ';' && *next != '+')
			next++;
		if (*next)
			*next++ = 0;
		else
			next = NULL;
		if (*s)
			start_user_run_entry(s, slot++);
		s = next;
	}
}

void user_mode_start(void)
{
	start_init();
	start_user_run();
}

int user_run_program(const char *name, int cpu, long arg)
{
	const struct user_program *prog = user_program_find(name);

	if (!prog)
		return -ENOENT;
	return user_process_start(&(struct user_process){ .prog = prog, .cpu = cpu, .arg = arg });
}

int user_processes_exited(void)
{
	return atomic_read(&nr_exited) + atomic_read(&nr_killed);
}

/* The shutdown report's line: processes, and user-mode entries per CPU. */
void user_mode_show_stats(void)
{
	unsigned int cpu;

	if (!atomic_read(&nr_started))
		return;
	pr_info("user: %d processes started, %d exited, %d killed\n", atomic_read(&nr_started),
		atomic_read(&nr_exited), atomic_read(&nr_killed));
	for_each_online_cpu(cpu)
		pr_info("user: CPU %u: %lu returns to user mode\n", cpu, ct_user_enter_count(cpu));
}
