/*
 * Planted RCU pointer misuses for tests/boot/03-sparse.sh (test sparse-planted):
 * sparse (`make C=1` on this file) must report each line marked "SPARSE:",
 * at that file:line, with the text after the marker, and nothing else. No
 * Kbuild names this file, so it never reaches a kernel; gcc compiles it
 * without a warning (the annotations mean nothing to the compiler), which is
 * the point: only the checker sees these mistakes. Keep one marker per line.
 */
#include <kernel/compiler.h>
#include <rcu/rcupdate.h>

struct sparse_demo {
	int a;
};

/* Shared with readers: published with rcu_assign_pointer(), read with rcu_dereference(). */
static struct sparse_demo __rcu *sparse_demo_gp;
/* Not RCU-protected: a plain pointer. */
static struct sparse_demo *sparse_demo_plain;

/* The correct uses: these lines must draw no report. */
int sparse_demo_read_ok(void);
int sparse_demo_read_ok(void)
{
	struct sparse_demo *p;
	int a = -1;

	rcu_read_lock();
	p = rcu_dereference(sparse_demo_gp);
	if (p)
		a = p->a;
	rcu_read_unlock();
	return a;
}

void sparse_demo_publish_ok(struct sparse_demo *p);
void sparse_demo_publish_ok(struct sparse_demo *p)
{
	p->a = 1;
	rcu_assign_pointer(sparse_demo_gp, p);
}

/* The misuses, one per line marked SPARSE. */
int sparse_demo_read_bad(void);
int sparse_demo_read_bad(void)
{
	/* outside rcu_read_lock(), without rcu_dereference(): */
	return sparse_demo_gp->a;	/* SPARSE: dereference of noderef expression */
}

void sparse_demo_publish_bad(struct sparse_demo *p);
void sparse_demo_publish_bad(struct sparse_demo *p)
{
	/* a plain store, bypassing rcu_assign_pointer() and its ordering: */
	sparse_demo_gp = p;	/* SPARSE: incorrect type in assignment (different address spaces) */
	/* rcu_assign_pointer() on a pointer that is not __rcu: */
	rcu_assign_pointer(sparse_demo_plain, p);	/* SPARSE: incompatible types in comparison expression (different address spaces) */
}

struct sparse_demo *sparse_demo_leak(void);
struct sparse_demo *sparse_demo_leak(void)
{
	/* an __rcu pointer leaks out as a plain one, bypassing rcu_dereference(): */
	return sparse_demo_gp;	/* SPARSE: incorrect type in return expression (different address spaces) */
}
