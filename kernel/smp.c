/*
 * Cross-CPU function calls (smp_call_function_*, on_each_cpu) and the
 * reschedule IPI. The arch provides only the senders (<asm/smp.h>) and
 * calls back into generic_smp_call_function_interrupt(). The CPU masks
 * and bring-up are in smp_cpus.c, the NMI requests (backtrace, stop) in
 * smp_nmi.c.
 *
 * Every CPU has a lock-free LIFO queue of call_single_data
 * (csd). A sender pushes a csd and sends the CALL_FUNCTION IPI only when
 * the queue was empty; otherwise an IPI is already on its way and the
 * target's handler will find the new entry too. A csd is locked from
 * when its sender claims it until the target has run the function
 * (synchronous calls) or copied it out (asynchronous ones): synchronous
 * senders spin on that lock with a csd on their stack, asynchronous ones
 * reuse their per-target csd once it is unlocked.
 */
#define KPARAM_SUBSYS "smp"
#include <kernel/smp.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/errno.h>
#include <mm/slab.h>
#include <time/time.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include "smpboot.h"

#define CSD_FLAG_LOCK	0x01	/* queued or running: the owner must not touch it */
#define CSD_FLAG_SYNC	0x02	/* unlock only after func has returned */

/*
 * Linux's smp.csd_lock_timeout (ms; 0: never report), the wait after which
 * a cross call the target has not answered is reported. Linux reports only
 * with CONFIG_CSD_LOCK_WAIT_DEBUG; here always, at Linux's default 5 s.
 */
static unsigned long csd_lock_timeout = 5000;
KPARAM("smp.csd_lock_timeout", csd_lock_timeout, KPARAM_ULONG, 0, 3600000,
       "report a cross call unanswered for this long (ms; 0: never)");

/*
 * The csd each CPU's handler is running now (NULL: none) and its function,
 * for the report only: copies, since a synchronous sender's csd is on its
 * stack and gone once released. Read racily from other CPUs (a torn
 * triple only garbles one report line).
 */
struct cur_csd_info {
	struct call_single_data *csd;
	smp_call_func_t func;
	void *info;
};
static DEFINE_PER_CPU(struct cur_csd_info, cur_csd);

struct call_single_data {
	struct call_single_data *next;	/* in the target's call_single_queue */
	smp_call_func_t func;
	void *info;
	unsigned int flags;		/* CSD_FLAG_*; cleared with release by the target */
};

/* Pushed by any CPU with cmpxchg, emptied by its owner with xchg. */
static DEFINE_PER_CPU(struct call_single_data *, call_single_queue);
/* This CPU's csd for each target of its asynchronous and _many calls (nr_cpu_ids entries). */
static DEFINE_PER_CPU(struct call_single_data *, cfd_csd);

/*
 * Linux's report of a wait longer than csd_lock_timeout: what the target's
 * handler is doing (this request, an earlier one, or nothing: it has not
 * taken the IPI), and the first time its backtrace; an unresponsive target
 * gets the IPI again, in case it was lost.
 */
static void csd_lock_wait_toolong(struct call_single_data *csd, int cpu, u64 waited, int *bug_id)
{
	static int stall_count;
	struct cur_csd_info *ci = per_cpu_ptr(&cur_csd, cpu);
	struct call_single_data *cur = READ_ONCE(ci->csd);
	bool first = !*bug_id;

	if (first)
		*bug_id = __atomic_add_fetch(&stall_count, 1, __ATOMIC_RELAXED);
	printk(KERN_ALERT "csd: %s non-responsive CSD lock (#%d) on CPU#%d, waiting %llu ns for CPU#%02d %pS(%ps).\n",
	       first ? "Detected" : "Continued", *bug_id, raw_smp_processor_id(),
	       (unsigned long long)waited, cpu, csd->func, csd->info);
	if (cur && cur != csd)
		printk(KERN_ALERT "\tcsd: CSD lock (#%d) handling prior %pS(%ps) request.\n",
		       *bug_id, READ_ONCE(ci->func), READ_ONCE(ci->info));
	else
		printk(KERN_ALERT "\tcsd: CSD lock (#%d) %s.\n",
		       *bug_id, cur ? "handling this request" : "unresponsive");
	if (first)
		trigger_single_cpu_backtrace(cpu);
	if (!cur) {
		printk(KERN_ALERT "csd: Re-sending CSD lock (#%d) IPI from CPU#%02d to CPU#%02d\n",
		       *bug_id, raw_smp_processor_id(), cpu);
		arch_send_call_function_single_ipi(cpu);
	}
}

/*
 * Spin until the target has released csd, reporting a wait longer than
 * smp.csd_lock_timeout once per timeout as Linux's CSD lock debugging does.
 */
