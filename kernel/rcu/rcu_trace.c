/*
 * RCU event tracing (CONFIG_RCU_TRACE): the events of kernel/rcu/rcu_trace.h
 * go into per-CPU ring buffers of CONFIG_RCU_TRACE_BUF_ENTRIES fixed-size
 * records that overwrite the oldest, and are printed merged in time order:
 * after an RCU CPU stall warning, on panic with ftrace_dump_on_oops, and at
 * power-off with rcutree.trace_dump_at_shutdown=1. Each line reads like
 * an ftrace line of Linux's rcu events:
 *
 *   rcu_sched-12    [001]     1.234567: rcu_grace_period: rcu_sched -300 start
 *
 * Recording is lock-free: a CPU writes only its own buffer, with
 * interrupts off, so a slot is claimed by a plain increment of the CPU's
 * head. A dump may run on another CPU while the owner writes: each record
 * carries its slot's sequence number, cleared before the record is
 * written and set after it (with write barriers), and the dump keeps a
 * record only if it read the same sequence number before and after
 * copying it. A dump also stops recording while it runs, so the buffers
 * hold still and the printing does not trace itself.
 */
#define pr_fmt(fmt) "rcu: " fmt
#define KPARAM_SUBSYS "rcu"

#include "tree.h"
#include <rcu/trace.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/irqflags.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <kernel/smp.h>
#include <mm/slab.h>
#include <time/time.h>

#define RCU_TRACE_N	CONFIG_RCU_TRACE_BUF_ENTRIES

struct rcu_trace_ent {
	unsigned long seq;	/* slot index + 1 once complete; 0 while being written */
	u64 ts;			/* local_clock(), ns */
	const char *s;		/* the event's string argument (a constant) */
	unsigned long a[4];
	int pid;
	u8 ev;			/* enum rcu_trace_event */
	char comm[TASK_COMM_LEN];
};

struct rcu_trace_buf {
	struct rcu_trace_ent *ents;	/* RCU_TRACE_N records, NULL until rcu_trace_init() */
	unsigned long head;		/* records written so far; the next slot is head % N */
};

static DEFINE_PER_CPU(struct rcu_trace_buf, rcu_trace_buf);
static bool rcu_trace_on;	/* recording; off while a dump runs */
static int rcu_trace_dumping;	/* one dump at a time */

static bool ftrace_dump_on_oops;
KPARAM_BOOL("ftrace_dump_on_oops", ftrace_dump_on_oops,
	    "print the RCU trace buffers on panic (CONFIG_RCU_TRACE)");
static bool trace_dump_at_shutdown;
KPARAM_BOOL("rcutree.trace_dump_at_shutdown", trace_dump_at_shutdown,
	    "print the RCU trace buffers at power-off (CONFIG_RCU_TRACE)");

/* From rcu_params_init(): kmalloc works, the CPU count is known. Events before are lost. */
void rcu_trace_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct rcu_trace_ent *e = kmalloc(RCU_TRACE_N * sizeof(*e), GFP_KERNEL | __GFP_ZERO);

		if (!e) {
			pr_warn("RCU event tracing: no memory for CPU %u's buffer; not tracing it\n", cpu);
			continue;
		}
		per_cpu(rcu_trace_buf, cpu).ents = e;
	}
	WRITE_ONCE(rcu_trace_on, true);
}

