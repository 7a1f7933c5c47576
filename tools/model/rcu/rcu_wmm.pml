/*
 * rcu_wmm.pml - RCU's barrier pairs under a relaxed memory model (the
 * reorderings ARMv8 and POWER allow), one scenario per run:
 *   SCEN=0  litmus tests of the memory model itself (LITMUS=1 MP with
 *           release/acquire, LITMUS=2 SB with smp_mb())
 *   SCEN=1  rcu_barrier()'s skip of a CPU whose ->cblist.len reads 0, against
 *           that CPU's last callback (rcu_do_batch(), the 1 -> 0 update)
 *   SCEN=2  the same skip against a racing call_rcu() (the 0 -> 1 update)
 *   SCEN=3  the dynticks counter (rcu_dynticks_eqs_flip()) against the grace
 *           period's snapshot (rcu_dynticks_snap())
 *   SCEN=4  SRCU's flip-and-scan (srcutree.c) against __srcu_read_lock()/
 *           __srcu_read_unlock() (include/rcu/srcutree.h)
 * Each barrier the scenario covers has a MUT_* macro that removes it; spin
 * must then find a counterexample (tools/model/rcu/suites.sh).
 *
 * The memory model (README.md, "Relaxed memory"): shared words mem[v]; per
 * CPU c a store buffer with one slot per word (sbf/sbv) whose slots drain
 * to memory one at a time in any order (drainer(c)); a load by c of a word it
 * has a buffered store to gets that store (forwarding), otherwise any value
 * the word has held since c's last full barrier or acquire (hist[]): the
 * load may have been satisfied that early. A load whose value only the
 * oracle needs (a reader's access to the protected object) may also be
 * satisfied late: it stays pending (dlv) and binds at any later step, at
 * the latest at c's next smp_mb() or release. So store->store, store->load,
 * load->load and load->store reorderings are all possible, and:
 *   MB(c)        smp_mb(): binds the pending load, drains c's buffer, and
 *                restarts c's load window at now
 *   RELEASE(c)   smp_store_release(): binds the pending load and drains c's
 *                buffer, then buffers the store (later loads stay free)
 *   ACQUIRE(c)   smp_load_acquire(): reads the current value and restarts
 *                c's load window (later loads cannot be satisfied earlier)
 * SCEN=4 has three CPUs and twelve words, the others two and eight.
 * Simplifications: a second store to a buffered word replaces the first
 * (same-address stores stay ordered; the older value is never seen); a CPU
 * may read one word's values out of order across two loads (no coherence
 * between loads of the same word: more behaviours, not fewer); an acquire
 * load is not itself satisfied early. Values are 0..3.
 */

#ifndef SCEN
#define SCEN 1
#endif

#if SCEN == 4
#define MAXNV	12	/* words per scenario, at most */
#define NPROC	3	/* modelled CPUs */
#else
#define MAXNV	8
#define NPROC	2
#endif
#define SLOT(c, v)	((c) * MAXNV + (v))

byte mem[MAXNV];
bit sbf[NPROC * MAXNV];		/* c's store buffer holds a store to word v */
byte sbv[NPROC * MAXNV];	/* ... of this value */
byte hist[NPROC * MAXNV];	/* bit x: word v held x at some time since c's last barrier */
byte dlv[NPROC];		/* pending late load by c: word + 1, 0 none */
byte dlval[NPROC];		/* ghost: the value a bound late load returned */
bit dlbound[NPROC];		/* ghost: it has been bound */

/* The oracle's check on a bound late load (per scenario, below). */
#define OBJ_LIVE	1

/* Word v becomes visible: memory takes c's buffered store; every CPU may now read it. */
inline drain(c, v)
{
	mem[v] = sbv[SLOT(c, v)];
	sbf[SLOT(c, v)] = 0;
	sbv[SLOT(c, v)] = 0;
	hist[SLOT(0, v)] = hist[SLOT(0, v)] | (1 << mem[v]);
	hist[SLOT(1, v)] = hist[SLOT(1, v)] | (1 << mem[v]);
#if NPROC > 2
	hist[SLOT(2, v)] = hist[SLOT(2, v)] | (1 << mem[v]);
#endif
	skip
}

/* c's pending late load is satisfied now (own buffered store first). */
inline bind(c)
{
	if
	:: dlv[c] != 0 ->
		if
		:: sbf[SLOT(c, dlv[c] - 1)] -> dlval[c] = sbv[SLOT(c, dlv[c] - 1)]
		:: else -> dlval[c] = mem[dlv[c] - 1]
		fi;
		dlbound[c] = 1;
		/* SAFETY: a reader's access (or a callback's) found the object freed */
		assert(dlval[c] == OBJ_LIVE);
		dlv[c] = 0
	:: else
	fi
}

