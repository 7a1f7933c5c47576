/*
 * KCSAN reports (kernel/kcsan/core.c finds the races): the two sides of a
 * race meet here and one report, in Linux's words, is printed by the CPU
 * that set the watchpoint:
 *
 *   ==================================================================
 *   BUG: KCSAN: data-race in funcA / funcB          (names sorted)
 *
 *   write to 0x... of 8 bytes by task 52 on cpu 1:  (the access that hit)
 *    funcA+0x1d/0x30
 *    ...
 *
 *   read to 0x... of 8 bytes by task 51 on cpu 0:   (the watched access)
 *    funcB+0x10/0x20
 *    ...
 *
 *   value changed: 0x00000000000009a6 -> 0x00000000000009b2
 *
 *   Reported by Kernel Concurrency Sanitizer on:
 *   CPU: 0 PID: 51 Comm: kcsan_racer/0
 *   ==================================================================
 *
 * or, when the value changed and no instrumented access hit the watchpoint,
 * "BUG: KCSAN: data-race in funcB+0x10/0x20" and "race at unknown origin,
 * with read to ...". The same pair of functions is reported once per
 * CONFIG_KCSAN_REPORT_ONCE_IN_MS. Runs with interrupts off and the
 * context's KCSAN checks off (core.c), so printk() cannot recurse into it.
 */
#include <kernel/kcsan.h>
#include <kernel/kallsyms.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <kernel/processor.h>
#include <kernel/sched_hooks.h>
#include <kernel/smp.h>
#include <kernel/stacktrace.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <time/time.h>
#include "kcsan.h"

/*
 * The consumer's side waiting for its watcher: FREE -> FILLING (a consumer
 * claimed it) -> READY (published, release) -> FREE (the watcher copied it,
 * or a later consumer found it stale: its watcher gave up long ago).
 */
enum { OTHER_FREE, OTHER_FILLING, OTHER_READY };
static struct {
	int state;
	int slot;
	u64 published_ns;
	struct kcsan_access_info ai;
} kcsan_other;

/* A READY entry older than this was abandoned by its watcher. */
#define KCSAN_OTHER_STALE_NS	(100ULL * 1000 * 1000)

static int kcsan_report_lock;
#define KCSAN_REPORT_LOCK_WAIT_US	500000
static unsigned long kcsan_reports;

/* Recently reported pairs of functions (function start addresses), for rate limiting. */
#define KCSAN_SEEN	8
static struct {
	unsigned long a, b;
	unsigned long when;		/* jiffies */
} kcsan_seen[KCSAN_SEEN];
static unsigned int kcsan_seen_next;

unsigned long kcsan_nr_reports(void)
{
	return __atomic_load_n(&kcsan_reports, __ATOMIC_RELAXED);
}

void kcsan_save_access(struct kcsan_access_info *ai, unsigned long addr, size_t size, int type,
		       unsigned long ip)
{
	unsigned long raw[KCSAN_STACK_DEPTH + 8];
	unsigned int n, first = 0;

	ai->addr = addr;
	ai->size = size;
	ai->type = type;
	ai->ip = ip;
	ai->pid = in_task() ? sched_current_pid() : -1;
	ai->cpu = raw_smp_processor_id();
	/* The runtime's own frames end where the accessing function's return address is. */
	n = arch_stack_trace_save(raw, ARRAY_SIZE(raw), 0);
	for (unsigned int i = 0; i < n; i++) {
		if (raw[i] == ip) {
			first = i;
			break;
		}
	}
	ai->nr_entries = 0;
	if (first == 0 && (n == 0 || raw[0] != ip))
		ai->entries[ai->nr_entries++] = ip;	/* not on the walked stack: show the access */
	for (unsigned int i = first; i < n && ai->nr_entries < KCSAN_STACK_DEPTH; i++)
		ai->entries[ai->nr_entries++] = raw[i];
}

