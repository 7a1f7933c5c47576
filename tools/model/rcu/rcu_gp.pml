/*
 * rcu_gp.pml - a Promela model of this kernel's Tree RCU handshakes:
 *   - the dyntick-idle (EQS) counter (kernel/rcu/tree.c: rcu_dynticks_eqs_flip(),
 *     rcu_idle_enter/exit(), rcu_nmi_enter/exit()) against the grace-period
 *     kthread's idle snapshot and FQS scans (rcu_gp_init(), force_qs_rnp());
 *   - interrupts and nested interrupts taken from idle (nesting, nmi_nesting,
 *     rcu_is_cpu_rrupt_from_idle());
 *   - quiescent-state reports up a two-level rcu_node tree (rcu_qs(),
 *     note_gp_changes(), rcu_report_qs_rdp(), rcu_report_qs_rnp());
 *   - the expedited grace period's idle skip and IPI handler
 *     (kernel/rcu/tree_exp.c: rcu_exp_select_cpus(), rcu_exp_handler(),
 *     rcu_report_exp_rdp(), rcu_report_exp_rnp()).
 * See README.md next to this file for the variable-to-code map and the bounds.
 *
 * Memory model. Spin interleaves statements sequentially consistently. The
 * orderings that the barriers in the EQS flip enforce are made explicit:
 *   - dyn[c] is CPU c's own view of its dynticks counter, dynvis[c] the value
 *     other CPUs read. A store not yet drained by a full barrier sits between
 *     the two (a store buffer: the CPU's later loads may run before it is
 *     visible, which x86 allows too).
 *   - rdpend[c]: the last reader on CPU c has executed rcu_read_unlock() but
 *     its accesses are not yet known to be complete (weakly-ordered CPUs may
 *     finish them after later stores); a full barrier or a nondeterministic
 *     "retire" step completes them.
 * rcu_node lock sections are atomic and act as full barriers on the CPU that
 * takes the lock (a LOCK-prefixed RMW on x86); see README.md "Abstractions".
 *
 * Compile-time knobs (spin -DNAME=VALUE): NCPU (2..4), NGP (normal grace
 * periods run by the kthread), NEXP (expedited ones), STEPS (actions per CPU
 * before it settles), DYNMOD (the dynticks counter is kept modulo this),
 * LIVENESS (adds the LTL claim). Planted bugs: MUT_FLIP_MB_AFTER,
 * MUT_FLIP_MB_BEFORE, MUT_SNAP_EARLY, MUT_EXP_IDLE_NESTING, MUT_RRUPT (safety),
 * MUT_NO_EQS_CREDIT (liveness).
 */

#ifndef NCPU
#define NCPU 2
#endif
#ifndef NGP
#define NGP 2
#endif
#ifndef NEXP
#define NEXP 1
#endif
#ifndef STEPS
#define STEPS 4
#endif
#ifndef DYNMOD
#define DYNMOD 4
#endif

/* Two leaves under one root: CPUs [0, CPL) on leaf 0, [CPL, NCPU) on leaf 1. */
#define CPL		((NCPU + 1) / 2)
#define LEAF(c)		((c) / CPL)
#define BIT(c)		(1 << ((c) % CPL))
#define LEAF_FIRST(n)	((n) * CPL)
#define LEAF_LAST(n)	((n) == 0 -> CPL - 1 : NCPU - 1)
#define LEAF_MASK(n)	((n) == 0 -> (1 << CPL) - 1 : (1 << (NCPU - CPL)) - 1)
#define ROOT_MASK	3

