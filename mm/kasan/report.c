/*
 * KASAN's report, in Linux's words and layout: the banner, "BUG: KASAN:
 * <type> in <func>+<off>/<size>", the access and the task, the stack,
 * then what the address belongs to (a kmalloc object, slab or large, with
 * its allocation and free stacks, a page, a global) and the shadow bytes
 * around it.
 * Without kasan_multi_shot only the first report prints (Linux's
 * default); kasan.fault=panic panics after it. One report at a time: a
 * bad access inside the reporting code itself is ignored, not reported.
 */
#define KPARAM_SUBSYS "kasan"

#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/string.h>
#include <kernel/kallsyms.h>
#include <kernel/sprintf.h>
#include <kernel/sched_hooks.h>
#include <kernel/smp.h>
#include <locking/spinlock.h>
#include "kasan.h"
#include "../internal.h"

static char kasan_fault[8] = "report";
KPARAM_STRING("kasan.fault", kasan_fault,
	      "KASAN: after a report, report (carry on) or panic");
static bool kasan_multi_shot;
KPARAM_BOOL("kasan_multi_shot", kasan_multi_shot,
	    "KASAN: print every report, not only the first");

#define KASAN_BANNER "=================================================================="
#define SHADOW_BYTES_PER_ROW	16
#define SHADOW_ROWS_AROUND	2

static DEFINE_SPINLOCK(report_lock);
static bool reported;			/* guarded by report_lock */
static int report_cpu = -1;		/* the CPU printing a report, or -1 */
static bool fault_panic;

void kasan_report_init(void)
{
	if (!strcmp(kasan_fault, "panic")) {
		fault_panic = true;
	} else if (strcmp(kasan_fault, "report")) {
		pr_warn("kasan: kasan.fault: invalid value '%s' (not report or panic), using report\n",
			kasan_fault);
		strscpy(kasan_fault, "report", sizeof(kasan_fault));
	}
}

static bool start_report(unsigned long *flags)
{
	int cpu = raw_smp_processor_id();

	if (READ_ONCE(report_cpu) == cpu)
		return false;		/* a bad access while reporting one: ignore it */
	spin_lock_irqsave(&report_lock, *flags);
	if (reported && !kasan_multi_shot) {
		spin_unlock_irqrestore(&report_lock, *flags);
		return false;
	}
	reported = true;
	WRITE_ONCE(report_cpu, cpu);
	pr_err(KASAN_BANNER "\n");
	return true;
}

static void end_report(unsigned long *flags)
{
	pr_err(KASAN_BANNER "\n");
	WRITE_ONCE(report_cpu, -1);
	spin_unlock_irqrestore(&report_lock, *flags);
	if (fault_panic)
		panic("kasan.fault=panic set ...\n");
}

/* The shadow value that names the bug: past a partial granule, the next one's. */
static const char *bug_type(unsigned long addr, size_t size)
{
	s8 *s = kasan_mem_to_shadow(addr), *end = kasan_mem_to_shadow(addr + size - 1);
	u8 v;

	while (s < end && !*s)
		s++;
	if (*s > 0 && *s < (s8)KASAN_GRANULE_SIZE)
		s++;
	v = (u8)*s;
	switch (v) {
	case KASAN_PAGE_REDZONE:
	case KASAN_SLAB_REDZONE:
		return "slab-out-of-bounds";
	case KASAN_SLAB_FREE:
		return "slab-use-after-free";
	case KASAN_PAGE_FREE:
		return "use-after-free";
	case KASAN_GLOBAL_REDZONE:
		return "global-out-of-bounds";
	case KASAN_STACK_LEFT:
	case KASAN_STACK_MID:
	case KASAN_STACK_RIGHT:
		return "stack-out-of-bounds";
	default:
		return "unknown-crash";
	}
}

/* "WHAT by task N:" (or WHAT alone, for the work creation), then the stored frames. */
static void print_track(const char *what, const struct kasan_track *t, bool task)
{
	if (task)
		pr_err("%s by task %u:\n", what, t->pid);
	else
		pr_err("%s\n", what);
	for (unsigned int i = 0; i < t->nr && i < KASAN_TRACK_DEPTH; i++) {
		char sym[128];

		sprint_backtrace(sym, sizeof(sym), t->stack[i]);
		pr_err(" %s\n", sym);
	}
	pr_err("\n");
}

static void describe_slab_object(unsigned long addr, void *slot, unsigned int slot_size)
{
	struct kasan_slab_meta *m = kasan_meta(slot, slot_size);
	unsigned long obj = (unsigned long)slot, size;
	bool freed = m->state == KASAN_STATE_QUARANTINE || m->state == KASAN_STATE_FREE;

	if (m->state != KASAN_STATE_ALLOC && !freed) {
		pr_err("The buggy address belongs to a never-allocated slot at %016lx\n"
		       " which belongs to the cache kmalloc-%u of size %u\n", obj, slot_size,
		       slot_size);
		return;
	}
	size = m->size;
	print_track("Allocated", &m->alloc, true);
	if (freed && m->free.pid | m->free.nr)
		print_track("Freed", &m->free, true);
	if (m->aux)
		print_track("Last potentially related work creation:", kasan_aux_track(m), false);
	pr_err("The buggy address belongs to the object at %016lx\n"
	       " which belongs to the cache kmalloc-%u of size %u\n", obj, slot_size, slot_size);
	if (addr < obj)
		pr_err("The buggy address is located %lu bytes to the left of\n", obj - addr);
	else if (addr >= obj + size)
		pr_err("The buggy address is located %lu bytes to the right of\n",
		       addr - (obj + size));
	else
		pr_err("The buggy address is located %lu bytes inside of\n", addr - obj);
	pr_err(" %s %lu-byte region [%016lx, %016lx)\n", freed ? "freed" : "allocated",
	       size, obj, obj + size);
}

