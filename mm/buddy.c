/*
 * Buddy free lists. A free block of 2^order pages starts at a PFN that is
 * a multiple of 2^order and is listed on area[order] through its first
 * page, which alone carries PG_buddy. Its buddy is the block at
 * pfn ^ 2^order; when both are free they merge into one block of the next
 * order. Pure logic, no locking: page_alloc.c holds the zone lock.
 */
#include "internal.h"

static void add_free(struct buddy_zone *z, unsigned long pfn, unsigned int order)
{
	struct page *page = &z->mem_map[pfn];

	page->flags = PG_buddy;
	page->order = order;
	list_add(&page->list, &z->area[order].free_list);
	z->area[order].nr_free++;
}

static void del_free(struct buddy_zone *z, unsigned long pfn, unsigned int order)
{
	struct page *page = &z->mem_map[pfn];

	list_del(&page->list);
	page->flags = 0;
	page->order = 0;
	z->area[order].nr_free--;
}

/* True if the block at pfn is free and exactly 2^order pages long. */
static bool is_free_block(const struct buddy_zone *z, unsigned long pfn, unsigned int order)
{
	const struct page *page;

	if (pfn >= z->nr_pages)
		return false;
	page = &z->mem_map[pfn];
	return (page->flags & PG_buddy) && page->order == order;
}

void buddy_init(struct buddy_zone *z, struct page *map, unsigned long nr_pages)
{
	unsigned long pfn;
	unsigned int order;

	z->mem_map = map;
	z->nr_pages = nr_pages;
	z->nr_free = 0;
	for (order = 0; order <= MAX_ORDER; order++) {
		INIT_LIST_HEAD(&z->area[order].free_list);
		z->area[order].nr_free = 0;
	}
	for (pfn = 0; pfn < nr_pages; pfn++)
		map[pfn] = (struct page){ .flags = PG_reserved };
}

void buddy_free(struct buddy_zone *z, unsigned long pfn, unsigned int order)
{
	z->nr_free += 1UL << order;
	while (order < MAX_ORDER) {
		unsigned long buddy = pfn ^ (1UL << order);

		if (!is_free_block(z, buddy, order))
			break;
		del_free(z, buddy, order);
		pfn &= ~(1UL << order);	/* the merged block starts at the lower of the two */
		order++;
	}
	add_free(z, pfn, order);
}

void buddy_free_range(struct buddy_zone *z, unsigned long start, unsigned long end)
{
	unsigned long pfn;

	for (pfn = start; pfn < end; pfn++)
		z->mem_map[pfn].flags = 0;
	/* Largest naturally aligned blocks that fit; buddy_free merges across calls. */
	while (start < end) {
		unsigned int order = start ? (unsigned int)__builtin_ctzl(start) : MAX_ORDER;

		if (order > MAX_ORDER)
			order = MAX_ORDER;
		while (start + (1UL << order) > end)
			order--;
		buddy_free(z, start, order);
		start += 1UL << order;
	}
}

unsigned long buddy_alloc(struct buddy_zone *z, unsigned int order)
{
	unsigned int o;
	unsigned long pfn;

	for (o = order; o <= MAX_ORDER; o++)
		if (!list_empty(&z->area[o].free_list))
			break;
	if (o > MAX_ORDER)
		return BUDDY_NO_PFN;
	pfn = list_first_entry(&z->area[o].free_list, struct page, list) - z->mem_map;
	del_free(z, pfn, o);
	/* Give back the upper halves until the block has the size asked for. */
	while (o > order) {
		o--;
		add_free(z, pfn + (1UL << o), o);
	}
	z->nr_free -= 1UL << order;
	return pfn;
}
