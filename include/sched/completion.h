/* Completions: one side waits for "done", the other signals it (complete/complete_all). */
#ifndef _SCHED_COMPLETION_H
#define _SCHED_COMPLETION_H

#include <sched/wait.h>

struct completion {
	unsigned int done;		/* UINT_MAX after complete_all() */
	struct wait_queue_head wait;
};

#define COMPLETION_INITIALIZER(work) { 0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) }
#define DECLARE_COMPLETION(work)	struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work) DECLARE_COMPLETION(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}
static inline void reinit_completion(struct completion *x) { x->done = 0; }

void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
/* Returns 0 on timeout, else the jiffies left (at least 1). */
unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout);
bool try_wait_for_completion(struct completion *x);
/* No signals here: the interruptible/killable forms are the plain waits. */
static inline int wait_for_completion_interruptible(struct completion *x)
{
	wait_for_completion(x);
	return 0;
}
#define wait_for_completion_killable	wait_for_completion_interruptible
static inline long wait_for_completion_interruptible_timeout(struct completion *x,
							     unsigned long timeout)
{
	return wait_for_completion_timeout(x, timeout);
}
bool completion_done(struct completion *x);

#endif
