#!/usr/bin/env bash
# check.sh - verify a model in tools/model/rcu (rcu_gp.pml, or rcu_wmm.pml with --model rcu_wmm)
# with spin: generate the verifier (spin -a),
# compile pan with gcc, run it, and judge its report.
#
# Usage: tools/model/rcu/check.sh [--model M] [--liveness] [--expect pass|assert|cycle] [--name NAME]
#                                  [--keep DIR] [NAME=VALUE | MUT_X ...]
#        tools/model/rcu/check.sh --suite quick|deep
#   NAME=VALUE / MUT_X   model macros, passed to spin as -DNAME=VALUE / -DMUT_X
#                        (NCPU, NGP, NEXP, STEPS, DYNMOD; planted bugs MUT_*: see rcu_gp.pml)
#   --model M            the model: rcu_gp (default, sequentially consistent with explicit
#                        store buffers for the EQS flip) or rcu_wmm (weak memory: SCEN=0..4,
#                        see rcu_wmm.pml and the wmm_*.pml it includes)
#   --liveness           check the LTL claim gp_ends with weak fairness (pan -a -f);
#                        default: safety (assertions and invalid end states, pan built -DSAFETY)
#   --expect pass        (default) exit 0 only if the search is complete and found no error
#   --expect assert      exit 0 only if pan finds an assertion violation (a planted bug caught)
#   --expect cycle       exit 0 only if pan finds an acceptance cycle (with --liveness)
#   --suite quick|deep   run a list of checks (quick: what make check runs, one line each;
#                        deep: make model's bigger sizes) and exit 1 if any of them fails
#   --keep DIR           build in DIR and keep pan, the trail and the log (default: a temp dir)
# Prints one line: "rcu-model NAME: errors N, states S, depth D, T s (<verdict>)".
# Environment: PAN_MEMLIM (MB, default 2048), PAN_DEPTH (pan -m, default 2000000), PAN_OPT
# (gcc optimisation for pan, default -O0: compiling pan.c at -O2 takes longer than the small
# searches it speeds up), PAN_CFLAGS (more pan build flags, e.g. -DCOLLAPSE).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
model=rcu_gp
liveness=0
expect=pass
name=
keep=
suite=
defs=()
while [ $# -gt 0 ]; do
	case $1 in
	--liveness) liveness=1 ;;
	--expect)
		expect=${2:?--expect needs pass or assert}
		shift
		;;
	--name)
		name=${2:?--name needs a value}
		shift
		;;
	--model)
		model=${2:?--model needs rcu_gp or rcu_wmm}
		shift
		;;
	--suite)
		suite=${2:?--suite needs quick or deep}
		shift
		;;
	--keep)
		keep=${2:?--keep needs a directory}
		shift
		;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	-*) echo "check.sh: unknown option '$1'" >&2; exit 2 ;;
	*) defs+=("-D$1") ;;
	esac
	shift
done
case $expect in pass | assert | cycle) ;; *) echo "check.sh: --expect pass|assert|cycle" >&2; exit 2 ;; esac
[ -f "$here/$model.pml" ] || { echo "check.sh: no model $here/$model.pml" >&2; exit 2; }
if [ -n "$suite" ]; then
	# One place for the lists; tests/run-all.sh runs the quick one as separate counted tests.
	# shellcheck source=suites.sh
	. "$here/suites.sh"
	failed=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		read -r -a args <<<"$line"
		"$0" "${args[@]}" || failed=1
	done < <(model_suite "$suite")
	exit $failed
fi
[ -n "$name" ] || name=$([ "$liveness" = 1 ] && echo liveness || echo safety)

for tool in spin gcc; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "check.sh: $tool not found (scripts/install-deps.sh installs it)" >&2
		exit 2
	fi
done

if [ -n "$keep" ]; then
	work=$keep
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/rcu-model.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
cp "$here"/*.pml "$work/"	# a model may #include the others
cd "$work"

start=$(date +%s.%N)
if [ "$liveness" = 1 ]; then
	defs+=(-DLIVENESS)
	ccflags=(-DNFAIR=3)
	panflags=(-a -f)
else
	# Safety only: no cycle detection, so pan can use the cheaper search.
	ccflags=(-DSAFETY)
	panflags=()
fi
spin -a "${defs[@]}" "$model.pml" >spin.log 2>&1 || { cat spin.log; echo "rcu-model $name: spin -a failed"; exit 1; }
# shellcheck disable=SC2086 # PAN_CFLAGS is a list of flags
gcc "${PAN_OPT:--O0}" ${PAN_CFLAGS:-} -w "${ccflags[@]}" -DMEMLIM="${PAN_MEMLIM:-2048}" -o pan pan.c 2>gcc.log ||
	{ cat gcc.log; echo "rcu-model $name: gcc failed"; exit 1; }
# -n: no unreached-code listing; -m: depth bound (exceeding it makes the search incomplete).
./pan -n -m"${PAN_DEPTH:-2000000}" "${panflags[@]}" >pan.log 2>&1 || true
secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")

errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' pan.log | tail -n 1)
states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | tail -n 1)
depth=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' pan.log | tail -n 1)
secs=$(printf '%.1f' "$secs" 2>/dev/null || echo "$secs")
summary="errors ${errors:-?}, states ${states:-?}, depth ${depth:-?}, $secs s"

verdict=
if [ -z "$errors" ]; then
	verdict="FAIL: no result from pan"
elif grep -q 'max search depth too small\|reached -DMEMLIM bound\|out of memory' pan.log; then
	[ "$expect" = pass ] && verdict="FAIL: search incomplete (depth or memory bound)"
fi
if [ -z "$verdict" ]; then
	if [ "$expect" = pass ]; then
		if [ "$errors" = 0 ]; then verdict="ok: no counterexample"; else verdict="FAIL: counterexample"; fi
	else
		if [ "$expect" = assert ] && [ "$errors" != 0 ] && grep -q 'assertion violated' pan.log; then
			verdict="ok: planted bug caught"
		elif [ "$expect" = cycle ] && [ "$errors" != 0 ] && grep -q 'acceptance cycle' pan.log; then
			verdict="ok: planted bug caught"
		else
			verdict="FAIL: planted bug not caught"
		fi
	fi
fi
echo "rcu-model $name: $summary ($verdict)"
if [ "$errors" != 0 ] && [ -n "${errors:-}" ]; then
	grep -m1 -E 'assertion violated|acceptance cycle|invalid end state' pan.log | sed 's/^/    /' || true
	if [ "$expect" = pass ] || [ -n "$keep" ]; then
		# The counterexample, one step a line (spin replays the trail).
		spin -t -p -g "${defs[@]}" "$model.pml" >trail.txt 2>&1 || true
		[ "$expect" = pass ] && tail -n 60 trail.txt | sed 's/^/    | /'
	fi
fi
[ "${verdict#ok}" != "$verdict" ]