/* ---- per-CPU state (struct rcu_dynticks, struct rcu_data) ---- */
byte dyn[NCPU];		/* rcu_dynticks.dynticks as CPU c sees it (odd: RCU watching) */
byte dynvis[NCPU];	/* the same counter as other CPUs see it */
bit nesting[NCPU];	/* rcu_dynticks.nesting: 1 task context, 0 idle loop (EQS) */
byte nmi[NCPU];		/* rcu_dynticks.nmi_nesting: 1 outer irq from idle, +2 per other level */
byte rd[NCPU];		/* reader running: 0 none, 1 task-level, 2 inside an interrupt handler */
bit rdpend[NCPU];	/* reader ended, its accesses not yet complete (see above) */
bit cpu_no_qs[NCPU];	/* rcu_data.cpu_no_qs */
bit core_qs[NCPU];	/* rcu_data.core_needs_qs */
byte rdp_gp[NCPU];	/* rcu_data.gp_seq */
byte dsn[NCPU];		/* rcu_data.dynticks_snap (first FQS scan) */
bit exp_def[NCPU];	/* rcu_data.exp_deferred_qs */
bit ipi_pend[NCPU];	/* an expedited IPI sent and not yet handled */

/* ---- rcu_node tree: leaves 0 and 1, and the root ---- */
byte lqs[2];		/* leaf ->qsmask */
byte lexp[2];		/* leaf ->expmask */
byte lgp[2];		/* leaf ->gp_seq */
byte rqs;		/* root ->qsmask (bit n: leaf n) */
byte rexp;		/* root ->expmask */
byte rgp;		/* root ->gp_seq */
byte gseq;		/* rcu_state.gp_seq: 2*count + phase (the kernel's low two bits, folded to one) */

/* ---- ghost state: the oracle, not part of the kernel ---- */
bit rdlive[NCPU];	/* a reader's accesses may still be in progress */
bit pre_gp[NCPU];	/* ... and that reader was already live when the normal GP started */
bit pre_exp[NCPU];	/* ... when the expedited GP started */
bit gp_running;		/* between rcu_seq_start(gp_seq) and the end of the wait */
bit exp_running;	/* between rcu_seq_start(expedited_sequence) and its end */
#ifdef MUT_SNAP_EARLY
byte early[NCPU];
#endif

/* rcu_seq_new_gp(old, new) in the folded encoding: a GP started after old. */
#define NEW_GP(old, new)	((((old) + 1) / 2) * 2 < (new))

/* rcu_is_cpu_rrupt_from_idle(): the interrupt came straight from the idle loop. */
#ifdef MUT_RRUPT
/* Planted bug: forget nmi_nesting, so a nested interrupt counts as "from idle". */
#define FROM_IDLE(c)	(nesting[c] == 0)
#else
#define FROM_IDLE(c)	(nesting[c] == 0 && nmi[c] <= 1)
#endif
/* preempt_count() == HARDIRQ_OFFSET: one interrupt level, no reader under it. */
#define HARDIRQ_ONLY(c)	(rd[c] == 0 && (nmi[c] == 1 || nmi[c] == 2))

/* force_qs_rnp(): does the counter prove a QS? */
#ifdef MUT_NO_EQS_CREDIT
/* Planted liveness bug: the scan never credits idle CPUs, so a CPU that stays
 * idle holds up the grace period forever (no assertion: an acceptance cycle). */
#define EQS_CREDIT(x)	(0)
#else
#define EQS_CREDIT(x)	(x)
#endif

/* rcu_exp_select_cpus(): may this CPU be skipped as idle? */
#ifdef MUT_EXP_IDLE_NESTING
/* Planted bug: test the idle task's state, not the counter (misses an irq from idle). */
#define EXP_IDLE(i)	(nesting[i] == 0)
#else
#define EXP_IDLE(i)	((dynvis[i] & 1) == 0)
#endif

/* The reader's accesses are complete: it no longer holds up any grace period. */
inline retire(c)
{
	rdpend[c] = 0;
	rdlive[c] = 0;
	pre_gp[c] = 0;
	pre_exp[c] = 0
}

/* smp_mb() on CPU c: its buffered store is visible, its finished reader's accesses done. */
inline mb(c)
{
	dynvis[c] = dyn[c];
	if
	:: rdpend[c] -> retire(c)
	:: else
	fi
}

/*
 * rcu_dynticks_eqs_flip(): smp_mb(); atomic_inc(dynticks); smp_mb();
 * With both barriers the increment is visible exactly when the CPU moves on,
 * and everything before it (a reader that just ended) is complete.
 */
