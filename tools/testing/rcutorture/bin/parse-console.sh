#!/usr/bin/env bash
# parse-console.sh - judge one rcutorture (or rcuperf) guest console log, the way Linux's
# tools/testing/selftests/rcutorture/bin/parse-console.sh is used: print one verdict line and
# exit 0 (as expected) or 1 (not as expected).
#
# Usage: parse-console.sh [--expect success|failure|stall] [--torture rcu|rcuperf] CONSOLE.log
#   success  (default) the "End of test: SUCCESS" line and none of: "!!!", "BUG:", "WARNING:",
#            "Call Trace", a stall warning ("detected [expedited ]stalls on CPUs/tasks",
#            "self-detected stall on CPU"), "rcu_*kthread starved for", "Kernel panic"
#   failure  the "End of test: FAILURE" line (a deliberately broken flavor, e.g. BUSTED)
#   stall    an "rcu: INFO: ..." stall warning (either form), and the test still ends (SUCCESS or
#            FAILURE line); other problems ("BUG:", panic) still fail
#   rcuperf  (with --torture rcuperf) each test that started ("rcu-perf:--- Start of test",
#            "ref-scale: --- Start of test"; at least one) printed its summary line ("rcu-perf:
#            summary", "ref-perf: summary"); no "!!!", BUG, WARNING, stall or panic
set -u

expect=success
torture=rcu
while [ $# -gt 1 ]; do
	case $1 in
	--expect) expect=$2; shift 2 ;;
	--torture) torture=$2; shift 2 ;;
	*) echo "parse-console: unknown option $1" >&2; exit 2 ;;
	esac
done
log=${1:?usage: parse-console.sh [--expect success|failure|stall] CONSOLE.log}
[ -r "$log" ] || { echo "FAIL: no console log $log"; exit 1; }

# Linux's stall warnings: "detected stalls on CPUs/tasks:" (another CPU reports), "self-detected
# stall on CPU" (the stalled CPU's own tick reports), and the expedited form.
STALL_RE='detected (expedited )?stalls on CPUs/tasks|self-detected stall on CPU|Stall ended before state dump start'
has() { tr -d '\r' <"$log" | grep -Eq -- "$1"; }
count() { tr -d '\r' <"$log" | grep -Ec -- "$1"; }

problems=()
has 'Kernel panic - not syncing' && problems+=("kernel panic")
has 'BUG:' && problems+=("$(count 'BUG:') BUG")
[ "$expect" = stall ] || {
	has 'WARNING:' && problems+=("$(count 'WARNING:') WARNING")
	has 'Call Trace' && problems+=("Call Trace")
	has "$STALL_RE" && problems+=("$(count "$STALL_RE") RCU stall warnings")
	has 'rcu_.*kthread starved for' && problems+=("RCU kthread starvation")
}

if [ "$torture" = rcuperf ]; then
	rp=0 rs=0
	has 'rcu-perf:--- Start of test' && rp=1
	has 'ref-scale: --- Start of test' && rs=1
	[ $rp = 1 ] || [ $rs = 1 ] || problems+=("neither rcuperf nor refscale started")
	[ $rp = 0 ] || has 'rcu-perf: summary ' || problems+=("no rcu-perf summary line")
	[ $rs = 0 ] || has 'ref-perf: summary ' || problems+=("no ref-perf summary line")
	has '!!!' && problems+=("$(count '!!!') error markers (!!!)")
else
	success=0 failure=0
	has '--- End of test: SUCCESS' && success=1
	has '--- End of test: FAILURE' && failure=1
	case $expect in
	success)
		[ $success = 1 ] || problems+=("no End of test: SUCCESS line")
		has '!!!' && problems+=("$(count '!!!') error markers (!!!)")
		;;
	failure)
		[ $failure = 1 ] || problems+=("expected End of test: FAILURE, not found")
		;;
	stall)
		has "rcu: INFO: .*($STALL_RE)" || problems+=("expected an RCU CPU stall warning, none")
		[ $success = 1 ] || [ $failure = 1 ] || problems+=("no End of test line")
		;;
	*) echo "parse-console: unknown expectation $expect" >&2; exit 2 ;;
	esac
fi

if [ ${#problems[@]} -eq 0 ]; then
	echo "PASS (expected $expect)"
	exit 0
fi
msg=$(printf '%s, ' "${problems[@]}")
echo "FAIL (expected $expect): ${msg%, }"
exit 1
