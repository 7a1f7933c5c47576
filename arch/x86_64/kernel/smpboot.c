/*
 * Starting the application processors: INIT, then a startup IPI (and a
 * second one if the first went unnoticed within 200 us) pointing at the
 * real-mode trampoline (boot/trampoline.S) copied to 0x8000. CPUs start
 * one at a time because they share the trampoline's slots. An AP sets up
 * its per-CPU area, descriptor tables, local APIC and tick, marks itself
 * online and enters the idle loop. One that shows no sign of life for 1 s
 * (or, once alive, does not call in within 10 s) is parked with INIT and
 * left offline.
 */
#define KPARAM_SUBSYS "smp"
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <sched/sched.h>
#include <mm/mm.h>
#include <mm/kasan.h>
#include <time/time.h>
#include <kernel/param.h>
#include <kernel/string.h>
#include <kernel/irqflags.h>
#include <kernel/sched_hooks.h>
#include <kernel/bug.h>
#include <asm/smp.h>
#include <asm/x86/x86.h>
#include <asm/x86/smp.h>
#include <asm/x86/boot.h>
#include <time/tick.h>
#include <kernel/errno.h>

#define TRAMPOLINE_BASE		0x8000UL	/* startup IPI vector 0x08 */
#define AP_STACK_SIZE		(16 * 1024)
#define SIPI_POLL_NS		(200 * NSEC_PER_USEC)	/* before a second startup IPI */
/*
 * No sign of life: give up. 10 s as Linux waits for an AP: under TCG on a loaded host (load 25 on
 * 2 cores, issue 28's torture campaign) a freshly started vCPU thread went more than the 1 s this
 * was before without running, and STRICT01's onoff saw "CPU 3 did not come up" (errno -5).
 */
#define ALIVE_TIMEOUT_NS	(10 * NSEC_PER_SEC)
/* Alive in the trampoline but slow to call in (a starved vCPU on a busy host). */
#define CALLIN_TIMEOUT_NS	(10 * NSEC_PER_SEC)

static unsigned int init_delay_us = CONFIG_SMP_INIT_DELAY_US;
KPARAM("smp.init_delay_us", init_delay_us, KPARAM_UINT, 0, 10000,
       "delay between INIT and the startup IPI when starting a CPU (microseconds)");

extern char trampoline_start[], trampoline_end[];
extern u32 tr_alive[], tr_cpu[], tr_pgd[];
extern u64 tr_efer[], tr_stack[], tr_cr3[], tr_cr4[], tr_entry[];
void x86_ap_start64(void);

/* A trampoline symbol's address in the copy at TRAMPOLINE_BASE. */
#define TR(sym)	((volatile __typeof__((sym)[0]) *) \
		 (TRAMPOLINE_BASE + ((char *)(sym) - trampoline_start)))

/*
 * Temporary page tables for the trampoline's switch to long mode: the
 * first GiB identity-mapped with 2 MiB pages (the trampoline page and the
 * kernel text). In .bss, so below 4 GiB as a 32-bit CR3 load needs.
 */
static u64 ap_pml4[512] __aligned(4096);
static u64 ap_pdpt[512] __aligned(4096);
static u64 ap_pd[512] __aligned(4096);

/*
 * Handshake with the starting AP. The AP claims WAITING -> ONLINE once it
 * is ready to run; the BSP claims WAITING -> ABANDONED when it gives up,
 * so a late AP never runs on with slots reused for the next CPU.
 */
enum { AP_WAITING, AP_ONLINE, AP_ABANDONED };
static int ap_state;

static void ap_page_tables_init(void)
{
	for (unsigned int i = 0; i < 512; i++)
		ap_pd[i] = ((u64)i << 21) | PTE_P | PTE_W | PTE_PS;
	ap_pdpt[0] = (u64)(uintptr_t)ap_pd | PTE_P | PTE_W;
	ap_pml4[0] = (u64)(uintptr_t)ap_pdpt | PTE_P | PTE_W;
}

