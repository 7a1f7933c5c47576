/*
 * The user half of the x86-64 address space (arch contract for
 * <kernel/user.h>). The kernel owns PML4 slots 0-128 (the identity map of
 * physical memory and the kernel-stack area, supervisor-only); user
 * programs live in PML4 slot 255, the top 512 GiB of the lower canonical
 * half, which each process maps for itself.
 */
#ifndef _ASM_USER_H
#define _ASM_USER_H

#define USER_VA_START		0x00007f8000000000UL
/* One page short of the canonical end: SYSRET to a non-canonical RIP would fault in ring 0. */
#define USER_VA_END		0x00007ffffffff000UL
/* Where in-tree programs are linked (user/user.ld) and the initial stack. */
#define USER_TEXT_BASE		0x00007f8000400000UL
#define USER_STACK_TOP		0x00007fffffffe000UL
#define USER_STACK_PAGES	4

#define USER_CS			0x23
#define USER_DS			0x1b

#endif
