/* The fuzzer's assembly (user/fuzz_insn.c), called from user/fuzz.c. */
#ifndef _FUZZ_H
#define _FUZZ_H

#define FZ_TF		0x100UL
#define FZ_DF		0x400UL
#define FZ_IOPL3	0x3000UL
#define FZ_NT		0x4000UL
#define FZ_RF		0x10000UL
#define FZ_AC		0x40000UL
#define FZ_ID		0x200000UL

long fz_syscall(long nr, const long a[6], unsigned long flags, unsigned long sels);

#define FZ_INSNS(X)							\
	X(hlt, 1) X(cli, 1) X(sti, 1) X(inb, 1) X(inl_dx, 1) X(outb, 1)	\
	X(outl_dx, 1) X(insb, 1) X(rdmsr, 1) X(wrmsr, 1) X(rd_cr0, 1)	\
	X(wr_cr3, 1) X(rd_cr4, 1) X(wr_cr8, 1) X(wr_dr7, 1) X(lgdt, 1)	\
	X(lidt, 1) X(lldt, 1) X(ltr, 1) X(lmsw, 1) X(invlpg, 1)		\
	X(wbinvd, 1) X(invd, 1) X(clts, 1) X(swapgs, 1) X(sysret, 1)	\
	X(sysenter, 1) X(rdpmc, 1) X(xsetbv, 1) X(mwait, 1) X(vmcall, 1)	\
	X(ud2, 1) X(int3, 1) X(int1, 1) X(into, 1) X(div0, 1)		\
	X(ss_kernel, 1) X(ds_kernel, 1) X(fs_past_gdt, 1) X(gs_tss, 1)	\
	X(iret_ring0, 1) X(iret_nt, 1) X(lret_ring0, 1)			\
	X(popf_iopl, 0) X(sgdt, 0) X(sidt, 0) X(smsw, 0) X(cpuid, 0)	\
	X(rdtsc, 0)

#define FZ_DECLARE(name, must_fault) void fz_##name(void);
FZ_INSNS(FZ_DECLARE)
#undef FZ_DECLARE

/* int $N: fz_int_table + 4 * N. */
extern const unsigned char fz_int_table[];

#endif
