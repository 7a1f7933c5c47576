/*
 * Power-off and the shutdown sequence: print the per-CPU interrupt table
 * and the uptime, stop the other CPUs, then leave QEMU with a status that
 * tells a clean power-off from a failure or a panic.
 */
#ifndef _KERNEL_REBOOT_H
#define _KERNEL_REBOOT_H

#include <kernel/compiler.h>

enum poweroff_status {
	POWEROFF_OK,		/* QEMU exits 33 (isa-debug-exit 0x10) */
	POWEROFF_TEST_FAILED,	/* QEMU exits 35 (0x11): a self-test failed */
	POWEROFF_PANIC,		/* QEMU exits 7 (0x03) */
};

/* Orderly power-off: runs shutdown hooks and prints "reboot: Power down". */
__noreturn void kernel_power_off(void);
/* As kernel_power_off(), but exit with POWEROFF_TEST_FAILED. */
__noreturn void kernel_power_off_failed(void);
/* Arch hook: leave the machine with that status; never returns. */
__noreturn void arch_power_off(enum poweroff_status status);
/*
 * Arch hook: reset the machine at once, without the shutdown sequence
 * (SysRq-b, Linux's emergency_restart()). Under QEMU's -no-reboot this
 * ends QEMU with raw status 0.
 */
__noreturn void arch_emergency_restart(void);
/* Flag a failure to report at power-off (self-tests call it). */
void kernel_note_test_failure(void);

#endif
