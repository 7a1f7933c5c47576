/*
 * The C half of user-mode entry and exit on x86-64: SYSCALL setup, the
 * system-call path, the return to user mode (rescheduling, context
 * tracking), user copies with SMAP's stac/clac, the user-fault reports
 * (Linux's one-line formats) and SMEP/SMAP enabling.
 */
#include <kernel/user.h>
#include <kernel/uaccess.h>
#include <kernel/context_tracking.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/errno.h>
#include <sched/sched.h>
#include <sched/task.h>
#include <asm/x86/x86.h>
#include <asm/x86/boot.h>
#include <asm/irqflags.h>

extern char entry_SYSCALL_64[];
extern const unsigned long x86_uaccess_extable[], x86_uaccess_extable_end[];
unsigned long x86_copy_user_asm(void *dst, const void *src, unsigned long n);

/* entry.S: the task's kernel stack top, and the user RSP while SYSCALL switches stacks. */
DEFINE_PER_CPU(unsigned long, x86_cpu_kernel_rsp);
DEFINE_PER_CPU(unsigned long, x86_user_rsp_scratch);

static bool smep_on, smap_on, umip_on;

bool arch_smep_active(void) { return smep_on; }
bool arch_smap_active(void) { return smap_on; }

/*
 * SMEP (the kernel never executes user pages), SMAP (the kernel never
 * touches them outside stac/clac) and UMIP (SGDT, SIDT, SLDT, SMSW and STR
 * raise #GP at CPL 3, so user mode cannot read the GDT/IDT addresses, which
 * are kernel addresses) on every CPU when CPUID offers them; the boot CPU
 * decides, APs follow (QEMU gives every vCPU the same model).
 */
void x86_cpu_protect_init(unsigned int cpu)
{
	u32 a, b, c, d, cr4_add = 0;

	cpuid(0, 0, &a, &b, &c, &d);
	if (a >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		if (cpu == 0) {
			smep_on = b & (1u << 7);
			smap_on = b & (1u << 20);
			umip_on = c & (1u << 2);
		}
	}
	if (smep_on)
		cr4_add |= CR4_SMEP;
	if (smap_on)
		cr4_add |= CR4_SMAP;
	if (umip_on)
		cr4_add |= CR4_UMIP;
	if (cr4_add)
		__asm__ volatile("mov %0, %%cr4" :: "r"(read_cr4() | cr4_add) : "memory");
	if (cpu == 0) {
		pr_info("x86/cpu: SMEP %s, SMAP %s\n", smep_on ? "enabled" : "not supported by the CPU",
			smap_on ? "enabled" : "not supported by the CPU");
		/* Linux's line when on; Linux says nothing when the CPU lacks it. */
		if (umip_on)
			pr_info("x86/cpu: User Mode Instruction Prevention (UMIP) activated\n");
		else
			pr_info("x86/cpu: UMIP not supported by the CPU\n");
	}
}

/*
 * STAR: kernel CS 0x08 (SS 0x10) for SYSCALL; SYSRET takes SS = 0x10 + 8
 * and CS = 0x10 + 16 with RPL 3 (cpu.c's GDT: 0x1b, 0x23). FMASK is
 * Linux's: SYSCALL clears every flag user mode can set, so the kernel
 * starts with RFLAGS = 0x2 (IF off while entry.S is on the user stack; NT
 * would make the kernel's IRETQ fault, in this task or, carried through a
 * context switch, in the next; AC would open SMAP; DF, TF, RF, ID, IOPL
 * and the arithmetic flags are no kernel code's business). SYSRET gives
 * the user's back from R11.
 */
#define SYSCALL_FMASK	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | \
			 X86_EFLAGS_SF | X86_EFLAGS_TF | X86_EFLAGS_IF | X86_EFLAGS_DF | \
			 X86_EFLAGS_OF | X86_EFLAGS_IOPL | X86_EFLAGS_NT | X86_EFLAGS_RF | \
			 X86_EFLAGS_AC | X86_EFLAGS_ID)

void x86_syscall_init(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* STAR's high half: EDX = 0x10 << 16 | 0x08 (written directly: no 64-bit constant to split). */
	__asm__ volatile("wrmsr" :: "c"(MSR_STAR), "a"(0), "d"(0x00100008u) : "memory");
	wrmsr(MSR_LSTAR, (u64)(uintptr_t)entry_SYSCALL_64);
	wrmsr(MSR_SYSCALL_MASK, SYSCALL_FMASK);
	/* The user's GS base while the kernel's is active; entry.S relies on it being 0. */
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

static inline void stac(void)
{
	if (smap_on)
		__asm__ volatile("stac" ::: "memory");
}

static inline void clac(void)
{
	if (smap_on)
		__asm__ volatile("clac" ::: "memory");
}

unsigned long arch_copy_to_user(void __user *to, const void *from, unsigned long n)
{
	unsigned long left;

	stac();
	left = x86_copy_user_asm((__force void *)to, from, n);
	clac();
	return left;
}

unsigned long arch_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long left;

	stac();
	left = x86_copy_user_asm(to, (__force const void *)from, n);
	clac();
	return left;
}

