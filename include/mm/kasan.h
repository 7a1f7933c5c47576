/*
 * KASAN's hooks for the allocators (CONFIG_KASAN, mm/kasan/). The slab
 * and page allocators tell KASAN what they hand out and take back, and
 * KASAN keeps the shadow: one byte per 8 bytes of memory saying how many
 * of them may be accessed. Without CONFIG_KASAN every hook is an empty
 * inline, so the allocators call them unconditionally.
 */
#ifndef _MM_KASAN_H
#define _MM_KASAN_H

#include <kernel/types.h>
#include <mm/mm.h>

struct kasan_slab_meta;

#ifdef CONFIG_KASAN

/*
 * Bytes a kmalloc slot holds beyond the object: the per-object metadata
 * (allocation and free stacks, the quarantine link) at the slot's end,
 * which with the slack between doubles as the object's right redzone.
 */
#define KASAN_SLAB_META_SIZE	112

/* mm_init(), once the page tables are up: shadow for RAM below dm_end, then checks start. */
void kasan_init(unsigned long dm_end);
/* alloc_kernel_stack(): shadow for the stack area pages [start, end) (guards included). */
int kasan_populate_kstack(unsigned long start, unsigned long end);

/* A stack used again from its top (a CPU started again on its old stack): no stale redzones. */
void kasan_unpoison_stack(void *base, size_t size);

/*
 * mm_init(): the per-page records of large kmalloc blocks (their
 * allocation and free stacks, which have no redzone to live in), one
 * entry per page frame, from early memory before the buddy lists exist.
 */
size_t kasan_page_meta_bytes(unsigned long nr_pages);
void kasan_page_meta_init(void *mem, unsigned long nr_pages);
/* mm_init(): RAM given to the buddy allocator at boot is free, never handed out: poisoned. */
void kasan_poison_boot_free(void *addr, size_t size);
/* Page allocator: a block handed out is accessible, a block freed is not. */
void kasan_alloc_pages(void *addr, unsigned int order);
void kasan_free_pages(void *addr, unsigned int order);
/* Large kmalloc: size bytes of the block usable, the rest its redzone. */
void kasan_kmalloc_large(void *addr, size_t size, unsigned int order);
/* kfree() of a large block: false if it is a double or invalid free (reported). */
bool kasan_kfree_large(void *addr, unsigned long ip);

/* A new slab page: every byte redzone until objects are handed out. */
void kasan_poison_slab(void *page_addr);
/* Object slot of slot_size bytes handed out for a size-byte request. */
void kasan_slab_alloc(void *slot, size_t size, size_t slot_size);
/*
 * kfree() of a slab object. Returns true when the caller must not free
 * it now: it went into the quarantine, or it was a double or invalid
 * free (reported). ip: kfree()'s caller.
 */
bool kasan_slab_free(void *ptr, void *slot, size_t slot_size, unsigned long ip);
/*
 * call_rcu() and friends (include/rcu/objdebug.h): remember where the
 * kmalloc object holding addr was queued, for the report's "Last
 * potentially related work creation:" (kept in the slot's slack when
 * there is room for it).
 */
void kasan_record_aux_stack(void *addr);
/* Give every quarantined object back to kmalloc now (tests that count slab pages). */
void kasan_quarantine_flush(void);
/* How often the quarantine's global lock was taken (mm/test/slab.c: not once per kfree()). */
unsigned long kasan_quarantine_lock_takes(void);
/* ksize(): the usable size of a live slab object (all but the metadata), now accessible. */
size_t kasan_slab_ksize(void *slot, size_t slot_size);

#else

#define KASAN_SLAB_META_SIZE	0

static inline void kasan_init(unsigned long dm_end) { }
static inline int kasan_populate_kstack(unsigned long start, unsigned long end) { return 0; }
static inline void kasan_unpoison_stack(void *base, size_t size) { }
static inline size_t kasan_page_meta_bytes(unsigned long nr_pages) { return 0; }
static inline void kasan_page_meta_init(void *mem, unsigned long nr_pages) { }
static inline void kasan_poison_boot_free(void *addr, size_t size) { }
static inline void kasan_alloc_pages(void *addr, unsigned int order) { }
static inline void kasan_free_pages(void *addr, unsigned int order) { }
static inline void kasan_kmalloc_large(void *addr, size_t size, unsigned int order) { }
static inline bool kasan_kfree_large(void *addr, unsigned long ip) { return true; }
static inline void kasan_poison_slab(void *page_addr) { }
static inline void kasan_slab_alloc(void *slot, size_t size, size_t slot_size) { }
static inline bool kasan_slab_free(void *ptr, void *slot, size_t slot_size, unsigned long ip)
{
	return false;
}
static inline size_t kasan_slab_ksize(void *slot, size_t slot_size) { return slot_size; }
static inline void kasan_quarantine_flush(void) { }
static inline unsigned long kasan_quarantine_lock_takes(void) { return 0; }
static inline void kasan_record_aux_stack(void *addr) { }

#endif

#endif
