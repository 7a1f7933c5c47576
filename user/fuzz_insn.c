/*
 * The fuzzer's single instructions (user/fuzz.c): each a stub "insn; ret",
 * called as a function. Most must fault at CPL 3 and kill the process
 * (privileged, I/O, descriptor-table and control-register instructions,
 * bad segment loads, a far return or IRET to ring 0, `int N` through a
 * DPL-0 gate); fuzz.c says which may run. Also the system call made with
 * chosen RFLAGS bits and segment selectors in force. In assembly: no C
 * code may run with DF or AC set, or after a segment load the compiler
 * does not know of.
 */
#include "fuzz.h"

#define STUB(name, body)							\
	".text\n.balign 16\n.globl fz_" #name "\n.hidden fz_" #name "\n"	\
	"fz_" #name ":\n" body "\n\tret\n"

__asm__(
	STUB(hlt, "hlt")
	STUB(cli, "cli")
	STUB(sti, "sti")
	STUB(inb, "inb $0x64, %al")
	STUB(inl_dx, "movw $0xcf8, %dx; inl %dx, %eax")
	STUB(outb, "xorl %eax, %eax; outb %al, $0x80")
	STUB(outl_dx, "movw $0xcf8, %dx; movl $0x80000000, %eax; outl %eax, %dx")
	STUB(insb, "movw $0x60, %dx; leaq -64(%rsp), %rdi; insb")
	STUB(rdmsr, "movl $0xc0000082, %ecx; rdmsr")
	STUB(wrmsr, "movl $0xc0000082, %ecx; xorl %eax, %eax; xorl %edx, %edx; wrmsr")
	STUB(rd_cr0, "movq %cr0, %rax")
	STUB(wr_cr3, "xorl %eax, %eax; movq %rax, %cr3")
	STUB(rd_cr4, "movq %cr4, %rax")
	STUB(wr_cr8, "movl $15, %eax; movq %rax, %cr8")
	STUB(wr_dr7, "movl $0x400, %eax; movq %rax, %dr7")
	STUB(lgdt, "lgdt (%rsp)")
	STUB(lidt, "lidt (%rsp)")
	STUB(lldt, "xorl %eax, %eax; lldt %ax")
	STUB(ltr, "movw $0x28, %ax; ltr %ax")
	STUB(lmsw, "xorl %eax, %eax; lmsw %ax")
	STUB(invlpg, "invlpg (%rsp)")
	STUB(wbinvd, "wbinvd")
	STUB(invd, "invd")
	STUB(clts, "clts")
	STUB(swapgs, "swapgs")
	STUB(sysret, "sysretq")
	STUB(sysenter, "sysenter")
	STUB(rdpmc, "xorl %ecx, %ecx; rdpmc")
	STUB(xsetbv, "xorl %ecx, %ecx; movl $3, %eax; xorl %edx, %edx; xsetbv")
	STUB(mwait, "xorl %eax, %eax; xorl %ecx, %ecx; mwait")
	STUB(vmcall, "vmcall")
	STUB(ud2, "ud2")
	STUB(int3, "int3")
	STUB(int1, ".byte 0xf1")
	STUB(into, ".byte 0xce")
	STUB(div0, "xorl %ecx, %ecx; xorl %edx, %edx; movl $1, %eax; divl %ecx")
	STUB(ss_kernel, "movw $0x10, %ax; movw %ax, %ss")
	STUB(ds_kernel, "movw $0x10, %ax; movw %ax, %ds")
	STUB(fs_past_gdt, "movw $0x43, %ax; movw %ax, %fs")
	STUB(gs_tss, "movw $0x28, %ax; movw %ax, %gs")
	/* An IRET frame for ring 0 (CS 0x08): #GP, a return to an inner level. */
	STUB(iret_ring0, "movq %rsp, %rax; pushq $0x1b; pushq %rax; pushfq; pushq $0x08;"
			 "leaq 1f(%rip), %rax; pushq %rax; iretq; 1:")
	/* IRET with NT set: #GP in 64-bit mode (the fault issue 30's kernel took in ring 0). */
	STUB(iret_nt, "movq %rsp, %rax; pushq $0x1b; pushq %rax; pushfq; pushq $0x23;"
		      "leaq 1f(%rip), %rcx; pushq %rcx; pushfq; orq $0x4000, (%rsp); popfq; iretq; 1:")
	STUB(lret_ring0, "pushq $0x08; leaq 1f(%rip), %rax; pushq %rax; lretq; 1:")
	/* May run: refused silently (IOPL, RF) or allowed without UMIP. */
	STUB(popf_iopl, "pushfq; pushfq; orq $0x13000, (%rsp); popfq; popfq")
	STUB(sgdt, "sgdt -16(%rsp)")
	STUB(sidt, "sidt -16(%rsp)")
	STUB(smsw, "smsw %ax")
	STUB(cpuid, "pushq %rbx; xorl %eax, %eax; xorl %ecx, %ecx; cpuid; popq %rbx")
	STUB(rdtsc, "rdtsc")
);

/* int $N for every vector, one 4-byte stub each (2 bytes of `int imm8`, a ret, a pad). */
__asm__(".text\n.balign 16\n.globl fz_int_table\n.hidden fz_int_table\nfz_int_table:\n"
	".set fz_vec, 0\n"
	".rept 256\n"
	".byte 0xcd, fz_vec\n"	/* int $imm8: never the one-byte int3 encoding */
	"ret\n"
	"nop\n"
	".set fz_vec, fz_vec + 1\n"
	".endr\n");

/*
 * long fz_syscall(long nr, const long a[6], unsigned long flags, unsigned long sels):
 * OR flags into RFLAGS (popfq: NT, AC, DF, ID, TF; IOPL and RF are refused
 * at CPL 3), load DS, ES, FS, GS from sels' four bytes (byte 0 DS ... byte
 * 3 GS; a zero byte leaves that register alone), make the system call, put
 * the original RFLAGS back and return RAX. The selectors stay as loaded:
 * the kernel must cope with them at every later entry and exit.
 */
__asm__(".text\n.balign 16\n.globl fz_syscall\n.hidden fz_syscall\nfz_syscall:\n"
	"	pushq %rbx\n"
	"	movq %rdi, %rax\n"		/* nr */
	"	movq %rsi, %r11\n"		/* a[] */
	"	movq %rdx, %rbx\n"		/* flags */
	"	movq %rcx, %rsi\n"		/* sels */
	"	testb %sil, %sil; jz 1f; movzbl %sil, %edi; movw %di, %ds\n"
	"1:	shrq $8, %rsi; testb %sil, %sil; jz 2f; movzbl %sil, %edi; movw %di, %es\n"
	"2:	shrq $8, %rsi; testb %sil, %sil; jz 3f; movzbl %sil, %edi; movw %di, %fs\n"
	"3:	shrq $8, %rsi; testb %sil, %sil; jz 4f; movzbl %sil, %edi; movw %di, %gs\n"
	"4:	movq 0(%r11), %rdi\n"
	"	movq 8(%r11), %rsi\n"
	"	movq 16(%r11), %rdx\n"
	"	movq 24(%r11), %r10\n"
	"	movq 32(%r11), %r8\n"
	"	movq 40(%r11), %r9\n"
	"	pushfq\n"			/* the original flags, restored below */
	"	pushfq\n"
	"	orq %rbx, (%rsp)\n"
	"	popfq\n"
	"	syscall\n"
	"	popfq\n"
	"	popq %rbx\n"
	"	ret\n");