/* Drain all of c's buffer (one atomic step: no one can look in between). */
inline drain_all(c)
{
	for (mi : 0 .. MAXNV - 1) {
		if
		:: sbf[SLOT(c, mi)] -> drain(c, mi)
		:: else
		fi
	}
	mi = 0
}

/* c's later loads may only see values from now on. */
inline restart_window(c)
{
	for (mi : 0 .. MAXNV - 1) {
		hist[SLOT(c, mi)] = 1 << mem[mi]
	}
	mi = 0
}

inline MB(c)
{
	atomic { bind(c); drain_all(c); restart_window(c) }
}

inline STORE(c, v, x)
{
	atomic { sbv[SLOT(c, v)] = x; sbf[SLOT(c, v)] = 1; hist[SLOT(c, v)] = 1 << x }
}

inline RELEASE(c, v, x)
{
	atomic { bind(c); drain_all(c); sbv[SLOT(c, v)] = x; sbf[SLOT(c, v)] = 1; hist[SLOT(c, v)] = 1 << x }
}

/* A load whose value the code uses: from c's buffer, or any value since c's last barrier. */
inline LOAD(c, v, dst)
{
	atomic {
		if
		:: sbf[SLOT(c, v)] -> dst = sbv[SLOT(c, v)]
		:: else ->
			if
			:: hist[SLOT(c, v)] & 1 -> dst = 0
			:: hist[SLOT(c, v)] & 2 -> dst = 1
			:: hist[SLOT(c, v)] & 4 -> dst = 2
			:: hist[SLOT(c, v)] & 8 -> dst = 3
			fi
		fi
	}
}

inline ACQUIRE(c, v, dst)
{
	atomic {
		if
		:: sbf[SLOT(c, v)] -> dst = sbv[SLOT(c, v)]
		:: else -> dst = mem[v]
		fi;
		restart_window(c)
	}
}

/* A load only the oracle looks at: may bind any time until c's next MB/RELEASE. */
inline LATE_LOAD(c, v)
{
	atomic { bind(c); dlv[c] = v + 1 }
}

/* CPU c's memory system: drains its buffer in any order, binds its late load. */
proctype drainer(byte c)
{
	byte mi;

end:	do
	:: atomic { dlv[c] != 0 -> bind(c) }
	:: atomic { sbf[SLOT(c, 0)] -> drain(c, 0) }
	:: atomic { sbf[SLOT(c, 1)] -> drain(c, 1) }
	:: atomic { sbf[SLOT(c, 2)] -> drain(c, 2) }
	:: atomic { sbf[SLOT(c, 3)] -> drain(c, 3) }
	:: atomic { sbf[SLOT(c, 4)] -> drain(c, 4) }
	:: atomic { sbf[SLOT(c, 5)] -> drain(c, 5) }
	:: atomic { sbf[SLOT(c, 6)] -> drain(c, 6) }
	:: atomic { sbf[SLOT(c, 7)] -> drain(c, 7) }
#if MAXNV > 8
	:: atomic { sbf[SLOT(c, 8)] -> drain(c, 8) }
	:: atomic { sbf[SLOT(c, 9)] -> drain(c, 9) }
	:: atomic { sbf[SLOT(c, 10)] -> drain(c, 10) }
	:: atomic { sbf[SLOT(c, 11)] -> drain(c, 11) }
#endif
	od
}

/* Set word v's initial value (init only, before any CPU runs). */
inline INIT(v, x)
{
	mem[v] = x;
	hist[SLOT(0, v)] = 1 << x;
	hist[SLOT(1, v)] = 1 << x;
#if NPROC > 2
	hist[SLOT(2, v)] = 1 << x;
#endif
	skip
}

#if SCEN == 0
#include "wmm_litmus.pml"
#elif SCEN == 1 || SCEN == 2
#include "wmm_barrier.pml"
#elif SCEN == 3
#include "wmm_dynticks.pml"
#elif SCEN == 4
#include "wmm_srcu.pml"
#endif

init {
	atomic {
		scen_init();
		run drainer(0);
		run drainer(1);
#if NPROC > 2
		run drainer(2);
		run cpu2();
#endif
		run cpu0();
		run cpu1()
	}
}
