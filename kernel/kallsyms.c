/*
 * Symbol lookup for backtraces and %pS: a binary search of the sorted
 * text-symbol table that the build links into the image (scripts/gen-kallsyms.sh).
 */
#include <kernel/kallsyms.h>
#include <kernel/sprintf.h>

extern const u64 kallsyms_num;
extern const u64 kallsyms_addrs[];
extern const u32 kallsyms_offsets[];
extern const char kallsyms_names[];
extern char _stext[], _etext[];

/* Finds the symbol containing addr; returns its name or NULL. */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size, unsigned long *offset)
{
	u64 lo = 0, hi = kallsyms_num;

	if (!kallsyms_num || addr < (unsigned long)_stext || addr >= (unsigned long)_etext)
		return NULL;
	while (hi - lo > 1) {
		u64 mid = (lo + hi) / 2;
		if (kallsyms_addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (kallsyms_addrs[lo] > addr)
		return NULL;
	if (offset)
		*offset = addr - kallsyms_addrs[lo];
	if (size)
		*size = (lo + 1 < kallsyms_num ? kallsyms_addrs[lo + 1] : (u64)(unsigned long)_etext)
			- kallsyms_addrs[lo];
	return kallsyms_names + kallsyms_offsets[lo];
}

int sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	unsigned long sz, off;
	const char *name = kallsyms_lookup(addr, &sz, &off);

	if (!name)
		return scnprintf(buf, size, "0x%lx", addr);
	if (!with_offset)
		return scnprintf(buf, size, "%s", name);
	return scnprintf(buf, size, "%s+0x%lx/0x%lx", name, off, sz);
}

void kallsyms_init(void)
{
	vsprintf_set_symbol_lookup(sprint_symbol);
}

/*
 * For return addresses in backtraces: a call at the very end of a function
 * returns to the next function's first byte, so look up addr - 1 and
 * print the offset of addr itself (Linux's %pB).
 */
int sprint_backtrace(char *buf, size_t size, unsigned long addr)
{
	unsigned long sz, off;
	const char *name = kallsyms_lookup(addr - 1, &sz, &off);

	if (!name)
		return scnprintf(buf, size, "0x%lx", addr);
	return scnprintf(buf, size, "%s+0x%lx/0x%lx", name, off + 1, sz);
}