bool x86_uaccess_fixup(struct pt_regs *regs)
{
	for (const unsigned long *e = x86_uaccess_extable; e < x86_uaccess_extable_end; e += 2)
		if (regs->rip == e[0]) {
			regs->rip = e[1];
			return true;
		}
	return false;
}

/* Kernel entry from user mode: RCU watches again (before anything can use it). */
void x86_enter_from_user(void)
{
	ct_user_exit();
}

/*
 * The way back to user mode: run the scheduler if asked (even without
 * CONFIG_PREEMPTION, as Linux does on return to user), then tell context
 * tracking, with interrupts off until IRET/SYSRET turns them back on.
 */
void x86_exit_to_user(void)
{
	for (;;) {
		local_irq_disable();
		if (!need_resched())
			break;
		local_irq_enable();
		schedule();
	}
	ct_user_enter();
}

bool x86_syscall_entry(struct pt_regs *regs)
{
	unsigned long args[6] = { regs->rdi, regs->rsi, regs->rdx, regs->r10, regs->r8, regs->r9 };

	x86_enter_from_user();
	local_irq_enable();
	if (regs->rax == X86_NR_TEST_RETURN)
		regs->rax = x86_test_return(regs, args);
	else if (regs->rax == X86_NR_TEST_FPU_REGS)
		regs->rax = x86_test_fpu_regs();
	else if (regs->rax == X86_NR_TEST_WINDOW_BT)
		regs->rax = x86_test_window_backtrace(regs);
	else
		regs->rax = syscall_dispatch(regs->rax, args);
	x86_exit_to_user();
	/* SYSRETQ only to a frame it can load without faulting in ring 0: else IRETQ. */
	return regs->rip < USER_VA_END && regs->cs == USER_CS && regs->ss == USER_DS;
}

/*
 * entry.S: #GP, #SS or #NP on the IRETQ to user mode (x86_iret_to_user),
 * which came in ring 0 after ct_user_enter() and the exit's swapgs (entry.S
 * has swapped back). The frame IRETQ was loading (RIP CS RFLAGS RSP SS) is
 * at the faulting RSP: make regs that frame, so the fault reads as one
 * from user mode at the user's RIP, and x86_interrupt_dispatch() leaves
 * context tracking's user state and kills the process with the usual
 * report, as Linux's fixup_bad_iret() does. Only copies: RCU is not
 * watching yet.
 */
void x86_fixup_bad_iret(struct pt_regs *regs)
{
	const u64 *iret = (const u64 *)(uintptr_t)regs->rsp;

	regs->rip = iret[0];
	regs->cs = iret[1];
	regs->rflags = iret[2];
	regs->rsp = iret[3];
	regs->ss = iret[4];
}

/*
 * A fault in user mode kills the process with Linux's one-line report
 * (arch/x86's show_signal_msg() and do_trap() formats); the kernel goes on.
 */
__noreturn void x86_user_fault(struct pt_regs *regs)
{
	struct task_struct *t = current;
	int sig = 11;	/* SIGSEGV */

	if (regs->vector == X86_TRAP_PF) {
		printk(KERN_INFO "%s[%d]: segfault at %llx ip %016llx sp %016llx error %llx\n",
		       t->comm, t->pid, read_cr2(), regs->rip, regs->rsp, regs->error_code);
	} else if (regs->vector == X86_TRAP_GP) {
		printk(KERN_INFO "traps: %s[%d] general protection fault ip:%llx sp:%llx error:%llx\n",
		       t->comm, t->pid, regs->rip, regs->rsp, regs->error_code);
	} else {
		static const char *const names[32] = {
			[0] = "divide error", [1] = "debug", [3] = "int3", [4] = "overflow",
			[5] = "bounds", [6] = "invalid opcode", [7] = "device not available",
			[10] = "invalid TSS", [11] = "segment not present", [12] = "stack segment",
			[16] = "coprocessor error", [17] = "alignment check", [19] = "SIMD coprocessor error",
		};
		const char *name = regs->vector < 32 && names[regs->vector] ? names[regs->vector] : "exception";

		sig = regs->vector == X86_TRAP_UD ? 4 /* SIGILL */ :
		      regs->vector == 0 || regs->vector == 16 || regs->vector == 19 ? 8 /* SIGFPE */ :
		      regs->vector == 3 || regs->vector == 1 ? 5 /* SIGTRAP */ :
		      regs->vector == X86_TRAP_NP || regs->vector == X86_TRAP_SS ? 7 /* SIGBUS */ : 11;
		printk(KERN_INFO "traps: %s[%d] trap %s ip:%llx sp:%llx error:%llx\n",
		       t->comm, t->pid, name, regs->rip, regs->rsp, regs->error_code);
	}
	local_irq_enable();
	user_process_kill(sig);
}

/* Leave for user mode at ip with stack sp: an IRET frame built here, interrupts on there. */
__noreturn void arch_enter_user(unsigned long ip, unsigned long sp, const unsigned long args[3])
{
	struct pt_regs regs = {
		.rdi = args[0], .rsi = args[1], .rdx = args[2], .rip = ip, .cs = USER_CS, .rflags = X86_EFLAGS_IF | 0x2,
		.rsp = sp, .ss = USER_DS,
	};

	local_irq_disable();
	ct_user_enter();
	x86_return_to_user(&regs);
}
