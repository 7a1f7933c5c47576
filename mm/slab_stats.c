/*
 * kmalloc's counters and look-ups that are not on the allocation paths
 * (mm/slab.c has those): ksize(), mm_get_stats()'s figures, the test
 * hooks of mm/test/slab.c and KASAN's slot look-up.
 */
#include "slab_internal.h"
#include <kernel/smp.h>
#include <kernel/barrier.h>
#include <kernel/cpumask.h>
#include <kernel/irqflags.h>
#include <kernel/bug.h>
#include <mm/kasan.h>

size_t ksize(const void *ptr)
{
	struct page *page;
	u32 flags;

	if (ZERO_OR_NULL_PTR(ptr))
		return 0;
	if (!virt_addr_valid(ptr))
		bad_kfree(ptr, "ksize of a pointer not in RAM");
	page = virt_to_page(ptr);
	flags = READ_ONCE(page->flags);
	if (flags & PG_slab)	/* KASAN: all but its metadata */
		return kasan_slab_ksize((void *)ptr, kmalloc_classes[page->slab_class].size);
	if (flags == (PG_head | PG_kmalloc)) {
		/* KASAN: the whole block may be used now (Linux's ksize() unpoisons it too). */
		kasan_kmalloc_large((void *)ptr, PAGE_SIZE << page->order, page->order);
		return PAGE_SIZE << page->order;
	}
	bad_kfree(ptr, "ksize of a pointer kmalloc did not hand out");
}

void kmalloc_get_stats(struct mm_stats *st)
{
	unsigned long la = __atomic_load_n(&large_allocs, __ATOMIC_RELAXED);
	unsigned long lf = __atomic_load_n(&large_frees, __ATOMIC_RELAXED);
	unsigned int i;

	st->kmalloc_allocs = la;
	st->kmalloc_frees = lf;
	st->large_live = la - lf;
	st->slab_pages = 0;
	/*
	 * Frees first: every free counted was preceded by its allocation, so
	 * allocations summed afterwards are never fewer (live never wraps).
	 * smp_rmb() pairs with the ordering that handed each object from its
	 * allocating CPU to its freeing CPU (a lock, a release/acquire or a
	 * barrier of the caller's): an allocation's count store precedes the
	 * matching free's.
	 */
	for_each_possible_cpu(i)
		st->kmalloc_frees += READ_ONCE(per_cpu(kmalloc_nr_frees, i));
	smp_rmb();
	for_each_possible_cpu(i)
		st->kmalloc_allocs += READ_ONCE(per_cpu(kmalloc_nr_allocs, i));
	/* Only nodes of CPUs that may exist were used (this_node()). */
	for (i = 0; i < KMALLOC_NR_NODES && i < nr_cpu_ids; i++)
		for (unsigned int j = 0; j < NR_KMALLOC_CLASSES; j++) {
			struct kmalloc_node *n = &kmalloc_nodes[i][j];
			unsigned long flags;

			spin_lock_irqsave(&n->lock, flags);
			st->slab_pages += n->nr_pages;
			spin_unlock_irqrestore(&n->lock, flags);
		}
	st->kmalloc_live = st->kmalloc_allocs - st->kmalloc_frees;
	st->kmalloc_failures = __atomic_load_n(&kmalloc_failures, __ATOMIC_RELAXED);
}

unsigned long kmalloc_class_lock_takes(size_t size)
{
	return __atomic_load_n(&kmalloc_classes[size_to_class(size)].lock_takes, __ATOMIC_RELAXED);
}

unsigned long kmalloc_cpu_busy_hits(void)
{
	return __atomic_load_n(&kmalloc_busy_hits, __ATOMIC_RELAXED);
}

unsigned int kmalloc_cpu_cached(unsigned int cpu, size_t size)
{
	struct kmalloc_cpu_cache *cc = per_cpu_ptr(&kmalloc_cpu_caches[size_to_class(size)], cpu);
	unsigned int n = READ_ONCE(cc->count);

	void *first = READ_ONCE(cc->freelist);

	/*
	 * For tests, racy unless cpu is dead: a live CPU may take objects off
	 * its freelist under us, so the walk stays inside the first object's
	 * page and stops after a page's worth.
	 */
	for (void *o = first; o && n < KMALLOC_CPU_CACHE_MAX + PAGE_SIZE / KMALLOC_MIN_SIZE; o = obj_next(o)) {
		if (((unsigned long)o ^ (unsigned long)first) >= PAGE_SIZE)
			break;
		n++;
	}
	return n;
}

bool kmalloc_obj_back_in_page(const void *obj)
{
	struct page *page = virt_to_page(obj);
	struct kmalloc_node *n;
	unsigned long flags;
	bool found = false;

	if (!(READ_ONCE(page->flags) & PG_slab))
		return true;	/* the whole page went back to the page allocator */
	n = page_node(page);
	spin_lock_irqsave(&n->lock, flags);
	for (void *o = page->freelist; o && !found; o = obj_next(o))
		found = o == obj;
	spin_unlock_irqrestore(&n->lock, flags);
	return found;
}

#ifdef CONFIG_KASAN
bool kmalloc_slab_object(const void *addr, void **slot, unsigned int *slot_size)
{
	struct page *page;
	unsigned int size;

	if (!virt_addr_valid(addr))
		return false;
	page = virt_to_page(addr);
	if (!(READ_ONCE(page->flags) & PG_slab))
		return false;
	size = kmalloc_classes[page->slab_class].size;
	*slot = (void *)((unsigned long)addr & ~(unsigned long)(size - 1));
	*slot_size = size;
	return true;
}

bool kmalloc_percpu_ready(void)
{
	return READ_ONCE(kmalloc_cpu_caches_on);
}
#endif