static void csd_lock_wait(struct call_single_data *csd, int cpu)
{
	u64 timeout = (u64)READ_ONCE(csd_lock_timeout) * NSEC_PER_MSEC;
	u64 start = 0, next_report = 0;
	int stall_id = 0;

	while (smp_load_acquire(&csd->flags) & CSD_FLAG_LOCK) {
		u64 now = local_clock();

		cpu_relax();
		if (!start) {
			start = now;
			next_report = now + timeout;
		} else if (timeout && now > next_report && now) {
			csd_lock_wait_toolong(csd, cpu, now - start, &stall_id);
			next_report = local_clock() + timeout;
		}
	}
	if (stall_id)
		printk(KERN_ALERT "csd: CSD lock (#%d) got unstuck on CPU#%02d, CPU#%02d released the lock.\n",
		       stall_id, raw_smp_processor_id(), cpu);
}

/*
 * Claim this CPU's csd for a new call; returns with interrupts off and the
 * caller's flags to restore once the csd is queued (an interrupt handler on
 * this CPU may claim the same csd). The wait runs with the caller's
 * interrupt state: two CPUs waiting with interrupts off for each other's
 * previous call would deadlock.
 */
static unsigned long csd_lock(struct call_single_data *csd, int cpu, bool sync)
{
	unsigned long flags;

	for (;;) {
		csd_lock_wait(csd, cpu);
		local_irq_save(flags);
		if (!(smp_load_acquire(&csd->flags) & CSD_FLAG_LOCK))
			break;
		local_irq_restore(flags);	/* an interrupt handler took it meanwhile */
	}
	csd->flags = CSD_FLAG_LOCK | (sync ? CSD_FLAG_SYNC : 0);
	return flags;
}

static void csd_unlock(struct call_single_data *csd)
{
	/* Pairs with the acquire in csd_lock_wait(): func's effects are seen first. */
	smp_store_release(&csd->flags, 0);
}

/* Push csd onto cpu's queue; true if it was empty, i.e. the caller must send the IPI. */
static bool csd_enqueue(struct call_single_data *csd, int cpu)
{
	struct call_single_data **head = per_cpu_ptr(&call_single_queue, cpu);
	struct call_single_data *first = READ_ONCE(*head);

	do {
		csd->next = first;
	} while (!try_cmpxchg(head, &first, csd));	/* full barrier: csd is complete before */
	return !first;
}

static void cur_csd_set(struct call_single_data *csd, smp_call_func_t func, void *info)
{
	struct cur_csd_info *ci = this_cpu_ptr(&cur_csd);

	WRITE_ONCE(ci->func, func);
	WRITE_ONCE(ci->info, info);
	WRITE_ONCE(ci->csd, csd);
}

/* The CALL_FUNCTION IPI's work: run everything queued for this CPU, oldest first. */
void generic_smp_call_function_interrupt(void)
{
	struct call_single_data *csd, *next, *prev = NULL;

	csd = xchg(this_cpu_ptr(&call_single_queue), NULL);
	for (; csd; csd = next) {
		next = csd->next;
		csd->next = prev;
		prev = csd;
	}
	for (csd = prev; csd; csd = next) {
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		next = csd->next;	/* csd may be reused as soon as it is unlocked */
		cur_csd_set(csd, func, info);
		if (csd->flags & CSD_FLAG_SYNC) {
			func(info);
			csd_unlock(csd);
		} else {
			csd_unlock(csd);
			func(info);
		}
		cur_csd_set(NULL, NULL, NULL);
	}
}

#ifdef CONFIG_HOTPLUG_CPU
/*
 * CPU hotplug: the senders that may be about to queue a call on each CPU.
 * A sender counts itself in before it checks that the target is online
 * and out once its call is queued; a dying CPU, out of the online mask,
 * runs its queue until the count is zero, then once more
 * (smp_cpu_dying_flush()). So either the sender sees the CPU offline, or
 * the dying CPU runs the call: the fully ordered increment pairs with the
 * smp_mb() that follows the online bit's clearing (kernel/cpu.c), the
 * fully ordered decrement (after the enqueue) with the smp_mb() after the
 * dying CPU saw the count at zero.
 */
static DEFINE_PER_CPU(atomic_t, csd_senders);

static bool csd_target_get(int cpu)
{
	atomic_inc_return(per_cpu_ptr(&csd_senders, cpu));
	if (cpu_online(cpu))
		return true;
	atomic_dec_return(per_cpu_ptr(&csd_senders, cpu));
	return false;
}

