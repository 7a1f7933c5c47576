/*
 * rcutorture: the testers that poke the stall machinery: the fqs kthread
 * (bursts of forced quiescent-state scans) and the CPU stall (stall_cpu*)
 * that the stall detector must report.
 */
#include "rcutorture.h"
#include <sched/watchdog.h>

static struct task_struct *fqs_task;
static struct task_struct *stall_task;

/* ===== fqs kthread ========================================================================= */

/* Bursts of forced quiescent-state scans, to hit the races around them. */
static int rcu_torture_fqs(void *arg)
{
	VERBOSE_TOROUT_STRING("rcu_torture_fqs task started");
	do {
		unsigned long resume = jiffies + rtp->fqs_stutter * HZ;
		long burst;

		while (time_before(jiffies, resume) && !kthread_should_stop())
			schedule_timeout_interruptible(1);
		for (burst = rtp->fqs_duration; burst > 0 && !kthread_should_stop();
		     burst -= rtp->fqs_holdoff ? rtp->fqs_holdoff : 1) {
			cur_ops->fqs();
			udelay(rtp->fqs_holdoff);
			cond_resched();
		}
		stutter_wait("rcu_torture_fqs");
	} while (!torture_must_stop());
	torture_kthread_stopping("rcu_torture_fqs");
	return 0;
}

int rcu_torture_fqs_init(void)
{
	if (!rtp->fqs_duration)
		return 0;
	return torture_create_kthread(rcu_torture_fqs, NULL, fqs_task);
}

void rcu_torture_fqs_cleanup(void)
{
	torture_stop_kthread(rcu_torture_fqs, fqs_task);
}

/* ===== CPU stall ==================================================================================== */

static unsigned int rcu_torture_last_online_cpu(void)
{
	unsigned int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last;
}

/* After the holdoff, spin inside a reader (irqs off if asked) so a stall warning must appear. */
/*
 * Ours, not Linux's: make sure a grace period is in progress before the
 * stall begins. A stall is only reported while one is pending, and the
 * updaters may be sleeping or stuttering just then. Called inside the
 * reader (no quiescent state from here on): ask for a grace period and
 * give it up to a second to start. Its kthread's wakeup lands on an idle
 * CPU since this one is busy; if the kthread was already queued here, an
 * idle CPU takes it (kernel/sched/balance.c: before that existed, it waited
 * out the whole stall and no warning came). Its force-quiescent-state scans
 * then find the stall from that CPU.
 */
static void rcu_torture_stall_start_gp(void)
{
	u64 give_up = local_clock() + NSEC_PER_SEC;
	unsigned long gp_seq;
	int flags;

	if (!cur_ops->start_gp_poll || !cur_ops->gp_data)
		return;
	cur_ops->start_gp_poll();
	do {
		cur_ops->gp_data(&flags, &gp_seq);
		if (rcutorture_gp_seq_in_progress(gp_seq))
			return;
		cpu_relax();
	} while (local_clock() < give_up);
}

static int rcu_torture_stall(void *args)
{
	VERBOSE_TOROUT_STRING("rcu_torture_stall task started");
	if (rtp->stall_cpu_holdoff > 0) {
		VERBOSE_TOROUT_STRING("rcu_torture_stall begin holdoff");
		schedule_timeout_interruptible(rtp->stall_cpu_holdoff * HZ);
		VERBOSE_TOROUT_STRING("rcu_torture_stall end holdoff");
	}
	if (!kthread_should_stop() && rtp->stall_cpu > 0) {
		/* local_clock(): the jiffies may stop here if this CPU keeps time. */
		u64 stop_at = local_clock() + (u64)rtp->stall_cpu * NSEC_PER_SEC;
		int idx;

		VERBOSE_TOROUT_STRING("rcu_torture_stall begin CPU stall");
		idx = cur_ops->readlock();
		rcu_torture_stall_start_gp();
		if (rtp->stall_cpu_irqsoff)
			local_irq_disable();
		else
			preempt_disable();
		pr_alert("rcu_torture_stall start on CPU %d.\n", raw_smp_processor_id());
		while (local_clock() < stop_at) {
			if (rtp->stall_no_softlockup)	/* as Linux: the stall is meant */
				touch_softlockup_watchdog();
			cpu_relax();
		}
		if (rtp->stall_cpu_irqsoff)
			local_irq_enable();
		else
			preempt_enable();
		cur_ops->readunlock(idx);
	}
	pr_alert("rcu_torture_stall end.\n");
	while (!kthread_should_stop())
		schedule_timeout_interruptible(10 * HZ);
	return 0;
}

int rcu_torture_stall_init(void)
{
	if (rtp->stall_cpu <= 0)
		return 0;
	/*
	 * On the last CPU, and kept out of the shuffler: CPU 0 keeps the
	 * jiffies here, and with its interrupts off no other CPU would
	 * see the stall last (Linux has no such limit).
	 */
	VERBOSE_TOROUT_STRING("Creating rcu_torture_stall task");
	stall_task = kthread_create(rcu_torture_stall, NULL, "rcu_torture_stall");
	if (!stall_task)
		return -ENOMEM;
	kthread_bind(stall_task, rcu_torture_last_online_cpu());
	wake_up_process(stall_task);
	return 0;
}

void rcu_torture_stall_cleanup(void)
{
	torture_stop_kthread(rcu_torture_stall, stall_task);
}