inline flip(c)
{
#if defined(MUT_FLIP_MB_BEFORE)
	/* Planted bug: no leading barrier. The increment can become visible while
	 * the preceding reader's accesses are still in flight; the trailing
	 * barrier only completes them afterwards. */
	atomic { dyn[c] = (dyn[c] + 1) % DYNMOD; dynvis[c] = dyn[c] };
	atomic { mb(c) }
#elif defined(MUT_FLIP_MB_AFTER)
	/* Planted bug: no trailing barrier. The increment stays in the store
	 * buffer while the CPU goes on (e.g. into a reader). */
	atomic { mb(c); dyn[c] = (dyn[c] + 1) % DYNMOD }
#else
	atomic { mb(c); dyn[c] = (dyn[c] + 1) % DYNMOD; dynvis[c] = dyn[c] }
#endif
}

/* rcu_nmi_enter() (rcu_irq_enter() is the same): leave EQS if RCU was not watching. */
inline irq_enter(c)
{
	atomic {
		if
		:: (dyn[c] & 1) == 0 -> flip(c); nmi[c] = 1
		:: else -> nmi[c] = nmi[c] + 2
		fi
	}
}

/* rcu_nmi_exit(): back into EQS only when unwinding the interrupt taken from it. */
inline irq_exit(c)
{
	atomic {
		if
		:: nmi[c] != 1 -> nmi[c] = nmi[c] - 2
		:: else -> nmi[c] = 0; flip(c)
		fi
	}
}

/* Leaf part of rcu_report_qs_rnp(); caller is inside the leaf's lock section. */
inline leaf_report(n, mask, gps, up)
{
	up = 0;
	if
	:: (lqs[n] & mask) != 0 && lgp[n] == gps ->
		lqs[n] = lqs[n] & ~mask;
		up = (lqs[n] == 0 -> 1 : 0)
	:: else
	fi
}

/* Root part of rcu_report_qs_rnp(), after the hand-over-hand move to the parent. */
inline root_report(n, gps)
{
	atomic {
		if
		:: (rqs & (1 << n)) != 0 && rgp == gps -> rqs = rqs & ~(1 << n)
		:: else
		fi
	}
}

/* rcu_report_exp_rnp(): clear mask at a leaf (lock section), then the root. */
inline exp_leaf_report(n, mask, up)
{
	up = 0;
	if
	:: (lexp[n] & mask) != 0 ->
		lexp[n] = lexp[n] & ~mask;
		up = (lexp[n] == 0 -> 1 : 0)
	:: else
	fi
}

inline exp_root_report(n)
{
	atomic {
		if
		:: (rexp & (1 << n)) != 0 -> rexp = rexp & ~(1 << n)
		:: else
		fi
	}
}

/* rcu_report_exp_rdp(): smp_mb(), then report under the leaf lock. */
inline report_exp_rdp(c)
{
	atomic {
		mb(c);
		exp_def[c] = 0;
		exp_leaf_report(LEAF(c), BIT(c), expup)
	};
	if
	:: expup -> exp_root_report(LEAF(c)); expup = 0
	:: else
	fi
}

/*
 * rcu_qs(): CPU c is in a quiescent state right now. Its leaf-lock sections
 * (the deferred expedited report, note_gp_changes(), rcu_report_qs_rdp())
 * run back to back as one step; the moves up to the root are separate
 * steps, as the hand-over-hand locking leaves a window there. The
 * trylock in note_gp_changes() is modelled as a lock (its failure only
 * postpones the catch-up to a later rcu_qs()).
 */
