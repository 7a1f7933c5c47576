/*
 * __switch_to_asm(prev_sp, next_sp, prev): save the callee-saved registers
 * on the current stack, store the stack pointer through prev_sp, load
 * next_sp and restore next's registers. %rax returns prev to next's side.
 * RFLAGS are not switched: next goes on with prev's IF and every other
 * flag reset, so no flag one task's kernel path left set (NT would make
 * next's IRETQ fault, AC would open SMAP for it) follows it to another.
 * ret_from_kthread is where a new task's first switch-in lands.
 */
	.section .text
	.globl __switch_to_asm
__switch_to_asm:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	pushfq
	andq $0x200, (%rsp)		/* IF only */
	orq $2, (%rsp)
	popfq
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	movq %rdx, %rax
	ret

	.globl ret_from_kthread
ret_from_kthread:
	movq %rax, %rdi
	call schedule_tail
	movq %r13, %rdi
	call *%r12
	ud2

	.section .note.GNU-stack, "", @progbits
