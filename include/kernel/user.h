/*
 * User mode: processes running ring-3 programs built from user/ and the
 * contract between the generic side (kernel/user/: programs, loading,
 * system calls, exit) and the arch side (arch/x86_64: page tables,
 * entry and exit, faults). A process is a task with its own address space
 * (the user half; the kernel half is shared) and task->uproc set.
 */
#ifndef _KERNEL_USER_H
#define _KERNEL_USER_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <asm/user.h>

struct task_struct;

/* Leaf permissions for arch_uspace_map_page(); user pages are always readable. */
#define UPROT_WRITE	0x1
#define UPROT_EXEC	0x2

/* ---- arch side ---- */
/* A new user address space (kernel half shared); 0 when out of memory. */
u64 arch_uspace_create(void);
/* Map the kernel page `page` (from alloc_pages()) at user address va; 0 or -errno. */
int arch_uspace_map_page(u64 uspace, unsigned long va, void *page, unsigned int prot);
/*
 * Free the address space: its page tables and every page mapped into it.
 * Never the one in CR3: the caller switched to the kernel's first.
 */
void arch_uspace_destroy(u64 uspace);
/* Make uspace current's address space (0: the kernel's), now and at every switch-in. */
void arch_uspace_switch(u64 uspace);
/* Leave the kernel for user mode at ip with stack sp and args in the first three argument registers. */
__noreturn void arch_enter_user(unsigned long ip, unsigned long sp, const unsigned long args[3]);
/*
 * The current process's FPU/SSE/AVX save area, in the init state and
 * loaded (0 or -ENOMEM); freed again (the process is ending).
 */
int arch_user_fpu_init(struct task_struct *t);
void arch_user_fpu_free(struct task_struct *t);
/* SMEP / SMAP in force (for the banner and the documentation's claims). */
bool arch_smep_active(void);
bool arch_smap_active(void);

/* ---- generic side ---- */
/* Start init= and user.run= processes (end of boot, init/main.c). */
void user_mode_start(void);
/* Processes and returns to user mode per CPU, at power-off. */
void user_mode_show_stats(void);
/*
 * For in-kernel tests: start the program of user/ called name, bound to
 * cpu (-1: any), with main(arg). 0, -ENOENT (no such program) or -ENOMEM.
 */
int user_run_program(const char *name, int cpu, long arg);
/* Processes that exited or were killed so far. */
int user_processes_exited(void);
/* Called by the arch: */
/* System call nr with its six arguments; returns the value for RAX. */
long syscall_dispatch(unsigned long nr, const unsigned long args[6]);
/* End the current process, by exit(code) or killed by signal sig (a fatal fault); frees its address space. */
__noreturn void user_process_exit(int code);
__noreturn void user_process_kill(int sig);

#endif