inline rcu_qs(c)
{
	atomic {
		expup = 0;
		up = 0;
		if
		:: exp_def[c] ->	/* rcu_exp_report_deferred() */
			mb(c);
			exp_def[c] = 0;
			exp_leaf_report(LEAF(c), BIT(c), expup)
		:: else
		fi;
		if
		:: rdp_gp[c] != lgp[LEAF(c)] ->	/* note_gp_changes() */
			mb(c);
			if
			:: NEW_GP(rdp_gp[c], lgp[LEAF(c)]) ->
				cpu_no_qs[c] = ((lqs[LEAF(c)] & BIT(c)) != 0 -> 1 : 0);
				core_qs[c] = cpu_no_qs[c]
			:: else
			fi;
			rdp_gp[c] = lgp[LEAF(c)]
		:: else
		fi;
		if
		:: cpu_no_qs[c] && core_qs[c] ->	/* rcu_report_qs_rdp() */
			cpu_no_qs[c] = 0;
			mb(c);
			if
			:: rdp_gp[c] != lgp[LEAF(c)] -> cpu_no_qs[c] = 1	/* stale: re-arm */
			:: else ->
				if
				:: (lqs[LEAF(c)] & BIT(c)) != 0 ->
					core_qs[c] = 0;
					gps = lgp[LEAF(c)];
					leaf_report(LEAF(c), BIT(c), gps, up)
				:: else
				fi
			fi
		:: else -> cpu_no_qs[c] = 0
		fi;
		if
		:: !up -> gps = 0
		:: else
		fi
	};
	if
	:: expup -> exp_root_report(LEAF(c)); expup = 0
	:: else
	fi;
	if
	:: up -> root_report(LEAF(c), gps); up = 0; gps = 0
	:: else
	fi
}

/* rcu_sched_clock_irq(): the tick is a QS from idle, or with no reader under it. */
inline tick(c)
{
	if
	:: FROM_IDLE(c) || HARDIRQ_ONLY(c) -> rcu_qs(c)
	:: else
	fi
}

/* rcu_exp_handler() */
inline exp_handler(c)
{
	ipi_pend[c] = 0;
	if
	:: (lexp[LEAF(c)] & BIT(c)) == 0	/* already reported */
	:: else ->
		if
		:: FROM_IDLE(c) || HARDIRQ_ONLY(c) -> report_exp_rdp(c)
		:: else -> exp_def[c] = 1	/* in a reader: the next rcu_qs() reports */
		fi
	fi
}

/*
 * An interrupt: the tick, the expedited IPI, or some handler that runs a
 * reader and, with interrupts enabled again inside it (softirq on irq exit),
 * takes one nested tick or IPI.
 */
inline irq(c)
{
	irq_enter(c);
	if
	:: tick(c)
	:: ipi_pend[c] -> exp_handler(c)
	:: rd[c] == 0 && !rdpend[c] ->
		atomic { rd[c] = 2; rdlive[c] = 1 };
		if
		:: irq_enter(c);
			if
			:: tick(c)
			:: ipi_pend[c] -> exp_handler(c)
			fi;
			irq_exit(c)
		:: skip
		fi;
		atomic { rd[c] = 0; rdpend[c] = 1 }
	fi;
	irq_exit(c)
}

