/*
 * What the page allocator and kmalloc's large blocks tell KASAN. Every
 * free page is poisoned (KASAN_PAGE_FREE): the RAM handed to the buddy
 * allocator at boot, so that a page never handed out is as bad to touch
 * as one freed (Linux poisons the pages memblock frees at boot the same
 * way), and every block freed since. alloc_pages() unpoisons the block.
 * A large kmalloc block (more than a slab class, page-backed) keeps the
 * tail past its request poisoned (KASAN_PAGE_REDZONE), and since it has
 * no redzone slot for metadata its allocation and free stacks live in a
 * side array with one entry per page frame, read by the report.
 */
#include <kernel/string.h>
#include "kasan.h"
#include "../internal.h"

static struct kasan_page_meta *page_meta;	/* set once by mm_init(), before SMP */
static unsigned long page_meta_pfns;

size_t kasan_page_meta_bytes(unsigned long nr_pages)
{
	return nr_pages * sizeof(struct kasan_page_meta);
}

void kasan_page_meta_init(void *mem, unsigned long nr_pages)
{
	memset(mem, 0, kasan_page_meta_bytes(nr_pages));
	page_meta = mem;
	page_meta_pfns = nr_pages;
}

static struct kasan_page_meta *meta_of(unsigned long pfn)
{
	return page_meta && pfn < page_meta_pfns ? &page_meta[pfn] : NULL;
}

void kasan_poison_boot_free(void *addr, size_t size)
{
	kasan_poison(addr, size, KASAN_PAGE_FREE);
}

struct kasan_page_meta *kasan_large_block(unsigned long addr, unsigned long *head)
{
	unsigned long pfn;

	if (!kasan_has_shadow(addr) || addr >= (max_pfn << PAGE_SHIFT) || !page_meta)
		return NULL;
	pfn = virt_to_phys((void *)addr) >> PAGE_SHIFT;
	/* The block is naturally aligned: its head is pfn rounded down to its order. */
	for (unsigned int o = 0; o <= MAX_ORDER; o++) {
		unsigned long h = pfn & ~((1UL << o) - 1);
		struct kasan_page_meta *m = meta_of(h);

		if (m && m->state != KASAN_STATE_INIT && m->order == o) {
			*head = (unsigned long)phys_to_virt((phys_addr_t)h << PAGE_SHIFT);
			return m;
		}
	}
	return NULL;
}

void kasan_alloc_pages(void *addr, unsigned int order)
{
	unsigned long pfn = virt_to_phys(addr) >> PAGE_SHIFT;
	struct kasan_page_meta *m;

	kasan_unpoison(addr, PAGE_SIZE << order);
	/*
	 * A freed large block's record describes its pages until any of them
	 * is handed out again: drop the records of blocks inside this one and
	 * of a larger one around it.
	 */
	for (unsigned long i = 0; i < (1UL << order); i++) {
		m = meta_of(pfn + i);
		if (m)
			m->state = KASAN_STATE_INIT;
	}
	for (unsigned int o = order + 1; o <= MAX_ORDER; o++) {
		m = meta_of(pfn & ~((1UL << o) - 1));
		if (m && m->order == o)
			m->state = KASAN_STATE_INIT;
	}
}

void kasan_free_pages(void *addr, unsigned int order)
{
	struct kasan_page_meta *m = meta_of(virt_to_phys(addr) >> PAGE_SHIFT);

	/* kfree() of a large block ends here (slab.c checked it): its free stack. */
	if (m && m->state == KASAN_STATE_ALLOC && m->order == order) {
		kasan_save_track(&m->free);
		m->state = KASAN_STATE_FREE;
	}
	kasan_poison(addr, PAGE_SIZE << order, KASAN_PAGE_FREE);
}

void kasan_kmalloc_large(void *addr, size_t size, unsigned int order)
{
	unsigned long rz = ALIGN((unsigned long)addr + size, KASAN_GRANULE_SIZE);
	struct kasan_page_meta *m = meta_of(virt_to_phys(addr) >> PAGE_SHIFT);

	kasan_unpoison(addr, size);
	kasan_poison((void *)rz, (unsigned long)addr + (PAGE_SIZE << order) - rz,
		     KASAN_PAGE_REDZONE);
	if (!m)
		return;
	/* ksize() calls this again for a live block: only its size changes. */
	if (m->state != KASAN_STATE_ALLOC) {
		kasan_save_track(&m->alloc);
		m->free.nr = 0;
		m->free.pid = 0;
		m->order = order;
		m->state = KASAN_STATE_ALLOC;
	}
	m->size = size;
}

bool kasan_kfree_large(void *addr, unsigned long ip)
{
	s8 s;

	if (!kasan_has_shadow((unsigned long)addr))
		return true;
	s = *kasan_mem_to_shadow((unsigned long)addr);
	if (s == (s8)KASAN_PAGE_FREE) {
		kasan_report_invalid_free(addr, ip, "double-free");
		return false;
	}
	return true;
}
