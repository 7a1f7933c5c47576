/*
 * Host stand-in for the kernel's symbol table, so %pS/%ps can be tested:
 * a few fake functions at fixed addresses. test_vsprintf installs
 * sprint_symbol() with vsprintf_set_symbol_lookup(), as the kernel does.
 */
#include <kernel/kallsyms.h>
#include <kernel/sprintf.h>

static const struct { unsigned long addr, size; const char *name; } fake_syms[] = {
	{ 0xffffffff81000000UL, 0x40, "start_kernel" },
	{ 0xffffffff81000040UL, 0x100, "rcu_gp_kthread" },
	{ 0xffffffff81000140UL, 0x20, "schedule" },
};

int sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	size_t i;

	for (i = 0; i < sizeof(fake_syms) / sizeof(fake_syms[0]); i++) {
		unsigned long off = addr - fake_syms[i].addr;

		if (addr < fake_syms[i].addr || off >= fake_syms[i].size)
			continue;
		if (!with_offset)
			return scnprintf(buf, size, "%s", fake_syms[i].name);
		return scnprintf(buf, size, "%s+0x%lx/0x%lx", fake_syms[i].name, off, fake_syms[i].size);
	}
	return scnprintf(buf, size, "%#lx", addr);
}
