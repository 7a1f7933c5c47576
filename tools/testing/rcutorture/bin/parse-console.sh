#!/usr/bin/env bash
# parse-console.sh - judge one rcutorture (or rcuperf) guest console log, the way Linux's
# tools/testing/selftests/rcutorture/bin/parse-console.sh is used: print one verdict line and
# exit 0 (as expected) or 1 (not as expected).
#
# Usage: parse-console.sh [--expect success|failure|busted|stall] [--torture rcu|lock|rcuperf]
#                         [--features FILE] CONSOLE.log
#        parse-console.sh FILE TITLE     (Linux's form, below)
#        parse-console.sh --stats CONSOLE.log
#        parse-console.sh -h | --help
#   success  (default) the "End of test: SUCCESS" line (rcutorture's, or locktorture's with
#            --torture lock; Linux's "End of test: LOCK_HOTPLUG", hotplug failures, is not it) and
#            none of: "!!!", "BUG:", "UBSAN:",
#            "WARNING:", "Call Trace", a stall warning ("detected [expedited ]stalls on CPUs/tasks",
#            "self-detected stall on CPU", "rcu_tasks detected stalls on tasks"), "rcu_*kthread
#            starved for", "Kernel panic"
#   failure  the "End of test: FAILURE" line (a test proven able to fail, e.g. NOBOOST's boost test)
#   busted   a deliberately broken flavor (BUSTED) caught for the right reason: the "End of test:
#            FAILURE" line, "!!!" lines, and the last "Reader Pipe:" histogram with a non-zero
#            count beyond slot 1 (readers saw an element two or more grace periods old, i.e. a
#            grace period that did not wait for them). A FAILURE with a clean pipeline (a boost
#            or barrier failure, rtbf/rtbe) is not "BUSTED caught" and fails the judgement.
#            Verdict: "PASS (expected failure): BUSTED caught: ..."
#            With --torture lock (locktorture): the "End of test: FAILURE" line and a "Writes:" (or
#            "Reads :") statistics line with "Fail: 1 !!!" (a writer found the lock held by
#            another: lock_busted excludes nobody); the writers' WARNING splats are allowed.
#            Verdict: "PASS (expected failure): lock_busted caught: ..."
#   stall    an "rcu: INFO: ..." stall warning (either form), and the test still ends (SUCCESS or
#            FAILURE line); other problems ("BUG:", panic) still fail
#   rcuperf  (with --torture rcuperf, or Linux's suite names rcuscale and refscale) each test that started ("rcu-perf:--- Start of test",
#            "ref-scale: --- Start of test"; at least one) printed its summary line ("rcu-perf:
#            summary", "ref-perf: summary"); no "!!!", BUG, WARNING, stall or panic
#
# --features FILE (with rcu; kvm.sh passes a scenario's NAME.features): a scenario must exercise
# what it is for. FILE holds one "LABEL REGEX" a line ("#" comments, blank lines ignored): some
# console line must match each (extended) REGEX, e.g. "fwd_progress rcu_torture_fwd_prog: tested
# [1-9]" (a counter that stayed at zero does not match). Each that does not fails the verdict:
# "FAIL (feature not exercised: LABEL[, LABEL...])", or with other problems "FAIL (expected E):
# ..., feature not exercised: LABEL".
#
# --diags FILE: when the console shows problems, write FILE in the manner of Linux's
# console.log.diags: the verdict, then each offending line (panic, BUG, WARNING, Call Trace,
# stall warnings, kthread starvation, "!!!") with its line number, at most 40; no problems, no
# FILE (an old one is removed).
#
# Only kernel lines are judged, those that begin with printk's "[    1.234567] " stamp: what user
# programs write is printed without one and never begins with '[' (Documentation/user-mode.md).
#
# parse-console.sh --stats CONSOLE.log prints instead the end-of-run numbers of an rcutorture
# console, one KEY=VALUE a line (empty when the console lacks the line), and exits 0:
#   flavor gps exp_gps longest_gp  from the power-off line "rcu: rcu_sched: N grace periods
#                          completed ..., longest GP N jiffies" (Tree: kernel/rcu/tree.c) or
#                          "rcu_tiny: N grace periods completed (N expedited)" (Tiny: no
#                          longest GP, every grace period ends at once), and Tree's
#                          "N expedited grace periods" line (kernel/rcu/tree_exp.c)
#   cbs_invoked            the sum of the power-off "cbs queued N invoked N" lines (one per CPU)
#   pipe batch             the last "Reader Pipe:" and "Reader Batch:" histograms, comma-separated
#   bang                   lines with "!!!" (rcutorture's error marker)
#   rtmbe rtmbkf rtbe rtbke rtbre rtbf  rcutorture's error counters from its last statistics
#                          line (kernel/rcu/torture/rcutorture_stats.c; rtmbkf is
#                          the failures of its failures/tries pair)
#   bug warning stall      "BUG:" (and UBSAN's "UBSAN:"), "WARNING:" and stall-warning lines
#   uptime                 seconds, from the power-off "Uptime: N.NNN seconds" line
#   ver                    the writer's version number in rcutorture's last statistics line ("ver:
#                          N"): the grace periods its writer waited for, Linux's "N GPs" (its
#                          kvm-recheck-rcu.sh), the count kvm.sh's table and results page show;
#                          for scftorture, its last "scf_invoked_count ver: N" (handler
#                          invocations, Linux's kvm-recheck-scf.sh "N SCF handler invocations")
#   writes                 locktorture's lock acquisitions, from its last "Writes:  Total: N" line
#                          (Linux's kvm-recheck-lock.sh "N acquisitions/releases"), which kvm.sh's
#                          table shows in its GPS column for --torture lock
#
# parse-console.sh FILE TITLE, with exactly these two arguments, behaves as Linux's script:
# nothing is judged against an expectation; the problems found are printed with TITLE ("BUG:" and
# "WARNING:" prefixes, as Linux's print_bug/print_warning; coloured on a terminal only) and
# written to FILE.diags (removed when there are none, with any FILE.*.diags appended):
#   - unless the suite is rcuscale, refscale or rcuperf (TORTURE_SUITE in the environment, else
#     the run directory's torture_suite or torture file): "BUG: TITLE FAILURE, N instances" when
#     the test failed or printed "!!!" (N: reads that saw an element two or more grace periods
#     old, in the last "!!!" line's histogram; or that line itself); else "TITLE no success
#     message, N successful version messages" without the "End of test: SUCCESS" line
#     ("WARNING: HOTPLUG FAILURES TITLE" when "_HOTPLUG:" lines explain it), and "WARNING: TITLE
#     GP HANG at V torture stat N" or "BAD SEQ A:B last:V version N" when the writer's version
#     in the statistics lines stopped or went backwards;
#   - the lines console-badness.sh picks (BUG, WARNING, Call Trace, stalls, "!!!", ...):
#     "WARNING: Assertion failure in FILE TITLE", then "WARNING: Summary: Warnings: N Bugs: N
#     ..." (the counts that are not zero), the lines themselves going to FILE.diags.
# Exit status: 0 when FILE.diags was not needed, 1 when it was written (Linux's script exits
# with its last command's status, which says nothing), 1 for an unreadable FILE.
set -u

