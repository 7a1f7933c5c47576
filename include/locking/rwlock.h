/*
 * Reader-writer spinlocks (rwlock_t), as Linux names them: any number of
 * readers or one writer, spinning, preemption off while held. One atomic
 * word: bit 0 is the writer, each reader adds RW_READER. A reader's fast
 * path is one fully ordered add (the cost refscale's "rwlock" type
 * measures); a writer waits for the word to be zero. Readers are
 * preferred (a stream of them can starve a writer; Linux's qrwlock queues
 * instead). No lockdep.
 */
#ifndef _LOCKING_RWLOCK_H
#define _LOCKING_RWLOCK_H

#include <kernel/atomic.h>
#include <kernel/barrier.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>

typedef struct { atomic_t cnts; } rwlock_t;

#define RW_WRITER	1
#define RW_READER	2
#define __RW_LOCK_UNLOCKED(x)	{ .cnts = ATOMIC_INIT(0) }
#define DEFINE_RWLOCK(x)	rwlock_t x = __RW_LOCK_UNLOCKED(x)
#define rwlock_init(l)		atomic_set(&(l)->cnts, 0)

/*
 * The fully ordered add_return is the acquire: the read section cannot
 * start before it. Pairs with write_unlock()'s release.
 */
static inline void read_lock(rwlock_t *l)
{
	preempt_disable();
	while (atomic_add_return(RW_READER, &l->cnts) & RW_WRITER) {
		atomic_sub(RW_READER, &l->cnts);	/* back off while the writer holds it */
		while (atomic_read(&l->cnts) & RW_WRITER)
			cpu_relax();
	}
}

/* Fully ordered sub: the read section's accesses before it; pairs with write_lock()'s cmpxchg. */
static inline void read_unlock(rwlock_t *l)
{
	atomic_sub_return(RW_READER, &l->cnts);
	preempt_enable();
}

/* The cmpxchg from 0 (fully ordered) is the acquire; pairs with read_unlock()/write_unlock(). */
static inline void write_lock(rwlock_t *l)
{
	preempt_disable();
	while (atomic_cmpxchg(&l->cnts, 0, RW_WRITER) != 0)
		cpu_relax();
}

/* Release: the write section before the clear; pairs with read_lock()'s add and write_lock(). */
static inline void write_unlock(rwlock_t *l)
{
	atomic_sub_return(RW_WRITER, &l->cnts);
	preempt_enable();
}

#define read_lock_irqsave(l, flags)	do { local_irq_save(flags); read_lock(l); } while (0)
#define read_unlock_irqrestore(l, flags) do { read_unlock(l); local_irq_restore(flags); } while (0)

#endif
