/*
 * wmm_dynticks.pml (SCEN=3 of rcu_wmm.pml): the dynticks counter against
 * the grace period's idle snapshot, under weak memory. tree_dynticks.c:
 * rcu_dynticks_eqs_flip() is smp_mb(); increment; smp_mb();
 * rcu_dynticks_snap() is smp_mb(); read; smp_mb(); an even value is a
 * quiescent state (the CPU is idle).
 *
 * CPU 0 starts either busy (counter 1: a reader, then idle entry) or idle
 * (counter 2: idle exit, a reader, idle entry). Its reader loads the
 * published pointer and, if it got the object, reads it (a late load: the
 * oracle checks it was not freed) and writes to it (a per-object field,
 * as readers may), counting its writes.
 *
 * CPU 1 is the updater and the grace-period kthread in one: it unpublishes
 * the pointer, starts a grace period, snapshots CPU 0's counter (first scan:
 * even is a QS; later scans: even, or changed since the snapshot), and once
 * credited ends the grace period; the updater then reads the object's
 * field (every reader that got the object has its write visible) and frees
 * the object.
 *
 * Barriers: the flip's two are modelled one for one. On the grace-period
 * side the snapshot's barriers are not alone: between the unpublish and the
 * counter read there are also rcu_seq_start()'s smp_mb() and the leaf
 * lock's smp_mb__after_unlock_lock() (force_qs_rnp()); between the read and
 * the free, the report's leaf lock, rcu_gp_cleanup()'s root lock,
 * rcu_seq_end()'s smp_mb() and the waiter's. Each group is one MB here and
 * its MUT_ removes the whole group; a single barrier of a group is
 * redundant with the others (argued in Documentation/RCU/ordering.md).
 *   MUT_FLIP_MB_BEFORE   no smp_mb() before the increment
 *   MUT_FLIP_MB_AFTER    no smp_mb() after the increment
 *   MUT_GP_MB_BEFORE_SNAP  none between the unpublish and the counter read
 *   MUT_GP_MB_AFTER_SNAP   none between the counter read and the free
 */
#define DYN	0	/* CPU 0's rcu_dynticks.dynticks, modulo 4 */
#define PTR	1	/* the published pointer: 1 the object, 0 unpublished */
#define OBJ	2	/* the object: OBJ_LIVE until freed (0) */
#define WR	3	/* the object's field readers write: how many did */

byte got;	/* ghost: readers on CPU 0 that got the object */
bit busy0;	/* CPU 0 starts busy (else idle) */

inline scen_init()
{
	if
	:: INIT(DYN, 1); busy0 = 1
	:: INIT(DYN, 2); busy0 = 0
	fi;
	INIT(PTR, 1);
	INIT(OBJ, OBJ_LIVE);
	INIT(WR, 0)
}

/* rcu_dynticks_eqs_flip() on CPU 0 (the only writer of DYN: it knows the value). */
inline flip()
{
#ifndef MUT_FLIP_MB_BEFORE
	MB(0);
#endif
	dyn = (dyn + 1) % 4;
	STORE(0, DYN, dyn);
#ifndef MUT_FLIP_MB_AFTER
	MB(0);
#endif
	skip
}

/* rcu_read_lock(); p = rcu_dereference(ptr); if (p) use p; rcu_read_unlock(); */
inline reader()
{
	atomic { LOAD(0, PTR, p); if :: p == 1 -> got++ :: else fi };
	if
	:: p == 1 ->
		LATE_LOAD(0, OBJ);
		wr++;
		STORE(0, WR, wr)
	:: else
	fi
}

proctype cpu0()
{
	byte mi, dyn, p, wr;

	dyn = mem[DYN];
	if
	:: busy0 -> reader(); flip()		/* a reader, then rcu_idle_enter() */
	:: else -> flip(); reader(); flip()	/* rcu_idle_exit(), a reader, rcu_idle_enter() */
	fi;
	MB(0)	/* later barriers (the next idle exit, a context switch) complete it all */
}

/* rcu_dynticks_snap(): smp_mb(); read; smp_mb() (the second is in the group after). */
inline snap(d)
{
#ifndef MUT_GP_MB_BEFORE_SNAP
	MB(1);
#endif
	LOAD(1, DYN, d)
}

proctype cpu1()
{
	byte mi, d1, d, w;

	STORE(1, PTR, 0);	/* the update: unpublish */
	/* rcu_gp_init(): rcu_seq_start(); force_qs_rnp(first): leaf lock, snapshot */
	snap(d1);
	if
	:: (d1 & 1) == 0	/* idle now: credited */
	:: else ->
		do	/* later FQS scans: idle now, or been idle since the snapshot */
		:: snap(d);
			if
			:: (d & 1) == 0 || d != d1 -> break
			:: else
			fi
		od
	fi;
	/* the report, rcu_gp_cleanup(), rcu_seq_end(), the waiter wakes */
#ifndef MUT_GP_MB_AFTER_SNAP
	MB(1);
#endif
	LOAD(1, WR, w);
	assert(w == got);	/* SAFETY: a reader's write to the object is not visible after the GP */
	STORE(1, OBJ, 0);	/* free */
	MB(1)
}
