/*
 * Copying to and from user memory. Every user pointer is range-checked
 * (access_ok(): inside the user half, no wrap) and then copied by arch
 * routines whose faults are fixed up (the arch's exception table), so a
 * bad pointer gives -EFAULT to the system call, never an oops. With SMAP
 * the arch opens user access (stac) only around the copy.
 */
#ifndef _KERNEL_UACCESS_H
#define _KERNEL_UACCESS_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <kernel/user.h>

static inline bool access_ok(const void __user *p, unsigned long n)
{
	unsigned long a = (unsigned long)p;

	return a >= USER_VA_START && a <= USER_VA_END && n <= USER_VA_END - a;
}

/* Both return the number of bytes NOT copied (0 on success), as Linux's do. */
unsigned long arch_copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long arch_copy_from_user(void *to, const void __user *from, unsigned long n);

static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return access_ok(to, n) ? arch_copy_to_user(to, from, n) : n;
}

static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	return access_ok(from, n) ? arch_copy_from_user(to, from, n) : n;
}

#endif
