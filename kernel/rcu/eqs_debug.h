/*
 * CONFIG_RCU_EQS_DEBUG checks on extended-quiescent-state transitions,
 * shared by Tree RCU (kernel/rcu/tree.c) and Tiny RCU (kernel/rcu/tiny.c).
 * Each flavor passes its own counters in a common form:
 *   nesting      1 while RCU watches the CPU from process level, 0 in idle
 *   irq_nesting  irq/NMI levels open (Tree: its nmi_nesting encoding, where
 *                1 means "entered from idle" and each level adds 2)
 * A check that fails prints one WARNING per kind (these sit on every
 * interrupt) and says what the caller should do to keep the CPU's state
 * sane, so a buggy caller gets a report instead of a hang. Without the
 * option the checks are static inlines that pass.
 */
#ifndef _KERNEL_RCU_EQS_DEBUG_H
#define _KERNEL_RCU_EQS_DEBUG_H

#include <kernel/types.h>

#ifdef CONFIG_RCU_EQS_DEBUG
/*
 * Idle entry: no reader may be held, process-level nesting must be 1 and
 * no irq/NMI level open. Returns false when irq/NMI levels were left open
 * (an enter without its exit): the caller closes them.
 */
bool rcu_eqs_debug_idle_enter(long nesting, long irq_nesting);
/*
 * User-mode entry: as idle entry, but a preempt count is allowed (an
 * emulated user mode, the test spinner, holds preemption off so that no
 * interrupt return preempts it inside the EQS); rcu_read_lock() is not.
 */
bool rcu_eqs_debug_user_enter(long nesting, long irq_nesting);
/* Idle exit: the CPU must be in idle (nesting 0) with no irq/NMI level open. */
void rcu_eqs_debug_idle_exit(long nesting, long irq_nesting);
/* irq/NMI exit: false when there is no level to exit; the caller ignores the exit. */
bool rcu_eqs_debug_irq_exit(long irq_nesting);
#else
static inline bool rcu_eqs_debug_idle_enter(long nesting, long irq_nesting) { return true; }
static inline bool rcu_eqs_debug_user_enter(long nesting, long irq_nesting) { return true; }
static inline void rcu_eqs_debug_idle_exit(long nesting, long irq_nesting) { }
static inline bool rcu_eqs_debug_irq_exit(long irq_nesting) { return true; }
#endif

#endif
