# shellcheck shell=bash
# suites.sh - the lists of model checks (sourced by check.sh and tests/run-all.sh).
# model_suite quick|deep prints one check a line: NAME then check.sh's arguments.
# quick: make check's, about 60 s in all on two busy cores, plus about 25 s for the
# weak-memory checks (measured: see Documentation/RCU/model-checking.md); deep: make
# model's, minutes and a few GB.
# The rcu_wmm.pml checks in make check: scenario, then the planted variants that must fail.
wmm_suite() {
	local w="--model rcu_wmm"
	echo "--name wmm-barrier-cb $w SCEN=1"
	echo "--name wmm-mut-len-mb-before $w --expect assert SCEN=1 MUT_LEN_MB_BEFORE"
	echo "--name wmm-mut-barrier-mb-after $w --expect assert SCEN=1 MUT_BARRIER_MB_AFTER"
	echo "--name wmm-barrier-queue $w SCEN=2"
	echo "--name wmm-mut-len-mb-after $w --expect assert SCEN=2 MUT_LEN_MB_AFTER"
	echo "--name wmm-mut-barrier-mb-before $w --expect assert SCEN=2 MUT_BARRIER_MB_BEFORE"
	echo "--name wmm-dynticks $w SCEN=3"
	echo "--name wmm-mut-flip-mb-before $w --expect assert SCEN=3 MUT_FLIP_MB_BEFORE"
	echo "--name wmm-mut-flip-mb-after $w --expect assert SCEN=3 MUT_FLIP_MB_AFTER"
	echo "--name wmm-mut-gp-mb-before-snap $w --expect assert SCEN=3 MUT_GP_MB_BEFORE_SNAP"
	echo "--name wmm-mut-gp-mb-after-snap $w --expect assert SCEN=3 MUT_GP_MB_AFTER_SNAP"
	echo "--name wmm-srcu $w SCEN=4"
	echo "--name wmm-mut-srcu-lock-mb $w --expect assert SCEN=4 MUT_SRCU_LOCK_MB"
	echo "--name wmm-mut-srcu-unlock-mb $w --expect assert SCEN=4 MUT_SRCU_UNLOCK_MB"
	echo "--name wmm-mut-srcu-scan-mb $w --expect assert SCEN=4 MUT_SRCU_SCAN_MB"
}

model_suite() {
	case $1 in
	quick)
		# Exhaustive at 2 CPUs (one per leaf), one action per CPU before it settles.
		echo "--name safety-gp NCPU=2 NGP=2 NEXP=0 STEPS=1"
		echo "--name safety-exp NCPU=2 NGP=0 NEXP=1 STEPS=2"
		echo "--name liveness-gp --liveness NCPU=2 NGP=2 NEXP=0 STEPS=0"
		echo "--name liveness-exp --liveness NCPU=2 NGP=0 NEXP=1 STEPS=1"
		# Each planted bug must be found.
		echo "--name mut-flip-mb-after --expect assert NCPU=2 NGP=1 NEXP=0 STEPS=1 MUT_FLIP_MB_AFTER"
		echo "--name mut-flip-mb-before --expect assert NCPU=2 NGP=1 NEXP=0 STEPS=1 MUT_FLIP_MB_BEFORE"
		echo "--name mut-snap-early --expect assert NCPU=2 NGP=1 NEXP=0 STEPS=1 MUT_SNAP_EARLY"
		echo "--name mut-exp-idle-nesting --expect assert NCPU=2 NGP=0 NEXP=1 STEPS=1 MUT_EXP_IDLE_NESTING"
		echo "--name mut-rrupt --expect assert NCPU=2 NGP=0 NEXP=1 STEPS=1 MUT_RRUPT"
		echo "--name mut-no-eqs-credit --expect cycle --liveness NCPU=2 NGP=1 NEXP=0 STEPS=0 MUT_NO_EQS_CREDIT"
		# Weak memory (rcu_wmm.pml): each scenario passes, each barrier it covers is needed.
		wmm_suite
		;;
	deep)
		# Both flavours at once, more actions, two CPUs sharing a leaf (NCPU=3: leaf 0 has
		# CPUs 0-1). NCPU=3 with STEPS=1 and a normal GP did not finish in 8 min / 4 GB.
		echo "--name deep-safety-both NCPU=2 NGP=1 NEXP=1 STEPS=1"
		echo "--name deep-safety-gp NCPU=2 NGP=2 NEXP=0 STEPS=2"
		echo "--name deep-safety-gp-3cpu NCPU=3 NGP=1 NEXP=0 STEPS=0"
		echo "--name deep-safety-exp-3cpu NCPU=3 NGP=0 NEXP=1 STEPS=1"
		echo "--name deep-liveness-both --liveness NCPU=2 NGP=1 NEXP=1 STEPS=0"
		echo "--name deep-liveness-gp --liveness NCPU=2 NGP=1 NEXP=0 STEPS=1"
		# SRCU under weak memory at bigger sizes: a grace period before the update's
		# (the index already flipped once), and two readers per CPU (14 million states).
		echo "--name deep-wmm-srcu-prev-gp --model rcu_wmm SCEN=4 PREV_GPS=1"
		echo "--name deep-wmm-srcu-2rd --model rcu_wmm SCEN=4 NRD=2"
		# The weak-memory model's own litmus tests (the model is weak where ARM is).
		local l
		for l in "LITMUS=1" "LITMUS=1 MUT_MP_RELEASE" "LITMUS=1 MUT_MP_ACQUIRE" \
			"LITMUS=2" "LITMUS=2 MUT_SB_MB"; do
			case $l in
			*MUT_*) echo "--name deep-wmm-litmus-$(echo "${l##* }" | tr 'A-Z_' 'a-z-') --model rcu_wmm --expect assert SCEN=0 $l" ;;
			*) echo "--name deep-wmm-litmus-${l#*=} --model rcu_wmm SCEN=0 $l" ;;
			esac
		done
		;;
	*)
		echo "suites.sh: unknown suite '$1' (quick or deep)" >&2
		return 2
		;;
	esac
}