KVM_BIN=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
case ${1-} in -h | --help) sed -n '2,/^set -u$/{/^set -u$/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
if [ $# = 2 ] && [[ $1 != -* ]]; then
	# shellcheck source=parse-console-linux.sh
	. "$KVM_BIN/parse-console-linux.sh"
	parse_console_linux "$1" "$2"
	exit $?
fi

expect=success
torture=rcu
stats=0
features=""
diags=""
while [ $# -gt 1 ]; do
	case $1 in
	--expect) expect=$2; shift 2 ;;
	--torture) torture=$2; shift 2 ;;
	--stats) stats=1; shift ;;
	--features) features=$2; shift 2 ;;
	--diags) diags=$2; shift 2 ;;
	*) echo "parse-console: unknown option $1" >&2; exit 2 ;;
	esac
done
case $torture in rcuscale | refscale) torture=rcuperf ;; esac	# Linux's names of the same tests
log=${1:?usage: parse-console.sh [--expect success|failure|busted|stall] CONSOLE.log}
[ -r "$log" ] || { echo "FAIL: no console log $log"; exit 1; }

# Linux's stall warnings: "detected stalls on CPUs/tasks:" (another CPU reports), "self-detected
# stall on CPU" (the stalled CPU's own tick reports), the expedited form, and Tasks RCU's
# "INFO: rcu_tasks detected stalls on tasks:" (which Linux's script does not catch; a Tasks RCU
# grace period held that long is a failure of the "tasks" flavor all the same).
STALL_RE='detected (expedited )?stalls on CPUs/tasks|self-detected stall on CPU|Stall ended before state dump start|rcu_tasks detected stalls on tasks'
# Only kernel lines are judged: each begins with printk's "[    1.234567] " stamp, and what user
# programs write is printed without one (and never begins with '['; Documentation/user-mode.md),
# so a program printing "End of test: SUCCESS" or "Kernel panic" cannot decide the verdict.
KLINE_RE='^\[ *[0-9]+\.[0-9]+\] '
klines() { tr -d '\r' <"$log" | grep -E -- "$KLINE_RE"; }
has() { klines | grep -Eq -- "$1"; }
count() { klines | grep -Ec -- "$1"; }

