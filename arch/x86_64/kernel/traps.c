/*
 * The IDT, exception reports and interrupt dispatch. An exception in the
 * kernel is fatal (it prints Linux's oops report: cause, CPU and task,
 * registers, a symbolised frame-pointer backtrace, and panics, which halts
 * every CPU and exits QEMU with the panic status) unless it hit a user-copy
 * instruction, which resumes at its fixup. An exception in user mode kills
 * only the process (usermode.c). Entries from user mode are bracketed by
 * context tracking (x86_enter_from_user() / x86_exit_to_user()).
 */
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/irq.h>
#include <kernel/smp.h>
#include <kernel/kallsyms.h>
#include <kernel/stacktrace.h>
#include <kernel/sched_hooks.h>
#include <kernel/context_tracking.h>
#include <asm/processor.h>
#include <asm/x86/x86.h>
#include <asm/x86/boot.h>
#include <asm/irqflags.h>
#include <sched/sched.h>
#include <sched/task.h>
#include <mm/mm.h>
#include <kernel/user.h>

struct idt_entry {
	u16 off_lo, sel;
	u8 ist, type;
	u16 off_mid;
	u32 off_hi, zero;
} __packed;

static struct idt_entry idt[256] __aligned(16);
static x86_irq_handler_t irq_handlers[256];
extern char x86_isr_stubs[];
static int oops_count;

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "int3", "overflow", "bounds",
	"invalid opcode", "device not available", "double fault", "coprocessor segment overrun",
	"invalid TSS", "segment not present", "stack segment", "general protection fault",
	"page fault", "reserved", "coprocessor error", "alignment check", "machine check",
	"SIMD coprocessor error", "virtualization exception", "control protection",
};

static void idt_set(unsigned vec, unsigned ist)
{
	u64 addr = (u64)(uintptr_t)(x86_isr_stubs + 16 * vec);

	idt[vec] = (struct idt_entry){
		.off_lo = addr & 0xffff, .sel = BOOT_CS, .ist = ist,
		.type = 0x8e,	/* present, DPL 0, 64-bit interrupt gate */
		.off_mid = (addr >> 16) & 0xffff, .off_hi = addr >> 32,
	};
}

static void idt_load(void)
{
	struct { u16 limit; u64 base; } __packed d = { sizeof(idt) - 1, (u64)(uintptr_t)idt };
	__asm__ volatile("lidt %0" :: "m"(d));
}

void x86_early_trap_init(void)
{
	for (unsigned v = 0; v < 256; v++)
		idt_set(v, 0);
	idt_load();
}

/*
 * Once this CPU's TSS is loaded, double fault, NMI and machine check get
 * their own stacks: each can arrive where RSP is not a kernel stack (from
 * SYSCALL to the stack switch in entry_SYSCALL_64, and after the exit has
 * loaded the user's RSP), or, for #DF, where the stack overflowed.
 */
void x86_idt_enable_ist(void)
{
	idt_set(X86_TRAP_DF, 1);
	idt_set(X86_TRAP_NMI, 2);
	idt_set(X86_TRAP_MC, 3);
	idt_load();
}

unsigned int x86_idt_ist(unsigned int vec)
{
	return idt[vec].ist;
}

void x86_idt_load(void)
{
	idt_load();
}

void x86_set_irq_handler(unsigned vector, x86_irq_handler_t handler)
{
	irq_handlers[vector] = handler;
}

/*
 * Is the 16-byte frame at fp on a stack this CPU's code runs on: the
 * current task's kernel stack or one of this CPU's IST stacks? RBP is the
 * user's wherever entry.S has not cleared it yet (from SYSCALL or an
 * interrupt from user mode to its "xorl %ebp, %ebp") or has restored it
 * (the exit, after RESTORE_REGS): an NMI there has kernel CS and the
 * user's RBP, which user mode can point anywhere, kernel memory included.
 * Following it would read what the user chose, or fault inside the NMI.
 * Only a task without a stack of its own (a CPU's boot idle task, which
 * never runs user code) keeps the looser bound below.
 */
static bool frame_on_stack(unsigned long fp)
{
	struct task_struct *t = current;
	unsigned long lo, hi;

	if (x86_on_ist_stack(fp, 16))
		return true;
	if (!t || !t->stack)
		return fp < USER_VA_START;
	lo = (unsigned long)t->stack;
	hi = (unsigned long)t->stack_top;
	return fp >= lo && fp + 16 <= hi;
}

