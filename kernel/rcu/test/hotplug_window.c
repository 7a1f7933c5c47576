/*
 * The "cpuhp" suite's dying-window case (cpuhp_dying_reader_waits; the
 * suite's list is in hotplug.c): with every CPU but 0 and one
 * victim offline, the victim is taken down and held, by the test hook of
 * the delay knob (kernel/cpu_dying_delay.c), inside a reader after it
 * left cpu_online_mask and before rcu_report_dead(). From CPU 0 the
 * pointer the reader holds is replaced, and then synchronize_rcu(),
 * synchronize_rcu_expedited(), a polled cookie (normal and full-state,
 * completed by a third party's synchronize_rcu()) and the cond_*() waits
 * must each still be waiting when the reader ends: one CPU is online, yet
 * two still run readers. Each wait is tried against a reader in the
 * interrupts-off part of the window (the stopper) and against one in a
 * timer handler run there with interrupts on. A reader holds for at most
 * HW_HOLD_MS, so a correct wait costs that much; a wrong one returns at
 * once and leaves the reader inside.
 *
 * Also the mirror case on the way up (cpuhp_exp_starting_cpu): a CPU held
 * by cpuhp_starting_hook after rcu_cpu_starting() and before it is marked
 * online, while an expedited grace period selects it; the grace period
 * must end once the CPU is online.
 */
#include "../tree.h"
#include "hotplug.h"
#include <rcu/rcupdate.h>
#include <kernel/cpu.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <kernel/barrier.h>
#include <time/time.h>
#include <time/delay.h>
#include <time/timer.h>
#include <sched/kthread.h>
#include <sched/sched.h>
#include <sched/completion.h>

#define HW_HOLD_MS	150	/* a reader in the window holds this long unless told to go */
#define HW_WAIT_MS	10000	/* any one step of the test */

struct hw_obj {
	int alive;		/* cleared when "freed" by the updater */
};

static struct hw_obj hw_objs[2];
static struct hw_obj __rcu *hw_gp;
static bool hw_timer_mode;	/* the reader runs in a timer handler (interrupts on) */
static int hw_reader_in, hw_reader_out, hw_updater_done, hw_saw_freed;
static struct timer_list hw_timer;

/* The reader, on the dying CPU, in the window: held until the updater is done, or HW_HOLD_MS. */
static void hw_reader(void)
{
	struct hw_obj *p;
	u64 t0;

	rcu_read_lock();
	p = rcu_dereference(hw_gp);
	WRITE_ONCE(hw_reader_in, 1);
	t0 = local_clock();
	while (!READ_ONCE(hw_updater_done) && local_clock() - t0 < HW_HOLD_MS * NSEC_PER_MSEC)
		cpu_relax();
	if (!READ_ONCE(p->alive))
		WRITE_ONCE(hw_saw_freed, 1);
	/* Inside the reader still: a wait that ends after it sees this. */
	WRITE_ONCE(hw_reader_out, 1);
	rcu_read_unlock();
}

static void hw_timer_fn(struct timer_list *t)
{
	hw_reader();
}

/* cpuhp_dying_hook: the victim's stopper, after it left the online mask. */
static void hw_dying_hook(unsigned int cpu, bool irqs_on)
{
	u64 t0;

	if (!hw_timer_mode) {
		if (!irqs_on)
			hw_reader();	/* interrupts off: the stopper's own work */
		return;
	}
	if (!irqs_on)
		return;
	/* This CPU's timer, fired by its tick while the stopper waits here. */
	hw_timer.expires = jiffies + 1;
	mod_timer(&hw_timer, hw_timer.expires);
	t0 = local_clock();
	while (!READ_ONCE(hw_reader_out) && local_clock() - t0 < 2000 * NSEC_PER_MSEC)
		cpu_relax();
	del_timer(&hw_timer);
}

struct hw_down {
	unsigned int cpu;
	int ret;
	struct completion done;
};

static int hw_down_fn(void *arg)
{
	struct hw_down *d = arg;

	d->ret = cpu_down(d->cpu);
	complete(&d->done);
	ktest_wait_stop();
	return 0;
}

/* A third party's synchronize_rcu(), for the polled cookies. */
static int hw_sync_fn(void *arg)
{
	synchronize_rcu();
	complete(arg);
	ktest_wait_stop();
	return 0;
}

enum hw_kind { HW_SYNC, HW_EXP, HW_POLL, HW_COND, HW_COND_FULL, HW_NKINDS };
static const char *const hw_names[HW_NKINDS] = {
	"synchronize_rcu()", "synchronize_rcu_expedited()",
	"poll_state_synchronize_rcu() and _full()", "cond_synchronize_rcu()",
	"cond_synchronize_rcu_full()",
};

