/* struct rcu_head: the per-object link call_rcu() queues (Linux's struct callback_head). */
#ifndef _RCU_TYPES_H
#define _RCU_TYPES_H

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};
typedef void (*rcu_callback_t)(struct rcu_head *head);

#endif
