/*
 * wmm_srcu.pml (SCEN=4 of rcu_wmm.pml): Tree SRCU's flip-and-scan against
 * its readers, under weak memory.
 *
 * Readers (include/rcu/srcutree.h): __srcu_read_lock() reads srcu_idx & 1,
 * increments this CPU's lock count for that bank, smp_mb__after_atomic();
 * __srcu_read_unlock() runs smp_mb__before_atomic(), then increments this
 * CPU's unlock count for the same bank. CPU 0 and CPU 2 each run one
 * reader: it loads the published pointer and, if it got the object, reads
 * it (a late load the oracle checks); CPU 0's reader also writes to it
 * (counting). NRD readers per CPU, one after another (counts up to 3).
 *
 * CPU 1 is synchronize_srcu() and srcu_gp in one (srcutree.c): unpublish,
 * (after PREV_GPS earlier grace periods) start the grace period, scan the inactive bank (sum the unlocks, smp_mb(),
 * sum the locks, equal means no reader; retried without a barrier until
 * equal), srcu_flip() (smp_mb(); srcu_idx++; smp_mb()), scan the other
 * bank, end the grace period; the updater then reads the object's field
 * (CPU 0's reader's write must be visible if it got the object) and frees it.
 *
 * Barriers and their macros:
 *   MUT_SRCU_LOCK_MB       no smp_mb__after_atomic() in __srcu_read_lock()
 *   MUT_SRCU_UNLOCK_MB     no smp_mb__before_atomic() in __srcu_read_unlock()
 *   MUT_SRCU_SCAN_MB       no smp_mb() between the sums in
 *                          srcu_readers_active_idx_check()
 *   MUT_SRCU_FLIP_MB_BEFORE, MUT_SRCU_FLIP_MB_AFTER  srcu_flip()'s two
 *   MUT_SRCU_GP_START_MB   none between the unpublish and the first scan
 *                          (srcu_gp_start_if_needed()'s smp_mb(), rcu_seq_start()'s)
 *   MUT_SRCU_GP_END_MB     none between the last scan and the free
 *                          (rcu_seq_end()'s smp_mb(), __synchronize_srcu()'s)
 */
#define IDX	0	/* ssp->srcu_idx (values 0..3: PREV_GPS + 1 flips, at most 3) */
#define PTR	1	/* the published pointer */
#define OBJ	2	/* the object: OBJ_LIVE until freed (0) */
#define WR	3	/* the object's field CPU 0's reader writes */
#define LCK(r, b)	(4 + 2 * (r) + (b))	/* reader CPU r's (0: CPU 0, 1: CPU 2) lock count, bank b */
#define ULK(r, b)	(8 + 2 * (r) + (b))	/* ... unlock count */

#ifndef NRD
#define NRD	1	/* readers per reader CPU, one after the other */
#endif
#ifndef PREV_GPS
#define PREV_GPS 0	/* grace periods before the update's */
#endif

byte got0;	/* ghost: CPU 0's readers that got the object */

inline scen_init()
{
	INIT(IDX, 0);
	INIT(PTR, 1);
	INIT(OBJ, OBJ_LIVE);
	INIT(WR, 0);
	INIT(LCK(0, 0), 0); INIT(LCK(0, 1), 0); INIT(LCK(1, 0), 0); INIT(LCK(1, 1), 0);
	INIT(ULK(0, 0), 0); INIT(ULK(0, 1), 0); INIT(ULK(1, 0), 0); INIT(ULK(1, 1), 0)
}

/*
 * One SRCU reader on CPU c (counters r); the only writer of its counters,
 * so it keeps their values (lk[], uk[]).
 */
inline srcu_reader(c, r)
{
	LOAD(c, IDX, i);
	i = i & 1;
	lk[i]++;
	STORE(c, LCK(r, i), lk[i]);
#ifndef MUT_SRCU_LOCK_MB
	MB(c);
#endif
	atomic { LOAD(c, PTR, p); if :: p == 1 && c == 0 -> got0++ :: else fi };
	if
	:: p == 1 ->
		LATE_LOAD(c, OBJ);
		if
		:: c == 0 -> wr++; STORE(c, WR, wr)
		:: else
		fi
	:: else
	fi;
#ifndef MUT_SRCU_UNLOCK_MB
	MB(c);
#endif
	uk[i]++;
	STORE(c, ULK(r, i), uk[i])
}

proctype cpu0()
{
	byte mi, i, p, wr, n, lk[2], uk[2];

	for (n : 1 .. NRD) {
		srcu_reader(0, 0)
	}
	MB(0)	/* later barriers complete it all */
}

proctype cpu2()
{
	byte mi, i, p, wr, n, lk[2], uk[2];

	for (n : 1 .. NRD) {
		srcu_reader(2, 1)
	}
	MB(2)
}

/*
 * srcu_readers_active_idx_check() until it succeeds: unlocks, smp_mb(), locks.
 * Two loads with nothing between them are one step: each may return any
 * value since the last barrier, so taking them together at the later
 * moment loses no outcome.
 */
inline scan(b)
{
	do
	:: atomic { LOAD(1, ULK(0, b), u0); LOAD(1, ULK(1, b), u1) };
#ifndef MUT_SRCU_SCAN_MB
		MB(1);
#endif
		atomic {
			LOAD(1, LCK(0, b), l0);
			LOAD(1, LCK(1, b), l1);
			if
			:: l0 + l1 == u0 + u1 -> break
			:: else
			fi
		}
	od;
	u0 = 0; u1 = 0; l0 = 0; l1 = 0
}

/* One grace period: srcu_gp_start() to srcu_gp_end(). */
inline srcu_gp()
{
#ifndef MUT_SRCU_GP_START_MB
	MB(1);
#endif
	scan(1 - (idx & 1));	/* SCAN1: the bank readers are not using */
#ifndef MUT_SRCU_FLIP_MB_BEFORE
	MB(1);
#endif
	idx++;
	STORE(1, IDX, idx);
#ifndef MUT_SRCU_FLIP_MB_AFTER
	MB(1);
#endif
	scan(1 - (idx & 1));	/* SCAN2: the bank they used before the flip */
#ifndef MUT_SRCU_GP_END_MB
	MB(1);
#endif
	skip
}

proctype cpu1()
{
	byte mi, idx, u0, u1, l0, l1, w, n;

	/* PREV_GPS grace periods for nobody in particular, then the update's */
#if PREV_GPS > 0
	for (n : 1 .. PREV_GPS) {
		srcu_gp()
	}
#endif
	STORE(1, PTR, 0);	/* the update: unpublish */
	srcu_gp();
	LOAD(1, WR, w);
	assert(w == got0);	/* SAFETY: a reader's write to the object is not visible after the GP */
	STORE(1, OBJ, 0);	/* free */
	MB(1)
}
