/*
 * The shrinker list (<mm/shrinker.h>): alloc_pages() calls shrink_all()
 * when the buddy allocator has no block, then tries once more. The list
 * only grows, at boot; it is walked under a spinlock with interrupts off
 * so that a failed allocation in interrupt context may shrink too. A
 * shrinker that itself failed to allocate while shrinking would recurse:
 * the per-walk flag stops that (a nested failure just fails).
 */
#include <mm/shrinker.h>
#include <mm/mm.h>
#include <locking/spinlock.h>
#include <kernel/compiler.h>

static DEFINE_SPINLOCK(shrinker_lock);
static struct shrinker *shrinker_list;
static bool shrinking;		/* a walk is under way (guarded by shrinker_lock) */

void register_shrinker(struct shrinker *s)
{
	unsigned long flags;

	spin_lock_irqsave(&shrinker_lock, flags);
	s->next = shrinker_list;
	shrinker_list = s;
	spin_unlock_irqrestore(&shrinker_lock, flags);
}

unsigned long shrink_all(void)
{
	unsigned long flags, freed = 0;
	struct shrinker *s;

	spin_lock_irqsave(&shrinker_lock, flags);
	if (shrinking) {
		spin_unlock_irqrestore(&shrinker_lock, flags);
		return 0;
	}
	shrinking = true;
	for (s = shrinker_list; s; s = s->next) {
		unsigned long n = s->scan(s);

		s->n_calls++;
		s->n_freed += n;
		freed += n;
	}
	shrinking = false;
	spin_unlock_irqrestore(&shrinker_lock, flags);
	return freed;
}