void rcu_trace_record(enum rcu_trace_event ev, const char *s, unsigned long a0,
		      unsigned long a1, unsigned long a2, unsigned long a3)
{
	struct rcu_trace_buf *b;
	struct rcu_trace_ent *e;
	struct task_struct *t;
	unsigned long flags, i;

	if (!READ_ONCE(rcu_trace_on))
		return;
	local_irq_save(flags);
	b = this_cpu_ptr(&rcu_trace_buf);
	if (!b->ents) {
		local_irq_restore(flags);
		return;
	}
	i = b->head++;
	e = &b->ents[i % RCU_TRACE_N];
	WRITE_ONCE(e->seq, 0);
	smp_wmb();	/* a dump that sees new contents sees seq 0 (pairs with the dump's smp_rmb()) */
	e->ts = local_clock();
	e->s = s;
	e->a[0] = a0;
	e->a[1] = a1;
	e->a[2] = a2;
	e->a[3] = a3;
	e->ev = ev;
	t = current;
	e->pid = t ? t->pid : 0;
	memcpy(e->comm, t ? t->comm : "?", t ? TASK_COMM_LEN : 2);
	e->comm[TASK_COMM_LEN - 1] = '\0';
	smp_wmb();	/* contents before the sequence that vouches for them */
	WRITE_ONCE(e->seq, i + 1);
	local_irq_restore(flags);
}

/* Copy slot i of cpu's buffer if it is complete and still holds record i. */
static bool rcu_trace_read(unsigned int cpu, unsigned long i, struct rcu_trace_ent *out)
{
	struct rcu_trace_ent *e = &per_cpu(rcu_trace_buf, cpu).ents[i % RCU_TRACE_N];
	unsigned long seq = READ_ONCE(e->seq);

	smp_rmb();	/* pairs with the second smp_wmb() in rcu_trace_record() */
	*out = *e;
	smp_rmb();	/* pairs with the first */
	return seq == i + 1 && READ_ONCE(e->seq) == seq;
}

static const char *const rcu_trace_names[RCU_TEV_NR] = {
	[RCU_TEV_GP]		  = "rcu_grace_period",
	[RCU_TEV_QS_REPORT]	  = "rcu_quiescent_state_report",
	[RCU_TEV_FQS]		  = "rcu_fqs",
	[RCU_TEV_CALLBACK]	  = "rcu_callback",
	[RCU_TEV_KVFREE_CALLBACK] = "rcu_kvfree_callback",
	[RCU_TEV_INVOKE]	  = "rcu_invoke_callback",
	[RCU_TEV_INVOKE_KVFREE]	  = "rcu_invoke_kvfree_callback",
	[RCU_TEV_EXP_GP]	  = "rcu_exp_grace_period",
	[RCU_TEV_BOOST]		  = "rcu_boost",
	[RCU_TEV_STALL]		  = "rcu_stall_warning",
	[RCU_TEV_SRCU_GP]	  = "srcu_grace_period",
};

/* One line: the task, CPU, time, event name and its values in Linux's layout. */
static void rcu_trace_print(unsigned int cpu, const struct rcu_trace_ent *e)
{
	const unsigned long *a = e->a;
	const char *n = rcu_state.name;
	char v[160];

	switch (e->ev) {
	case RCU_TEV_GP:
		snprintf(v, sizeof(v), "%s %ld %s", n, (long)a[0], e->s);
		break;
	case RCU_TEV_QS_REPORT:
		snprintf(v, sizeof(v), "%s %ld %lx>%lx %lu %lu %lu", n, (long)a[0], a[1], a[2],
			 a[3] >> 40, (a[3] >> 20) & 0xfffff, a[3] & 0xfffff);
		break;
	case RCU_TEV_FQS:
		snprintf(v, sizeof(v), "%s %ld %d %s", n, (long)a[0], (int)a[1], e->s);
		break;
	case RCU_TEV_CALLBACK:
		snprintf(v, sizeof(v), "%s rhp=%p func=%ps %ld", n, (void *)a[0], (void *)a[1],
			 (long)a[2]);
		break;
	case RCU_TEV_KVFREE_CALLBACK:
		snprintf(v, sizeof(v), "%s rhp=%p func=%ld %ld", n, (void *)a[0], (long)a[1],
			 (long)a[2]);
		break;
	case RCU_TEV_INVOKE:
		snprintf(v, sizeof(v), "%s rhp=%p func=%ps", n, (void *)a[0], (void *)a[1]);
		break;
	case RCU_TEV_INVOKE_KVFREE:
		snprintf(v, sizeof(v), "%s rhp=%p func=%ld", n, (void *)a[0], (long)a[1]);
		break;
	case RCU_TEV_EXP_GP:
		snprintf(v, sizeof(v), "%s %#lx %s", n, a[0], e->s);
		break;
	case RCU_TEV_BOOST:
		snprintf(v, sizeof(v), "%s %lu-%lu %s", n, a[0], a[1], e->s);
		break;
	case RCU_TEV_STALL:
		snprintf(v, sizeof(v), "%s %s", n, e->s);
		break;
	case RCU_TEV_SRCU_GP:
		snprintf(v, sizeof(v), "%s %ld %s %lu", (const char *)a[1], (long)a[0], e->s, a[2]);
		break;
	default:
		snprintf(v, sizeof(v), "? event %u", e->ev);
		break;
	}
	printk(KERN_INFO "%16s-%-5d [%03u] %5llu.%06llu: %s: %s\n", e->comm, e->pid, cpu,
	       (unsigned long long)(e->ts / NSEC_PER_SEC),
	       (unsigned long long)(e->ts % NSEC_PER_SEC / NSEC_PER_USEC),
	       e->ev < RCU_TEV_NR ? rcu_trace_names[e->ev] : "?", v);
}

