/*
 * The architecture's part of boot, called by start_kernel() in this order:
 * arch_early_setup() (clock calibration, CPU enumeration; no allocator
 * yet), then after memory and per-CPU areas exist arch_boot_cpu_init()
 * (descriptor tables, interrupt controller, tick on CPU 0).
 */
#ifndef _KERNEL_ARCH_SETUP_H
#define _KERNEL_ARCH_SETUP_H

void arch_early_setup(void);
void arch_boot_cpu_init(void);
/* The name the arch gives this machine in the boot banner. */
const char *arch_machine_name(void);

#endif
