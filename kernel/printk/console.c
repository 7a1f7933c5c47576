/*
 * The consoles printk writes to, and the lock that keeps their lines
 * whole. Drivers register a struct console from their console_initcall()
 * (<kernel/console.h>); console_write() hands raw text to each. The list
 * is read without a lock (a nested printk in an NMI, a panic that broke
 * the lock), so it only grows or shrinks by single pointer stores, and a
 * removed console stays valid memory.
 */
#include <kernel/console.h>
#include <kernel/printk.h>
#include <kernel/param.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <kernel/errno.h>
#include <kernel/smp.h>
#include <kernel/irqflags.h>
#include <kernel/barrier.h>
#include "internal.h"

/* ---- the console lock ---- */

static int console_owner = -1;	/* CPU holding the console, -1 if free */

bool console_lock(void)
{
	int me = raw_smp_processor_id();
	int owner = -1;

	if (READ_ONCE(console_owner) == me)
		return false;
	while (!__atomic_compare_exchange_n(&console_owner, &owner, me, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		owner = -1;
		cpu_relax();
	}
	return true;
}

void console_unlock(void)
{
	__atomic_store_n(&console_owner, -1, __ATOMIC_RELEASE);
}

void console_force_unlock(void)
{
	WRITE_ONCE(console_owner, -1);
}

/* ---- the registered consoles ---- */

static struct console *console_drivers;	/* changed under the console lock */

/* The next console after prev (the first if prev is NULL), read locklessly. */
static struct console *console_next(struct console *prev)
{
	/* Pairs with the release in register_console(): a published console is complete. */
	return smp_load_acquire(prev ? &prev->next : &console_drivers);
}

#define for_each_console(con) \
	for ((con) = console_next(NULL); (con); (con) = console_next(con))

void console_write(const char *s, size_t len)
{
	struct console *con;

	for_each_console(con)
		if (READ_ONCE(con->flags) & CON_ENABLED)
			con->write(con, s, len);
}

void console_flush(void)
{
	struct console *con;

	for_each_console(con)
		if ((READ_ONCE(con->flags) & CON_ENABLED) && con->flush)
			con->flush(con);
}

/*
 * Changes to the list are made with the console lock held, so no printk
 * on another CPU is between two writes of one line; a printk nested on
 * this CPU (an NMI) may see the list either way, never half-made.
 */
static unsigned long console_list_lock(bool *locked)
{
	unsigned long flags;

	local_irq_save(flags);
	*locked = console_lock();
	return flags;
}

static void console_list_unlock(unsigned long flags, bool locked)
{
	if (locked)
		console_unlock();
	local_irq_restore(flags);
}

void register_console(struct console *con)
{
	struct console **pp;
	unsigned long flags;
	bool locked;

	flags = console_list_lock(&locked);
	for (pp = &console_drivers; *pp; pp = &(*pp)->next)
		if (*pp == con)
			goto out;	/* already registered */
	con->next = NULL;
	con->flags |= CON_ENABLED;
	/* Pairs with the acquire in console_next(): readers see con's fields set. */
	smp_store_release(pp, con);
out:
	console_list_unlock(flags, locked);
}

int unregister_console(struct console *con)
{
	struct console **pp;
	unsigned long flags;
	bool locked;
	int err = -ENODEV;

	flags = console_list_lock(&locked);
	for (pp = &console_drivers; *pp; pp = &(*pp)->next)
		if (*pp == con) {
			/* con->next stays: a lockless reader standing on con goes on past it. */
			WRITE_ONCE(*pp, con->next);
			WRITE_ONCE(con->flags, con->flags & ~CON_ENABLED);
			err = 0;
			break;
		}
	console_list_unlock(flags, locked);
	return err;
}

extern const console_initcall_t __con_initcall_start[], __con_initcall_end[];

void console_init(void)
{
	for (const console_initcall_t *call = __con_initcall_start; call < __con_initcall_end; call++)
		(*call)();
}

/* ---- console= ---- */

/*
 * console=: Linux's syntax, "<name><index>[,<options>]" (ttyS0,115200n8).
 * Every registered console is the kernel's from its first line, so
 * naming one only passes it the options; a name no console has gets one
 * warning and changes nothing. Linux's several console= are not kept:
 * the last one counts.
 */
static char console_opt[64];
KPARAM_STRING("console", console_opt,
	      "<name><index>[,options], e.g. ttyS0,115200n8: options for that console (ttyS0 is the only one here)");

void console_setup_params(void)
{
	char name[sizeof(console_opt)], have[64] = "", this[24];
	const char *options = strchr(console_opt, ',');
	size_t n = options ? (size_t)(options - console_opt) : strlen(console_opt);
	struct console *con;
	int used = 0;

	if (!console_opt[0])
		return;
	memcpy(name, console_opt, n);
	name[n] = '\0';
	for_each_console(con) {
		snprintf(this, sizeof(this), "%s%d", con->name, con->index);
		if (!strcmp(this, name)) {
			if (options && con->setup)
				con->setup(con, options + 1);
			return;
		}
		used += scnprintf(have + used, sizeof(have) - used, "%s%s", used ? ", " : "", this);
	}
	printk(KERN_WARNING "kernel: console: no console '%s' in this kernel (%s only), using %s\n",
	       console_opt, have, have);
}
