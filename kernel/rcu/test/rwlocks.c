/*
 * The "rcu_api" suite's checks of the two locks refscale compares RCU's
 * readers with (refscale types "rwlock" and "rwsem"): rwlock_t and
 * struct rw_semaphore. Readers on every other CPU take the read side
 * while this CPU's writer takes the write side: no reader inside while
 * the writer is, no writer while a reader is, and the writer gets in
 * despite the stream of readers (a waiting writer keeps new ones out).
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "api_extra.h"
#include <locking/rwlock.h>
#include <locking/rwsem.h>

static DEFINE_RWLOCK(rwl_lock);
static DECLARE_RWSEM(rwl_sem);

static struct {
	atomic_t readers;		/* inside the read side */
	int writer;			/* inside the write side */
	unsigned long writes;
	atomic_long_t overlap;		/* a reader and the writer inside at once */
} rwl;

static void rwl_reader_body(void)
{
	atomic_inc(&rwl.readers);
	if (READ_ONCE(rwl.writer))
		atomic_long_inc(&rwl.overlap);
	for (int i = 0; i < 20; i++)
		barrier();
	atomic_dec(&rwl.readers);
}

static void rwl_writer_body(void)
{
	WRITE_ONCE(rwl.writer, 1);
	for (int i = 0; i < 20; i++) {
		if (atomic_read(&rwl.readers))
			atomic_long_inc(&rwl.overlap);
		barrier();
	}
	WRITE_ONCE(rwl.writer, 0);
	rwl.writes++;
}

static void rwl_lock_read(unsigned int cpu)
{
	read_lock(&rwl_lock);
	rwl_reader_body();
	read_unlock(&rwl_lock);
}

static void rwl_lock_write(void)
{
	write_lock(&rwl_lock);
	rwl_writer_body();
	write_unlock(&rwl_lock);
}

static void rwl_sem_read(unsigned int cpu)
{
	down_read(&rwl_sem);
	rwl_reader_body();
	if ((cpu & 1) == 0)
		cond_resched();		/* a sleeping lock: readers may sleep inside */
	up_read(&rwl_sem);
}

static void rwl_sem_write(void)
{
	down_write(&rwl_sem);
	rwl_writer_body();
	up_write(&rwl_sem);
}

static void rwl_run(void (*write)(void), void (*read)(unsigned int cpu), const char *what)
{
	unsigned long reads;
	bool ok;

	atomic_set(&rwl.readers, 0);
	rwl.writer = 0;
	rwl.writes = 0;
	atomic_long_set(&rwl.overlap, 0);
	ok = rat_concurrent(write, read, &reads);
	ktap_diag("%s: %lu writes, %lu reads", what, rwl.writes, reads);
	KTAP_EXPECT_MSG(atomic_long_read(&rwl.overlap) == 0, "%s: %ld times a reader and the writer were inside at once",
			what, atomic_long_read(&rwl.overlap));
	KTAP_EXPECT_MSG(ok && rwl.writes > 0 && reads > 0, "%s: no writes or no reads", what);
}

void rcu_api_rwlock(void)
{
	rwl_run(rwl_lock_write, rwl_lock_read, "rwlock_t");
	KTAP_EXPECT(atomic_read(&rwl_lock.cnts) == 0);
}

void rcu_api_rwsem(void)
{
	rwl_run(rwl_sem_write, rwl_sem_read, "rw_semaphore");
	KTAP_EXPECT(atomic_long_read(&rwl_sem.count) == 0);
}
