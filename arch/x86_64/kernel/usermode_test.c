/*
 * Test kernels only (CONFIG_USER_SELFTEST): system call 1000, not a Linux
 * number, x86_test_return(rip, cs, ss, rsp), makes the system call return
 * to user mode through that frame. It stands in for what Linux's
 * sigreturn gives its x86 selftests: a way for a user program to make
 * the kernel's own return to user mode (IRET) fault, with a non-canonical
 * RIP or a selector user mode cannot hold (user/hostile.c cases 16-19).
 * Both selectors get RPL 3, as sigreturn forces them, so the IRET can only
 * reach ring 3 or fault, never return to ring 0; RFLAGS stay the user's.
 * x86_syscall_entry() sends any frame that is not USER_CS/USER_DS with a
 * canonical user RIP through IRET, never SYSRET.
 *
 * System call 1001, x86_test_fpu_regs(), returns the FPU control bits of
 * the CPU it runs on, so user/fpu.c (mode 10) can show they are the same
 * on every CPU (CPU 0 once kept NE=0 MP=0): CR0 & (MP|EM|TS|NE) and
 * CR4 & (OSFXSR|OSXMMEXCPT|OSXSAVE) in place, XCR0's low byte in bits
 * 32-39 (0 without OSXSAVE).
 *
 * System call 1002, x86_test_window_backtrace(), shows what the NMI
 * backtrace (arch_show_regs()) shows for an NMI that lands in
 * entry_SYSCALL_64 before its RBP clear: kernel CS, the user's RBP. A real
 * NMI hits that window rarely; this hands the same registers to the same
 * code every time (user/hostile.c case 26, with RBP a kernel address).
 * It also prints the IST stack of #DF, NMI and #MC from the IDT.
 */
#include <asm/x86/x86.h>
#include <asm/smp.h>
#include <kernel/printk.h>

extern char entry_SYSCALL_64[];

long x86_test_return(struct pt_regs *regs, const unsigned long a[6])
{
	regs->rip = a[0];
	regs->cs = (a[1] & 0xffff) | 3;
	regs->ss = (a[2] & 0xffff) | 3;
	regs->rsp = a[3];
	return 0;
}

long x86_test_fpu_regs(void)
{
	u64 cr4 = read_cr4(), v = (read_cr0() & 0x2e) | (cr4 & ((1UL << 9) | (1UL << 10) | (1UL << 18)));
	u32 lo, hi;

	if (cr4 & (1UL << 18)) {
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		v |= (u64)(lo & 0xff) << 32;
	}
	return v;
}

long x86_test_window_backtrace(struct pt_regs *regs)
{
	struct pt_regs w = *regs;	/* its rbp: the user's, saved before entry.S cleared it */

	w.cs = 0x08;			/* kernel code, cpu.c's GDT */
	w.ss = 0x10;
	w.rip = (unsigned long)entry_SYSCALL_64 + 3;	/* after swapgs, still on the user stack */
	pr_info("x86: test: NMI backtrace in the SYSCALL entry window, RBP %lx\n", (unsigned long)w.rbp);
	arch_show_regs(&w);
	pr_info("x86: test: NMI backtrace done\n");
	/* Entries that can land where RSP is the user's need their own stacks: the IDT says. */
	pr_info("x86: test: IST stacks: #DF %u, NMI %u, #MC %u\n", x86_idt_ist(X86_TRAP_DF),
		x86_idt_ist(X86_TRAP_NMI), x86_idt_ist(X86_TRAP_MC));
	return 0;
}
