/*
 * mm/kasan/ internals: the shadow encoding (Linux's values, so reports
 * read the same), address-to-shadow translation, the per-object metadata
 * kept in each kmalloc slot's redzone, and what the files share.
 */
#ifndef _MM_KASAN_KASAN_H
#define _MM_KASAN_KASAN_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <mm/mm.h>
#include <mm/kasan.h>

#define KASAN_GRANULE_SHIFT	3
#define KASAN_GRANULE_SIZE	(1UL << KASAN_GRANULE_SHIFT)
#define KASAN_GRANULE_MASK	(KASAN_GRANULE_SIZE - 1)
#define KASAN_SHADOW_OFFSET	((unsigned long)CONFIG_KASAN_SHADOW_OFFSET)

/* Shadow byte values: 0 all 8 bytes usable, 1..7 the first N, negative none. */
#define KASAN_PAGE_FREE		0xFF	/* freed page */
#define KASAN_PAGE_REDZONE	0xFE	/* tail of a large kmalloc block */
#define KASAN_SLAB_REDZONE	0xFC	/* slab redzone, or a slot never handed out */
#define KASAN_SLAB_FREE		0xFB	/* freed slab object */
#define KASAN_GLOBAL_REDZONE	0xF9	/* after a global variable */
#define KASAN_STACK_LEFT	0xF1	/* stack redzones (compiler-written; not used yet) */
#define KASAN_STACK_MID		0xF2
#define KASAN_STACK_RIGHT	0xF3

static inline s8 *kasan_mem_to_shadow(unsigned long addr)
{
	return (s8 *)((addr >> KASAN_GRANULE_SHIFT) + KASAN_SHADOW_OFFSET);
}
static inline unsigned long kasan_shadow_to_mem(const s8 *shadow)
{
	return ((unsigned long)shadow - KASAN_SHADOW_OFFSET) << KASAN_GRANULE_SHIFT;
}

/* Set by kasan_init()/kasan_populate_kstack(): the ranges that have shadow. */
extern unsigned long kasan_dm_end;
extern unsigned long kasan_kstack_end;

static __always_inline bool kasan_has_shadow(unsigned long addr)
{
	return addr < READ_ONCE(kasan_dm_end) ||
	       (addr >= KSTACK_AREA_START && addr < READ_ONCE(kasan_kstack_end));
}

/* Poison [addr, addr + size) with value; addr granule-aligned. No-op without shadow. */
void kasan_poison(const void *addr, size_t size, u8 value);
/* Make the first size bytes accessible, the rest of the last granule not (value 1..7). */
void kasan_unpoison(const void *addr, size_t size);

/* Allocation and free stacks: who, and the first frames of the call chain. */
#define KASAN_TRACK_DEPTH	5
struct kasan_track {
	u32 pid;
	u32 nr;
	unsigned long stack[KASAN_TRACK_DEPTH];
};

/* At the end of every kmalloc slot, inside its redzone (KASAN_SLAB_META_SIZE bytes). */
struct kasan_slab_meta {
	struct kasan_track alloc;
	struct kasan_track free;
	struct kasan_slab_meta *qnext;	/* quarantine FIFO link */
	u32 size;			/* the request kmalloc() was given */
	u16 state;			/* KASAN_STATE_* */
	u16 aux;			/* kasan_aux_track() holds where call_rcu() was called */
};
_Static_assert(sizeof(struct kasan_slab_meta) == KASAN_SLAB_META_SIZE, "kasan_slab_meta size");

#define KASAN_STATE_INIT	0	/* never allocated: the track is garbage */
#define KASAN_STATE_ALLOC	1
#define KASAN_STATE_QUARANTINE	2
#define KASAN_STATE_FREE	3

static inline struct kasan_slab_meta *kasan_meta(const void *slot, size_t slot_size)
{
	return (struct kasan_slab_meta *)((char *)slot + slot_size - KASAN_SLAB_META_SIZE);
}
static inline void *kasan_meta_slot(struct kasan_slab_meta *m, size_t slot_size)
{
	return (char *)m - slot_size + KASAN_SLAB_META_SIZE;
}

/* The call_rcu() stack's place (valid with aux set): the slack just below the metadata. */
static inline struct kasan_track *kasan_aux_track(struct kasan_slab_meta *m)
{
	return (struct kasan_track *)m - 1;
}

void kasan_save_track(struct kasan_track *t);

/*
 * page.c: one per page frame (mm_init() allocates the array). The head
 * page's entry of a large kmalloc block holds its stacks while it is
 * live (KASAN_STATE_ALLOC) and after kfree() (KASAN_STATE_FREE), until
 * alloc_pages() hands any page of it out again; every other entry's
 * state is KASAN_STATE_INIT.
 */
struct kasan_page_meta {
	struct kasan_track alloc;
	struct kasan_track free;
	u32 size;			/* the request kmalloc() was given */
	u8 order;
	u8 state;
};

/* The large kmalloc block (live or freed) holding addr, its first byte in *head; or NULL. */
struct kasan_page_meta *kasan_large_block(unsigned long addr, unsigned long *head);

/* quarantine.c: hold a freed slab object; release the oldest past the limit. */
void kasan_quarantine_put(struct kasan_slab_meta *m, size_t slot_size);

/* shadow.c: the registered global holding addr (its name, addr's offset, its size). */
bool kasan_find_global(unsigned long addr, const char **name, unsigned long *off,
		       unsigned long *size);

/* report.c */
void kasan_report_init(void);
void kasan_report(unsigned long addr, size_t size, bool is_write, unsigned long ip);
void kasan_report_invalid_free(const void *ptr, unsigned long ip, const char *type);

#endif
