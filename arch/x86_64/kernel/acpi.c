/*
 * ACPI tables, read once on the boot CPU before the memory allocator
 * exists: the RSDP (from the boot loader, else a scan of the BIOS areas),
 * the RSDT/XSDT, the MADT (which CPUs exist: logical CPU number -> APIC
 * ID, the boot CPU always being CPU 0) and the FADT/DSDT (PM1a control
 * port and the \_S5 sleep type, for ACPI power-off; the PM timer's port,
 * for the TSC calibration). Tables are reached
 * through the boot identity map of the first 4 GiB; nothing is kept
 * mapped or referenced afterwards.
 */
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/boot.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <asm/x86/x86.h>
#include <asm/x86/smp.h>

#define ACPI_MAX_PHYS		0x100000000ULL	/* what the boot page tables map */
#define ACPI_MAX_TABLE_LEN	(16u << 20)	/* larger "tables" are garbage */

struct acpi_rsdp {
	char signature[8];	/* "RSD PTR " */
	u8 checksum;		/* over the first 20 bytes */
	char oem_id[6];
	u8 revision;		/* 0: ACPI 1.0 (RSDT only); 2: 2.0+ (XSDT) */
	u32 rsdt;
	u32 length;		/* revision >= 2 from here on */
	u64 xsdt;
	u8 ext_checksum;	/* over `length` bytes */
	u8 reserved[3];
} __packed;

struct acpi_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	char creator_id[4];
	u32 creator_revision;
} __packed;

/* MADT entry types and local APIC flags. */
#define MADT_LAPIC		0
#define MADT_X2APIC		9
#define MADT_IOAPIC		1
#define MADT_INT_OVERRIDE	2	/* interrupt source override: ISA IRQ -> GSI */
#define MADT_ENABLED		0x1
#define MADT_ONLINE_CAPABLE	0x2

/* FADT field offsets (ACPI 6.x, table 5.9). */
#define FADT_DSDT		40
#define FADT_PM1A_CNT		64
#define FADT_X_DSDT		140
#define FADT_X_PM1A_CNT		172	/* generic address structure, 12 bytes */
#define FADT_PM_TMR_BLK		76
#define FADT_FLAGS		112
#define FADT_TMR_VAL_EXT	(1u << 8)	/* the PM timer counts 32 bits, not 24 */
#define FADT_X_PM_TMR_BLK	208

#define AML_NAME_OP		0x08
#define AML_PACKAGE_OP		0x12
#define AML_ZERO_OP		0x00
#define AML_ONE_OP		0x01
#define AML_BYTE_PREFIX		0x0a
#define AML_WORD_PREFIX		0x0b

u32 x86_cpu_to_apicid[NR_CPUS];
struct cpumask x86_cpu_present_mask;
u16 acpi_pm1a_cnt;
u16 acpi_pm_tmr_port;
unsigned int acpi_pm_tmr_bits;
u16 acpi_slp_typ_s5;
struct x86_ioapic_info x86_ioapic;

