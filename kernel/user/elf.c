/*
 * Loading an embedded ELF executable (static, ET_EXEC, x86-64) into a new
 * user address space: each PT_LOAD segment is copied page by page into
 * fresh pages (through the kernel's direct map, so SMAP does not apply)
 * which are then mapped with the segment's permissions; the rest of the
 * last page and the .bss are zero. Segments must lie in the user half and
 * not share pages. Then the stack, read-write and never executable.
 */
#include "user.h"
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <mm/mm.h>

struct elf64_ehdr {
	u8 ident[16];
	u16 type, machine;
	u32 version;
	u64 entry, phoff, shoff;
	u32 flags;
	u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	u32 type, flags;
	u64 offset, vaddr, paddr, filesz, memsz, align;
};

#define PT_LOAD		1
#define PF_X		1
#define PF_W		2
#define ET_EXEC		2
#define EM_X86_64	62

static int map_fresh_page(struct user_process *up, unsigned long va, unsigned int prot,
			  const u8 *src, size_t off, size_t len)
{
	u8 *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	int err;

	if (!page)
		return -ENOMEM;
	if (len)
		memcpy(page + off, src, len);
	err = arch_uspace_map_page(up->uspace, va, page, prot);
	if (err)
		free_pages(page, 0);
	return err;
}

static int load_segment(struct user_process *up, const u8 *file, size_t size,
			const struct elf64_phdr *ph)
{
	unsigned long start = ALIGN_DOWN(ph->vaddr, PAGE_SIZE), end;
	unsigned int prot = ((ph->flags & PF_W) ? UPROT_WRITE : 0) | ((ph->flags & PF_X) ? UPROT_EXEC : 0);

	/* Below the stack and its guard page. */
	const unsigned long limit = USER_STACK_TOP - (USER_STACK_PAGES + 1) * PAGE_SIZE;

	if (ph->filesz > ph->memsz || ph->offset > size || ph->filesz > size - ph->offset ||
	    ph->vaddr < USER_VA_START || ph->vaddr >= limit || ph->memsz > limit - ph->vaddr)
		return -ENOEXEC;
	end = ALIGN(ph->vaddr + ph->memsz, PAGE_SIZE);
	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		/* The part of the file image that lands in this page. */
		unsigned long lo = max(va, (unsigned long)ph->vaddr);
		unsigned long hi = min(va + PAGE_SIZE, (unsigned long)(ph->vaddr + ph->filesz));
		size_t len = hi > lo ? hi - lo : 0;
		int err = map_fresh_page(up, va, prot, file + ph->offset + (lo - ph->vaddr),
					 lo - va, len);

		if (err)
			return err == -EEXIST ? -ENOEXEC : err;
	}
	return 0;
}

int user_elf_load(struct user_process *up)
{
	const u8 *file = up->prog->start;
	size_t size = up->prog->end - up->prog->start;
	const struct elf64_ehdr *eh = (const void *)file;
	int err;

	if (size < sizeof(*eh) || memcmp(eh->ident, "\177ELF\2\1", 6) || eh->type != ET_EXEC ||
	    eh->machine != EM_X86_64 || eh->phentsize != sizeof(struct elf64_phdr) ||
	    eh->phoff > size || eh->phnum > (size - eh->phoff) / sizeof(struct elf64_phdr) ||
	    eh->entry < USER_VA_START || eh->entry >= USER_VA_END)
		return -ENOEXEC;
	up->uspace = arch_uspace_create();
	if (!up->uspace)
		return -ENOMEM;
	for (unsigned int i = 0; i < eh->phnum; i++) {
		const struct elf64_phdr *ph = (const void *)(file + eh->phoff + i * sizeof(*ph));

		if (ph->type != PT_LOAD || !ph->memsz)
			continue;
		err = load_segment(up, file, size, ph);
		if (err)
			return err;
	}
	for (unsigned int i = 1; i <= USER_STACK_PAGES; i++) {
		err = map_fresh_page(up, USER_STACK_TOP - i * PAGE_SIZE, UPROT_WRITE, NULL, 0, 0);
		if (err)
			return err;
	}
	up->entry = eh->entry;
	return 0;
}
