/*
 * Test kernels only (CONFIG_RCU_WATCHING_WINDOW_HOOK): the hook that
 * rcu_is_watching() (tree_dynticks.c) calls between computing this CPU's
 * dynticks counter address and reading it, through rcu_watching_window()
 * (tree.h). The suite "rcu_watching" (kernel/rcu/test/watching.c)
 * sets it to hold its reading task there while the task is moved to
 * another CPU; NULL otherwise.
 */
#include "tree.h"

void (*rcu_watching_hook)(void);
