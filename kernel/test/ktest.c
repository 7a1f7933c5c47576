/*
 * The in-kernel test harness (see <kernel/ktest.h>): bounded waits, test
 * kthreads on a chosen CPU, and calls with a timeout, so that a broken
 * mechanism under test fails its case instead of hanging the boot.
 */
#include <kernel/ktest.h>
#include <kernel/atomic.h>
#include <mm/slab.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <time/time.h>
#include <sched/kthread.h>
#include <sched/sched.h>

unsigned int ktest_last_online_cpu(void)
{
	unsigned int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last;
}

bool ktest_wait(struct completion *c, unsigned int ms)
{
	return wait_for_completion_timeout(c, msecs_to_jiffies(ms)) != 0;
}

void ktest_wait_stop(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

struct task_struct *ktest_kthread(int (*fn)(void *), void *data, int cpu, const char *name)
{
	struct task_struct *p;

	if (cpu >= 0)
		p = kthread_create_on_cpu(fn, data, cpu, name);
	else
		p = kthread_create(fn, data, "%s", name);
	KTAP_EXPECT_MSG(p != NULL, "cannot create kthread %s", name);
	return p;
}

/* Shared by the caller and the helper; two references, the last one frees it. */
struct ktest_call {
	int (*fn)(void *arg);
	void *arg;
	int ret;		/* fn's return value */
	u64 ns;			/* time fn took */
	atomic_t refs;
	struct completion done;
};

static void ktest_call_put(struct ktest_call *c)
{
	if (atomic_dec_and_test(&c->refs))
		kfree(c);
}

static int ktest_call_thread(void *data)
{
	struct ktest_call *c = data;
	u64 t0 = local_clock();

	c->ret = c->fn(c->arg);
	c->ns = local_clock() - t0;
	complete(&c->done);
	ktest_call_put(c);
	return 0;
}

bool ktest_call_timeout(const char *comm, int cpu, int (*fn)(void *), void *arg, unsigned int ms,
			int *ret, u64 *ns)
{
	struct ktest_call *c = kzalloc(sizeof(*c), GFP_KERNEL);
	struct task_struct *p;
	bool ok;

	if (!c)
		return false;
	c->fn = fn;
	c->arg = arg;
	atomic_set(&c->refs, 2);
	init_completion(&c->done);
	if (cpu >= 0)
		p = kthread_create_on_cpu(ktest_call_thread, c, cpu, comm);
	else
		p = kthread_create(ktest_call_thread, c, "%s", comm);
	if (!p) {
		kfree(c);
		return false;
	}
	wake_up_process(p);
	ok = ktest_wait(&c->done, ms);
	if (ok && ret)
		*ret = c->ret;
	if (ok && ns)
		*ns = c->ns;
	ktest_call_put(c);
	return ok;
}

static int ktest_do_stop(void *p)
{
	return kthread_stop(p);
}

bool ktest_stop(struct task_struct *p, unsigned int ms, int *ret)
{
	char name[TASK_COMM_LEN];
	bool ok;

	memcpy(name, p->comm, sizeof(name));	/* p may be gone once stopped */
	ok = ktest_call_timeout("ktest_stop", -1, ktest_do_stop, p, ms, ret, NULL);
	KTAP_EXPECT_MSG(ok, "kthread_stop(%s) did not return within %u ms", name, ms);
	return ok;
}

void ktest_stop_if(struct task_struct *p, bool reported, unsigned int ms)
{
	if (p && reported)
		ktest_stop(p, ms, NULL);
	else if (p)
		ktap_diag("leaving %s behind: it never reported", p->comm);
}

void ktest_pin_current(unsigned int cpu, struct cpumask *saved)
{
	struct cpumask m;

	cpumask_copy(saved, &current->cpus_mask);
	cpumask_clear(&m);
	cpumask_set_cpu(cpu, &m);
	set_cpus_allowed_ptr(current, &m);
}

void ktest_unpin_current(const struct cpumask *saved)
{
	set_cpus_allowed_ptr(current, saved);
}