proctype cpu(byte c)
{
	byte budget = STEPS;
	byte gps;
	bit up, expup;

	do
	:: budget > 0 ->
		budget--;
		if
		:: nesting[c] == 1 && rd[c] == 0 && !rdpend[c] ->	/* rcu_read_lock() */
			atomic { rd[c] = 1; rdlive[c] = 1 }
		:: rd[c] == 1 -> atomic { rd[c] = 0; rdpend[c] = 1 }	/* rcu_read_unlock() */
		:: nesting[c] == 1 && rd[c] == 0 -> rcu_qs(c)		/* context switch */
		:: nesting[c] == 1 && rd[c] == 0 && !exp_def[c] ->	/* rcu_idle_enter() */
			atomic { nesting[c] = 0; flip(c) }
		:: nesting[c] == 0 -> atomic { flip(c); nesting[c] = 1 }	/* rcu_idle_exit() */
		:: irq(c)
		fi
	:: dynvis[c] != dyn[c] -> dynvis[c] = dyn[c]	/* store buffer drains on its own */
	:: rdpend[c] -> atomic { retire(c) }	/* reader's accesses complete on their own */
	:: budget == 0 -> break
	od;

	/* Settle: finish any reader, schedule (a QS), then stay idle or busy for good. */
	if
	:: rd[c] == 1 -> rd[c] = 0; rdpend[c] = 1
	:: else
	fi;
	if
	:: nesting[c] == 0 && exp_def[c] ->
		/* An IPI left need_resched set: the halt ends, do_idle_loop() schedules. */
		flip(c); nesting[c] = 1
	:: else
	fi;
	if
	:: nesting[c] == 1 ->
		rcu_qs(c);
		if
		:: nesting[c] = 0; flip(c)
		:: skip
		fi
	:: else
	fi;
	atomic { mb(c) };
	if
	:: nesting[c] == 0 ->
end_idle:	do
		:: ipi_pend[c] -> irq_enter(c); exp_handler(c); irq_exit(c)
		od
	:: else ->
		/* Busy in the kernel outside readers: every tick is a QS; IPIs first. */
end_busy:	do
		:: ipi_pend[c] -> irq_enter(c); exp_handler(c); irq_exit(c)
		:: !ipi_pend[c] && (exp_def[c] || cpu_no_qs[c] || rdp_gp[c] != lgp[LEAF(c)]) ->
			/* (a tick that would find nothing to do is left out: it changes no state) */
			irq_enter(c); tick(c); irq_exit(c)
		od
	fi
}

/*
 * force_qs_rnp(first): credit CPUs idle now (first) or idle since the first
 * scan. One leaf's scan, under its lock, is one atomic step: each CPU's
 * credit depends only on its own counter, so reading a leaf's CPUs at one
 * instant loses no outcome (README.md, "Abstractions").
 */
inline force_qs_leaf(n, first)
{
		atomic {
			mask = 0;
			if
			:: lqs[n] != 0 ->
				for (i : LEAF_FIRST(n) .. LEAF_LAST(n)) {
					if
					:: (lqs[n] & BIT(i)) != 0 ->
						/* rcu_dynticks_snap(): smp_mb(); atomic_read() */
#ifdef MUT_SNAP_EARLY
						snap = (first -> early[i] : dynvis[i]);
#else
						snap = dynvis[i];
#endif
						if
						:: first ->
							dsn[i] = snap;
							if
							:: EQS_CREDIT((snap & 1) == 0) -> mask = mask | BIT(i)
							:: else
							fi
						:: else ->
							if
							:: EQS_CREDIT((snap & 1) == 0 || snap != dsn[i]) -> mask = mask | BIT(i)
							:: else
							fi
						fi
					:: else
					fi
				}
			:: else
			fi;
			snap = 0;
			i = 0;
			up = 0;
			if
			:: mask != 0 -> gps = lgp[n]; leaf_report(n, mask, gps, up)
			:: else
			fi;
			mask = 0
		};
		if
		:: up -> root_report(n, gps); up = 0; gps = 0
		:: else -> gps = 0
		fi
}

inline force_qs(first)
{
	force_qs_leaf(0, first);
	force_qs_leaf(1, first)
}

#if NGP > 0
/* rcu_gp_kthread(): rcu_gp_init(), rcu_gp_fqs_loop(), rcu_gp_cleanup(), NGP times. */
proctype gp_kthread()
{
	byte k, n, i, mask, snap, gps;
	bit up;

	for (k : 1 .. NGP) {
#ifdef MUT_SNAP_EARLY
		/* Planted bug: the idle snapshot is taken before the new GP number is published. */
		for (i : 0 .. NCPU - 1) {
			early[i] = dynvis[i]
		}
#endif
		atomic {	/* rcu_seq_start(&rcu_state.gp_seq) under the root lock */
			gseq++;
			gp_running = 1;
			for (i : 0 .. NCPU - 1) {
				pre_gp[i] = rdlive[i]
			}
			i = 0
		};
		/* Breadth first: root, then the leaves (one step: nothing can report
		 * into a node before its mask is set either way). */
		atomic {
			rqs = ROOT_MASK; rgp = gseq;
			lqs[0] = LEAF_MASK(0); lgp[0] = gseq;
			lqs[1] = LEAF_MASK(1); lgp[1] = gseq
		};
		force_qs(1);
		do
		:: rqs == 0 -> break	/* rcu_gp_root_done() */
		:: else -> force_qs(0)
		od;
		/* rcu_gp_cleanup(): smp_mb(); the grace period is over (pollers see it now). */
		atomic {
			for (i : 0 .. NCPU - 1) {
				assert(!pre_gp[i])	/* SAFETY: a pre-existing reader outlived the GP */
			}
			i = 0;
			gp_running = 0
		};
		/* The nodes' gp_seq, breadth first; then rcu_seq_end(&rcu_state.gp_seq). */
		atomic { rgp = gseq + 1; lgp[0] = gseq + 1 };
		atomic { lgp[1] = gseq + 1; gseq++ }
	}
}
#endif

