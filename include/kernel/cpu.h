/*
 * CPU hotplug (CONFIG_HOTPLUG_CPU, kernel/cpu.c): take a CPU other than
 * the boot CPU offline and bring it back at run time, from process
 * context. Both return 0 or a negative errno (-EINVAL: no such CPU, the
 * boot CPU, or already in that state; -EBUSY: it would leave callbacks
 * no CPU could adopt; -EIO: the CPU did not come up). One operation at a
 * time; cpus_read_lock() keeps the set of online CPUs still for its
 * holder (rcu_barrier() takes it). Documentation/RCU/hotplug.md.
 */
#ifndef _KERNEL_CPU_H
#define _KERNEL_CPU_H

#include <kernel/types.h>
#include <kernel/errno.h>

#ifdef CONFIG_HOTPLUG_CPU
int cpu_down(unsigned int cpu);
int cpu_up(unsigned int cpu);
void cpus_read_lock(void);
void cpus_read_unlock(void);
/* The idle loop of a CPU that has been marked offline: its last steps. Interrupts off. */
void cpuhp_idle_dead(void) __attribute__((noreturn));
/* Power-off: one line of totals, if any CPU went offline. */
void cpuhp_show_stats(void);
/* Counters for tests: completed offline and online operations since boot. */
unsigned long cpuhp_nr_offline_ops(void);
unsigned long cpuhp_nr_online_ops(void);
#else
static inline int cpu_down(unsigned int cpu) { return -ENOSYS; }
static inline int cpu_up(unsigned int cpu) { return -ENOSYS; }
static inline void cpuhp_idle_dead(void) { }
static inline void cpus_read_lock(void) { }
static inline void cpus_read_unlock(void) { }
static inline void cpuhp_show_stats(void) { }
static inline unsigned long cpuhp_nr_offline_ops(void) { return 0; }
static inline unsigned long cpuhp_nr_online_ops(void) { return 0; }
#endif

#ifdef CONFIG_CPUHP_DYING_DELAY
/*
 * Test kernels (kernel/cpu_dying_delay.c): the dying CPU's stopper calls
 * this after the CPU left the online mask, with interrupts off and then
 * on; it holds the CPU there for cpuhp.dying_delay_ms, or runs the test's
 * cpuhp_dying_hook if one is set. Before rcu_report_dead() either way.
 */
void cpuhp_dying_window(unsigned int cpu, bool irqs_on);
extern void (*cpuhp_dying_hook)(unsigned int cpu, bool irqs_on);
/*
 * And a CPU coming up calls this after rcu_cpu_starting() and before it
 * marks itself online, interrupts off: cpuhp.starting_delay_ms, or the
 * test's cpuhp_starting_hook.
 */
void cpuhp_starting_window(unsigned int cpu);
extern void (*cpuhp_starting_hook)(unsigned int cpu);
/*
 * And cpu_down()'s caller calls this once the CPU is dead, before it takes
 * over the CPU's timers and callbacks: cpuhp.dead_delay_ms, or the test's
 * cpuhp_dead_hook.
 */
void cpuhp_dead_window(unsigned int cpu);
extern void (*cpuhp_dead_hook)(unsigned int cpu);
#else
static inline void cpuhp_dying_window(unsigned int cpu, bool irqs_on) { }
static inline void cpuhp_starting_window(unsigned int cpu) { }
static inline void cpuhp_dead_window(unsigned int cpu) { }
#endif

#endif
