/*
 * The Kernel Concurrency Sanitizer's runtime (CONFIG_KCSAN): the functions
 * GCC's -fsanitize=thread calls before every load and store of instrumented
 * code, and the soft watchpoints that turn two of those calls into a race
 * (Documentation/dev-tools/kcsan.md).
 *
 * Every kcsan.skip_watch-th plain access on a CPU (randomised below it, so
 * CPUs do not fall into step) becomes a watchpoint: the CPU publishes the
 * address, size and kind in a slot of kcsan_watchpoints[], reads the value,
 * waits kcsan.udelay_task (kcsan.udelay_interrupt in an interrupt) with
 * interrupts off, reads the value again and takes the watchpoint down. Every
 * instrumented access on any CPU first looks for a watchpoint overlapping it
 * (one slot per 4 KiB page it touches, a load or two on the fast path); an
 * access that hits one where one side writes claims it (slot := CONSUMED),
 * and both sides report together (report.c). No hit but a changed value
 * is a race with an uninstrumented writer: "race at unknown origin".
 *
 * Marked accesses (volatile, so READ_ONCE()/WRITE_ONCE(); the __atomic
 * builtins) check the slots but never set a watchpoint, so two marked
 * accesses never race; plain ones race with anything. As in Linux's
 * default configuration (KCSAN_ASSUME_PLAIN_WRITES_ATOMIC), an aligned plain
 * write of up to 8 bytes sets no watchpoint either: it is caught by the
 * readers' watchpoints instead. data_race() and kcsan_disable_current()
 * switch the current context (task, or CPU in interrupt context) off.
 *
 * This file is built without instrumentation (kernel/kcsan/Kbuild); what it
 * calls outside (printk, kallsyms, udelay) it calls with the context
 * switched off, so the runtime never recurses into itself.
 */
#define KPARAM_SUBSYS "kcsan"
#include <kernel/kcsan.h>
#include <kernel/param.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/cpumask.h>
#include <kernel/printk.h>
#include <kernel/processor.h>
#include <time/time.h>
#include <sched/task.h>
#include "kcsan.h"

#undef pr_fmt
#define pr_fmt(fmt) "kcsan: " fmt

/* Linux's module parameters of kernel/kcsan/core.c, with its defaults. */
static bool kcsan_early_enable = true;
static unsigned long kcsan_skip_watch = 4000;
static unsigned int kcsan_udelay_task = 80;
static unsigned int kcsan_udelay_interrupt = 20;
KPARAM_BOOL("kcsan.early_enable", kcsan_early_enable,
	    "check from kcsan_init() on (0: KCSAN stays off)");
KPARAM("kcsan.skip_watch", kcsan_skip_watch, KPARAM_ULONG, 1, 1000000000,
       "a watchpoint every N-th plain access per CPU at most (randomised below N)");
KPARAM("kcsan.udelay_task", kcsan_udelay_task, KPARAM_UINT, 0, 100000,
       "microseconds a watchpoint set in task context stays up");
KPARAM("kcsan.udelay_interrupt", kcsan_udelay_interrupt, KPARAM_UINT, 0, 100000,
       "microseconds a watchpoint set in interrupt context stays up");

/*
 * kcsan_ready: the per-CPU state below may be used (kcsan_init() ran);
 * kcsan_enabled: accesses are checked. Both only go from false to true.
 */
static bool kcsan_ready;
static bool kcsan_enabled;

/* Races found (reported or not) and watchpoints set, for the statistics line. */
static unsigned long kcsan_nr_races;
static unsigned long kcsan_nr_watchpoints;

/*
 * A slot holds 0 (free), KCSAN_WP_CONSUMED (hit, the watcher has not yet
 * taken it down) or an encoded watchpoint: bit 63 write, bits 48-52 the
 * size (at most 16), bits 0-47 the address.
 */
