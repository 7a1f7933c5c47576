/*
 * Boot entry. Two ways in, both in 32-bit protected mode with paging off:
 * GRUB's multiboot2 (_start: eax = magic, ebx = info) and QEMU's PVH
 * (_start_pvh: ebx = hvm_start_info). Both build identity page tables for
 * the first 4 GiB with 2 MiB pages, enter long mode and call
 * x86_boot_main(magic, info). C code later replaces these tables.
 */
#include <asm/x86/boot.h>

	.section .multiboot2, "a"
	.balign 8
mb2_header:
	.long MB2_HEADER_MAGIC
	.long 0				/* architecture: i386 protected mode */
	.long mb2_header_end - mb2_header
	.long -(MB2_HEADER_MAGIC + (mb2_header_end - mb2_header))
	.balign 8
	.short 0, 0			/* end tag */
	.long 8
mb2_header_end:

	.section .note.Xen, "a"
	.balign 4
	.long 4, 8, 18			/* namesz, descsz, XEN_ELFNOTE_PHYS32_ENTRY */
	.asciz "Xen"
	.balign 4
	.quad _start_pvh

	.section .text.boot, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	movl %eax, %ebp			/* multiboot2 magic */
	movl %ebx, %esi			/* multiboot2 info */
	jmp 1f

	.globl _start_pvh
_start_pvh:
	cli
	cld
	movl $PVH_START_MAGIC, %ebp
	movl %ebx, %esi			/* hvm_start_info */

1:	movl $boot_stack_top, %esp

	/* Zero .bss (the loaders normally do; be sure). esi/ebp survive. */
	movl $__bss_start, %edi
	movl $__bss_end, %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb

	/* PML4[0] -> PDPT; PDPT[0..3] -> four page directories. */
	movl $boot_pdpt, %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, boot_pml4
	movl $boot_pdpt, %edi
	movl $boot_pd, %eax
	orl $(PTE_P | PTE_W), %eax
	movl $4, %ecx
2:	movl %eax, (%edi)
	addl $4096, %eax
	addl $8, %edi
	loop 2b

	/* 2048 x 2 MiB identity pages; the 4th GiB (MMIO: IOAPIC, LAPIC) uncached. */
	movl $boot_pd, %edi
	xorl %ecx, %ecx
3:	movl %ecx, %eax
	shll $21, %eax
	orl $(PTE_P | PTE_W | PTE_PS), %eax
	cmpl $1536, %ecx
	jb 4f
	orl $(PTE_PWT | PTE_PCD), %eax
4:	movl %eax, (%edi, %ecx, 8)
	incl %ecx
	cmpl $2048, %ecx
	jb 3b

	/* PAE + global pages, then CR3. */
	movl %cr4, %eax
	orl $(CR4_PAE | CR4_PGE), %eax
	movl %eax, %cr4
	movl $boot_pml4, %eax
	movl %eax, %cr3

	/* EFER: long mode, and no-execute when the CPU has it. */
	movl $0x80000001, %eax
	cpuid
	movl %edx, %ebx
	movl $MSR_EFER, %ecx
	rdmsr
	orl $EFER_LME, %eax
	btl $20, %ebx
	jnc 5f
	orl $EFER_NXE, %eax
5:	wrmsr

	movl %cr0, %eax
	orl $(CR0_PG | CR0_PE | CR0_WP), %eax
	movl %eax, %cr0

	lgdt boot_gdt_desc
	ljmp $BOOT_CS, $long_mode

	.code64
long_mode:
	movl $BOOT_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	xorl %eax, %eax
	movl %eax, %fs
	movl %eax, %gs
	movq $boot_stack_top, %rsp
	movl %ebp, %edi			/* arg 1: magic */
	movl %esi, %esi			/* arg 2: info (zero-extended) */
	xorl %ebp, %ebp			/* ends frame-pointer backtraces */
	call x86_boot_main
6:	cli
	hlt
	jmp 6b

	.section .rodata
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: data */
boot_gdt_end:
boot_gdt_desc:
	.short boot_gdt_end - boot_gdt - 1
	.long boot_gdt

	.section .bss
	.balign 4096
	.globl boot_pml4, boot_pdpt, boot_pd
boot_pml4:	.skip 4096
boot_pdpt:	.skip 4096
boot_pd:	.skip 4 * 4096
	.globl boot_stack, boot_stack_top
boot_stack:	.skip BOOT_STACK_SIZE
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
