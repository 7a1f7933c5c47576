/*
 * kmalloc's debugging, switched at boot as Linux's SLUB debugging is
 * (CONFIG_SLUB_DEBUG compiles it in; it is off unless CONFIG_SLUB_DEBUG_ON
 * or slub_debug= turns it on). Of Linux's slub_debug flags we have two:
 *   F  double-free checks: kfree() and kfree_bulk() look for the object on
 *      this CPU's cache and on its page's free list (with P, the page's only
 *      for an object that already looks free: mm/slab.c, looks_free()); a
 *      copy on another CPU's cache is not looked for;
 *   P  poisoning: free objects are filled with POISON_FREE, checked when
 *      handed out again ("use after free"), and a live object is marked.
 * Linux's other flags (Z, U, T, A, O) are accepted and ignored, with one
 * warning; "-" switches everything off. Decided once, in mm_init(), before
 * the first kmalloc(): switching poisoning on later would find objects
 * freed unpoisoned and report them.
 */
#define pr_fmt(fmt) "mm: " fmt
#define KPARAM_SUBSYS "mm"

#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include "internal.h"

static char slub_debug[16];
KPARAM_STRING("slub_debug", slub_debug,
	      "kmalloc debugging at boot: F (double-free checks), P (poisoning), both when empty, - (off)");

unsigned int slab_debug_flags;

void slab_debug_init(void)
{
	unsigned int def = IS_ENABLED(CONFIG_SLUB_DEBUG_ON) ? SLAB_DEBUG_CHECKS | SLAB_DEBUG_POISON : 0;
	unsigned int flags = 0;
	char ignored[sizeof(slub_debug)];
	size_t n = 0;

	slab_debug_flags = def;
	if (!kparam_given("slub_debug"))
		return;
	if (!strcmp(slub_debug, "-"))
		flags = 0;
	else if (!slub_debug[0])	/* slub_debug=: everything we have, as Linux's */
		flags = SLAB_DEBUG_CHECKS | SLAB_DEBUG_POISON;
	for (const char *s = strcmp(slub_debug, "-") ? slub_debug : ""; *s; s++) {
		switch (*s) {
		case 'F': case 'f':
			flags |= SLAB_DEBUG_CHECKS;
			break;
		case 'P': case 'p':
			flags |= SLAB_DEBUG_POISON;
			break;
		case 'Z': case 'z': case 'U': case 'u': case 'T': case 't':
		case 'A': case 'a': case 'O': case 'o':
			ignored[n++] = *s;	/* Linux's, not ours */
			break;
		default:
			pr_warn("slub_debug: invalid value '%s' (F, P, Linux's Z, U, T, A, O, or -), using %s\n",
				slub_debug, def ? "FP" : "-");
			return;
		}
	}
	ignored[n] = '\0';
	if (n)
		pr_warn("slub_debug: '%s' not implemented here (only F and P), ignored\n", ignored);
	slab_debug_flags = flags;
}
