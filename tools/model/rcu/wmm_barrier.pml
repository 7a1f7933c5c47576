/*
 * wmm_barrier.pml (SCEN=1 and SCEN=2 of rcu_wmm.pml): tree_sync.c:
 * rcu_barrier() reads a CPU's ->cblist.len without its lock and skips the
 * CPU on 0. rcu_segcblist.c:rcu_segcblist_add_len() has smp_mb() on each
 * side of the store; rcu_barrier() has smp_mb() before and after its scan.
 *
 * SCEN=1, the 1 -> 0 update: CPU 0 (rcu_do_batch()) invokes its last
 * callback, which reads the object (a late load: the oracle checks it was
 * not yet freed) and writes its result, then lowers ->len to 0. CPU 1
 * calls rcu_barrier(): if it reads 0 it skips CPU 0; either way, once it
 * returns, the caller reads the callback's result (must be there) and
 * frees the object. A ->len read as 1 sends the IPI and waits for the
 * entrained callback, behind CPU 0's: modelled as waiting until CPU 0 is
 * done, through the completion (a lock: fully ordered).
 *   MUT_LEN_MB_BEFORE    no smp_mb() before the store in add_len()
 *   MUT_BARRIER_MB_AFTER no smp_mb() after rcu_barrier()'s scan
 *
 * SCEN=2, the 0 -> 1 update: CPU 0's call_rcu() raises ->len from 0, then
 * its caller sets a flag. CPU 1 sees the flag (the call_rcu() has
 * returned) and calls rcu_barrier(), which must then see ->len as 1 (or
 * the callback would not be waited for).
 *   MUT_LEN_MB_AFTER      no smp_mb() after the store in add_len()
 *   MUT_BARRIER_MB_BEFORE no smp_mb() before rcu_barrier()'s scan
 */
#define LEN	0	/* CPU 0's rcu_data.cblist.len */
#define OBJ	1	/* what the callback uses: OBJ_LIVE until freed (0) */
#define RES	2	/* the callback's result (SCEN=1) */
#define FLAG	3	/* call_rcu() has returned (SCEN=2) */

bit cb_done;	/* CPU 0 is done, and its accesses are visible (the completion) */

inline scen_init()
{
#if SCEN == 1
	INIT(LEN, 1);
#else
	INIT(LEN, 0);
#endif
	INIT(OBJ, OBJ_LIVE);
	INIT(RES, 0);
	INIT(FLAG, 0)
}

/* rcu_segcblist_add_len(): smp_mb(); WRITE_ONCE(len, len + v); smp_mb(); */
inline add_len(x)
{
#ifndef MUT_LEN_MB_BEFORE
	MB(0);
#endif
	STORE(0, LEN, x);
#ifndef MUT_LEN_MB_AFTER
	MB(0);
#endif
	skip
}

proctype cpu0()
{
	byte mi;

#if SCEN == 1
	/* rcu_do_batch(): the last callback, then the count */
	LATE_LOAD(0, OBJ);
	STORE(0, RES, 1);
	add_len(0);
#else
	/* call_rcu(), then its caller tells CPU 1 */
	add_len(1);
	STORE(0, FLAG, 1);
#endif
	MB(0);
	cb_done = 1
}

proctype cpu1()
{
	byte mi, l, r, f;

#if SCEN == 2
	LOAD(1, FLAG, f);
	if
	:: f == 0 -> goto out	/* call_rcu() not known to have returned: no claim */
	:: else
	fi;
#endif
	/* rcu_barrier() */
#ifndef MUT_BARRIER_MB_BEFORE
	MB(1);
#endif
	LOAD(1, LEN, l);
#if SCEN == 2
	assert(l == 1);	/* SAFETY: a returned call_rcu()'s callback would not be waited for */
#endif
	if
	:: l == 0	/* skip: nothing queued or being invoked */
	:: else -> cb_done == 1	/* IPI, entrain, wait for the completion */
	fi;
#ifndef MUT_BARRIER_MB_AFTER
	MB(1);
#endif
#if SCEN == 1
	/* rcu_barrier() returned: the caller uses the result, frees the object */
	LOAD(1, RES, r);
	assert(r == 1);	/* SAFETY: the callback's write is not visible after rcu_barrier() */
	STORE(1, OBJ, 0);
#endif
out:
	MB(1)
}
