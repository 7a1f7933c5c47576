/*
 * The per-CPU page lists (mm/page_pcp.c): the KTAP suite "page_pcp", run
 * at boot with mm.selftest=1 beside "slab". A CPU that goes offline gives
 * the pages on its list back to the zone; an allocation that finds the
 * zone empty while another CPU's list holds pages still succeeds (the
 * failure path empties every list); interrupts that allocate and free
 * pages on a CPU whose task is inside a push or pop of its list (no
 * interrupt-disable there, the busy flag) never share a page with it.
 */
#include "../internal.h"
#include "../page_zone.h"
#include "suite.h"
#include "irq_task.h"
#include <mm/mm.h>
#include <kernel/ktap.h>
#include <kernel/ktest.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/cpu.h>
#include <sched/kthread.h>
#include <sched/completion.h>
#include <time/time.h>

/* Run fn in a kthread on cpu, wait for done, stop it. True if it finished. */
static bool pp_run_on(unsigned int cpu, int (*fn)(void *), struct completion *done,
		      const char *name)
{
	struct task_struct *t;
	bool ok;

	init_completion(done);
	t = ktest_kthread(fn, NULL, cpu, name);
	if (!t)
		return false;
	wake_up_process(t);
	ok = ktest_wait(done, 20000);
	KTAP_EXPECT_MSG(ok, "the %s thread did not finish", name);
	ktest_stop_if(t, ok, 5000);
	return ok;
}

/* --- a CPU going offline gives its pages back ------------------------------------ */

#define PP_DEAD_MAX	32

static struct {
	void *pages[PP_DEAD_MAX];
	unsigned int n;
	bool failed;
	struct completion done;
} pp_dead;

static int pp_dead_fn(void *unused)
{
	for (unsigned int i = 0; i < pp_dead.n; i++)
		if (!(pp_dead.pages[i] = alloc_pages(GFP_KERNEL, 0)))
			pp_dead.failed = true;
	for (unsigned int i = 0; i < pp_dead.n; i++)
		free_pages(pp_dead.pages[i], 0);	/* onto this CPU's list */
	complete(&pp_dead.done);
	ktest_wait_stop();
	return 0;
}

static void page_pcp_cpu_dead_drain(void)
{
	unsigned int victim = ktest_last_online_cpu(), before, after;
	unsigned long given;
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || victim == 0) {
		ktap_skip("needs CPU hotplug and 2 CPUs");
		return;
	}
	memset(&pp_dead, 0, sizeof(pp_dead));
	pp_dead.n = min(pcp_high_mark() / 2, (unsigned int)PP_DEAD_MAX);
	if (!pp_run_on(victim, pp_dead_fn, &pp_dead.done, "pcp_dead/%u"))
		return;
	if (!KTAP_EXPECT_MSG(!pp_dead.failed, "alloc_pages() failed on CPU %u", victim))
		return;
	before = pcp_cpu_count(victim);
	given = mm_pcp_drained();
	/* Its interrupts and kthreads may have taken a few off the list since. */
	KTAP_EXPECT_MSG(before >= pp_dead.n / 2, "CPU %u lists %u pages after %u free_pages()",
			victim, before, pp_dead.n);
	ret = cpu_down(victim);
	if (!KTAP_EXPECT_MSG(ret == 0, "cpu_down(%u): %d", victim, ret))
		return;
	after = pcp_cpu_count(victim);
	given = mm_pcp_drained() - given;
	ret = cpu_up(victim);
	/*
	 * Not checked page by page: once in the zone, another CPU's refill may
	 * list them again at once.
	 */
	ktap_diag("CPU %u listed %u pages going down, %u once dead; %lu pages given back meanwhile",
		  victim, before, after, given);
	KTAP_EXPECT_MSG(!after, "CPU %u went down holding %u pages on its list", victim, after);
	/* The CPU may still take a few off its list on its way down. */
	KTAP_EXPECT_MSG(given >= before / 2, "only %lu pages went back to the zone for the %u CPU %u listed",
			given, before, victim);
	KTAP_EXPECT_MSG(ret == 0, "cpu_up(%u): %d", victim, ret);
}

/* --- the zone empty, another CPU's list full: the allocation still succeeds --------- */

/* Blocks taken to empty the zone, linked through their first two words. */
struct pp_block {
	struct pp_block *next;
	unsigned long order;
};

static struct {
	void *held[PP_DEAD_MAX];	/* order-0 pages the other CPU frees onto its list */
	unsigned int n;
	struct completion go, done;
} pp_ex;

/* Created before the zone is emptied (a new thread needs pages); frees when told. */
static int pp_ex_free_fn(void *unused)
{
	wait_for_completion(&pp_ex.go);
	for (unsigned int i = 0; i < pp_ex.n; i++)
		free_pages(pp_ex.held[i], 0);
	complete(&pp_ex.done);
	ktest_wait_stop();
	return 0;
}