static u8 checksum(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

/* A pointer to physical memory through the identity map, or NULL if unreachable. */
static const void *acpi_phys(u64 pa, u64 len)
{
	if (!pa || pa >= ACPI_MAX_PHYS || len > ACPI_MAX_PHYS - pa)
		return NULL;
	return (const void *)(uintptr_t)pa;
}

static u32 get_u32(const u8 *p) { u32 v; memcpy(&v, p, 4); return v; }
static u64 get_u64(const u8 *p) { u64 v; memcpy(&v, p, 8); return v; }

static const struct acpi_rsdp *rsdp_valid(u64 pa)
{
	const struct acpi_rsdp *r = acpi_phys(pa, sizeof(*r));

	if (!r || memcmp(r->signature, "RSD PTR ", 8) || checksum(r, 20))
		return NULL;
	if (r->revision >= 2 &&
	    (r->length < sizeof(*r) || r->length > 4096 || checksum(r, r->length)))
		return NULL;
	return r;
}

static const struct acpi_rsdp *rsdp_scan(u64 start, u64 len)
{
	for (u64 pa = start; pa + 20 <= start + len; pa += 16) {
		const struct acpi_rsdp *r = rsdp_valid(pa);

		if (r)
			return r;
	}
	return NULL;
}

static const struct acpi_rsdp *rsdp_find(void)
{
	const struct acpi_rsdp *r;
	u64 ebda;

	if (boot_info.rsdp && (r = rsdp_valid(boot_info.rsdp)))
		return r;
	/* The first KiB of the EBDA, whose segment the BIOS data area holds at 0x40e. */
	ebda = (u64)*(const volatile u16 *)0x40eUL << 4;
	if (ebda >= 0x80000 && ebda < 0xa0000 && (r = rsdp_scan(ebda, 1024)))
		return r;
	return rsdp_scan(0xe0000, 0x20000);
}

static void print_table(const struct acpi_header *h, u64 pa)
{
	printk(KERN_INFO "ACPI: %-4.4s 0x%016llX %06X (v%02d %-6.6s %-8.8s %08X %-4.4s %08X)\n",
	       h->signature, (unsigned long long)pa, h->length, h->revision, h->oem_id,
	       h->oem_table_id, h->oem_revision, h->creator_id, h->creator_revision);
}

/* Map and validate the table at pa; NULL (with a warning) if it is unusable. */
static const struct acpi_header *table_get(u64 pa)
{
	const struct acpi_header *h = acpi_phys(pa, sizeof(*h));

	if (!h)
		return NULL;
	if (h->length < sizeof(*h) || h->length > ACPI_MAX_TABLE_LEN ||
	    !acpi_phys(pa, h->length)) {
		printk(KERN_WARNING "ACPI: table at 0x%016llX has a bad length %u: ignored\n",
		       (unsigned long long)pa, h->length);
		return NULL;
	}
	if (checksum(h, h->length)) {
		printk(KERN_WARNING "ACPI: Incorrect checksum in table [%4.4s]: ignored\n",
		       h->signature);
		return NULL;
	}
	return h;
}

/* ---- MADT: the CPUs ---- */

static u32 boot_cpu_apic_id(void)
{
	u32 a, b, c, d;

	/* x2APIC ID from leaf 0xB when there is one, else the 8-bit initial APIC ID. */
	cpuid(0, 0, &a, &b, &c, &d);
	if (a >= 0xb) {
		cpuid(0xb, 0, &a, &b, &c, &d);
		if (b & 0xffff)
			return d;
	}
	cpuid(1, 0, &a, &b, &c, &d);
	return b >> 24;
}

struct madt_scan {
	u32 boot_apic_id;
	unsigned int nr_cpus;	/* logical CPUs assigned (<= NR_CPUS) */
	unsigned int found;	/* distinct CPUs seen, including those over the limit */
	unsigned int present;	/* of the assigned ones, enabled at boot */
	bool boot_cpu_listed;
};

static void madt_add_cpu(struct madt_scan *s, u32 apic_id, bool present)
{
	unsigned int i;

	if (apic_id == s->boot_apic_id) {
		s->boot_cpu_listed = true;
		return;
	}
	for (i = 0; i < s->nr_cpus; i++)
		if (x86_cpu_to_apicid[i] == apic_id)
			return;		/* listed twice (type 0 and type 9) */
	s->found++;
	if (s->nr_cpus >= NR_CPUS)
		return;
	x86_cpu_to_apicid[s->nr_cpus] = apic_id;
	if (present) {
		cpumask_set_cpu(s->nr_cpus, &x86_cpu_present_mask);
		s->present++;
	}
	s->nr_cpus++;
}

/*
 * One pass over the MADT's CPU entries: enabled ones when want_present,
 * else the online-capable (hot-pluggable) ones, which are numbered after
 * all CPUs present at boot.
 */
static void madt_pass(const struct acpi_header *madt, struct madt_scan *s, bool want_present)
{
	const u8 *p = (const u8 *)madt + sizeof(*madt) + 8;	/* + LAPIC address, flags */
	const u8 *end = (const u8 *)madt + madt->length;

	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		u32 id = 0, flags = 0;
		bool cpu = false;

		if (p[0] == MADT_LAPIC && p[1] >= 8) {
			id = p[3];
			flags = get_u32(p + 4);
			cpu = true;
		} else if (p[0] == MADT_X2APIC && p[1] >= 16) {
			id = get_u32(p + 4);
			flags = get_u32(p + 8);
			cpu = true;
		}
		if (cpu && id != 0xffffffffu) {
			bool present = flags & MADT_ENABLED;

			if (present == want_present && (flags & (MADT_ENABLED | MADT_ONLINE_CAPABLE)))
				madt_add_cpu(s, id, present);
		}
		p += p[1];
	}
}

/*
 * The first I/O APIC and the ISA interrupt overrides, for ioapic.c. Kept
 * even on a UP kernel: the serial port's receive interrupt needs them.
 */