if [ $stats = 1 ]; then
	klines | awk -v stall_re="$STALL_RE" '
	function histo(line, key,   h) {	# the numbers after KEY, comma-separated
		h = substr(line, index(line, key) + length(key))
		gsub(/^ +| +$/, "", h); gsub(/ +/, ",", h)
		return h
	}
	function after(line, key,   a) {	# the first word after KEY
		if (!index(line, key)) return ""
		a = substr(line, index(line, key) + length(key)); sub(/^ +/, "", a); sub(/ .*/, "", a)
		return a
	}
	/ grace periods completed/ {
		n = split($0, w, " ")
		for (i = 1; i <= n; i++) if (w[i] == "grace" && w[i + 1] == "periods" && w[i + 2] == "completed") {
			gps = w[i - 1]; flavor = w[i - 2]; sub(/:$/, "", flavor)
		}
		lg = after($0, "longest GP")
		if (index($0, "expedited)")) { e = after($0, "completed ("); exp_gps = e }
	}
	/ expedited grace periods,/ { n = split($0, w, " "); for (i = 1; i <= n; i++) if (w[i] == "expedited" && w[i + 1] == "grace") exp_gps = w[i - 1] }
	/cbs queued [0-9]+ invoked [0-9]+/ { cbs += after($0, "invoked"); have_cbs = 1 }
	/ Reader Pipe: / { pipe = histo($0, "Reader Pipe:") }
	/ Reader Batch: / { batch = histo($0, "Reader Batch:") }
	/!!!/ { bang++ }
	/ rtc: .* rtmbe: / {
		rtmbe = after($0, "rtmbe:"); rtmbkf = after($0, "rtmbkf:"); sub(/\/.*/, "", rtmbkf)
		rtbe = after($0, "rtbe:"); rtbke = after($0, "rtbke:"); rtbre = after($0, "rtbre:")
		rtbf = after($0, "rtbf:")
	}
	/BUG:|UBSAN:/ { bug++ }
	/WARNING:/ { warning++ }
	$0 ~ stall_re { stall++ }
	/Uptime: [0-9.]+ seconds/ { uptime = after($0, "Uptime:") }
	/-torture: rtc: .* ver: [0-9]+/ { ver = after($0, " ver:") }
	/ Writes:  Total: [0-9]+/ { writes = after($0, "Total:") }
	/scftorture: +(!!! )?scf_invoked_count (ver|VER): [0-9]+/ { v = $0; sub(/.*scf_invoked_count (ver|VER): /, "", v); sub(/ .*/, "", v); ver = v }
	END {
		printf "flavor=%s\ngps=%s\nexp_gps=%s\nlongest_gp=%s\ncbs_invoked=%s\n", flavor, gps, exp_gps, lg, have_cbs ? cbs : ""
		printf "pipe=%s\nbatch=%s\nbang=%d\n", pipe, batch, bang
		printf "rtmbe=%s\nrtmbkf=%s\nrtbe=%s\nrtbke=%s\nrtbre=%s\nrtbf=%s\n", rtmbe, rtmbkf, rtbe, rtbke, rtbre, rtbf
		printf "bug=%d\nwarning=%d\nstall=%d\nuptime=%s\nver=%s\nwrites=%s\n", bug, warning, stall, uptime, ver, writes
	}'
	exit 0
fi

