#!/usr/bin/env bash
# kvm-recheck.sh - judge a finished kvm.sh run again without booting anything, as Linux's
# kvm-recheck.sh does: after a fix to parse-console.sh or a scenario's .features, or on a copy
# of a run directory from another machine.
#
# Usage: tools/testing/rcutorture/bin/kvm-recheck.sh RUN_DIR...
#   RUN_DIR  a directory kvm.sh made (RESULTS/<YYYY.MM.DD-HH.MM.SS>/), with one subdirectory per
#            guest holding console.log, qemu.rc and the scenario/cpus/expect files kvm.sh wrote
#
# Each guest's verdict and console.log.diags are written anew (the old verdict is kept as
# verdict.old when it differs), and kvm.sh's summary table is printed. A guest killed before it
# ended keeps that in its verdict (qemu.rc says so), as does one whose kvm-remote.sh host went
# away ("FAIL (host H unreachable)"). The results page, RUN_DIR/index.html, is written anew
# (bin/kvm-html.sh). Exit status as kvm.sh's: 0 all as expected, 1 some guest not as expected,
# 3 all as expected with some test ending in FAILURE as its scenario requires (BUSTED,
# NOBOOST), 2 for a usage error.
set -uo pipefail

KVM=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=functions.sh
. "$KVM/bin/functions.sh"

[ $# -gt 0 ] || { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 2; }
status=0
for run in "$@"; do
	case $run in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
	[ -d "$run" ] || { echo "kvm-recheck: no run directory $run" >&2; exit 2; }
	torture=$(cat "$run/torture" 2>/dev/null || echo rcu)
	cfdir=$KVM/configs/$torture
	mapfile -t guests < <(guest_dirs "$run")
	[ ${#guests[@]} -gt 0 ] || { echo "kvm-recheck: $run holds no guest directories" >&2; exit 2; }
	echo "kvm-recheck: $run"
	for d in "${guests[@]}"; do
		# A build failure has no console to judge again: keep its verdict.
		# Nor does a guest whose kvm-remote.sh host went away.
		[ -f "$d/verdict" ] && [ "$(cat "$d/verdict")" = "FAIL (build failed)" ] && continue
		[ -f "$d/verdict" ] && [[ $(cat "$d/verdict") == "FAIL (host "*" unreachable)" ]] && continue
		[ -f "$d/verdict" ] && mv "$d/verdict" "$d/verdict.prev"
	done
	kvm_summary "$cfdir" "$torture" "${guests[@]}"
	for d in "${guests[@]}"; do
		[ -f "$d/verdict.prev" ] || continue
		if cmp -s "$d/verdict" "$d/verdict.prev"; then
			rm -f "$d/verdict.prev"
		else
			mv "$d/verdict.prev" "$d/verdict.old"
			echo "kvm-recheck: $(basename "$d"): verdict changed (was: $(cat "$d/verdict.old"))"
		fi
	done
	"$KVM/bin/kvm-html.sh" "$run" | sed 's/^/kvm-recheck: /'
	echo "kvm-recheck: $(( ${#guests[@]} - kvm_fail )) of ${#guests[@]} guests as expected"
	if [ "$kvm_fail" -gt 0 ]; then
		status=1
	elif [ "$kvm_expected_failures" -gt 0 ] && [ $status = 0 ]; then
		status=3
	fi
done
exit $status