#define KCSAN_NR_SLOTS		CONFIG_KCSAN_NUM_WATCHPOINTS
#define KCSAN_WP_CONSUMED	1L
#define KCSAN_WP_WRITE		(1UL << 63)
#define KCSAN_WP_SIZE_SHIFT	48
#define KCSAN_WP_ADDR_MASK	((1UL << KCSAN_WP_SIZE_SHIFT) - 1)
#define KCSAN_MAX_WATCH		16
#define KCSAN_PAGE_SHIFT	12
#define KCSAN_RANGE_PAGES	16	/* pages a __tsan_*_range() check looks at */

static long kcsan_watchpoints[KCSAN_NR_SLOTS];

/* The self-test's variable (kcsan_test_watch_addr()): races on it are counted apart. */
static unsigned long kcsan_test_addr, kcsan_test_size, kcsan_test_races;

static inline void kcsan_count_race(unsigned long addr, size_t size)
{
	__atomic_fetch_add(&kcsan_nr_races, 1, __ATOMIC_RELAXED);
	if (IS_ENABLED(CONFIG_KCSAN_SELFTEST) && addr < kcsan_test_addr + kcsan_test_size &&
	    kcsan_test_addr < addr + size)
		__atomic_fetch_add(&kcsan_test_races, 1, __ATOMIC_RELAXED);
}

static DEFINE_PER_CPU(long, kcsan_skip);	/* accesses until the next watchpoint */
static DEFINE_PER_CPU(u32, kcsan_rand);	/* xorshift state for the skip count */
static DEFINE_PER_CPU(int, kcsan_cpu_disable);	/* interrupt context's disable count */

static inline int kcsan_slot(unsigned long addr)
{
	return (addr >> KCSAN_PAGE_SHIFT) % KCSAN_NR_SLOTS;
}

static inline long kcsan_encode(unsigned long addr, size_t size, bool write)
{
	return (long)((addr & KCSAN_WP_ADDR_MASK) | ((unsigned long)size << KCSAN_WP_SIZE_SHIFT) |
		      (write ? KCSAN_WP_WRITE : 0));
}

/* Does the watchpoint enc overlap [addr, addr + size), with a write on one side? */
static inline bool kcsan_matches(long enc, unsigned long addr, size_t size, bool write)
{
	unsigned long wa, ws;

	if (enc == 0 || enc == KCSAN_WP_CONSUMED)
		return false;
	if (!write && !((unsigned long)enc & KCSAN_WP_WRITE))
		return false;
	wa = (unsigned long)enc & KCSAN_WP_ADDR_MASK;
	ws = ((unsigned long)enc >> KCSAN_WP_SIZE_SHIFT) & 0x7fff;
	addr &= KCSAN_WP_ADDR_MASK;
	return addr < wa + ws && wa < addr + size;
}

/* The disable count of the running context: the task's, or this CPU's in an interrupt. */
static int *kcsan_disable_count(void)
{
	struct task_struct *t;

	if (in_task()) {
		t = current;
		if (t)
			return &t->kcsan_disable;
	}
	return this_cpu_ptr(&kcsan_cpu_disable);
}

void kcsan_disable_current(void)
{
	if (!READ_ONCE(kcsan_ready))
		return;
	(*kcsan_disable_count())++;
}

void kcsan_enable_current(void)
{
	int *count;

	if (!READ_ONCE(kcsan_ready))
		return;
	count = kcsan_disable_count();
	if (*count > 0)		/* a disable before kcsan_init() is not counted */
		(*count)--;
}


/* A new countdown in [1, skip_watch]: random, so that CPUs do not watch in step. */
static void kcsan_reset_skip(void)
{
	u32 x = this_cpu_read(kcsan_rand);

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	this_cpu_write(kcsan_rand, x);
	this_cpu_write(kcsan_skip, (long)(x % READ_ONCE(kcsan_skip_watch)) + 1);
}