problems=()
has 'Kernel panic - not syncing' && problems+=("kernel panic")
has 'BUG:' && problems+=("$(count 'BUG:') BUG")
has 'UBSAN:' && problems+=("$(count 'UBSAN:') UBSAN")
# A lock_busted run's writers WARN when they find the lock held: that is how it is caught.
lock_busted=0
[ "$torture/$expect" != lock/busted ] || lock_busted=1
[ "$expect" = stall ] || {
	if [ $lock_busted = 0 ]; then
		has 'WARNING:' && problems+=("$(count 'WARNING:') WARNING")
		has 'Call Trace' && problems+=("Call Trace")
	fi
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
	busted)
		[ $failure = 1 ] || problems+=("expected End of test: FAILURE, not found")
		if [ $lock_busted = 1 ]; then
			# locktorture: a statistics line saying some kthread found the lock already held.
			late=$(count '(Writes|Reads ):  Total: .* Fail: 1 !!!')
			[ "$late" -gt 0 ] || problems+=("not lock_busted caught: no statistics line with Fail: 1 !!!")
		else
			# Reads that saw an element aged 2..10 grace periods: slots 2 and up of the last
			# Reader Pipe histogram ("[!!! ]Reader Pipe:  n0 n1 n2 ... n10").
			late=$(klines | awk '/ Reader Pipe: / {
				h = substr($0, index($0, "Reader Pipe:") + 12); n = split(h, w, " "); s = 0
				for (i = 3; i <= n; i++) s += w[i]
				last = s; seen = 1 }
				END { print seen ? last : "none" }')
			if [ "$late" = none ]; then
				problems+=("no Reader Pipe line")
			elif [ "$late" = 0 ]; then
				problems+=("not BUSTED caught: Reader Pipe clean beyond slot 1 (the FAILURE came from elsewhere)")
			fi
			has '!!!' || problems+=("not BUSTED caught: no error markers (!!!)")
		fi
		;;
	stall)
		has "rcu: INFO: .*($STALL_RE)" || problems+=("expected an RCU CPU stall warning, none")
		[ $success = 1 ] || [ $failure = 1 ] || problems+=("no End of test line")
		;;
	*) echo "parse-console: unknown expectation $expect" >&2; exit 2 ;;
	esac
fi

# Features the scenario is for: each LABEL's REGEX must match some console line.
missing=()
if [ -n "$features" ]; then
	[ -r "$features" ] || { echo "parse-console: no features file $features" >&2; exit 2; }
	while read -r label re; do
		case $label in '' | '#'*) continue ;; esac
		[ -n "$re" ] || { echo "parse-console: $features: no regex for $label" >&2; exit 2; }
		has "$re" || missing+=("$label")
	done <"$features"
fi
if [ ${#missing[@]} -gt 0 ]; then
	m=$(printf '%s, ' "${missing[@]}")
	if [ ${#problems[@]} -eq 0 ]; then
		echo "FAIL (feature not exercised: ${m%, })"
		exit 1
	fi
	problems+=("feature not exercised: ${m%, }")
fi

# The offending lines for --diags, with line numbers (the verdict goes first, below).
OFFENDING_RE="Kernel panic - not syncing|BUG:|UBSAN:|WARNING:|Call Trace|$STALL_RE|rcu_.*kthread starved for|!!!"
write_diags() { # VERDICT
	[ -n "$diags" ] || return 0
	{ echo "$1"; tr -d '\r' <"$log" | grep -nE -- "$OFFENDING_RE" | grep -E '^[0-9]+:\[ *[0-9]+\.[0-9]+\] ' | head -40; } >"$diags"
}
[ -z "$diags" ] || rm -f "$diags"

if [ ${#problems[@]} -eq 0 ]; then
	if [ $lock_busted = 1 ]; then
		echo "PASS (expected failure): lock_busted caught: $late statistics lines with Fail: 1 (!!!)"
		exit 0
	fi
	if [ "$expect" = busted ] && [ "$torture" != rcuperf ]; then
		echo "PASS (expected failure): BUSTED caught: $late reads aged >= 2 GPs, $(count '!!!') error markers (!!!)"
		exit 0
	fi
	echo "PASS (expected $expect)"
	exit 0
fi
msg=$(printf '%s, ' "${problems[@]}")
echo "FAIL (expected $expect): ${msg%, }"
write_diags "FAIL (expected $expect): ${msg%, }"
exit 1
