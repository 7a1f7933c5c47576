/*
 * Reader-writer semaphores' slow paths (<locking/rwsem.h>). One wait
 * queue for both sides, woken whole whenever the lock may have become
 * free: simple, and enough for the kernel's few users (refscale, tests).
 */
#include <locking/rwsem.h>
#include <kernel/might_sleep.h>
#include <sched/wait.h>

void init_rwsem(struct rw_semaphore *sem)
{
	atomic_long_set(&sem->count, 0);
	init_waitqueue_head(&sem->wait);
}

/* Try to count in as a reader: false while a writer holds it. */
static bool rwsem_read_trylock(struct rw_semaphore *sem)
{
	if (!(atomic_long_add_return(RWSEM_READER, &sem->count) & RWSEM_WRITER))
		return true;
	/* Back off; if that leaves the lock free, a writer may be waiting for it. */
	if (atomic_long_sub_return(RWSEM_READER, &sem->count) == 0)
		__rwsem_wake(sem);
	return false;
}

/* down_read() found a writer inside: undo the count, sleep until the writer is gone, retry. */
void __down_read_slow(struct rw_semaphore *sem)
{
	might_sleep();
	if (atomic_long_sub_return(RWSEM_READER, &sem->count) == 0)
		__rwsem_wake(sem);
	wait_event(sem->wait, rwsem_read_trylock(sem));
}

/*
 * Wake every sleeper to retry. wait_event() queues a sleeper before it
 * tests the count, and the callers' fully ordered count updates come
 * before this look at the queue, so no sleeper misses the change
 * (wq_has_sleeper()'s barrier pairs with the sleeper's queueing).
 */
void __rwsem_wake(struct rw_semaphore *sem)
{
	if (wq_has_sleeper(&sem->wait))
		wake_up_all(&sem->wait);
}

static bool rwsem_write_trylock(struct rw_semaphore *sem)
{
	return atomic_long_cmpxchg(&sem->count, 0, RWSEM_WRITER) == 0;	/* fully ordered: acquire */
}

void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	wait_event(sem->wait, rwsem_write_trylock(sem));
}

/* Fully ordered sub: the release; pairs with the next side's acquire. Then wake everyone. */
void up_write(struct rw_semaphore *sem)
{
	atomic_long_sub_return(RWSEM_WRITER, &sem->count);
	__rwsem_wake(sem);
}
