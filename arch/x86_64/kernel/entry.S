/*
 * Interrupt and exception entry: 256 stubs, 16 bytes apart, each pushing
 * an error code (a dummy 0 where the CPU pushes none) and its vector, then
 * a common path that saves the registers as struct pt_regs and calls
 * x86_interrupt_dispatch(regs). The kernel never runs user code, so no
 * swapgs: GS always holds this CPU's per-CPU offset.
 */
	.section .text
	.balign 16
	.globl x86_isr_stubs
x86_isr_stubs:
	vec = 0
	.rept 256
	.balign 16
	.if (vec == 8) || (vec == 10) || (vec == 11) || (vec == 12) || (vec == 13) || (vec == 14) || (vec == 17) || (vec == 21) || (vec == 29) || (vec == 30)
	.else
	pushq $0
	.endif
	pushq $vec
	jmp interrupt_common
	vec = vec + 1
	.endr

interrupt_common:
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %rax
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	cld
	movq %rsp, %rdi
	call x86_interrupt_dispatch
	.globl x86_interrupt_return
x86_interrupt_return:
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rax
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
	addq $16, %rsp			/* vector and error code */
	iretq

	.section .note.GNU-stack, "", @progbits