/* Per CPU during a dump: the next record to print, and where its buffer ends. */
static unsigned long rcu_trace_next[NR_CPUS], rcu_trace_end[NR_CPUS];

/* The next complete record of cpu (skipping torn ones); false when it has none left. */
static bool rcu_trace_peek(unsigned int cpu, struct rcu_trace_ent *e, unsigned long *lost)
{
	while (rcu_trace_next[cpu] < rcu_trace_end[cpu]) {
		if (rcu_trace_read(cpu, rcu_trace_next[cpu], e))
			return true;
		rcu_trace_next[cpu]++;
		(*lost)++;
	}
	return false;
}

void rcu_trace_dump(const char *why)
{
	unsigned long n = 0, lost = 0, overwritten = 0;
	struct rcu_trace_ent e, best;
	unsigned int cpu;
	bool was_on;

	if (__atomic_exchange_n(&rcu_trace_dumping, 1, __ATOMIC_ACQUIRE))
		return;		/* another CPU is dumping */
	was_on = READ_ONCE(rcu_trace_on);
	WRITE_ONCE(rcu_trace_on, false);
	for_each_possible_cpu(cpu) {
		struct rcu_trace_buf *b = per_cpu_ptr(&rcu_trace_buf, cpu);
		unsigned long head = READ_ONCE(b->head);

		rcu_trace_end[cpu] = b->ents ? head : 0;
		rcu_trace_next[cpu] = head > RCU_TRACE_N ? head - RCU_TRACE_N : 0;
		overwritten += rcu_trace_next[cpu];
	}
	printk(KERN_INFO "Dumping ftrace buffer: RCU events (%s), oldest first:\n", why);
	printk(KERN_INFO "---------------------------------\n");
	for (;;) {
		int best_cpu = -1;

		/* Merge: the oldest next record over all CPUs. */
		for_each_possible_cpu(cpu)
			if (rcu_trace_peek(cpu, &e, &lost) && (best_cpu < 0 || e.ts < best.ts)) {
				best = e;
				best_cpu = cpu;
			}
		if (best_cpu < 0)
			break;
		rcu_trace_print(best_cpu, &best);
		rcu_trace_next[best_cpu]++;
		n++;
	}
	printk(KERN_INFO "---------------------------------\n");
	printk(KERN_INFO "RCU trace: %lu events printed, %lu overwritten, %lu torn\n", n,
	       overwritten, lost);
	WRITE_ONCE(rcu_trace_on, was_on);
	__atomic_store_n(&rcu_trace_dumping, 0, __ATOMIC_RELEASE);
}

void rcu_trace_panic_dump(void)
{
	if (ftrace_dump_on_oops)
		rcu_trace_dump("panic");
}

void rcu_trace_shutdown_dump(void)
{
	if (trace_dump_at_shutdown)
		rcu_trace_dump("power-off");
}