static void pp_hoard(struct pp_block **hoard, void *addr, unsigned int order)
{
	struct pp_block *b = addr;

	b->next = *hoard;
	b->order = order;
	*hoard = b;
}

static void page_pcp_drain_on_failure(void)
{
	unsigned int victim = ktest_last_online_cpu(), listed, left, got = 0;
	unsigned long blocks = 0;
	struct pp_block *hoard = NULL;
	struct task_struct *t;
	struct cpumask saved;
	bool freed = false;
	void *p;

	if (victim == 0) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	memset(&pp_ex, 0, sizeof(pp_ex));
	pp_ex.n = min(pcp_high_mark() / 2, (unsigned int)PP_DEAD_MAX);
	init_completion(&pp_ex.go);
	init_completion(&pp_ex.done);
	t = ktest_kthread(pp_ex_free_fn, NULL, victim, "pcp_free/%u");
	if (!t)
		return;
	wake_up_process(t);
	ktest_pin_current(0, &saved);
	for (unsigned int i = 0; i < pp_ex.n; i++)
		if (!KTAP_EXPECT(pp_ex.held[i] = alloc_pages(GFP_KERNEL, 0)))
			goto out;
	/*
	 * Empty the zone, largest blocks first. Keep this short: the rest of
	 * the kernel finds no pages meanwhile (slab and kvfree_rcu() caches
	 * still serve it).
	 */
	for (int order = MAX_ORDER; order >= 0; order--)
		while ((p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order))) {
			pp_hoard(&hoard, p, order);
			blocks++;
		}
	/* The other CPU frees its pages: they go onto its list, not the zone. */
	complete(&pp_ex.go);
	freed = ktest_wait(&pp_ex.done, 20000);
	if (!KTAP_EXPECT_MSG(freed, "the freeing thread on CPU %u did not finish", victim))
		goto out;
	listed = pcp_cpu_count(victim);
	/* Now every allocation the zone cannot serve must empty that list first. */
	while ((p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0))) {
		pp_hoard(&hoard, p, 0);
		got++;
	}
	left = pcp_cpu_count(victim);
	ktap_diag("zone emptied with %lu blocks; CPU %u then listed %u pages; %u more order-0 allocations succeeded, then one failed with %u on its list",
		  blocks, victim, listed, got, left);
	/*
	 * The precise check: a failed allocation leaves no list full. (The
	 * count of successes alone is blurred by pages that other code frees
	 * meanwhile onto this CPU's list.) The other CPU is idle; an interrupt
	 * there may still free a page or two after the drain.
	 */
	KTAP_EXPECT_MSG(left < listed / 2, "an allocation failed while CPU %u's list held %u of its %u pages",
			victim, left, listed);
	KTAP_EXPECT_MSG(listed >= pp_ex.n / 2, "CPU %u lists only %u pages after freeing %u",
			victim, listed, pp_ex.n);
	KTAP_EXPECT_MSG(got >= pp_ex.n,
			"only %u order-0 allocations succeeded while CPU %u's list held %u pages",
			got, victim, listed);
out:
	while (hoard) {
		struct pp_block *b = hoard;

		hoard = b->next;
		free_pages(b, b->order);
	}
	if (!freed) {
		/* The thread never freed them: let it go with nothing to free. */
		for (unsigned int i = 0; i < pp_ex.n; i++)
			free_pages(pp_ex.held[i], 0);
		pp_ex.n = 0;
		complete(&pp_ex.go);
		freed = ktest_wait(&pp_ex.done, 20000);
	}
	ktest_stop_if(t, freed, 5000);
	ktest_unpin_current(&saved);
}

/* --- interrupts against a task on one CPU's list ----------------------------------- */

#define PP_IRQ_TASK	16	/* pages the task keeps live at a time */
#define PP_IRQ_KEEP	4	/* pages each interrupt keeps until the next one */
#define PP_IRQ_MS	400	/* how long the task loops at least */
#define PP_IRQ_MAX_MS	2000	/* and at most, until PP_IRQ_INSIDE calls landed inside */
#define PP_IRQ_INSIDE	16
#define PP_STAMP	64	/* bytes stamped at the start of each page */

static struct {
	unsigned int cpu;
	bool stop;
	struct completion done;
	unsigned long loops, task_bad, task_nulls;
	/* the interrupts' side, written on the task's CPU only */
	void *kept[PP_IRQ_KEEP];
	unsigned long calls, irq_bad, irq_nulls;
	unsigned long inside;	/* calls that found the task inside a push or pop */
} pp_irq;

static bool pp_irq_enough(void)
{
	return READ_ONCE(pp_irq.inside) >= PP_IRQ_INSIDE;
}

static bool pp_same(const u8 *page, u8 v)
{
	for (unsigned int i = 0; i < PP_STAMP; i++)
		if (READ_ONCE(page[i]) != v)
			return false;
	return true;
}

