# shellcheck shell=bash
# suites.sh - the lists of model checks (sourced by check.sh and tests/run-all.sh).
# model_suite quick|deep prints one check a line: NAME then check.sh's arguments.
# quick: make check's, about 60 s in all on two busy cores (measured: see
# Documentation/RCU/model-checking.md); deep: make model's, minutes and a few GB.
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
		;;
	*)
		echo "suites.sh: unknown suite '$1' (quick or deep)" >&2
		return 2
		;;
	esac
}