/* rcu_exp_select_cpus() for leaf n, under its lock: idle CPUs are skipped, the rest get IPIs. */
inline exp_select_leaf(n)
{
	atomic {
		mask = 0;
		for (i : LEAF_FIRST(n) .. LEAF_LAST(n)) {
			if
			:: (lexp[n] & BIT(i)) == 0
			:: else ->
				/* rcu_dynticks_in_eqs(rcu_dynticks_snap(cpu)) */
				if
				:: EXP_IDLE(i) -> mask = mask | BIT(i)
				:: else -> ipis = ipis | (1 << i)
				fi
			fi
		};
		i = 0;
		up = 0;
		if
		:: mask != 0 -> exp_leaf_report(n, mask, up)
		:: else
		fi;
		mask = 0
	};
	if
	:: up -> exp_root_report(n); up = 0
	:: else
	fi
}

#if NEXP > 0
/* rcu_exp_gp(): the funnel's winner runs NEXP expedited grace periods. */
proctype exp_driver()
{
	byte k, n, i, mask, ipis;
	bit up;

	for (k : 1 .. NEXP) {
		atomic {	/* rcu_seq_start(&expedited_sequence); smp_mb() */
			exp_running = 1;
			for (i : 0 .. NCPU - 1) {
				pre_exp[i] = rdlive[i]
			}
			i = 0
		};
		/* rcu_exp_select_cpus(): reset the masks breadth first ... */
		atomic { rexp = ROOT_MASK; lexp[0] = LEAF_MASK(0); lexp[1] = LEAF_MASK(1) };
		/* ... then per leaf skip idle CPUs and collect the others for IPIs. */
		ipis = 0;
		exp_select_leaf(0);
		exp_select_leaf(1);
		/* smp_call_function_many(): one IPI per CPU. */
		atomic {
			for (i : 0 .. NCPU - 1) {
				if
				:: (ipis & (1 << i)) != 0 -> ipi_pend[i] = 1
				:: else
				fi
			};
			i = 0;
			ipis = 0
		};
		rexp == 0;	/* rcu_exp_wait() */
		atomic {	/* smp_mb(); rcu_seq_end(&expedited_sequence) */
			for (i : 0 .. NCPU - 1) {
				assert(!pre_exp[i])	/* SAFETY: a pre-existing reader outlived the expedited GP */
			}
			i = 0;
			exp_running = 0
		}
	}
}
#endif

init {
	byte c;

	atomic {
		for (c : 0 .. NCPU - 1) {
			/* Each CPU starts running a task (RCU watching) or in its idle loop. */
			if
			:: dyn[c] = 1; dynvis[c] = 1; nesting[c] = 1
			:: dyn[c] = 2; dynvis[c] = 2; nesting[c] = 0
			fi
		};
		c = 0;
		for (c : 0 .. NCPU - 1) {
			run cpu(c)
		};
#if NGP > 0
		run gp_kthread();
#endif
#if NEXP > 0
		run exp_driver()
#endif
	}
}

#ifdef LIVENESS
/* LIVENESS: every grace period that starts ends (with weak fairness: pan -a -f). */
ltl gp_ends { [] ((gp_running -> <> !gp_running) && (exp_running -> <> !exp_running)) }
#endif
