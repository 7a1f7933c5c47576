/*
 * What the allocators tell KASAN (include/mm/kasan.h). A kmalloc slot is
 * [object][slack][struct kasan_slab_meta]: the requested bytes are
 * accessible, everything after them is redzone (the metadata holds the
 * allocation and free stacks and the quarantine link, so a report can
 * show them). A freed object is poisoned whole and goes to the
 * quarantine, which gives it back to slab.c only once enough other
 * memory has been freed after it. Pages and large kmalloc blocks: page.c.
 */
#include <kernel/stacktrace.h>
#include <kernel/sched_hooks.h>
#include <kernel/string.h>
#include "kasan.h"
#include "../internal.h"

/* Frames of KASAN and kmalloc/kfree themselves, left out of the stored stacks. */
#define KASAN_TRACK_SKIP	2

void kasan_save_track(struct kasan_track *t)
{
	unsigned long stack[KASAN_TRACK_DEPTH];

	/* Saved on the stack first: the track lies in a redzone, the (checked) walker's stores would hit it. */
	t->nr = arch_stack_trace_save(stack, KASAN_TRACK_DEPTH, KASAN_TRACK_SKIP);
	t->pid = sched_current_pid();
	memcpy(t->stack, stack, sizeof(stack));
}

void kasan_poison_slab(void *page_addr)
{
	kasan_poison(page_addr, PAGE_SIZE, KASAN_SLAB_REDZONE);
	/* No slot has a history yet. */
}

void kasan_slab_alloc(void *slot, size_t size, size_t slot_size)
{
	struct kasan_slab_meta *m = kasan_meta(slot, slot_size);
	unsigned long rz = ALIGN((unsigned long)slot + size, KASAN_GRANULE_SIZE);

	kasan_unpoison(slot, size);
	kasan_poison((void *)rz, (unsigned long)slot + slot_size - rz, KASAN_SLAB_REDZONE);
	m->size = size;
	m->state = KASAN_STATE_ALLOC;
	m->aux = 0;
	m->qnext = NULL;
	kasan_save_track(&m->alloc);
	m->free.nr = 0;
	m->free.pid = 0;
}

void kasan_record_aux_stack(void *addr)
{
	struct kasan_slab_meta *m;
	unsigned int slot_size;
	void *slot;

	if (!kasan_has_shadow((unsigned long)addr) || !kmalloc_slab_object(addr, &slot, &slot_size))
		return;
	m = kasan_meta(slot, slot_size);
	if (m->state != KASAN_STATE_ALLOC)
		return;
	/* Only where the slack between the object and its metadata has room. */
	if ((char *)kasan_aux_track(m) < (char *)slot + ALIGN(m->size, KASAN_GRANULE_SIZE))
		return;
	kasan_save_track(kasan_aux_track(m));
	m->aux = 1;
}

size_t kasan_slab_ksize(void *slot, size_t slot_size)
{
	struct kasan_slab_meta *m = kasan_meta(slot, slot_size);

	/* As Linux's ksize(): the caller may now use all of it, up to the metadata. */
	m->size = slot_size - KASAN_SLAB_META_SIZE;
	m->aux = 0;	/* the slack is the object's now */
	kasan_unpoison(slot, m->size);
	return m->size;
}

bool kasan_slab_free(void *ptr, void *slot, size_t slot_size, unsigned long ip)
{
	struct kasan_slab_meta *m = kasan_meta(slot, slot_size);
	s8 s;

	if (!kasan_has_shadow((unsigned long)slot))
		return false;
	if (ptr != slot) {
		kasan_report_invalid_free(ptr, ip, "invalid-free");
		return true;
	}
	s = *kasan_mem_to_shadow((unsigned long)slot);
	if (s == (s8)KASAN_SLAB_FREE || m->state != KASAN_STATE_ALLOC) {
		kasan_report_invalid_free(ptr, ip, s == (s8)KASAN_SLAB_FREE ? "double-free" :
					  "invalid-free");
		return true;
	}
	kasan_poison(slot, ALIGN(m->size, KASAN_GRANULE_SIZE), KASAN_SLAB_FREE);
	kasan_save_track(&m->free);
	kasan_quarantine_put(m, slot_size);
	return true;
}
