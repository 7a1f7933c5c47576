/*
 * Planted RCU pointer misuses for tests/boot/03-sparse.sh (test sparse-planted):
 * sparse (`make C=1` on this file) must report each line marked "SPARSE:",
 * at that file:line, with the text after the marker, and nothing else. No
 * Kbuild names this file, so it never reaches a kernel; gcc compiles it
 * without a warning (the annotations mean nothing to the compiler), which is
 * the point: only the checker sees these mistakes. Keep one marker per line, and
 * update Documentation/RCU/sparse.md's captured report when lines move.
 */
#include <kernel/compiler.h>
#include <rcu/rcupdate.h>
#include <rcu/rculist.h>
#include <rcu/srcu.h>

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

/* And one misuse more: srcu_dereference() of a pointer that is not __rcu. */
int sparse_demo_srcu_bad(struct srcu_struct *ssp);
int sparse_demo_srcu_bad(struct srcu_struct *ssp)
{
	struct sparse_demo *p = srcu_dereference(sparse_demo_plain, ssp);	/* SPARSE: incompatible types in comparison expression (different address spaces) */

	return p ? p->a : 0;
}

/*
 * More correct uses, of the other accessors and of SRCU and the RCU lists: no
 * report. Keep a clean function last: when a file's last function draws an
 * "error:", sparse 0.6.4 drops the file's noderef warnings (a later pass).
 */
struct sparse_demo_item {
	int a;
	struct list_head node;
};

int sparse_demo_more_ok(struct srcu_struct *ssp, struct list_head *head,
			struct sparse_demo *n);
int sparse_demo_more_ok(struct srcu_struct *ssp, struct list_head *head,
			struct sparse_demo *n)
{
	struct sparse_demo_item *it;
	struct sparse_demo *p, *old;
	int idx, a = 0;

	idx = srcu_read_lock(ssp);
	p = srcu_dereference(sparse_demo_gp, ssp);
	if (p)
		a += p->a;
	srcu_read_unlock(ssp, idx);

	rcu_read_lock();
	list_for_each_entry_rcu(it, head, node)
		a += it->a;
	rcu_read_unlock();

	if (rcu_access_pointer(sparse_demo_gp) == NULL)
		RCU_INIT_POINTER(sparse_demo_gp, n);
	old = rcu_replace_pointer(sparse_demo_gp, n, 1);
	p = rcu_dereference_protected(sparse_demo_gp, 1);
	return a + (old == p);
}
