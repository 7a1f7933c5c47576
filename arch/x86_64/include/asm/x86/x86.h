/*
 * x86-internal helpers and declarations: MSRs, CPUID, control registers,
 * the interrupt frame, vector numbers and the arch-private init functions.
 * Only code under arch/ includes this header.
 */
#ifndef _ASM_X86_X86_H
#define _ASM_X86_X86_H

#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/errno.h>

/* Interrupt vectors (Linux's numbers where Linux has one). */
#define X86_TRAP_DF		8
#define X86_TRAP_NMI		2
#define X86_TRAP_PF		14
#define ISA_IRQ_VECTOR(irq)	(0x30 + (irq))	/* legacy IRQs 0-15, as Linux numbers them */
#define LOCAL_TIMER_VECTOR	0xec
#define CALL_FUNCTION_VECTOR	0xfb
#define RESCHEDULE_VECTOR	0xfd
#define SPURIOUS_APIC_VECTOR	0xff

#define MSR_APIC_BASE		0x1b
#define MSR_GS_BASE		0xc0000101
#define MSR_KERNEL_GS_BASE	0xc0000102

struct pt_regs {
	u64 r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	u64 rax, rcx, rdx, rsi, rdi;
	u64 vector, error_code;
	u64 rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}
static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}
static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}
static inline u64 read_cr2(void) { u64 v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline u64 read_cr3(void) { u64 v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline u64 read_cr4(void) { u64 v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline u64 read_cr0(void) { u64 v; __asm__ volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline void write_cr3(u64 v) { __asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void invlpg(unsigned long addr) { __asm__ volatile("invlpg (%0)" :: "r"(addr) : "memory"); }

typedef void (*x86_irq_handler_t)(struct pt_regs *regs);

/* traps.c / idt.c */
void x86_early_trap_init(void);
/* KASAN: map the early shadow (paging.c); first thing in x86_boot_main(). */
#ifdef CONFIG_KASAN
void x86_kasan_early_init(void);
#else
static inline void x86_kasan_early_init(void) { }
#endif
/* Called from assembly (head.S, entry.S) or across arch files: declared once, so each
 * definition is checked against its callers' view (sparse reports undeclared globals). */
void x86_boot_main(u32 magic, u32 info);
void x86_interrupt_dispatch(struct pt_regs *regs);
void x86_nmi_handler(struct pt_regs *regs);
void x86_idt_enable_ist(void);
void x86_idt_load(void);
void x86_set_irq_handler(unsigned vector, x86_irq_handler_t handler);
void x86_show_regs(const struct pt_regs *regs);
void x86_show_trace(unsigned long rip, unsigned long rbp);
/* cpu.c: is [addr, addr + len) on one of this CPU's IST stacks (#DF, NMI, #MC)? */
bool x86_on_ist_stack(unsigned long addr, unsigned long len);
/* traps.c: the IST stack number vector vec's IDT entry switches to (0: none). */
unsigned int x86_idt_ist(unsigned int vec);
/* cpu.c: per-CPU GDT/TSS (with IST stacks) and IDT load, on each CPU. */
void x86_cpu_init(unsigned int cpu);

/* apic.c */
extern bool x2apic_mode;
void apic_init_bsp(void);
void apic_init_ap(void);
u32 apic_read(u32 reg);
void apic_write(u32 reg, u32 val);
void apic_eoi(void);
u32 apic_read_id(void);
void apic_send_ipi(u32 apic_id, u32 icr_low);
void apic_wait_icr_idle(void);
#define APIC_DM_FIXED	0x000
#define APIC_DM_NMI	0x400
#define APIC_DM_INIT	0x500
#define APIC_DM_STARTUP	0x600
#define APIC_LEVEL_ASSERT 0x4000
#define APIC_DEST_ALLBUT 0xc0000
/* Map of logical CPU numbers to APIC IDs, filled from the MADT. */
extern u32 x86_cpu_to_apicid[];

/* tsc.c */
void tsc_mark_boot(void);
void tsc_calibrate(void);
/* Run the clock at khz from now on (boot CPU; the calibration, then at most one refinement). */
void tsc_set_khz(u64 khz);
/* tsc_early_khz=: applied once the command line is parsed. */
void tsc_apply_early_khz(void);
/* The ACPI PM timer's count (acpi_pm_tmr_port must be set). */
u64 pmtmr_read(void);
/* tsc_refine.c: a (TSC, PM timer, RTC) sample at calibration, checked again ~1 s later. */
void tsc_refine_anchor(void);
/*
 * Read a counter with the TSC around it, a few times; return the value of
 * the best-bracketed read, with *tsc halfway between the cycle reads around
 * it and *width that bracket (the TSC and APIC-timer calibrations).
 */
u32 tsc_bracketed_read(u32 (*read)(void), u64 *tsc, u64 *width);
extern u64 tsc_khz;

/* timer.c: LAPIC timer as the tick source. */
void lapic_timer_calibrate(void);
/* The TSC's rate changed from old_khz to new_khz: the timer's was measured against it. */
u64 lapic_timer_rescale(u64 old_khz, u64 new_khz);
void lapic_timer_setup_this_cpu(void);

/* acpi.c */
void acpi_init(void);
extern u16 acpi_pm1a_cnt;
extern u16 acpi_slp_typ_s5;
/* The FADT's ACPI PM timer: its I/O port (0: none) and width (24 or 32 bits). */
extern u16 acpi_pm_tmr_port;
extern unsigned int acpi_pm_tmr_bits;
/* The MADT's first I/O APIC (phys 0: none found) and its ISA IRQ overrides. */
struct x86_ioapic_info {
	u32 phys;
	u32 gsi_base;
	u32 isa_gsi[16];	/* ISA IRQ -> global system interrupt */
	u16 isa_flags[16];	/* MPS INTI flags: polarity bits 1:0, trigger bits 3:2 */
};
extern struct x86_ioapic_info x86_ioapic;

/* User mode (usermode.c, uaccess.S, mm/uspace.c, cpu.c). */
#define X86_TRAP_UD		6
#define X86_TRAP_GP		13
#define X86_TRAP_MC		18
#define X86_TRAP_NP		11
#define X86_TRAP_SS		12
/* RFLAGS bits (IF is in <asm/irqflags.h>). */
#define X86_EFLAGS_CF		0x1
#define X86_EFLAGS_PF		0x4
#define X86_EFLAGS_AF		0x10
#define X86_EFLAGS_ZF		0x40
#define X86_EFLAGS_SF		0x80
#define X86_EFLAGS_TF		0x100
#define X86_EFLAGS_DF		0x400
#define X86_EFLAGS_OF		0x800
#define X86_EFLAGS_IOPL		0x3000
#define X86_EFLAGS_NT		0x4000
#define X86_EFLAGS_RF		0x10000
#define X86_EFLAGS_AC		0x40000
#define X86_EFLAGS_ID		0x200000
#define MSR_STAR		0xc0000081
#define MSR_LSTAR		0xc0000082
#define MSR_SYSCALL_MASK	0xc0000084
#define EFER_SCE		0x00000001
#define CR4_UMIP		(1UL << 11)
#define CR4_SMEP		(1UL << 20)
#define CR4_SMAP		(1UL << 21)
DECLARE_PER_CPU(unsigned long, x86_cpu_kernel_rsp);
DECLARE_PER_CPU(unsigned long, x86_user_rsp_scratch);
static inline bool user_mode(const struct pt_regs *regs) { return regs->cs & 3; }
void x86_syscall_init(void);
void x86_cpu_protect_init(unsigned int cpu);
/* fpu.c: this CPU's CR0/CR4/XCR0 FPU bits (the boot CPU, 0, first: it picks the format). */
void x86_fpu_cpu_init(unsigned int cpu);
void x86_copy_kernel_pml4(u64 *pml4, unsigned int first_user_slot);
/* C halves of the entry paths (entry.S); the bool: may the return use SYSRET. */
bool x86_syscall_entry(struct pt_regs *regs);
void x86_enter_from_user(void);
void x86_exit_to_user(void);
/* A fault from user mode: report it and kill the process. */
__noreturn void x86_user_fault(struct pt_regs *regs);
/* entry.S: the IRETQ to user mode faulted; make regs the frame it was loading. */
void x86_fixup_bad_iret(struct pt_regs *regs);
/* A fault at a user-copy instruction: resume at its fixup; false if rip is none. */
bool x86_uaccess_fixup(struct pt_regs *regs);
__noreturn void x86_return_to_user(struct pt_regs *regs);
/* usermode_test.c (CONFIG_USER_SELFTEST): system call 1000 returns through a frame the user picks. */
#define X86_NR_TEST_RETURN	1000
/* System call 1001: this CPU's FPU control bits (user/fpu.c mode 10; layout in usermode_test.c). */
#define X86_NR_TEST_FPU_REGS	1001
/* System call 1002: the NMI backtrace of the SYSCALL entry window, with the caller's RBP. */
#define X86_NR_TEST_WINDOW_BT	1002
#ifdef CONFIG_USER_SELFTEST
long x86_test_return(struct pt_regs *regs, const unsigned long a[6]);
long x86_test_fpu_regs(void);
long x86_test_window_backtrace(struct pt_regs *regs);
#else
static inline long x86_test_fpu_regs(void) { return -ENOSYS; }
static inline long x86_test_window_backtrace(struct pt_regs *regs)
{
	(void)regs;
	return -ENOSYS;
}

static inline long x86_test_return(struct pt_regs *regs, const unsigned long a[6])
{
	(void)regs;
	(void)a;
	return -ENOSYS;	/* as any unknown number */
}
#endif

/* smpboot.c */
void x86_smp_boot_aps(void);

#endif
