/*
 * Interrupt, exception and system-call entry. 256 stubs, 16 bytes apart,
 * each push an error code (a dummy 0 where the CPU pushes none) and its
 * vector, then a common path saves the registers as struct pt_regs and
 * calls x86_interrupt_dispatch(regs). SYSCALL enters at entry_SYSCALL_64
 * and builds the same frame (vector -1) on the task's kernel stack.
 *
 * RFLAGS: SYSCALL clears every flag but the reserved bit 1 itself (FMASK,
 * x86_syscall_init()); an interrupt gate clears IF, TF, NT and RF, and
 * interrupt_common then clears the rest with popfq. So the kernel never
 * runs with a flag user mode set (NT would make the kernel's own IRETQ
 * fault, AC would open SMAP, DF would break the C ABI).
 *
 * GS: in the kernel GS base holds this CPU's per-CPU offset; in user mode
 * it holds the user's (always 0: user code cannot change it, no FSGSBASE,
 * and the user segments' bases are 0). An entry from user mode (CS RPL 3)
 * swaps them with swapgs and the return to user mode swaps back. Entries
 * that can land in the kernel's few instructions with the user's GS (from
 * SYSCALL to its swapgs, from the exit's swapgs to SYSRETQ/IRETQ) decide
 * from where they came, not from CS:
 *  - NMI, #DB, #MC and #DF (the paranoid entries) read MSR_GS_BASE: 0 is
 *    the user's; they swap back on the way out only if they swapped in;
 *  - #GP, #SS and #NP at x86_iret_to_user are the IRETQ to user mode
 *    faulting on a frame user mode cannot have: the user's GS is active,
 *    and the fault is turned into one from user mode (x86_fixup_bad_iret())
 *    that kills the process. No other entry can land in those windows:
 *    interrupts are off there, and nothing else there can fault.
 */
#define PT_VECTOR	120
#define PT_RIP		136
#define PT_CS		144
#define PT_RFLAGS	152
#define PT_RSP		160
#define MSR_GS_BASE	0xc0000101
#define USER_CS		0x23
#define USER_DS		0x1b
/* Vectors whose entry from ring 0 reads MSR_GS_BASE: #DB 1, NMI 2, #DF 8, #MC 18. */
#define PARANOID_VECTORS	((1 << 1) | (1 << 2) | (1 << 8) | (1 << 18))
/* Faults a bad IRET frame raises: #NP 11, #SS 12, #GP 13. */
#define IRET_FAULT_VECTORS	((1 << 11) | (1 << 12) | (1 << 13))

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

	.macro SAVE_REGS
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
	.endm

	.macro RESTORE_REGS
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
	.endm

interrupt_common:
	SAVE_REGS
	/*
	 * Clear RFLAGS (DF for the C ABI; AC, which user mode may have set,
	 * so SMAP guards the handler too; ID, IOPL, the arithmetic flags).
	 * Every gate is an interrupt gate, so IF, TF, NT and RF are already 0.
	 * r12 = 1: a paranoid entry swapped GS, swap again on the way out.
	 */
	pushq $2
	popfq
	xorl %r12d, %r12d
	testb $3, PT_CS(%rsp)
	jz .Lfrom_kernel
	swapgs
	xorl %ebp, %ebp			/* backtraces end here, not in the user's frames */
	jmp .Ldispatch
.Lfrom_kernel:
	movq PT_VECTOR(%rsp), %rax
	cmpq $31, %rax
	ja .Ldispatch			/* an interrupt: IF is 0 in both windows */
	movl $PARANOID_VECTORS, %ecx
	btl %eax, %ecx
	jc .Lparanoid
	movl $IRET_FAULT_VECTORS, %ecx
	btl %eax, %ecx
	jnc .Ldispatch
	leaq x86_iret_to_user(%rip), %rcx
	cmpq %rcx, PT_RIP(%rsp)
	jne .Ldispatch
	/*
	 * The IRETQ to user mode faulted, after the exit's swapgs: take the
	 * kernel's GS back, and make the frame the one IRETQ was loading, so
	 * the fault is handled as one from user mode (the process is killed).
	 */
	swapgs
	xorl %ebp, %ebp
	movq %rsp, %rdi
	call x86_fixup_bad_iret
	jmp .Ldispatch
.Lparanoid:
	movl $MSR_GS_BASE, %ecx
	rdmsr
	orl %edx, %eax
	jnz .Ldispatch
	swapgs
	movl $1, %r12d
.Ldispatch:
	movq %rsp, %rdi
	call x86_interrupt_dispatch
	.globl x86_interrupt_return
x86_interrupt_return:
	/* Interrupts are off here (the dispatcher's exit-to-user path turns them off). */
	testb $3, PT_CS(%rsp)
	jnz .Lreturn_to_user
	testl %r12d, %r12d
	jz 1f
	swapgs
1:	RESTORE_REGS
	addq $16, %rsp			/* vector and error code */
	iretq
.Lreturn_to_user:
	swapgs
	RESTORE_REGS
	addq $16, %rsp
	/* The one IRETQ to user mode: a fault here is the frame's, handled above. */
	.globl x86_iret_to_user
x86_iret_to_user:
	iretq

/*
 * SYSCALL: RCX = user RIP, R11 = user RFLAGS, RFLAGS cleared (FMASK: IF
 * and every flag user mode could have set), still on the user stack.
 * Switch to the task's kernel stack (set at every context switch), build
 * a pt_regs, and let x86_syscall_entry() do the rest.
 */
	.globl entry_SYSCALL_64
entry_SYSCALL_64:
	swapgs
	movq %rsp, %gs:x86_user_rsp_scratch
	movq %gs:x86_cpu_kernel_rsp, %rsp
	pushq $USER_DS			/* ss */
	pushq %gs:x86_user_rsp_scratch	/* rsp */
	pushq %r11			/* rflags */
	pushq $USER_CS			/* cs */
	pushq %rcx			/* rip */
	pushq $0			/* error code */
	pushq $-1			/* vector: a system call */
	SAVE_REGS
	xorl %r12d, %r12d		/* x86_interrupt_return: not a paranoid entry */
	xorl %ebp, %ebp			/* backtraces end here, not in the user's frames */
	movq %rsp, %rdi
	call x86_syscall_entry
	testb %al, %al
	jz x86_interrupt_return		/* IRET: the frame is one an interrupt would have built */
	/*
	 * SYSRET: RCX and R11 carry RIP and RFLAGS back (both are clobbered
	 * by the ABI); x86_syscall_entry() checked RIP is a canonical user
	 * address, since SYSRET to a bad one would fault in ring 0.
	 */
	RESTORE_REGS
	movq PT_RIP - 120(%rsp), %rcx
	movq PT_RFLAGS - 120(%rsp), %r11
	movq PT_RSP - 120(%rsp), %rsp
	swapgs
	sysretq

/* x86_return_to_user(regs): leave for user mode through a frame built in C (a new process). */
	.globl x86_return_to_user
x86_return_to_user:
	movq %rdi, %rsp
	xorl %r12d, %r12d
	jmp x86_interrupt_return

	.section .note.GNU-stack, "", @progbits
