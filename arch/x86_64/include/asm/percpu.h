/*
 * Per-CPU variables on x86-64. Variables defined with DEFINE_PER_CPU live
 * in .data..percpu; each CPU gets a copy at __per_cpu_offset[cpu] from the
 * template, and its GS base holds that offset. So `%gs:var` addresses this
 * CPU's copy of var directly: one instruction, safe against interrupts.
 * Before the areas exist, CPU 0 runs with GS base 0, i.e. on the template.
 */
#ifndef _ASM_PERCPU_H
#define _ASM_PERCPU_H

#include <kernel/compiler.h>

#ifdef __CHECKER__
/*
 * sparse does not know gcc's __seg_gs keyword. A %gs-relative pointer is a
 * pointer into another address space, which is what sparse can model: a
 * named address space (dereferenceable, unlike __rcu's), so a GS pointer
 * mixed with a plain one without a cast is still reported.
 */
#define __seg_gs	__attribute__((address_space(__seg_gs)))
#endif
#define __this_cpu_lval(var)	(*(volatile __seg_gs __typeof__(var) *)(uintptr_t)&(var))
#define this_cpu_read(var)	(__this_cpu_lval(var))
#define this_cpu_write(var, v)	do { __this_cpu_lval(var) = (v); } while (0)
/*
 * A read the compiler may cache for the rest of the function, as Linux's
 * this_cpu_read_stable(): the asm depends on nothing but the variable's
 * address, so two reads in one function may become one and a read may leave
 * a loop. Only for a value that cannot change under the code reading it,
 * however long it runs and wherever it migrates: current_task, which every
 * task sees pointing at itself. See include/sched/task.h for where that
 * takes care.
 */
#define this_cpu_read_stable(var)						\
	({									\
		__typeof__(var) __stable_v;					\
		_Static_assert(sizeof(var) == 8, "this_cpu_read_stable: 8 bytes"); \
		__asm__("movq %%gs:%P1, %0" : "=r"(__stable_v) : "p"(&(var)));	\
		__stable_v;							\
	})
/* One read-modify-write instruction: atomic against interrupts on this CPU. */
#define this_cpu_add(var, v)						\
	__asm__ volatile("add %1, %%gs:%0"				\
			 : "+m"(var) : "r"((__typeof__(var))(v)) : "memory", "cc")
#define this_cpu_sub(var, v)	this_cpu_add(var, -(__typeof__(var))(v))
#define this_cpu_inc(var)	this_cpu_add(var, 1)
#define this_cpu_dec(var)	this_cpu_sub(var, 1)

void arch_set_percpu_offset(unsigned long offset);

#endif