/* The value at addr (size <= 16), folded to 64 bits for the change check. */
static u64 kcsan_read_value(unsigned long addr, size_t size, u64 *hi)
{
	*hi = 0;
	switch (size) {
	case 1: return *(volatile u8 *)addr;
	case 2: return *(volatile u16 *)addr;
	case 4: return *(volatile u32 *)addr;
	case 8: return *(volatile u64 *)addr;
	case 16:
		*hi = *(volatile u64 *)(addr + 8);
		return *(volatile u64 *)addr;
	default: {
		u64 v = 0;

		for (size_t i = 0; i < size; i++)
			v = (v << 8) ^ (v >> 56) ^ *(volatile u8 *)(addr + i);
		return v;
	}
	}
}

/* This access hit the watchpoint enc in slot: claim it and hand our side to its watcher. */
static __noinline void kcsan_found_watchpoint(int slot, long enc, unsigned long addr, size_t size,
					      int type, unsigned long ip)
{
	struct kcsan_access_info ai;
	unsigned long flags;
	int *count;

	if (in_nmi())
		return;
	count = kcsan_disable_count();
	if (*count)
		return;
	/* Claim: only one consumer per watchpoint; fails if the watcher took it down. */
	if (!__atomic_compare_exchange_n(&kcsan_watchpoints[slot], &enc, KCSAN_WP_CONSUMED, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	kcsan_count_race(addr, size);
	local_irq_save(flags);
	(*count)++;
	kcsan_save_access(&ai, addr, size, type, ip);
	kcsan_report_set_info(&ai, slot);
	(*count)--;
	local_irq_restore(flags);
}

/* Watch this plain access for kcsan.udelay_* microseconds. */
static __noinline void kcsan_setup_watchpoint(unsigned long addr, size_t size, int type,
					      unsigned long ip)
{
	bool task = in_task(), write = type & KCSAN_ACCESS_WRITE;
	struct kcsan_access_info ai;
	u64 old, old_hi, new, new_hi;
	unsigned long flags;
	bool consumed, changed;
	long enc, prev;
	int *count, slot;

	kcsan_reset_skip();
	if (in_nmi())
		return;
	count = kcsan_disable_count();
	if (*count)
		return;
	/* A watchpoint covers one page's slot: an access that crosses a page is not watched. */
	if ((addr >> KCSAN_PAGE_SHIFT) != ((addr + size - 1) >> KCSAN_PAGE_SHIFT))
		return;

	/*
	 * Interrupts off for the whole watch, as Linux's default
	 * (kcsan.interrupt_watcher=0): an interrupt on this CPU can neither
	 * set a second watchpoint nor hit ours from the same CPU.
	 */
	local_irq_save(flags);
	(*count)++;
	slot = kcsan_slot(addr);
	enc = kcsan_encode(addr, size, write);
	prev = 0;
	if (!__atomic_compare_exchange_n(&kcsan_watchpoints[slot], &prev, enc, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		goto out;	/* slot busy: skip this one */
	__atomic_fetch_add(&kcsan_nr_watchpoints, 1, __ATOMIC_RELAXED);
	/*
	 * No barrier between publishing the watchpoint and reading the value:
	 * a writer whose slot check ran before the watchpoint was visible
	 * either stored before our first read (no overlap in time: not a
	 * race we can see) or after it, and then the second read sees the
	 * change. A soft watchpoint only needs one of the two.
	 */
	old = kcsan_read_value(addr, size, &old_hi);
	udelay(task ? READ_ONCE(kcsan_udelay_task) : READ_ONCE(kcsan_udelay_interrupt));
	new = kcsan_read_value(addr, size, &new_hi);
	prev = __atomic_exchange_n(&kcsan_watchpoints[slot], 0L, __ATOMIC_SEQ_CST);
	consumed = prev == KCSAN_WP_CONSUMED;
	changed = old != new || old_hi != new_hi;
	if (consumed || changed) {
		if (!consumed)
			kcsan_count_race(addr, size);
		kcsan_save_access(&ai, addr, size, type, ip);
		kcsan_report(&ai, slot, consumed, changed, old, new);
	}
out:
	(*count)--;
	local_irq_restore(flags);
}

static __always_inline void kcsan_check_access(unsigned long addr, size_t size, int type,
					       unsigned long ip)
{
	bool write = type & KCSAN_ACCESS_WRITE;
	int s1, s2;
	long enc;

	if (likely(!READ_ONCE(kcsan_enabled)) || unlikely(size == 0))
		return;
	s1 = kcsan_slot(addr);
	enc = READ_ONCE(kcsan_watchpoints[s1]);
	if (unlikely(kcsan_matches(enc, addr, size, write))) {
		kcsan_found_watchpoint(s1, enc, addr, size, type, ip);
		return;
	}
	s2 = kcsan_slot(addr + size - 1);
	if (unlikely(s2 != s1)) {
		enc = READ_ONCE(kcsan_watchpoints[s2]);
		if (unlikely(kcsan_matches(enc, addr, size, write))) {
			kcsan_found_watchpoint(s2, enc, addr, size, type, ip);
			return;
		}
	}
	/* Marked accesses, and plain aligned writes up to a word, never watch. */
	if (type & KCSAN_ACCESS_ATOMIC)
		return;
	if (write && size <= 8 && !(addr & (size - 1)))
		return;
	if (size > KCSAN_MAX_WATCH)
		return;
	{
		long left = this_cpu_read(kcsan_skip) - 1;

		this_cpu_write(kcsan_skip, left);
		if (likely(left > 0))
			return;
	}
	kcsan_setup_watchpoint(addr, size, type, ip);
}

/* memcpy()-sized accesses: check the slots of the pages touched (the first few), never watch. */
static __always_inline void kcsan_check_range(unsigned long addr, size_t size, int type,
					      unsigned long ip)
{
	unsigned long page, last;
	int n = 0;

	if (likely(!READ_ONCE(kcsan_enabled)) || size == 0)
		return;
	if (size <= KCSAN_MAX_WATCH) {
		kcsan_check_access(addr, size, type, ip);
		return;
	}
	last = (addr + size - 1) >> KCSAN_PAGE_SHIFT;
	for (page = addr >> KCSAN_PAGE_SHIFT; page <= last && n < KCSAN_RANGE_PAGES; page++, n++) {
		int slot = (int)(page % KCSAN_NR_SLOTS);
		long enc = READ_ONCE(kcsan_watchpoints[slot]);

		if (unlikely(kcsan_matches(enc, addr, size, type & KCSAN_ACCESS_WRITE))) {
			kcsan_found_watchpoint(slot, enc, addr, size, type, ip);
			return;
		}
	}
}

#define KCSAN_IP	((unsigned long)__builtin_return_address(0))

/* ---- the compiler's entry points (GCC 12, -fsanitize=thread) ---- */
#define KCSAN_DEFINE_RW(n)							\
void __tsan_read##n(void *p);							\
void __tsan_read##n(void *p) { kcsan_check_access((unsigned long)p, n, 0, KCSAN_IP); } \
void __tsan_write##n(void *p);							\
void __tsan_write##n(void *p)							\
{ kcsan_check_access((unsigned long)p, n, KCSAN_ACCESS_WRITE, KCSAN_IP); }	\
void __tsan_unaligned_read##n(void *p);						\
void __tsan_unaligned_read##n(void *p)						\
{ kcsan_check_access((unsigned long)p, n, 0, KCSAN_IP); }			\
void __tsan_unaligned_write##n(void *p);					\
void __tsan_unaligned_write##n(void *p)						\
{ kcsan_check_access((unsigned long)p, n, KCSAN_ACCESS_WRITE, KCSAN_IP); }	\
/* volatile: marked when it is one untorn access (Linux's rule) */		\
void __tsan_volatile_read##n(void *p);						\
void __tsan_volatile_read##n(void *p)						\
{										\
	bool m = n <= 8 && !((unsigned long)p & (n - 1));			\
	kcsan_check_access((unsigned long)p, n, m ? KCSAN_ACCESS_ATOMIC : 0, KCSAN_IP); \
}										\
void __tsan_volatile_write##n(void *p);						\
void __tsan_volatile_write##n(void *p)						\
{										\
	bool m = n <= 8 && !((unsigned long)p & (n - 1));			\
	kcsan_check_access((unsigned long)p, n,					\
			   KCSAN_ACCESS_WRITE | (m ? KCSAN_ACCESS_ATOMIC : 0), KCSAN_IP); \
}										\
void __tsan_unaligned_volatile_read##n(void *p);				\
void __tsan_unaligned_volatile_read##n(void *p)					\
{ __tsan_volatile_read##n(p); }							\
void __tsan_unaligned_volatile_write##n(void *p);				\
void __tsan_unaligned_volatile_write##n(void *p)				\
{ __tsan_volatile_write##n(p); }

KCSAN_DEFINE_RW(1)
KCSAN_DEFINE_RW(2)
KCSAN_DEFINE_RW(4)
KCSAN_DEFINE_RW(8)
KCSAN_DEFINE_RW(16)

void __tsan_read_range(void *p, size_t size);
void __tsan_read_range(void *p, size_t size)
{
	kcsan_check_range((unsigned long)p, size, 0, KCSAN_IP);
}

void __tsan_write_range(void *p, size_t size);
void __tsan_write_range(void *p, size_t size)
{
	kcsan_check_range((unsigned long)p, size, KCSAN_ACCESS_WRITE, KCSAN_IP);
}

/* Function entry/exit hooks are off (tsan-instrument-func-entry-exit=0); these catch a stray one. */
void __tsan_func_entry(void *call_pc);
void __tsan_func_entry(void *call_pc) { }
void __tsan_func_exit(void);
void __tsan_func_exit(void) { }
/* Called from each object's constructor, which the kernel never runs: nothing to do. */
void __tsan_init(void);
void __tsan_init(void) { }

/*
 * The __atomic builtins: GCC replaces each with a call here, so the runtime
 * must do the operation itself (with the same builtin, uninstrumented
 * here), after checking it as a marked access. A memory order that is not
 * a constant makes GCC use SEQ_CST: never weaker than asked for.
 */
#define KCSAN_RMW	(KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND)
#define KCSAN_DEFINE_ATOMIC_RMW(bits, T, op)					\
T __tsan_atomic##bits##_##op(volatile T *p, T v, int mo);			\
T __tsan_atomic##bits##_##op(volatile T *p, T v, int mo)			\
{										\
	kcsan_check_access((unsigned long)p, sizeof(T), KCSAN_RMW, KCSAN_IP);	\
	return __atomic_##op(p, v, mo);						\
}

#define KCSAN_DEFINE_ATOMIC(bits, T)						\
T __tsan_atomic##bits##_load(const volatile T *p, int mo);			\
T __tsan_atomic##bits##_load(const volatile T *p, int mo)			\
{										\
	kcsan_check_access((unsigned long)p, sizeof(T), KCSAN_ACCESS_ATOMIC, KCSAN_IP); \
	return __atomic_load_n(p, mo);						\
}										\
void __tsan_atomic##bits##_store(volatile T *p, T v, int mo);			\
void __tsan_atomic##bits##_store(volatile T *p, T v, int mo)			\
{										\
	kcsan_check_access((unsigned long)p, sizeof(T),				\
			   KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_WRITE, KCSAN_IP);	\
	__atomic_store_n(p, v, mo);						\
}										\
KCSAN_DEFINE_ATOMIC_RMW(bits, T, exchange_n)					\
KCSAN_DEFINE_ATOMIC_RMW(bits, T, fetch_add)					\
KCSAN_DEFINE_ATOMIC_RMW(bits, T, fetch_sub)					\
KCSAN_DEFINE_ATOMIC_RMW(bits, T, fetch_and)					\
KCSAN_DEFINE_ATOMIC_RMW(bits, T, fetch_or)					\
KCSAN_DEFINE_ATOMIC_RMW(bits, T, fetch_xor)					\
KCSAN_DEFINE_ATOMIC_RMW(bits, T, fetch_nand)					\
T __tsan_atomic##bits##_exchange(volatile T *p, T v, int mo);			\
T __tsan_atomic##bits##_exchange(volatile T *p, T v, int mo)			\
{ return __tsan_atomic##bits##_exchange_n(p, v, mo); }				\
int __tsan_atomic##bits##_compare_exchange_strong(volatile T *p, T *exp, T v, int mo, int fmo); \
int __tsan_atomic##bits##_compare_exchange_strong(volatile T *p, T *exp, T v, int mo, int fmo) \
{										\
	kcsan_check_access((unsigned long)p, sizeof(T), KCSAN_RMW, KCSAN_IP);	\
	return __atomic_compare_exchange_n(p, exp, v, false, mo, fmo);		\
}										\
int __tsan_atomic##bits##_compare_exchange_weak(volatile T *p, T *exp, T v, int mo, int fmo); \
int __tsan_atomic##bits##_compare_exchange_weak(volatile T *p, T *exp, T v, int mo, int fmo) \
{										\
	kcsan_check_access((unsigned long)p, sizeof(T), KCSAN_RMW, KCSAN_IP);	\
	return __atomic_compare_exchange_n(p, exp, v, true, mo, fmo);		\
}										\
T __tsan_atomic##bits##_compare_exchange_val(volatile T *p, T exp, T v, int mo, int fmo); \
T __tsan_atomic##bits##_compare_exchange_val(volatile T *p, T exp, T v, int mo, int fmo) \
{										\
	kcsan_check_access((unsigned long)p, sizeof(T), KCSAN_RMW, KCSAN_IP);	\
	__atomic_compare_exchange_n(p, &exp, v, false, mo, fmo);		\
	return exp;								\
}

KCSAN_DEFINE_ATOMIC(8, u8)
KCSAN_DEFINE_ATOMIC(16, u16)
KCSAN_DEFINE_ATOMIC(32, u32)
KCSAN_DEFINE_ATOMIC(64, u64)

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
	__atomic_thread_fence(mo);
}

void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo)
{
	__atomic_signal_fence(mo);
}

/* Switch the runtime on: every CPU has its per-CPU area by now (init/main.c). */
void kcsan_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(kcsan_rand, cpu) = (u32)(arch_local_clock() ^ (cpu * 2654435761u)) | 1;
		per_cpu(kcsan_skip, cpu) = (long)kcsan_skip_watch;
	}
	WRITE_ONCE(kcsan_ready, true);
	if (!kcsan_early_enable) {
		pr_info("disabled (kcsan.early_enable=0)\n");
		return;
	}
	pr_info("enabled early\n");
	__atomic_store_n(&kcsan_enabled, true, __ATOMIC_RELEASE);
}

void kcsan_show_stats(void)
{
	if (READ_ONCE(kcsan_ready))
		pr_info("%lu watchpoints set, %lu races found, %lu reported\n",
			READ_ONCE(kcsan_nr_watchpoints), READ_ONCE(kcsan_nr_races), kcsan_nr_reports());
}

/* The counters (<kernel/kcsan.h>), for the self-test. */
unsigned long kcsan_nr_races_found(void)
{
	return READ_ONCE(kcsan_nr_races);
}

unsigned long kcsan_nr_watchpoints_set(void)
{
	return READ_ONCE(kcsan_nr_watchpoints);
}

#ifdef CONFIG_KCSAN_SELFTEST
void kcsan_test_watch_addr(const void *p, size_t size)
{
	WRITE_ONCE(kcsan_test_size, 0);
	WRITE_ONCE(kcsan_test_addr, (unsigned long)p);
	WRITE_ONCE(kcsan_test_size, size);
}

unsigned long kcsan_test_races_at(void)
{
	return READ_ONCE(kcsan_test_races);
}
#endif