/* The wait under test, from CPU 0 while the reader is held. */
static void hw_wait(enum hw_kind kind)
{
	struct rcu_gp_oldstate full;
	struct completion synced;
	struct task_struct *t;
	unsigned long cookie;
	int i;

	switch (kind) {
	case HW_SYNC:
		synchronize_rcu();
		break;
	case HW_EXP:
		synchronize_rcu_expedited();
		break;
	case HW_POLL:
		cookie = get_state_synchronize_rcu();
		get_state_synchronize_rcu_full(&full);
		init_completion(&synced);
		t = ktest_kthread(hw_sync_fn, &synced, 0, "hw_sync/%u");
		if (!t)
			break;
		wake_up_process(t);
		for (i = 0; i < HW_WAIT_MS; i++) {
			if (poll_state_synchronize_rcu(cookie) &&
			    poll_state_synchronize_rcu_full(&full))
				break;
			msleep(1);
		}
		KTAP_EXPECT_MSG(i < HW_WAIT_MS, "polled cookies not complete after %u ms", HW_WAIT_MS);
		KTAP_EXPECT(ktest_wait(&synced, HW_WAIT_MS));
		ktest_stop(t, HW_WAIT_MS, NULL);
		break;
	case HW_COND:
		cond_synchronize_rcu(get_state_synchronize_rcu());
		break;
	case HW_COND_FULL:
		get_state_synchronize_rcu_full(&full);
		cond_synchronize_rcu_full(&full);
		break;
	default:
		break;
	}
}

/* One down of the victim, held in its window with a reader, against one wait. */
static void hw_one(unsigned int victim, enum hw_kind kind, bool timer)
{
	struct hw_obj *old = &hw_objs[0];
	struct task_struct *t;
	struct hw_down d = { .cpu = victim, .ret = -1 };
	unsigned int online;
	bool early;
	int i;

	old->alive = 1;
	hw_objs[1].alive = 1;
	rcu_assign_pointer(hw_gp, old);
	hw_timer_mode = timer;
	WRITE_ONCE(hw_reader_in, 0);
	WRITE_ONCE(hw_reader_out, 0);
	WRITE_ONCE(hw_updater_done, 0);
	WRITE_ONCE(hw_saw_freed, 0);
	init_completion(&d.done);
	smp_mb();	/* all of the above before the hook can run: the wakeup orders it too */
	WRITE_ONCE(cpuhp_dying_hook, hw_dying_hook);
	t = ktest_kthread(hw_down_fn, &d, 0, "hw_down/%u");
	if (!t)
		goto out;
	wake_up_process(t);
	for (i = 0; i < HW_WAIT_MS && !READ_ONCE(hw_reader_in); i++)
		msleep(1);
	if (!KTAP_EXPECT_MSG(READ_ONCE(hw_reader_in), "CPU %u: no reader in its dying window",
			     victim)) {
		WRITE_ONCE(hw_updater_done, 1);
	} else {
		rcu_assign_pointer(hw_gp, &hw_objs[1]);
		hw_wait(kind);
		early = !READ_ONCE(hw_reader_out);
		online = num_online_cpus();
		WRITE_ONCE(old->alive, 0);	/* "freed" */
		WRITE_ONCE(hw_updater_done, 1);
		KTAP_EXPECT_MSG(!early,
				"%s returned while CPU %u, out of the online mask (%u CPU online), was still in a reader (%s)",
				hw_names[kind], victim, online,
				timer ? "timer handler" : "interrupts off");
	}
	KTAP_EXPECT(ktest_wait(&d.done, HW_WAIT_MS));
	ktest_stop(t, HW_WAIT_MS, NULL);
	KTAP_EXPECT_MSG(d.ret == 0, "cpu_down(%u): %d", victim, d.ret);
	KTAP_EXPECT_MSG(!READ_ONCE(hw_saw_freed), "CPU %u's reader saw its object freed", victim);
out:
	WRITE_ONCE(cpuhp_dying_hook, NULL);
	if (!cpu_online(victim))
		KTAP_EXPECT(cpu_up(victim) == 0);
}

void cpuhp_dying_reader_waits(void)
{
	unsigned int cpu, victim, n = 0;
	struct cpumask saved;
	int downed[NR_CPUS];

	if (!cpuhp_shortcut_case_runs())
		return;
	timer_setup(&hw_timer, hw_timer_fn, 0);
	ktest_pin_current(0, &saved);
	victim = ktest_last_online_cpu();
	/* All but CPU 0 and the victim down: taking the victim leaves one CPU online. */
	for_each_online_cpu(cpu)
		if (cpu && cpu != victim &&
		    KTAP_EXPECT_MSG(cpu_down(cpu) == 0, "CPU %u did not go down", cpu))
			downed[n++] = cpu;
	ktap_diag("CPU %u held in its dying window, %u other CPU(s) down", victim, n);
	for (int timer = 0; timer < 2; timer++)
		for (int kind = 0; kind < HW_NKINDS; kind++)
			hw_one(victim, kind, timer);
	while (n)
		KTAP_EXPECT(cpu_up(downed[--n]) == 0);
	ktest_unpin_current(&saved);
}