static bool frame_ok(unsigned long fp, unsigned long prev)
{
	/*
	 * Frames grow toward higher addresses while unwinding; stay within 64 KiB
	 * steps, and on a kernel stack (frame_on_stack()): a user frame is never
	 * followed (with SMAP reading it would fault, and it is not the kernel's
	 * to show), nor a user RBP that points into the kernel.
	 */
	return fp && !(fp & 7) && fp > prev && fp - prev < 65536 && fp < USER_VA_START &&
	       frame_on_stack(fp);
}

void x86_show_trace(unsigned long rip, unsigned long rbp)
{
	unsigned long prev = rbp ? rbp - 1 : 0;

	printk(KERN_EMERG "Call Trace:\n");
	if (rip)
		printk(KERN_EMERG " [<%016lx>] %pS\n", rip, (void *)rip);
	for (int depth = 0; depth < 32 && frame_ok(rbp, prev); depth++) {
		unsigned long ret = ((unsigned long *)rbp)[1];
		char sym[128];

		if (!ret)
			break;
		sprint_backtrace(sym, sizeof(sym), ret);
		printk(KERN_EMERG " [<%016lx>] %s\n", ret, sym);
		prev = rbp;
		rbp = ((unsigned long *)rbp)[0];
	}
}

/* include/kernel/stacktrace.h: the walk of x86_show_trace(), stored instead of printed. */
__noinline unsigned int arch_stack_trace_save(unsigned long *store, unsigned int size,
					      unsigned int skipnr)
{
	unsigned long rbp = arch_frame_pointer(), prev = rbp - 1;
	unsigned int n = 0;

	for (int depth = 0; depth < 64 && n < size && frame_ok(rbp, prev); depth++) {
		unsigned long ret = ((unsigned long *)rbp)[1];

		if (!ret)
			break;
		if (skipnr)
			skipnr--;
		else
			store[n++] = ret;
		prev = rbp;
		rbp = ((unsigned long *)rbp)[0];
	}
	return n;
}

void arch_dump_stack(void)
{
	printk(KERN_EMERG "CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(),
	       sched_current_pid(), sched_current_comm());
	x86_show_trace(0, arch_frame_pointer());
}