void kcsan_report_set_info(const struct kcsan_access_info *ai, int slot)
{
	int expect = OTHER_FREE;

	if (!__atomic_compare_exchange_n(&kcsan_other.state, &expect, OTHER_FILLING, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		/* Busy with another pair; take it over only if its watcher abandoned it. */
		if (expect != OTHER_READY ||
		    local_clock() - __atomic_load_n(&kcsan_other.published_ns, __ATOMIC_RELAXED) <
			    KCSAN_OTHER_STALE_NS ||
		    !__atomic_compare_exchange_n(&kcsan_other.state, &expect, OTHER_FILLING, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;	/* the watcher reports without us (below) */
	}
	kcsan_other.slot = slot;
	kcsan_other.ai = *ai;
	kcsan_other.published_ns = local_clock();
	/* Pairs with the ACQUIRE load in kcsan_fetch_other(): the watcher sees ai complete. */
	__atomic_store_n(&kcsan_other.state, OTHER_READY, __ATOMIC_RELEASE);
}

/* The watcher of slot takes its consumer's side; false if none came in time. */
static bool kcsan_fetch_other(int slot, struct kcsan_access_info *out)
{
	for (unsigned int us = 0; us < KCSAN_PAIR_WAIT_US; us++) {
		/* Pairs with the RELEASE store in kcsan_report_set_info(). */
		if (__atomic_load_n(&kcsan_other.state, __ATOMIC_ACQUIRE) == OTHER_READY &&
		    kcsan_other.slot == slot) {
			*out = kcsan_other.ai;
			/* Our copy is done before the next consumer may refill it. */
			__atomic_store_n(&kcsan_other.state, OTHER_FREE, __ATOMIC_RELEASE);
			return true;
		}
		udelay(1);
	}
	return false;
}

static unsigned long kcsan_func_start(unsigned long ret)
{
	unsigned long size, off;

	if (!kallsyms_lookup(ret - 1, &size, &off))
		return ret;
	return ret - 1 - off;
}

/* Rate limit: true if this pair of functions was reported in the last REPORT_ONCE_IN_MS. */
static bool kcsan_seen_recently(unsigned long a, unsigned long b)
{
	unsigned long now = jiffies, window = msecs_to_jiffies(CONFIG_KCSAN_REPORT_ONCE_IN_MS);

	if (a > b) {
		unsigned long t = a;

		a = b;
		b = t;
	}
	for (unsigned int i = 0; i < KCSAN_SEEN; i++) {
		if (kcsan_seen[i].a == a && kcsan_seen[i].b == b && kcsan_seen[i].when &&
		    now - kcsan_seen[i].when < window)
			return true;
	}
	kcsan_seen[kcsan_seen_next].a = a;
	kcsan_seen[kcsan_seen_next].b = b;
	kcsan_seen[kcsan_seen_next].when = now ? now : 1;
	kcsan_seen_next = (kcsan_seen_next + 1) % KCSAN_SEEN;
	return false;
}

static const char *kcsan_access_type(int type)
{
	switch (type) {
	case 0:
		return "read";
	case KCSAN_ACCESS_ATOMIC:
		return "read (marked)";
	case KCSAN_ACCESS_WRITE:
		return "write";
	case KCSAN_ACCESS_WRITE | KCSAN_ACCESS_ATOMIC:
		return "write (marked)";
	case KCSAN_ACCESS_COMPOUND | KCSAN_ACCESS_WRITE:
		return "read-write";
	case KCSAN_ACCESS_COMPOUND | KCSAN_ACCESS_WRITE | KCSAN_ACCESS_ATOMIC:
		return "read-write (marked)";
	default:
		return "access";
	}
}

static void kcsan_print_access(const struct kcsan_access_info *ai, bool unknown_origin)
{
	char who[32];

	if (ai->pid >= 0)
		snprintf(who, sizeof(who), "task %d", ai->pid);
	else
		snprintf(who, sizeof(who), "interrupt");
	printk(KERN_ERR "%s%s to 0x%016lx of %zu bytes by %s on cpu %d:\n",
	       unknown_origin ? "race at unknown origin, with " : "", kcsan_access_type(ai->type),
	       ai->addr, ai->size, who, ai->cpu);
	for (unsigned int i = 0; i < ai->nr_entries; i++) {
		char sym[128];

		sprint_backtrace(sym, sizeof(sym), ai->entries[i]);
		printk(KERN_ERR " %s\n", sym);
	}
}

/*
 * Linux's KCSAN_REPORT_VALUE_CHANGE_ONLY: a watched access that was hit
 * but whose value did not change (a write of the same value, or one that
 * landed after the watch) is not reported, except in RCU's own functions,
 * whose maintainers want every race (Linux makes the same exception).
 */
static bool kcsan_rcu_function(unsigned long ret)
{
	char sym[128];

	sprint_backtrace(sym, sizeof(sym), ret);
	return strstr(sym, "rcu_") || strstr(sym, "_rcu") || strstr(sym, "_srcu");
}

void kcsan_report(const struct kcsan_access_info *self, int slot, bool consumed,
		  bool value_changed, u64 old, u64 new)
{
	struct kcsan_access_info other;
	bool have_other = false;
	unsigned long fa, fb;
	char sa[128], sb[128];

	if (consumed)
		have_other = kcsan_fetch_other(slot, &other);
	if (consumed && !value_changed && self->size <= 8 && !kcsan_rcu_function(self->ip))
		return;
	if (consumed && !have_other)
		return;		/* the other side was lost (its buffer busy): counted, not printed */

	fb = kcsan_func_start(self->ip);
	fa = have_other ? kcsan_func_start(other.ip) : fb;

	/*
	 * One report at a time on the console; every caller has interrupts
	 * off. Bounded: a watcher inside printk() owns the console lock (its
	 * nested printk() writes straight through) and may wait here for a
	 * CPU that holds this lock and waits for the console: after
	 * KCSAN_REPORT_LOCK_WAIT_US that report is dropped (counted as a race).
	 */
	for (unsigned int us = 0; __atomic_exchange_n(&kcsan_report_lock, 1, __ATOMIC_ACQUIRE); us++) {
		if (us >= KCSAN_REPORT_LOCK_WAIT_US)
			return;
		udelay(1);
	}
	if (kcsan_seen_recently(fa, fb))
		goto unlock;
	__atomic_fetch_add(&kcsan_reports, 1, __ATOMIC_RELAXED);

	printk(KERN_ERR "==================================================================\n");
	if (have_other) {
		const char *na = kallsyms_lookup(other.ip - 1, NULL, NULL);
		const char *nb = kallsyms_lookup(self->ip - 1, NULL, NULL);

		snprintf(sa, sizeof(sa), "%s", na ? na : "?");
		snprintf(sb, sizeof(sb), "%s", nb ? nb : "?");
		if (strcmp(sa, sb) <= 0)
			printk(KERN_ERR "BUG: KCSAN: data-race in %s / %s\n\n", sa, sb);
		else
			printk(KERN_ERR "BUG: KCSAN: data-race in %s / %s\n\n", sb, sa);
		kcsan_print_access(&other, false);
		printk(KERN_ERR "\n");
		kcsan_print_access(self, false);
	} else {
		sprint_backtrace(sa, sizeof(sa), self->ip);
		printk(KERN_ERR "BUG: KCSAN: data-race in %s\n\n", sa);
		kcsan_print_access(self, true);
	}
	if (value_changed && self->size <= 8) {
		int w = (int)self->size * 2;

		printk(KERN_ERR "\nvalue changed: 0x%0*llx -> 0x%0*llx\n", w,
		       (unsigned long long)old, w, (unsigned long long)new);
	}
	printk(KERN_ERR "\nReported by Kernel Concurrency Sanitizer on:\n");
	printk(KERN_ERR "CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(), sched_current_pid(),
	       sched_current_comm());
	printk(KERN_ERR "==================================================================\n");
unlock:
	__atomic_store_n(&kcsan_report_lock, 0, __ATOMIC_RELEASE);
}