static void parse_madt_irqs(const struct acpi_header *madt)
{
	const u8 *p = (const u8 *)madt + sizeof(*madt) + 8;
	const u8 *end = (const u8 *)madt + madt->length;

	for (unsigned int irq = 0; irq < 16; irq++)
		x86_ioapic.isa_gsi[irq] = irq;	/* identity unless overridden */
	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		if (p[0] == MADT_IOAPIC && p[1] >= 12 && !x86_ioapic.phys) {
			x86_ioapic.phys = get_u32(p + 4);
			x86_ioapic.gsi_base = get_u32(p + 8);
		} else if (p[0] == MADT_INT_OVERRIDE && p[1] >= 10 && p[2] == 0 && p[3] < 16) {
			x86_ioapic.isa_gsi[p[3]] = get_u32(p + 4);
			x86_ioapic.isa_flags[p[3]] = (u16)(p[8] | p[9] << 8);
		}
		p += p[1];
	}
}

static void parse_madt(const struct acpi_header *madt)
{
	struct madt_scan s = { .boot_apic_id = x86_cpu_to_apicid[0], .nr_cpus = 1, .found = 1,
			       .present = 1 };
	unsigned int cpu;

	if (!IS_ENABLED(CONFIG_SMP))
		return;		/* a UP kernel runs on the boot CPU only */
	printk(KERN_INFO "ACPI: Using ACPI (MADT) for SMP configuration information\n");
	madt_pass(madt, &s, true);
	madt_pass(madt, &s, false);
	if (!s.boot_cpu_listed)
		printk(KERN_WARNING "ACPI: boot CPU (APIC ID %u) is not in the MADT\n",
		       s.boot_apic_id);
	if (s.found > NR_CPUS)
		printk(KERN_WARNING "smp: %u CPUs found but NR_CPUS=%u: ignoring the rest\n",
		       s.found, (unsigned int)NR_CPUS);
	for (cpu = 0; cpu < s.nr_cpus; cpu++)
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
	nr_cpu_ids = s.nr_cpus;
}

/*
 * Linux's prefill_possible_map() lines, printed once nr_cpus= has capped
 * nr_cpu_ids (kernel/smp_cpus.c calls this after the early parameters):
 * "Allowing" counts the CPUs this boot can ever use, the hotplug ones
 * being those the MADT lists as not yet present. A UP kernel says nothing.
 */
void arch_smp_announce_possible(unsigned int found)
{
	unsigned int cpu, present = 0;

	if (!IS_ENABLED(CONFIG_SMP))
		return;
	if (found > nr_cpu_ids)
		printk(KERN_WARNING "smpboot: %u Processors exceeds NR_CPUS limit of %u\n",
		       found, nr_cpu_ids);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpumask_test_cpu(cpu, &x86_cpu_present_mask))
			present++;
	printk(KERN_INFO "smpboot: Allowing %u CPUs, %u hotplug CPUs\n", nr_cpu_ids,
	       nr_cpu_ids - present);
}

/* ---- FADT and DSDT: how to power off ---- */

/*
 * Find SLP_TYPa of \_S5 in the DSDT's AML without an interpreter: the
 * object is nearly always the literal `Name (_S5, Package () { a, b, ... })`,
 * i.e. NameOp [\] "_S5_" PackageOp PkgLength NumElements <a>.
 */
static bool dsdt_find_s5(const struct acpi_header *dsdt, u16 *slp_typ)
{
	const u8 *base = (const u8 *)dsdt;
	u32 len = dsdt->length;

	for (u32 i = sizeof(*dsdt) + 1; i + 8 <= len; i++) {
		u32 j;

		if (memcmp(base + i, "_S5_", 4) || base[i + 4] != AML_PACKAGE_OP)
			continue;
		if (base[i - 1] != AML_NAME_OP && !(base[i - 1] == '\\' && base[i - 2] == AML_NAME_OP))
			continue;
		j = i + 5;
		j += 1 + (base[j] >> 6);	/* PkgLength: lead byte + 0..3 more */
		j++;				/* NumElements */
		if (j + 2 > len)
			return false;
		switch (base[j]) {
		case AML_ZERO_OP:	*slp_typ = 0; return true;
		case AML_ONE_OP:	*slp_typ = 1; return true;
		case AML_BYTE_PREFIX:
		case AML_WORD_PREFIX:	*slp_typ = base[j + 1] & 7; return true;
		default:		return false;
		}
	}
	return false;
}

