/*
 * Planted KASAN bugs (CONFIG_KASAN_TEST), in the manner of Linux's
 * test_kasan cases: kasan_test=NAME makes a kthread, once boot is done,
 * commit one memory bug that KASAN must report, then carry on; "all"
 * runs every case in turn (boot with kasan_multi_shot to see every
 * report). Each case prints "kasan_test: NAME" before its bug and the
 * thread prints "kasan_test: done, kernel still running" at the end.
 * This file is instrumented like any other caller.
 */
#define KPARAM_SUBSYS "kasan"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */

#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>
#include <rcu/rcupdate.h>
#include <sched/sched.h>
#include <sched/kthread.h>
#include "../internal.h"

static char kasan_test[24];
KPARAM_STRING("kasan_test", kasan_test,
	      "test only: commit one planted KASAN bug after boot (Documentation/dev-tools/kasan.md)");

/* Keeps the compiler from proving the bad access away or folding the index. */
#define HIDE(x) ({ __typeof__(x) __v = (x); __asm__ volatile("" : "+r"(__v)); __v; })

struct kasan_test_obj {
	int value;
	struct rcu_head rh;
};

static __noinline void kasan_uaf(void)
{
	char *p = kmalloc(16, GFP_KERNEL);

	kfree(p);
	pr_info("kasan_test: read %d after kfree\n", READ_ONCE(p[HIDE(8)]));
}

static void kasan_test_free_cb(struct rcu_head *rh)
{
	kfree(container_of(rh, struct kasan_test_obj, rh));
}

/* A reader that kept the pointer past the grace period: kfree_rcu() and call_rcu(). */
static __noinline void kasan_uaf_rcu(void)
{
	struct kasan_test_obj *a = kmalloc(sizeof(*a), GFP_KERNEL);
	struct kasan_test_obj *b = kmalloc(sizeof(*b), GFP_KERNEL);

	a->value = 1;
	b->value = 2;
	kfree_rcu(a, rh);
	call_rcu(&b->rh, kasan_test_free_cb);
	kvfree_rcu_barrier();	/* kfree_rcu()'s batch (Tree RCU: kernel/rcu/kvfree.c) */
	rcu_barrier();
	pr_info("kasan_test: read %d after kfree_rcu()\n", READ_ONCE(HIDE(a)->value));
	pr_info("kasan_test: read %d after call_rcu()\n", READ_ONCE(HIDE(b)->value));
}

static __noinline void kasan_oob_read(void)
{
	char *p = kmalloc(13, GFP_KERNEL);

	pr_info("kasan_test: read %d past a 13-byte object\n", READ_ONCE(p[HIDE(13)]));
	kfree(p);
}

static __noinline void kasan_oob_write(void)
{
	u64 *p = kmalloc(64, GFP_KERNEL);

	WRITE_ONCE(p[HIDE(8)], 1);
	kfree(p);
}

static __noinline void kasan_double_free(void)
{
	char *p = kmalloc(32, GFP_KERNEL);

	kfree(p);
	kfree(HIDE(p));
	pr_info("kasan_test: freed %p twice\n", p);
}

static __noinline void kasan_invalid_free(void)
{
	char *p = kmalloc(32, GFP_KERNEL);

	kfree(HIDE(p) + 1);
	kfree(p);
	pr_info("kasan_test: freed %p + 1\n", p);
}

static char kasan_test_global[13];

static __noinline void kasan_global_oob(void)
{
	pr_info("kasan_test: read %d past a global\n", READ_ONCE(kasan_test_global[HIDE(13)]));
}

static __noinline void kasan_page_uaf(void)
{
	char *p = alloc_pages(GFP_KERNEL, 0);

	free_pages(p, 0);
	pr_info("kasan_test: read %d from a freed page\n", READ_ONCE(p[HIDE(100)]));
}

/* A page the allocator has never handed out: free since boot, so poisoned too. */
static __noinline void kasan_page_unallocated(void)
{
	unsigned long pfn;
	char *p;

	/*
	 * The lowest free block of the largest order: blocks are taken from
	 * the head of the free lists, freed ones go back there, so the low
	 * ones freed first at boot are split last. Unlocked peek at mem_map:
	 * the kernel is quiet when the test runs, and a block taken meanwhile
	 * only costs the report.
	 */
	for (pfn = 0; pfn < max_pfn; pfn++)
		if ((READ_ONCE(mem_map[pfn].flags) & PG_buddy) &&
		    READ_ONCE(mem_map[pfn].order) == MAX_ORDER)
			break;
	if (pfn == max_pfn) {
		pr_info("kasan_test: no free block of order %u\n", MAX_ORDER);
		return;
	}
	p = phys_to_virt(((phys_addr_t)pfn + (1UL << MAX_ORDER) - 1) << PAGE_SHIFT);
	pr_info("kasan_test: read %d from a page never allocated\n", READ_ONCE(p[HIDE(64)]));
}

/* Larger than any slab class: a block of pages, its stacks kept beside mem_map. */
static __noinline void kasan_kmalloc_large_uaf(void)
{
	char *p = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);

	kfree(p);
	pr_info("kasan_test: read %d after kfree of a large block\n", READ_ONCE(p[HIDE(4100)]));
}

static __noinline void kasan_memset_oob(void)
{
	char *p = kmalloc(20, GFP_KERNEL);

	memset(p, 0, HIDE(21));
	kfree(p);
}

/* Needs CONFIG_KASAN_STACK; without it, no report (the tests build with it). */
static __noinline void kasan_stack_oob(void)
{
	char buf[13];

	memset(buf, 1, sizeof(buf));
	pr_info("kasan_test: read %d past a stack array\n", READ_ONCE(buf[HIDE(13)]));
}

static const struct {
	const char *name;
	void (*fn)(void);
} kasan_tests[] = {
	{ "uaf", kasan_uaf },
	{ "uaf_rcu", kasan_uaf_rcu },
	{ "oob_read", kasan_oob_read },
	{ "oob_write", kasan_oob_write },
	{ "double_free", kasan_double_free },
	{ "invalid_free", kasan_invalid_free },
	{ "global_oob", kasan_global_oob },
	{ "page_uaf", kasan_page_uaf },
	{ "page_unallocated", kasan_page_unallocated },
	{ "kmalloc_large_uaf", kasan_kmalloc_large_uaf },
	{ "memset_oob", kasan_memset_oob },
	{ "stack_oob", kasan_stack_oob },
};

static int kasan_test_thread(void *arg)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(kasan_tests); i++)
		if (!strcmp(kasan_test, "all") || !strcmp(kasan_test, kasan_tests[i].name)) {
			pr_info("kasan_test: %s\n", kasan_tests[i].name);
			kasan_tests[i].fn();
		}
	pr_info("kasan_test: done, kernel still running\n");
	return 0;
}

static int kasan_test_init(void)
{
	bool known = !strcmp(kasan_test, "all");

	if (!kasan_test[0])
		return 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(kasan_tests); i++)
		known |= !strcmp(kasan_test, kasan_tests[i].name);
	if (!known) {
		pr_warn("kasan: kasan_test: invalid value '%s' (not uaf, uaf_rcu, oob_read, oob_write, "
			"double_free, invalid_free, global_oob, page_uaf, page_unallocated, kmalloc_large_uaf, "
			"memset_oob, stack_oob or all), using none\n",
			kasan_test);
		return 0;
	}
	kthread_run(kasan_test_thread, NULL, "kasan_test");
	return 0;
}
late_initcall(kasan_test_init);
