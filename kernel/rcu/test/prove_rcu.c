/*
 * Planted lockdep-RCU bugs (CONFIG_RCU_PROVE_TEST), a group of the planted-bug
 * dispatcher (planted_bugs.c): rcu_debug_test=NAME makes a kthread commit one
 * bug once boot is done, so tests/boot/63-prove-rcu.sh
 * can check each report end to end. Every bug is one the checks must
 * catch and survive: the kernel prints the splat, carries on, and powers
 * off normally. One bug per boot: a lockdep report switches lockdep off.
 *
 *   deref      rcu_dereference() outside any reader
 *   protected  rcu_dereference_protected(p, lockdep_is_held(&lock)), lock not held
 *   sync       synchronize_rcu() inside rcu_read_lock()
 *   abba       lock order A->B on one CPU, later B->A on another
 *   sleep      mutex_lock() (a might_sleep() point) inside rcu_read_lock()
 *   unlock     spin_unlock() of a lock nobody holds
 *   list       list_for_each_entry_rcu() outside any reader, without a lockdep condition
 *   srcu       srcu_dereference() outside a reader of its domain (after one inside, which is fine)
 */
#define pr_fmt(fmt) "rcu: " fmt

#include <rcu/rcupdate.h>
#include <rcu/rculist.h>
#include <rcu/srcu.h>
#include <locking/spinlock.h>
#include <locking/mutex.h>
#include <sched/kthread.h>
#include <sched/completion.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include "planted_bugs.h"

static int prove_value = 42;
static int __rcu *prove_gp;			/* RCU-protected, updated under prove_lock */
static DEFINE_SPINLOCK(prove_lock);
static DEFINE_SPINLOCK(prove_lock_a);
static DEFINE_SPINLOCK(prove_lock_b);
static DEFINE_MUTEX(prove_mutex);
static DECLARE_COMPLETION(prove_ab_done);
DEFINE_STATIC_SRCU(prove_srcu);

struct prove_item {
	int key;
	struct list_head node;
};
static LIST_HEAD(prove_list);
static struct prove_item prove_items[2] = { { .key = 1 }, { .key = 2 } };

static void prove_deref(void)
{
	int *p = rcu_dereference(prove_gp);	/* BUG: no rcu_read_lock() */

	pr_info("rcu_debug_test: read %d outside a reader\n", p ? *p : -1);
}

static void prove_protected(void)
{
	int *p = rcu_dereference_protected(prove_gp, lockdep_is_held(&prove_lock)); /* BUG: not held */

	pr_info("rcu_debug_test: read %d without prove_lock\n", p ? *p : -1);
}

static void prove_sync(void)
{
	rcu_read_lock();
	synchronize_rcu();			/* BUG: waits for its own reader */
	rcu_read_unlock();
}

static void prove_sleep(void)
{
	rcu_read_lock();
	mutex_lock(&prove_mutex);		/* BUG: may sleep inside a reader */
	mutex_unlock(&prove_mutex);
	rcu_read_unlock();
}

static void prove_list_walk(void)
{
	struct prove_item *it;
	int sum = 0;

	spin_lock(&prove_lock);
	list_add_tail_rcu(&prove_items[0].node, &prove_list);
	list_add_tail_rcu(&prove_items[1].node, &prove_list);
	/* Fine: the updaters' lock is held and the walk says so. */
	list_for_each_entry_rcu(it, &prove_list, node, lockdep_is_held(&prove_lock))
		sum += it->key;
	spin_unlock(&prove_lock);
	list_for_each_entry_rcu(it, &prove_list, node)	/* BUG: no reader, no lock */
		sum += it->key;
	pr_info("rcu_debug_test: list sum %d\n", sum);
}

static void prove_srcu_deref(void)
{
	int idx, *p, *q;

	idx = srcu_read_lock(&prove_srcu);
	p = srcu_dereference(prove_gp, &prove_srcu);	/* fine: inside its reader */
	srcu_read_unlock(&prove_srcu, idx);
	rcu_read_lock();
	q = srcu_dereference(prove_gp, &prove_srcu);	/* BUG: an RCU reader is not an SRCU one */
	rcu_read_unlock();
	pr_info("rcu_debug_test: srcu read %d and %d\n", p ? *p : -1, q ? *q : -1);
}

static void prove_unlock(void)
{
	spin_unlock(&prove_lock);		/* BUG: nobody holds it */
}

/* The first half of abba, on CPU 0: A then B, recorded as A -> B. */
static int prove_ab_thread(void *unused)
{
	spin_lock(&prove_lock_a);
	spin_lock(&prove_lock_b);
	spin_unlock(&prove_lock_b);
	spin_unlock(&prove_lock_a);
	complete(&prove_ab_done);
	return 0;
}

/* The second half, later and on the last CPU: B then A closes the cycle (no deadlock happens). */
static void prove_abba(void)
{
	unsigned int cpu0 = 0, cpu1 = nr_cpu_ids > 1 ? nr_cpu_ids - 1 : 0;
	struct task_struct *t = kthread_create_on_cpu(prove_ab_thread, NULL, cpu0, "prove_ab/%u");

	if (!t) {
		pr_err("rcu_debug_test: cannot create prove_ab\n");
		return;
	}
	wake_up_process(t);
	wait_for_completion(&prove_ab_done);
	pr_info("rcu_debug_test: A->B done on CPU %u, now B->A on CPU %u\n", cpu0, cpu1);
	spin_lock(&prove_lock_b);
	spin_lock(&prove_lock_a);		/* BUG: the reverse order */
	spin_unlock(&prove_lock_a);
	spin_unlock(&prove_lock_b);
}

static const struct rcu_planted_bug prove_tests[] = {
	{ "deref", prove_deref },
	{ "protected", prove_protected },
	{ "sync", prove_sync },
	{ "abba", prove_abba },
	{ "sleep", prove_sleep },
	{ "unlock", prove_unlock },
	{ "list", prove_list_walk },
	{ "srcu", prove_srcu_deref },
};

static int prove_thread(void *arg)
{
	const struct rcu_planted_bug *t = arg;

	pr_info("rcu_debug_test: committing '%s'\n", t->name);
	t->run();
	pr_info("rcu_debug_test: '%s' done, kernel still running\n", t->name);
	return 0;
}

/* From a kthread on the last CPU: some bugs sleep, and abba needs a second CPU. */
static void prove_plant(const struct rcu_planted_bug *bug)
{
	unsigned int cpu = nr_cpu_ids > 1 ? nr_cpu_ids - 1 : 0;
	struct task_struct *t;

	rcu_assign_pointer(prove_gp, &prove_value);
	t = kthread_create_on_cpu(prove_thread, (void *)bug, cpu, "rcu_prove/%u");
	if (!t) {
		pr_err("rcu_debug_test: cannot create rcu_prove/%u\n", cpu);
		return;
	}
	wake_up_process(t);
}

const struct rcu_planted_group rcu_prove_bugs = {
	.bugs = prove_tests,
	.nr = ARRAY_SIZE(prove_tests),
	.plant = prove_plant,
};
