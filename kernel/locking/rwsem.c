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

/* A reader's count is gone: if no reader or writer is left inside, a waiting writer may go. */
static void rwsem_reader_out(struct rw_semaphore *sem)
{
	if ((atomic_long_sub_return(RWSEM_READER, &sem->count) & ~RWSEM_WAITING) == 0)
		__rwsem_wake(sem);
}

/* Try to count in as a reader: false while a writer holds or waits for it. */
static bool rwsem_read_trylock(struct rw_semaphore *sem)
{
	if (!(atomic_long_add_return(RWSEM_READER, &sem->count) & RWSEM_WMASK))
		return true;
	rwsem_reader_out(sem);	/* back off */
	return false;
}

/* down_read() found a writer inside or waiting: undo the count, sleep until it is gone, retry. */
void __down_read_slow(struct rw_semaphore *sem)
{
	might_sleep();
	rwsem_reader_out(sem);
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

/*
 * Say a writer waits (again on every try: another writer's success takes
 * the flag), then take it once only the flag is left. The cmpxchg (fully
 * ordered) is the acquire.
 */
static bool rwsem_write_trylock(struct rw_semaphore *sem)
{
	atomic_long_or(RWSEM_WAITING, &sem->count);
	return atomic_long_cmpxchg(&sem->count, RWSEM_WAITING, RWSEM_WRITER) == RWSEM_WAITING;
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