static void csd_target_put(int cpu)
{
	atomic_dec_return(per_cpu_ptr(&csd_senders, cpu));
}

void smp_cpu_dying_flush(unsigned int cpu)
{
	/* Run calls meanwhile: a sender may wait for its previous call here to finish. */
	while (atomic_read(per_cpu_ptr(&csd_senders, cpu))) {
		generic_smp_call_function_interrupt();
		cpu_relax();
	}
	smp_mb();	/* count read as zero before the queue: pairs with csd_target_put() */
	generic_smp_call_function_interrupt();
}
#else
static inline bool csd_target_get(int cpu) { return cpu_online(cpu); }
static inline void csd_target_put(int cpu) { }
#endif

static void run_local(smp_call_func_t func, void *info)
{
	unsigned long flags;

	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
}

/*
 * Waiting with interrupts off can deadlock against a CPU waiting for us
 * the same way. Allowed before this CPU is online (no one can call it).
 */
static void check_wait_context(bool wait)
{
	WARN_ON_ONCE(wait && irqs_disabled() && cpu_online(raw_smp_processor_id()));
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	struct call_single_data stack_csd, *csd;
	unsigned long flags;
	int err = 0;

	preempt_disable();
	if (cpu == (int)smp_processor_id()) {
		run_local(func, info);
		goto out;
	}
	if ((unsigned int)cpu >= nr_cpu_ids || !csd_target_get(cpu)) {
		err = -ENXIO;
		goto out;
	}
	check_wait_context(wait);
	if (wait) {
		csd = &stack_csd;
		csd->flags = CSD_FLAG_LOCK | CSD_FLAG_SYNC;
		local_irq_save(flags);
	} else {
		csd = &this_cpu_read(cfd_csd)[cpu];
		flags = csd_lock(csd, cpu, false);
	}
	csd->func = func;
	csd->info = info;
	if (csd_enqueue(csd, cpu))
		arch_send_call_function_single_ipi(cpu);
	local_irq_restore(flags);
	csd_target_put(cpu);
	if (wait)
		csd_lock_wait(csd, cpu);
out:
	preempt_enable();
	return err;
}

/* The _many engine: call func on mask's online CPUs other than this one, and here if local. */
static void call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			       bool wait, bool local)
{
	struct call_single_data *cfd = this_cpu_read(cfd_csd);
	unsigned int me = smp_processor_id(), cpu, nr_ipi = 0, last = 0;
	struct cpumask targets, ipi;
	unsigned long flags;

	cpumask_and(&targets, mask, cpu_online_mask);
	cpumask_clear_cpu(me, &targets);
	if (!cpumask_empty(&targets)) {
		check_wait_context(wait);
		cpumask_clear(&ipi);
		for_each_cpu(cpu, &targets) {
			struct call_single_data *csd = &cfd[cpu];

			if (!csd_target_get(cpu)) {	/* went offline since the snapshot */
				cpumask_clear_cpu(cpu, &targets);
				continue;
			}
			flags = csd_lock(csd, cpu, wait);
			csd->func = func;
			csd->info = info;
			if (csd_enqueue(csd, cpu)) {
				__set_bit(cpu, ipi.bits);
				nr_ipi++;
				last = cpu;
			}
			local_irq_restore(flags);
			csd_target_put(cpu);
		}
		if (nr_ipi == 1)
			arch_send_call_function_single_ipi(last);
		else if (nr_ipi)
			arch_send_call_function_ipi_mask(&ipi);
	}
	if (local && cpumask_test_cpu(me, mask))
		run_local(func, info);
	if (wait)
		for_each_cpu(cpu, &targets)
			csd_lock_wait(&cfd[cpu], cpu);
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait)
{
	preempt_disable();
	call_function_many(mask, func, info, wait, false);
	preempt_enable();
}

void smp_call_function(smp_call_func_t func, void *info, int wait)
{
	preempt_disable();
	call_function_many(cpu_online_mask, func, info, wait, false);
	preempt_enable();
}

void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	preempt_disable();
	call_function_many(cpu_online_mask, func, info, wait, true);
	preempt_enable();
}

void smp_send_reschedule(int cpu)
{
	if (WARN((unsigned int)cpu >= nr_cpu_ids || !cpu_online(cpu),
		 "sched: Unexpected reschedule of offline CPU#%d!\n", cpu))
		return;
	arch_smp_send_reschedule(cpu);
}

/* Every CPU's per-target csds, before any of them can make a call (smp_init()). */
void call_function_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(cfd_csd, cpu) = kcalloc(nr_cpu_ids, sizeof(struct call_single_data),
						GFP_KERNEL);
		BUG_ON(!per_cpu(cfd_csd, cpu));
	}
}
