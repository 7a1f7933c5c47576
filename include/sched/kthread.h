/*
 * Kernel threads: create, bind to a CPU, stop and park, as in Linux.
 * kthread_create*() returns a sleeping task (wake it, or use kthread_run);
 * the thread function polls kthread_should_stop()/kthread_should_park().
 */
#ifndef _SCHED_KTHREAD_H
#define _SCHED_KTHREAD_H

#include <sched/task.h>
#include <kernel/compiler.h>

struct task_struct *kthread_create_on_node(int (*fn)(void *), void *data, int node,
					   const char *namefmt, ...) __printf(4, 5);
#define kthread_create(fn, data, namefmt, ...) \
	kthread_create_on_node(fn, data, -1, namefmt, ##__VA_ARGS__)
/* Creates a thread bound to `cpu`; namefmt may contain %u for the CPU number. */
struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *data, unsigned int cpu,
					  const char *namefmt);
#define kthread_run(fn, data, namefmt, ...) ({					\
	struct task_struct *__k = kthread_create(fn, data, namefmt, ##__VA_ARGS__); \
	if (__k)								\
		wake_up_process(__k);						\
	__k; })
void kthread_bind(struct task_struct *p, unsigned int cpu);
void kthread_bind_mask(struct task_struct *p, const struct cpumask *mask);
/* Ask the thread to stop, wake it, wait for it to exit; returns fn's result. */
int kthread_stop(struct task_struct *p);
bool kthread_should_stop(void);
bool kthread_should_park(void);
int kthread_park(struct task_struct *p);
void kthread_unpark(struct task_struct *p);
/* Called by a thread that saw kthread_should_park(): sleeps until unparked. */
void kthread_parkme(void);
__noreturn void kthread_exit(int result);
bool kthread_should_stop_or_park(void);

#endif
