/*
 * The user-copy instructions and their exception table. A fault on one of
 * the listed instructions (a bad or unmapped user address, a supervisor
 * page) does not oops: traps.c finds the faulting RIP here and resumes at
 * its fixup, which returns the number of bytes left uncopied. SMAP's
 * stac/clac are done by the C wrappers (usermode.c) around these calls.
 */
	.section .text
/* unsigned long x86_copy_user_asm(void *dst, const void *src, unsigned long n) */
	.globl x86_copy_user_asm
x86_copy_user_asm:
	movq %rdx, %rcx
1:	rep movsb
	xorl %eax, %eax
	ret
2:	movq %rcx, %rax			/* rep movsb leaves the remaining count in rcx */
	ret

	.section .rodata
	.balign 8
	.globl x86_uaccess_extable, x86_uaccess_extable_end
x86_uaccess_extable:
	.quad 1b, 2b
x86_uaccess_extable_end:

	.section .note.GNU-stack, "", @progbits
