/*
 * Per-task x87/MMX/SSE/AVX state for user processes. Every CPU runs with
 * the same FPU control bits (CR0: NE MP set, EM TS clear; CR4: OSFXSR,
 * OSXMMEXCPT, and OSXSAVE with XCR0 = x87|SSE|AVX where CPUID has them),
 * so a program behaves alike wherever it runs. A process owns a save area
 * (thread.fpu; kthreads have none: the kernel is built -mgeneral-regs-only
 * and never touches these registers, tests/build/fpu-free-kernel.sh checks
 * it), loaded with the init state when the program starts and switched
 * eagerly: saved when a process is switched out, restored when one is
 * switched in. Between the two the registers still hold the last
 * process's values, which only kthreads could see, and they do not look.
 * XSAVE (standard format, area sized by CPUID leaf 0xd) when the CPU has
 * it, FXSAVE (512 bytes) otherwise. The save is XSAVEOPT when CPUID offers
 * it: it skips components untouched since the last XRSTOR from the same
 * area on this CPU, which is safe here because every switch-in of a
 * process XRSTORs its own area, nothing else does, and only its owner's
 * saves write the area.
 */
#include <kernel/user.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/irqflags.h>
#include <kernel/errno.h>
#include <sched/task.h>
#include <mm/slab.h>
#include <asm/x86/x86.h>
#include <asm/switch_to.h>

#define CR0_MP		(1UL << 1)
#define CR0_EM		(1UL << 2)
#define CR0_TS		(1UL << 3)
#define CR0_NE		(1UL << 5)
#define CR4_OSFXSR	(1UL << 9)
#define CR4_OSXMMEXCPT	(1UL << 10)
#define CR4_OSXSAVE	(1UL << 18)
#define XFEATURE_X87	(1u << 0)
#define XFEATURE_SSE	(1u << 1)
#define XFEATURE_AVX	(1u << 2)
#define FXSAVE_SIZE	512
#define XSAVE_HDR_END	576		/* legacy area + XSAVE header */
#define INIT_AREA_SIZE	1024		/* x87|SSE|AVX in the standard format: 832 */

static bool use_xsave, use_xsaveopt;
static u32 xfeatures;			/* XCR0 (and the XSAVE/XRSTOR mask) */
static unsigned int fpu_size = FXSAVE_SIZE;
/*
 * The init state every program starts from: registers zero, FCW 0x37f
 * (all x87 exceptions masked, 64-bit precision), tags empty, MXCSR 0x1f80
 * (SSE exceptions masked); XSTATE_BV 0 makes XRSTOR load the init state
 * of the other components.
 */
static u8 fpu_init_area[INIT_AREA_SIZE] __aligned(64);

static inline void write_cr0(u64 v) { __asm__ volatile("mov %0, %%cr0" :: "r"(v) : "memory"); }
static inline void write_cr4(u64 v) { __asm__ volatile("mov %0, %%cr4" :: "r"(v) : "memory"); }

static inline void fpu_save(void *area)
{
	if (use_xsaveopt)
		__asm__ volatile("xsaveopt64 (%0)" :: "r"(area), "a"(xfeatures), "d"(0) : "memory");
	else if (use_xsave)
		__asm__ volatile("xsave64 (%0)" :: "r"(area), "a"(xfeatures), "d"(0) : "memory");
	else
		__asm__ volatile("fxsave64 (%0)" :: "r"(area) : "memory");
}

static inline void fpu_restore(const void *area)
{
	if (use_xsave)
		__asm__ volatile("xrstor64 (%0)" :: "r"(area), "a"(xfeatures), "d"(0) : "memory");
	else
		__asm__ volatile("fxrstor64 (%0)" :: "r"(area) : "memory");
}

/* Boot CPU: decide the format and build the init image (before any AP or process). */
static void fpu_setup_boot(void)
{
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1u << 26)) {			/* XSAVE */
		u32 want = XFEATURE_X87 | XFEATURE_SSE | ((c & (1u << 28)) ? XFEATURE_AVX : 0);

		cpuid(0xd, 0, &a, &b, &c, &d);
		xfeatures = a & want;
		use_xsave = true;
		cpuid(0xd, 1, &a, &b, &c, &d);
		use_xsaveopt = a & 1;
	}
	memset(fpu_init_area, 0, sizeof(fpu_init_area));
	*(u16 *)&fpu_init_area[0] = 0x037f;	/* FCW */
	*(u32 *)&fpu_init_area[24] = 0x1f80;	/* MXCSR */
}

/* XCR0 is set, so CPUID 0xd.0 EBX is the size of an area for exactly those features. */
static void fpu_report_boot(void)
{
	u32 a, b, c, d;

	if (use_xsave) {
		cpuid(0xd, 0, &a, &b, &c, &d);
		if (b > INIT_AREA_SIZE || b < XSAVE_HDR_END) {
			pr_warn("x86/fpu: XSAVE area of %u bytes for features %#x out of range; using FXSAVE\n",
				b, xfeatures);
			use_xsave = use_xsaveopt = false;
		} else {
			fpu_size = b;
		}
	}
	if (use_xsave)
		pr_info("x86/fpu: Enabled xstate features %#x, context size is %u bytes, using 'standard' format.\n",
			xfeatures, fpu_size);
	else
		pr_info("x86/fpu: x87 FPU will use FXSAVE\n");
}

/* Every CPU, boot and AP alike (x86_cpu_init()); the boot CPU first. */
void x86_fpu_cpu_init(unsigned int cpu)
{
	u64 cr4 = read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT;

	if (cpu == 0)
		fpu_setup_boot();
	write_cr0((read_cr0() | CR0_NE | CR0_MP) & ~(CR0_EM | CR0_TS));
	if (use_xsave)
		cr4 |= CR4_OSXSAVE;
	write_cr4(cr4);
	if (use_xsave)
		__asm__ volatile("xsetbv" :: "c"(0), "a"(xfeatures), "d"(0) : "memory");
	/* No state of an earlier life (firmware, a CPU brought up again) stays pending. */
	__asm__ volatile("fninit" ::: "memory");
	if (cpu == 0)
		fpu_report_boot();
}

/* arch_switch_to(), interrupts off: prev's registers to its area, next's from its own. */
void x86_fpu_switch(struct task_struct *prev, struct task_struct *next)
{
	if (prev->thread.fpu)
		fpu_save(prev->thread.fpu);
	if (next->thread.fpu)
		fpu_restore(next->thread.fpu);
}

/*
 * The process's area, with the init state, also loaded into the registers
 * now: from the moment thread.fpu is set, a switch-out saves the
 * registers into it, so they must already be this process's.
 */
int arch_user_fpu_init(struct task_struct *t)
{
	void *area = kmalloc(fpu_size, GFP_KERNEL);	/* fpu_size >= 512: 64-byte aligned */
	unsigned long flags;

	if (!area)
		return -ENOMEM;
	memcpy(area, fpu_init_area, fpu_size);
	local_irq_save(flags);
	t->thread.fpu = area;
	fpu_restore(area);
	local_irq_restore(flags);
	return 0;
}

/* The process is ending: no switch saves into the area after this. */
void arch_user_fpu_free(struct task_struct *t)
{
	unsigned long flags;
	void *area;

	local_irq_save(flags);
	area = t->thread.fpu;
	t->thread.fpu = NULL;
	local_irq_restore(flags);
	kfree(area);
}