/* ---- an expedited grace period and a CPU counted by RCU, not yet online ---- */

static int hs_held, hs_release;

/* cpuhp_starting_hook: the CPU coming up, interrupts off, in ->qsmaskinitnext but not online. */
static void hs_starting_hook(unsigned int cpu)
{
	u64 t0 = local_clock();

	WRITE_ONCE(hs_held, 1);
	while (!READ_ONCE(hs_release) && local_clock() - t0 < 2000 * NSEC_PER_MSEC)
		cpu_relax();
}

struct hs_call {
	unsigned int cpu;
	int ret, done;
	struct completion comp;
};

static int hs_up_fn(void *arg)
{
	struct hs_call *c = arg;

	c->ret = cpu_up(c->cpu);
	WRITE_ONCE(c->done, 1);
	complete(&c->comp);
	ktest_wait_stop();
	return 0;
}

static int hs_exp_fn(void *arg)
{
	struct hs_call *c = arg;

	synchronize_rcu_expedited();
	WRITE_ONCE(c->done, 1);
	complete(&c->comp);
	ktest_wait_stop();
	return 0;
}

/*
 * A CPU held between rcu_cpu_starting() and set_cpu_online() while an
 * expedited grace period selects CPUs: RCU counts it (its bit is in
 * ->qsmaskinitnext, it is not idle), but the cross call skips it (not
 * online). Once it is online the grace period must end without the CPU
 * having to go offline again.
 */
void cpuhp_exp_starting_cpu(void)
{
	struct hs_call up = { }, exp = { };
	struct task_struct *tu, *te = NULL;
	unsigned int victim;
	struct cpumask saved;
	int i;

	if (num_online_cpus() < 3) {
		ktap_skip("needs 3 CPUs (cpu_up()'s caller spins on one)");
		return;
	}
	ktest_pin_current(0, &saved);
	victim = ktest_last_online_cpu();
	if (!KTAP_EXPECT_MSG(cpu_down(victim) == 0, "CPU %u did not go down", victim))
		goto out;
	WRITE_ONCE(hs_held, 0);
	WRITE_ONCE(hs_release, 0);
	smp_mb();	/* the flags before the hook can run */
	WRITE_ONCE(cpuhp_starting_hook, hs_starting_hook);
	up.cpu = victim;
	init_completion(&up.comp);
	tu = ktest_kthread(hs_up_fn, &up, 1, "hs_up/%u");	/* off CPU 0: it spins */
	if (!tu)
		goto out_hook;
	wake_up_process(tu);
	for (i = 0; i < 5000 && !READ_ONCE(hs_held); i++)
		msleep(1);
	if (!KTAP_EXPECT_MSG(READ_ONCE(hs_held), "CPU %u not held on its way up", victim))
		goto out_up;
	init_completion(&exp.comp);
	te = ktest_kthread(hs_exp_fn, &exp, 0, "hs_exp/%u");
	if (!te)
		goto out_up;
	wake_up_process(te);
	msleep(100);	/* the expedited grace period has selected its CPUs */
	WRITE_ONCE(hs_release, 1);
	KTAP_EXPECT(ktest_wait(&up.comp, 5000) && up.ret == 0);	/* up.done set before the completion */
	KTAP_EXPECT_MSG(ktest_wait(&exp.comp, 3000),
			"synchronize_rcu_expedited() still waiting 3 s after CPU %u came online (selected while not yet online)",
			victim);
	if (!READ_ONCE(exp.done)) {
		/* Unstick it the only way the old code can: the CPU reports on its way down. */
		KTAP_EXPECT(cpu_down(victim) == 0);
		KTAP_EXPECT(ktest_wait(&exp.comp, 5000));
	}
out_up:
	WRITE_ONCE(hs_release, 1);
	if (!READ_ONCE(up.done))
		KTAP_EXPECT(ktest_wait(&up.comp, 5000));
	ktest_stop_if(tu, READ_ONCE(up.done), 5000);
	if (te)
		ktest_stop_if(te, READ_ONCE(exp.done), 5000);
out_hook:
	WRITE_ONCE(cpuhp_starting_hook, NULL);
out:
	if (!cpu_online(victim))
		KTAP_EXPECT(cpu_up(victim) == 0);
	ktest_unpin_current(&saved);
}
