/*
 * x86-64's steps of the boot sequence (see <kernel/arch_setup.h>) and the
 * power-off path through QEMU's isa-debug-exit device, with ACPI S5 as a
 * fallback when that device is absent; and the emergency reset.
 */
#include <kernel/arch_setup.h>
#include <kernel/reboot.h>
#include <kernel/printk.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/x86/x86.h>

#define DEBUG_EXIT_PORT	0xf4

static char machine_name[64];

/* Hypervisor signatures (CPUID 0x40000000, 12 bytes) and the names printed for them. */
static const struct { char sig[13]; const char *name; } hypervisors[] = {
	{ "TCGTCGTCGTCG", "QEMU (TCG)" },
	{ "KVMKVMKVM\0\0\0", "QEMU/KVM" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
};

const char *arch_machine_name(void)
{
	char sig[13] = { 0 };
	u32 a, b, c, d;
	unsigned int i, n;

	cpuid(1, 0, &a, &b, &c, &d);
	if (!(c & (1u << 31)))			/* CPUID.1:ECX bit 31: running under a hypervisor */
		return "x86-64 (bare metal)";
	cpuid(0x40000000, 0, &a, &b, &c, &d);
	__builtin_memcpy(sig, &b, 4);
	__builtin_memcpy(sig + 4, &c, 4);
	__builtin_memcpy(sig + 8, &d, 4);
	for (i = 0; i < sizeof(hypervisors) / sizeof(hypervisors[0]); i++)
		if (!__builtin_memcmp(sig, hypervisors[i].sig, 12))
			return hypervisors[i].name;
	/* Unknown: name it by its printable signature characters. */
	__builtin_memcpy(machine_name, "hypervisor ", 11);
	for (i = 0, n = 11; i < 12 && sig[i]; i++)
		machine_name[n++] = sig[i] >= 0x20 && sig[i] < 0x7f ? sig[i] : '?';
	machine_name[n] = 0;
	return machine_name;
}

void arch_early_setup(void)
{
	acpi_init();		/* first: the FADT names the PM timer the calibration uses */
	tsc_calibrate();
}

void arch_boot_cpu_init(void)
{
	tsc_apply_early_khz();
	x86_cpu_init(0);
	apic_init_bsp();
	lapic_timer_calibrate();
	lapic_timer_setup_this_cpu();
}

void arch_power_off(enum poweroff_status status)
{
	static const u8 code[] = {
		[POWEROFF_OK] = 0x10, [POWEROFF_TEST_FAILED] = 0x11, [POWEROFF_PANIC] = 0x03,
	};

	arch_local_irq_disable();
	outl(DEBUG_EXIT_PORT, code[status]);
	/* No isa-debug-exit device: ACPI S5 (QEMU exits with status 0). */
	if (acpi_pm1a_cnt)
		outw(acpi_pm1a_cnt, (u16)(acpi_slp_typ_s5 << 10) | (1u << 13));
	for (;;)
		arch_halt();
}

/*
 * Reset through the PCI reset control register (0xcf9: full reset), then
 * the keyboard controller's reset line; both work on QEMU's pc machine.
 */
void arch_emergency_restart(void)
{
	arch_local_irq_disable();
	outb(0xcf9, 0x02);	/* arm a hard reset... */
	outb(0xcf9, 0x06);	/* ...and pulse it */
	outb(0x64, 0xfe);
	for (;;)
		arch_halt();
}