void x86_show_regs(const struct pt_regs *r)
{
	printk(KERN_EMERG "CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(),
	       sched_current_pid(), sched_current_comm());
	printk(KERN_EMERG "RIP: %04lx:%pS\n", (unsigned long)r->cs, (void *)r->rip);
	printk(KERN_EMERG "RSP: %04lx:%016lx EFLAGS: %08lx\n",
	       (unsigned long)r->ss, (unsigned long)r->rsp, (unsigned long)r->rflags);
	printk(KERN_EMERG "RAX: %016llx RBX: %016llx RCX: %016llx\n", r->rax, r->rbx, r->rcx);
	printk(KERN_EMERG "RDX: %016llx RSI: %016llx RDI: %016llx\n", r->rdx, r->rsi, r->rdi);
	printk(KERN_EMERG "RBP: %016llx R08: %016llx R09: %016llx\n", r->rbp, r->r8, r->r9);
	printk(KERN_EMERG "R10: %016llx R11: %016llx R12: %016llx\n", r->r10, r->r11, r->r12);
	printk(KERN_EMERG "R13: %016llx R14: %016llx R15: %016llx\n", r->r13, r->r14, r->r15);
	printk(KERN_EMERG "CR0: %016llx CR2: %016llx CR3: %016llx CR4: %016llx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

static void report_page_fault(const struct pt_regs *r)
{
	u64 addr = read_cr2();
	u64 ec = r->error_code;

	if (addr < 4096)
		printk(KERN_EMERG "BUG: kernel NULL pointer dereference, address: %016llx\n", addr);
	else
		printk(KERN_EMERG "BUG: unable to handle page fault for address: %016llx\n", addr);
	printk(KERN_EMERG "#PF: supervisor %s access in kernel mode\n",
	       (ec & 16) ? "instruction fetch" : (ec & 2) ? "write" : "read");
	printk(KERN_EMERG "#PF: error_code(0x%04llx) - %s\n", ec,
	       (ec & 1) ? ((ec & 8) ? "reserved bit violation" : "permissions violation")
			: "not-present page");
}

static __noreturn void die(const char *what, struct pt_regs *r)
{
	console_force_unlock();
	printk(KERN_EMERG "%s: %04llx [#%d] SMP\n", what, r->error_code, ++oops_count);
	x86_show_regs(r);
	x86_show_trace(r->rip, r->rbp);
	panic("Fatal exception");
}

static void handle_exception(struct pt_regs *r)
{
	unsigned v = r->vector;

	if (user_mode(r))
		x86_user_fault(r);
	if ((v == X86_TRAP_PF || v == X86_TRAP_GP) && x86_uaccess_fixup(r))
		return;		/* a bad user pointer: the copy returns what it left */
	if (v == X86_TRAP_PF) {
		report_page_fault(r);
		die("Oops", r);
	}
	if (v == X86_TRAP_DF) {
		/* On its own IST stack: usually a kernel stack overflow into a guard page. */
		u64 cr2 = read_cr2();

		if (kernel_stack_guard_page(cr2))
			printk(KERN_EMERG "BUG: stack guard page was hit at %016llx (kernel stack overflow)\n", cr2);
		printk(KERN_EMERG "BUG: double fault at %pS, CR2 %016llx\n", (void *)r->rip, cr2);
	}
	die(v < 32 && exception_names[v] ? exception_names[v] : "unknown exception", r);
}

/* Did the outermost interrupt on this CPU come from user mode? (the tick's rcu_sched_clock_irq()) */
static DEFINE_PER_CPU(bool, irq_from_user);

bool arch_irq_interrupted_user(void)
{
	return this_cpu_read(irq_from_user);
}

/* The registers of what the interrupt being handled on this CPU interrupted (Linux's get_irq_regs()). */
static DEFINE_PER_CPU(struct pt_regs *, irq_regs);

bool arch_show_irq_regs(void)
{
	struct pt_regs *regs = this_cpu_read(irq_regs);

	if (!regs)
		return false;
	arch_show_regs(regs);
	return true;
}

static void dispatch(struct pt_regs *regs);

void x86_interrupt_dispatch(struct pt_regs *regs)
{
	if (!user_mode(regs) || regs->vector == X86_TRAP_NMI) {
		/* An NMI from user mode is handled like one from the kernel: nmi_enter() makes RCU watch. */
		dispatch(regs);
		return;
	}
	x86_enter_from_user();
	/* Interrupts only: an exception from user mode may kill the process and not come back. */
	this_cpu_write(irq_from_user, regs->vector >= 32);
	dispatch(regs);
	this_cpu_write(irq_from_user, false);
	x86_exit_to_user();
}

static void dispatch(struct pt_regs *regs)
{
	unsigned v = regs->vector;

	if (v == X86_TRAP_NMI) {
		nmi_enter();
		inc_irq_stat(nmi);
		x86_nmi_handler(regs);
		nmi_exit();
		return;
	}
	if (v < 32) {
		handle_exception(regs);
		return;
	}
	if (v == SPURIOUS_APIC_VECTOR) {
		inc_irq_stat(spurious);
		return;		/* no EOI for the spurious vector */
	}
	irq_enter();
	{
		struct pt_regs *outer = this_cpu_read(irq_regs);	/* nested: restored below */

		this_cpu_write(irq_regs, regs);
		if (irq_handlers[v])
			irq_handlers[v](regs);
		else
			inc_irq_stat(spurious);
		this_cpu_write(irq_regs, outer);
	}
	apic_eoi();
	irq_exit();
	/*
	 * CONFIG_PREEMPT: preempt the interrupted task if it allowed it. Never
	 * the idle task: interrupted in its halt it is still in RCU's extended
	 * quiescent state, and a task switched in from there would run
	 * unwatched by RCU (its readers credited as idle). The idle loop
	 * leaves the quiescent state and calls schedule() itself.
	 */
	if (IS_ENABLED(CONFIG_PREEMPTION) && !user_mode(regs) && (regs->rflags & X86_EFLAGS_IF) &&
	    !preempt_count() && need_resched() && !(current->flags & PF_IDLE))
		preempt_schedule_irq();
}