static void parse_fadt(const struct acpi_header *fadt)
{
	const u8 *f = (const u8 *)fadt;
	const struct acpi_header *dsdt;
	u64 pm1a = 0, dsdt_pa = 0, pmtmr = 0;

	if (fadt->length >= FADT_X_PM1A_CNT + 12 && f[FADT_X_PM1A_CNT] == 1 /* system I/O */)
		pm1a = get_u64(f + FADT_X_PM1A_CNT + 4);
	if (!pm1a && fadt->length >= FADT_PM1A_CNT + 4)
		pm1a = get_u32(f + FADT_PM1A_CNT);
	if (fadt->length >= FADT_X_DSDT + 8)
		dsdt_pa = get_u64(f + FADT_X_DSDT);
	if (!dsdt_pa && fadt->length >= FADT_DSDT + 4)
		dsdt_pa = get_u32(f + FADT_DSDT);
	/* The PM timer (3.579545 MHz): the TSC calibration's reference (tsc.c). */
	if (fadt->length >= FADT_X_PM_TMR_BLK + 12 && f[FADT_X_PM_TMR_BLK] == 1 /* system I/O */)
		pmtmr = get_u64(f + FADT_X_PM_TMR_BLK + 4);
	if (!pmtmr && fadt->length >= FADT_PM_TMR_BLK + 4)
		pmtmr = get_u32(f + FADT_PM_TMR_BLK);
	if (pmtmr && pmtmr <= 0xffff && fadt->length >= FADT_FLAGS + 4) {
		acpi_pm_tmr_port = (u16)pmtmr;
		acpi_pm_tmr_bits = get_u32(f + FADT_FLAGS) & FADT_TMR_VAL_EXT ? 32 : 24;
	}

	dsdt = dsdt_pa ? table_get(dsdt_pa) : NULL;
	if (dsdt && memcmp(dsdt->signature, "DSDT", 4))
		dsdt = NULL;
	if (dsdt)
		print_table(dsdt, dsdt_pa);
	if (pm1a && pm1a <= 0xffff && dsdt && dsdt_find_s5(dsdt, &acpi_slp_typ_s5))
		acpi_pm1a_cnt = (u16)pm1a;
	else
		printk(KERN_INFO "ACPI: no usable \\_S5 or PM1a control block: no ACPI power-off\n");
}

/* ---- the root ---- */

void acpi_init(void)
{
	const struct acpi_rsdp *rsdp;
	const struct acpi_header *root, *madt = NULL;
	u64 root_pa;
	unsigned int entry_size, n;

	/* Until (unless) the MADT says more: the boot CPU alone, as CPU 0. */
	x86_cpu_to_apicid[0] = boot_cpu_apic_id();
	cpumask_set_cpu(0, &x86_cpu_present_mask);
	cpumask_set_cpu(0, &__cpu_possible_mask);

	rsdp = rsdp_find();
	if (!rsdp) {
		printk(KERN_WARNING "ACPI: no RSDP found: boot CPU only, no ACPI power-off\n");
		return;
	}
	printk(KERN_INFO "ACPI: RSDP 0x%016llX %06X (v%02d %-6.6s)\n",
	       (unsigned long long)(uintptr_t)rsdp, rsdp->revision >= 2 ? rsdp->length : 20,
	       rsdp->revision, rsdp->oem_id);

	if (rsdp->revision >= 2 && rsdp->xsdt && rsdp->xsdt < ACPI_MAX_PHYS) {
		root_pa = rsdp->xsdt;
		entry_size = 8;
	} else {
		root_pa = rsdp->rsdt;
		entry_size = 4;
	}
	root = table_get(root_pa);
	if (!root || memcmp(root->signature, entry_size == 8 ? "XSDT" : "RSDT", 4)) {
		printk(KERN_WARNING "ACPI: no valid RSDT/XSDT: boot CPU only, no ACPI power-off\n");
		return;
	}
	print_table(root, root_pa);

	n = (root->length - sizeof(*root)) / entry_size;
	for (unsigned int i = 0; i < n; i++) {
		const u8 *e = (const u8 *)root + sizeof(*root) + i * entry_size;
		u64 pa = entry_size == 8 ? get_u64(e) : get_u32(e);
		const struct acpi_header *h = table_get(pa);

		if (!h)
			continue;
		if (!memcmp(h->signature, "APIC", 4) && !madt) {
			print_table(h, pa);
			madt = h;
		} else if (!memcmp(h->signature, "FACP", 4)) {
			print_table(h, pa);
			parse_fadt(h);
		}
	}
	if (madt) {
		parse_madt_irqs(madt);
		parse_madt(madt);
	}
	else
		printk(KERN_WARNING "ACPI: no MADT: boot CPU only\n");
}