/*
 * Cross-call on the task's CPU: every other call takes PP_IRQ_KEEP pages
 * (stamped 0xee), the next checks and frees them, so an interrupt inside
 * the task's push or pop moves the list under it.
 */
static void pp_irq_fn(void *unused)
{
	bool take = !(pp_irq.calls++ & 1);

	/* Counted apart from the allocator's own fallback count, which the flag check feeds. */
	if (pcp_busy_here())
		pp_irq.inside++;

	for (unsigned int i = 0; i < PP_IRQ_KEEP; i++) {
		u8 *p = pp_irq.kept[i];

		if (!take) {
			if (p && !pp_same(p, 0xee))
				pp_irq.irq_bad++;
			free_pages(p, 0);
			pp_irq.kept[i] = NULL;
			continue;
		}
		p = alloc_pages(GFP_ATOMIC, 0);
		if (p)
			memset(p, 0xee, PP_STAMP);
		else
			pp_irq.irq_nulls++;
		pp_irq.kept[i] = p;
	}
}

/* The task: PP_IRQ_TASK pages live, each stamped with its slot; one swapped per round. */
static int pp_irq_task_fn(void *unused)
{
	static u8 *live[PP_IRQ_TASK];
	unsigned int i = 0;

	while (!READ_ONCE(pp_irq.stop)) {
		u8 *p = live[i];

		if (p && !pp_same(p, (u8)i))
			pp_irq.task_bad++;
		free_pages(p, 0);
		p = alloc_pages(GFP_KERNEL, 0);
		if (p)
			memset(p, (u8)i, PP_STAMP);
		else
			pp_irq.task_nulls++;
		live[i] = p;
		i = (i + 1) % PP_IRQ_TASK;
		pp_irq.loops++;
		if (!(pp_irq.loops % 4096))
			cond_resched();
	}
	for (i = 0; i < PP_IRQ_TASK; i++) {
		if (live[i] && !pp_same(live[i], (u8)i))
			pp_irq.task_bad++;
		free_pages(live[i], 0);
		live[i] = NULL;
	}
	complete(&pp_irq.done);
	ktest_wait_stop();
	return 0;
}

static void pp_irq_release(void *unused)
{
	for (unsigned int i = 0; i < PP_IRQ_KEEP; i++) {
		if (pp_irq.kept[i] && !pp_same(pp_irq.kept[i], 0xee))
			pp_irq.irq_bad++;
		free_pages(pp_irq.kept[i], 0);
		pp_irq.kept[i] = NULL;
	}
}

static void page_pcp_irq_vs_task(void)
{
	static const struct mm_irq_task run = {
		.name = "pcp_irq/%u", .task_fn = pp_irq_task_fn, .irq_fn = pp_irq_fn,
		.release_fn = pp_irq_release, .stop = &pp_irq.stop, .done = &pp_irq.done,
		.ms = PP_IRQ_MS, .enough = pp_irq_enough, .max_ms = PP_IRQ_MAX_MS,
	};
	unsigned long hits0 = pcp_busy_hits(), hits;

	if (num_online_cpus() < 2) {
		ktap_skip("needs 2 CPUs");
		return;
	}
	memset(&pp_irq, 0, sizeof(pp_irq));
	if (!mm_irq_vs_task(&run, &pp_irq.cpu))
		return;
	hits = pcp_busy_hits() - hits0;
	ktap_diag("CPU %u: %lu task rounds, %lu interrupts of %u page allocs or frees each, %lu came inside a push or pop, %lu of their calls fell back to the zone",
		  pp_irq.cpu, pp_irq.loops, pp_irq.calls, PP_IRQ_KEEP, pp_irq.inside, hits);
	KTAP_EXPECT_MSG(!pp_irq.task_bad, "%lu of the task's pages changed while live (shared with an interrupt?)",
			pp_irq.task_bad);
	KTAP_EXPECT_MSG(!pp_irq.irq_bad, "%lu of the interrupts' pages changed while live (shared with the task?)",
			pp_irq.irq_bad);
	KTAP_EXPECT_MSG(!pp_irq.task_nulls && !pp_irq.irq_nulls, "allocations failed: task %lu, interrupts %lu",
			pp_irq.task_nulls, pp_irq.irq_nulls);
	KTAP_EXPECT_MSG(pp_irq.calls > 0 && pp_irq.loops > 0, "%lu interrupts, %lu task rounds",
			pp_irq.calls, pp_irq.loops);
}

static const struct ktap_case page_pcp_cases[] = {
	KTAP_CASE(page_pcp_cpu_dead_drain),
	KTAP_CASE(page_pcp_drain_on_failure),
	KTAP_CASE(page_pcp_irq_vs_task),
};
KTAP_SUITE(page_pcp, page_pcp_cases, &mm_selftest);
