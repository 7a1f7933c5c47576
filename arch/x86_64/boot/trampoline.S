/*
 * The application-processor trampoline. smpboot.c copies the block between
 * trampoline_start and trampoline_end to TRAMPOLINE_BASE (0x8000), where a
 * startup IPI with vector 0x08 starts a CPU in real mode at 0800:0000.
 * It goes 16 -> 32 -> 64 bit with its own GDT and temporary page tables
 * (tr_pgd: an identity map of the first GiB, which holds this page and the
 * kernel text), then jumps to x86_ap_start64 in the kernel text. That
 * switches to the kernel's page tables, CR4 and the CPU's stack (which is
 * mapped only there) and calls x86_ap_entry(cpu).
 *
 * The block runs at another address than it is linked at: the code uses
 * only REL() (offsets, real mode with DS = CS) and ABS() (fixed physical
 * addresses) to reach its data. The BSP fills the tr_* slots before each
 * start; CPUs are started one at a time, so one copy serves them all.
 */
#include <asm/x86/boot.h>

#define TRAMPOLINE_BASE	0x8000
#define REL(x)		((x) - trampoline_start)
#define ABS(x)		(TRAMPOLINE_BASE + (x) - trampoline_start)

#define TR_CS32		0x18		/* 32-bit code: only on the way up */
#define CR0_MP		0x00000002
#define CR0_ET		0x00000010
#define CR0_NE		0x00000020
/* Caches on (CD and NW clear, unlike after INIT), write-protect honoured in ring 0. */
#define TR_CR0		(CR0_PE | CR0_MP | CR0_ET | CR0_NE | CR0_WP | CR0_PG)

	.section .rodata.trampoline, "a"
	.balign 16
	.globl trampoline_start
	.code16
trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	movl $1, REL(tr_alive)		/* tell the BSP the startup IPI arrived */
	lgdtl REL(tr_gdt_desc)
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl $TR_CS32, $ABS(tr_pm32)

	.code32
tr_pm32:
	movl $BOOT_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movl %eax, %fs
	movl %eax, %gs
	movl $(CR4_PAE | CR4_PGE), %eax
	movl %eax, %cr4
	movl ABS(tr_pgd), %eax
	movl %eax, %cr3
	/* EFER as on the boot CPU: LME, and NXE if the kernel's page tables use NX. */
	movl $MSR_EFER, %ecx
	movl ABS(tr_efer), %eax
	movl ABS(tr_efer) + 4, %edx
	wrmsr
	movl $TR_CR0, %eax
	movl %eax, %cr0
	ljmpl $BOOT_CS, $ABS(tr_lm64)

	.code64
tr_lm64:
	/* Read every slot now: the kernel page tables need not map this page. */
	movl ABS(tr_cpu), %edi
	movq ABS(tr_stack), %rsi
	movq ABS(tr_cr3), %rdx
	movq ABS(tr_cr4), %rcx
	movq ABS(tr_entry), %rax
	jmp *%rax

	.balign 8
tr_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08 BOOT_CS: 64-bit code, as in the kernel's GDT */
	.quad 0x00cf92000000ffff	/* 0x10 BOOT_DS: data */
	.quad 0x00cf9a000000ffff	/* 0x18: 32-bit code */
tr_gdt_end:
	.balign 8
tr_gdt_desc:
	.short tr_gdt_end - tr_gdt - 1
	.long ABS(tr_gdt)

	/* Slots, filled by smpboot.c before each startup IPI. */
	.balign 8
	.globl tr_alive, tr_cpu, tr_pgd, tr_efer, tr_stack, tr_cr3, tr_cr4, tr_entry
tr_alive:	.long 0		/* set by the AP in real mode */
tr_cpu:		.long 0		/* logical CPU number */
tr_pgd:		.long 0		/* temporary page tables (below 4 GiB) */
		.long 0
tr_efer:	.quad 0
tr_stack:	.quad 0		/* stack top, mapped in the kernel page tables only */
tr_cr3:		.quad 0		/* the kernel page tables */
tr_cr4:		.quad 0
tr_entry:	.quad 0		/* x86_ap_start64 */
	.globl trampoline_end
trampoline_end:

/*
 * 64-bit, in the kernel text (mapped by both page tables). edi = cpu,
 * rsi = stack top, rdx = kernel CR3, rcx = CR4.
 */
	.text
	.globl x86_ap_start64
x86_ap_start64:
	movq %rdx, %cr3
	movq %rcx, %cr4
	movq %rsi, %rsp
	xorl %eax, %eax
	movl %eax, %fs
	movl %eax, %gs			/* GS base is set by percpu_enter_cpu() */
	xorl %ebp, %ebp			/* ends frame-pointer backtraces */
	call x86_ap_entry
1:	cli
	hlt
	jmp 1b

	.section .note.GNU-stack, "", @progbits