/* The C entry of every AP, from x86_ap_start64 on its own stack with the kernel page tables. */
void x86_ap_entry(unsigned int cpu)
{
	percpu_enter_cpu(cpu);
	x86_cpu_init(cpu);		/* GDT, TSS with IST stacks, IDT */
	apic_init_ap();
	lapic_timer_setup_this_cpu();	/* ticks wait for interrupts to be enabled */
	if (cmpxchg(&ap_state, AP_WAITING, AP_ONLINE) != AP_WAITING) {
		for (;;)		/* the BSP gave up on us and will INIT us */
			arch_halt();
	}
	sched_init_ap(cpu);		/* idle task first: wakeups may target us once online */
	notify_cpu_starting(cpu);
	set_cpu_online(cpu, true);
	local_irq_enable();
	cpu_startup_entry();
}

static void send_ipi(u32 apic_id, u32 icr)
{
	unsigned long flags;

	local_irq_save(flags);
	apic_send_ipi(apic_id, icr);
	local_irq_restore(flags);
}

static bool wait_ns(u64 start, u64 ns, bool (*done)(unsigned int), unsigned int arg)
{
	while (local_clock() - start < ns) {
		if (done(arg))
			return true;
		cpu_relax();
	}
	return done(arg);
}

static bool ap_alive(unsigned int unused) { return READ_ONCE(*TR(tr_alive)) != 0; }
static bool ap_called_in(unsigned int unused) { return READ_ONCE(ap_state) != AP_WAITING; }

/*
 * Each AP's boot stack, kept for CPU hotplug: a CPU started again runs
 * its bring-up on it (the dead CPU's idle context, which lived on it, is
 * gone). Never freed, as below.
 */
static void *ap_stack[NR_CPUS];
/* CPUs that did not come up when asked to at boot: hotplug leaves them alone. */
static struct cpumask boot_failed_mask;

/* Start one AP and wait until it is online (true) or given up on (false). */
static bool boot_one_cpu(unsigned int cpu)
{
	u32 apic_id = x86_cpu_to_apicid[cpu];
	u32 sipi = APIC_DM_STARTUP | (TRAMPOLINE_BASE >> 12);
	void *stack = ap_stack[cpu], *stack_base;
	u64 start;

	if (!x2apic_mode && apic_id > 0xfe) {
		printk(KERN_ERR "smp: CPU %u (APIC ID %u) needs x2APIC mode: not started\n",
		       cpu, apic_id);
		return false;
	}
	if (!stack)
		stack = alloc_kernel_stack(AP_STACK_SIZE, &stack_base);
	else	/* KASAN: the dead CPU's last frames left their redzones there */
		kasan_unpoison_stack((char *)stack - AP_STACK_SIZE, AP_STACK_SIZE);
	if (!stack) {
		printk(KERN_ERR "smp: CPU %u: no memory for its stack: not started\n", cpu);
		return false;
	}

	*TR(tr_alive) = 0;
	*TR(tr_cpu) = cpu;
	*TR(tr_stack) = (u64)(uintptr_t)stack;
	WRITE_ONCE(ap_state, AP_WAITING);
	smp_mb();	/* slots and state before the IPIs (an x2APIC ICR write is not serialising) */

	send_ipi(apic_id, APIC_DM_INIT | APIC_LEVEL_ASSERT);
	if (init_delay_us)
		udelay(init_delay_us);
	start = local_clock();
	send_ipi(apic_id, sipi);
	if (!wait_ns(start, SIPI_POLL_NS, ap_alive, 0))
		send_ipi(apic_id, sipi);

	if (wait_ns(start, ALIVE_TIMEOUT_NS, ap_called_in, 0) ||
	    (ap_alive(0) && wait_ns(start, CALLIN_TIMEOUT_NS, ap_called_in, 0)) ||
	    cmpxchg(&ap_state, AP_WAITING, AP_ABANDONED) != AP_WAITING) {
		ap_stack[cpu] = stack;
		/* Claimed by the AP: it is about to mark itself online. */
		while (!cpu_online(cpu))
			cpu_relax();
		return true;
	}
	/*
	 * Park it (back to wait-for-SIPI) so it cannot pick up the next CPU's
	 * slots. Its stack is not freed: INIT is asynchronous, and a late AP
	 * may still be running on it.
	 */
	send_ipi(apic_id, APIC_DM_INIT | APIC_LEVEL_ASSERT);
	printk(KERN_ERR "smp: CPU %u (APIC ID %u) did not come up\n", cpu, apic_id);
	return false;
}

