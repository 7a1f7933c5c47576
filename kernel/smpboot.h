/*
 * Between the SMP files of kernel/ (not for the rest of the kernel):
 * smp_init() in smp_cpus.c sets up the cross calls of smp.c before it
 * starts the other CPUs.
 */
#ifndef _KERNEL_SMPBOOT_H
#define _KERNEL_SMPBOOT_H

/* Allocate every CPU's cross-call slots; once, before the first cross call. */
void call_function_init(void);

#endif
