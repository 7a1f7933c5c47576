/*
 * Per-CPU descriptor tables: each CPU gets its own GDT and TSS (the TSS
 * holds the IST stacks that double faults and NMIs switch to, so a kernel
 * stack overflow can still be reported, and RSP0, the kernel stack an
 * interrupt from user mode lands on), then loads the shared IDT. The GDT
 * also holds the ring-3 segments, laid out as SYSRET expects them.
 */
#include <kernel/percpu.h>
#include <mm/mm.h>
#include <kernel/bug.h>
#include <kernel/string.h>
#include <asm/percpu.h>
#include <asm/x86/x86.h>
#include <asm/switch_to.h>
#include <asm/x86/boot.h>

#define IST_STACK_SIZE	(16 * 1024)
#define GDT_TSS		0x28

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3, iomap_base;
} __packed;

struct cpu_tables {
	u64 gdt[7];
	struct tss tss;
};
static DEFINE_PER_CPU_ALIGNED(struct cpu_tables, cpu_tables);

void arch_set_percpu_offset(unsigned long offset)
{
	wrmsr(MSR_GS_BASE, offset);
}

static u64 *ist_stack(void)
{
	void *base;
	void *top = alloc_kernel_stack(IST_STACK_SIZE, &base);

	BUG_ON(!top);
	return top;
}

void x86_cpu_init(unsigned int cpu)
{
	struct cpu_tables *t = per_cpu_ptr(&cpu_tables, cpu);
	u64 tss = (u64)(uintptr_t)&t->tss;
	struct { u16 limit; u64 base; } __packed gdtr = { sizeof(t->gdt) - 1, (u64)(uintptr_t)t->gdt };

	u64 ist0 = t->tss.ist[0], ist1 = t->tss.ist[1];	/* a CPU started again keeps its stacks */
	u64 ist2 = t->tss.ist[2];

	memset(t, 0, sizeof(*t));
	t->gdt[1] = 0x00af9a000000ffffULL;	/* 0x08: 64-bit kernel code */
	t->gdt[2] = 0x00cf92000000ffffULL;	/* 0x10: kernel data */
	/*
	 * SYSRET loads SS from STAR[63:48] + 8 and CS from STAR[63:48] + 16,
	 * so user data comes before user code (x86_syscall_init()).
	 */
	t->gdt[3] = 0x00cff2000000ffffULL;	/* 0x18: user data, DPL 3 (USER_DS 0x1b) */
	t->gdt[4] = 0x00affa000000ffffULL;	/* 0x20: 64-bit user code, DPL 3 (USER_CS 0x23) */
	/* 0x28: 64-bit available TSS, two slots. */
	t->gdt[5] = (sizeof(struct tss) - 1) | ((tss & 0xffffff) << 16) | (0x89ULL << 40) |
		    (((tss >> 24) & 0xff) << 56);
	t->gdt[6] = tss >> 32;
	t->tss.iomap_base = sizeof(struct tss);
	t->tss.ist[0] = ist0 ? ist0 : (u64)(uintptr_t)ist_stack();	/* IST1: double fault */
	t->tss.ist[1] = ist1 ? ist1 : (u64)(uintptr_t)ist_stack();	/* IST2: NMI */
	t->tss.ist[2] = ist2 ? ist2 : (u64)(uintptr_t)ist_stack();	/* IST3: machine check */

	__asm__ volatile("lgdt %0\n\t"
			 "ltr %w1"
			 :: "m"(gdtr), "r"(GDT_TSS) : "memory");
	x86_idt_enable_ist();
	x86_cpu_protect_init(cpu);
	x86_fpu_cpu_init(cpu);
	x86_syscall_init();
}

/*
 * The kernel stack the next task enters the kernel on from user mode:
 * RSP0 for interrupts and exceptions, x86_cpu_kernel_rsp for SYSCALL
 * (entry.S). Called by arch_switch_to() with interrupts off.
 */
void x86_set_kernel_stack(unsigned long top)
{
	this_cpu_write(x86_cpu_kernel_rsp, top);
	this_cpu_ptr(&cpu_tables)->tss.rsp[0] = top;
}

/* Is [addr, addr + len) on one of this CPU's IST stacks? (traps.c's backtraces) */
bool x86_on_ist_stack(unsigned long addr, unsigned long len)
{
	const struct tss *tss = &this_cpu_ptr(&cpu_tables)->tss;

	for (unsigned int i = 0; i < 3; i++) {
		unsigned long top = tss->ist[i];

		if (top && addr >= top - IST_STACK_SIZE && addr + len <= top)
			return true;
	}
	return false;
}
