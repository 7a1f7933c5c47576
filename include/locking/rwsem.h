/*
 * Reader-writer semaphores (struct rw_semaphore), as Linux names them:
 * sleeping locks for any number of readers or one writer. One atomic
 * count (a writer bit, a writer-waiting bit, RWSEM_READER per reader)
 * gives readers a one-add fast path (what refscale's "rwsem" type
 * measures); anyone who finds the other side inside sleeps on the wait
 * queue, and the side that leaves last wakes the sleepers
 * (kernel/locking/rwsem.c). A waiting writer keeps new readers out, so
 * readers cannot starve it. No optimistic spinning, no lockdep.
 */
#ifndef _LOCKING_RWSEM_H
#define _LOCKING_RWSEM_H

#include <kernel/atomic.h>
#include <sched/wait.h>

struct rw_semaphore {
	atomic_long_t count;		/* RWSEM_WRITER, RWSEM_WAITING, n * RWSEM_READER */
	struct wait_queue_head wait;	/* readers and writers waiting their turn */
};

#define RWSEM_WRITER	1L
#define RWSEM_WAITING	2L
#define RWSEM_WMASK	(RWSEM_WRITER | RWSEM_WAITING)
#define RWSEM_READER	4L
#define __RWSEM_INITIALIZER(name)						\
	{ .count = ATOMIC_INIT(0), .wait = __WAIT_QUEUE_HEAD_INITIALIZER(name.wait) }
#define DECLARE_RWSEM(name)	struct rw_semaphore name = __RWSEM_INITIALIZER(name)

void init_rwsem(struct rw_semaphore *sem);
void __down_read_slow(struct rw_semaphore *sem);
void __rwsem_wake(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);

/* Fully ordered add: the acquire; pairs with up_write()'s release (rwsem.c). May sleep. */
static inline void down_read(struct rw_semaphore *sem)
{
	if (atomic_long_add_return(RWSEM_READER, &sem->count) & RWSEM_WMASK)
		__down_read_slow(sem);
}

/*
 * Fully ordered sub: the release. The last reader out wakes a waiting
 * writer; the sub's full barrier orders the count before the look at the
 * wait queue, pairing with the writer's queueing before its count check
 * (wait_event() in down_write()).
 */
static inline void up_read(struct rw_semaphore *sem)
{
	if ((atomic_long_sub_return(RWSEM_READER, &sem->count) & ~RWSEM_WAITING) == 0)
		__rwsem_wake(sem);
}

#endif
