/*
 * mm.provoke_double_free=<kind>: a test-only parameter that frees one
 * kmalloc() object twice once boot is complete, so that the boot tests
 * (tests/boot/20-sched.sh) can check that slub_debug=F reports it
 * ("kfree: bad pointer ...: double free", then the BUG's panic). Kinds:
 *   bulk  kfree(), then kfree_bulk() of the same object on the same CPU:
 *         the first free leaves it on this CPU's cache, where kfree_bulk()
 *         must look, as kfree() does.
 * An object freed twice on two CPUs, the first copy still on the other
 * CPU's cache, is not caught (mm/slab.c: caches are read only by their
 * own CPU).
 */
#define KPARAM_SUBSYS "mm"
#define KPARAM_TEST	/* test parameters: test kernels only (<kernel/param.h>) */
#include "../internal.h"
#include <mm/slab.h>
#include <kernel/param.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/preempt.h>

static char provoke[16];
KPARAM_STRING("mm.provoke_double_free", provoke,
	      "test only: free one kmalloc() object twice after boot: bulk (kfree(), then kfree_bulk())");

static int provoke_double_free(void)
{
	void *obj;

	if (!provoke[0])
		return 0;
	if (strcmp(provoke, "bulk")) {
		pr_warn("mm.provoke_double_free: unknown kind '%s'\n", provoke);
		return 0;
	}
	obj = kmalloc(64, GFP_KERNEL);
	if (!obj)
		return 0;
	pr_info("mm.provoke_double_free: kfree() then kfree_bulk() of %p\n", obj);
	preempt_disable();	/* both frees on one CPU: the first leaves obj on its cache */
	kfree(obj);
	kfree_bulk(1, &obj);
	preempt_enable();
	/* Not reached when the check works. The object is now free twice: stop using kmalloc here. */
	pr_err("mm.provoke_double_free: bulk: the second free of %p went unnoticed\n", obj);
	return 0;
}
late_initcall(provoke_double_free);