static unsigned int num_digits(unsigned int n)
{
	unsigned int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

void x86_smp_boot_aps(void)
{
	unsigned int cpu, width = num_digits(num_possible_cpus()) + 1;	/* + '#' */
	u64 efer = rdmsr(MSR_EFER) & (EFER_LME | EFER_NXE | 1 /* SCE */);

	if (cpumask_weight(&x86_cpu_present_mask) < 2)
		return;
	BUG_ON(trampoline_end - trampoline_start > PAGE_SIZE);	/* it owns one page */
	ap_page_tables_init();
	memcpy((void *)TRAMPOLINE_BASE, trampoline_start, trampoline_end - trampoline_start);
	*TR(tr_pgd) = (u32)(uintptr_t)ap_pml4;
	*TR(tr_efer) = efer;
	*TR(tr_cr3) = arch_kernel_cr3();
	*TR(tr_cr4) = read_cr4();
	*TR(tr_entry) = (u64)(uintptr_t)x86_ap_start64;

	if (nr_cpu_ids < 2 || !smp_boot_wants_more_cpus(1))
		return;		/* nr_cpus=1, maxcpus=0|1, nosmp: the trampoline stays for hotplug */
	/* Linux's announcement: ".... node  #0, CPUs:      #1 #2 #3". */
	printk(KERN_INFO "x86: Booting SMP configuration:\n");
	printk(KERN_INFO ".... node  #0, CPUs:  ");
	for_each_cpu(cpu, &x86_cpu_present_mask) {
		if (cpu == 0)
			continue;
		/* nr_cpus= (not possible) and maxcpus= (left for hotplug), kernel/smp_cpus.c */
		if (cpu >= nr_cpu_ids || !smp_boot_wants_more_cpus(num_online_cpus()))
			break;
		if (cpu == 1)
			pr_cont("%*s", width + 1, " ");
		pr_cont("%*s#%u", width - num_digits(cpu), " ", cpu);
		if (!boot_one_cpu(cpu))
			cpumask_set_cpu(cpu, &boot_failed_mask);
	}
	/* The next printk ends the line. */
}

void arch_smp_boot_secondary_cpus(void)
{
	x86_smp_boot_aps();
}

#ifdef CONFIG_HOTPLUG_CPU
bool arch_cpu_present(unsigned int cpu)
{
	/* Never started (maxcpus=) is fine; failed to start at boot is not. */
	return cpu < nr_cpu_ids && cpumask_test_cpu(cpu, &x86_cpu_present_mask) &&
	       !cpumask_test_cpu(cpu, &boot_failed_mask);
}

/*
 * INIT-SIPI-SIPI again, through the trampoline still at TRAMPOLINE_BASE
 * (the boot-time copy: nothing else uses that page), and the bring-up of
 * x86_ap_entry(), as at boot. kernel/cpu.c serialises callers.
 */
int arch_cpu_up(unsigned int cpu)
{
	printk(KERN_INFO "smpboot: Booting Node 0 Processor %u APIC 0x%x\n", cpu,
	       x86_cpu_to_apicid[cpu]);
	return boot_one_cpu(cpu) ? 0 : -EIO;
}

/*
 * Linux's hlt_play_dead(): timer masked, interrupts off, halted for good.
 * Only INIT (then a startup IPI) gets the CPU out; an NMI would return to
 * the halt. The loop guards against a spurious wakeup.
 */
void arch_cpu_die(void)
{
	arch_timer_stop();
	for (;;) {
		local_irq_disable();
		arch_halt();
	}
}
#endif