/* A large kmalloc block: its stacks, then the page (Linux's "physical page" lines) and region. */
static void describe_large_block(unsigned long addr, const struct kasan_page_meta *m,
				 unsigned long head)
{
	bool freed = m->state == KASAN_STATE_FREE;

	print_track("Allocated", &m->alloc, true);
	if (freed)
		print_track("Freed", &m->free, true);
	pr_err("The buggy address belongs to the physical page:\n");
	pr_err("page:%016lx pfn:%#lx\n", addr & PAGE_MASK, addr >> PAGE_SHIFT);
	pr_err("head:%016lx order:%u\n", head, m->order);
	if (addr >= head + m->size)
		pr_err("The buggy address is located %lu bytes to the right of\n",
		       addr - (head + m->size));
	else
		pr_err("The buggy address is located %lu bytes inside of\n", addr - head);
	pr_err(" %s %u-byte region [%016lx, %016lx)\n", freed ? "freed" : "allocated",
	       m->size, head, head + m->size);
}

static void describe_address(unsigned long addr)
{
	const struct kasan_page_meta *pm;
	void *slot;
	unsigned int slot_size;
	unsigned long size, off, head;
	const char *name;

	if (kmalloc_slab_object((void *)addr, &slot, &slot_size)) {
		describe_slab_object(addr, slot, slot_size);
	} else if ((pm = kasan_large_block(addr, &head))) {
		describe_large_block(addr, pm, head);
	} else if (kasan_find_global(addr, &name, &off, &size)) {
		pr_err("The buggy address belongs to the variable:\n");
		pr_err(" %s+%#lx/%#lx\n", name, off, size);
	} else if (addr >= KSTACK_AREA_START && addr < KSTACK_AREA_END) {
		pr_err("The buggy address belongs to stack of task %s/%d\n", sched_current_comm(),
		       sched_current_pid());
	} else if (addr < (max_pfn << PAGE_SHIFT)) {
		pr_err("The buggy address belongs to the physical page:\n");
		pr_err("page:%016lx pfn:%#lx\n", addr & PAGE_MASK, addr >> PAGE_SHIFT);
	}
	pr_err("\n");
}

static void print_shadow(unsigned long addr)
{
	unsigned long row = (unsigned long)kasan_mem_to_shadow(addr) & ~(SHADOW_BYTES_PER_ROW - 1UL);
	long i;

	pr_err("Memory state around the buggy address:\n");
	for (i = -SHADOW_ROWS_AROUND; i <= SHADOW_ROWS_AROUND; i++) {
		const u8 *s = (const u8 *)(row + i * SHADOW_BYTES_PER_ROW);
		unsigned long mem = kasan_shadow_to_mem((const s8 *)s);
		char line[16 + 3 + SHADOW_BYTES_PER_ROW * 3 + 2];
		int n = 0;

		if (!kasan_has_shadow(mem) || !kasan_has_shadow(mem + 8 * SHADOW_BYTES_PER_ROW - 1))
			continue;
		for (int j = 0; j < SHADOW_BYTES_PER_ROW; j++)
			n += snprintf(line + n, sizeof(line) - n, "%s%02x", j ? " " : "", s[j]);
		pr_err("%c%016lx: %s\n", i ? ' ' : '>', mem, line);
		if (!i) {
			/* The caret under the buggy address's shadow byte. */
			int col = 1 + 16 + 2 + 3 * (int)((unsigned long)kasan_mem_to_shadow(addr) - row);

			pr_err("%*s^\n", col, "");
		}
	}
}

/* After the first two lines: the stack, what addr belongs to, the shadow, the closing banner. */
static void finish_report(unsigned long addr, unsigned long *flags)
{
	pr_err("\n");
	dump_stack();
	pr_err("\n");
	describe_address(addr);
	print_shadow(addr);
	end_report(flags);
}

void kasan_report(unsigned long addr, size_t size, bool is_write, unsigned long ip)
{
	unsigned long flags;

	if (!start_report(&flags))
		return;
	pr_err("BUG: KASAN: %s in %pS\n", bug_type(addr, size), (void *)ip);
	pr_err("%s of size %zu at addr %016lx by task %s/%d\n", is_write ? "Write" : "Read",
	       size, addr, sched_current_comm(), sched_current_pid());
	finish_report(addr, &flags);
}

void kasan_report_invalid_free(const void *ptr, unsigned long ip, const char *type)
{
	unsigned long flags, addr = (unsigned long)ptr;

	if (!start_report(&flags))
		return;
	pr_err("BUG: KASAN: %s in %pS\n", type, (void *)ip);
	pr_err("Free of addr %016lx by task %s/%d\n", addr, sched_current_comm(),
	       sched_current_pid());
	finish_report(addr, &flags);
}
