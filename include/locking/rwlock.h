/*
 * Reader-writer spinlocks (rwlock_t), as Linux names them: any number of
 * readers or one writer, spinning, preemption off while held. One atomic
 * word: bit 0 says a writer holds it, bit 1 that a writer waits, each
 * reader adds RW_READER. A reader's fast path is one fully ordered add
 * (the cost refscale's "rwlock" type measures). A waiting writer keeps new
 * readers out, so a stream of readers cannot starve it (Linux's qrwlock
 * gets the same by queueing); writers among themselves are unordered. No
 * lockdep.
 */
#ifndef _LOCKING_RWLOCK_H
#define _LOCKING_RWLOCK_H

#include <kernel/atomic.h>
#include <kernel/barrier.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>

typedef struct { atomic_t cnts; } rwlock_t;

#define RW_WRITER	1
#define RW_WAITING	2
#define RW_WMASK	(RW_WRITER | RW_WAITING)
#define RW_READER	4
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
	while (atomic_add_return(RW_READER, &l->cnts) & RW_WMASK) {
		atomic_sub(RW_READER, &l->cnts);	/* back off while a writer holds or wants it */
		while (atomic_read(&l->cnts) & RW_WMASK)
			cpu_relax();
	}
}

/* Fully ordered sub: the read section's accesses before it; pairs with write_lock()'s cmpxchg. */
static inline void read_unlock(rwlock_t *l)
{
	atomic_sub_return(RW_READER, &l->cnts);
	preempt_enable();
}

/*
 * Say a writer waits (again after every failed try: another writer's
 * success takes the flag), then wait for the readers to drain. The
 * cmpxchg from RW_WAITING alone (fully ordered) is the acquire; pairs
 * with read_unlock()/write_unlock().
 */
static inline void write_lock(rwlock_t *l)
{
	preempt_disable();
	for (;;) {
		atomic_or(RW_WAITING, &l->cnts);
		if (atomic_cmpxchg(&l->cnts, RW_WAITING, RW_WRITER) == RW_WAITING)
			break;
		cpu_relax();
	}
}

/* Release: the write section before the clear (another writer's RW_WAITING stays); pairs with read_lock()'s add and write_lock(). */
static inline void write_unlock(rwlock_t *l)
{
	atomic_sub_return(RW_WRITER, &l->cnts);
	preempt_enable();
}

#define read_lock_irqsave(l, flags)	do { local_irq_save(flags); read_lock(l); } while (0)
#define read_unlock_irqrestore(l, flags) do { read_unlock(l); local_irq_restore(flags); } while (0)

#endif
