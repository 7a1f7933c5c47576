#!/usr/bin/env bash
# kvm-end-run-stats.sh - the end-of-run summary of a kvm.sh run, as Linux's script of the same
# name prints it at the end of its kvm.sh: a " --- DATE Test summary:" header, the run
# directory, the run judged again (bin/kvm-recheck.sh: kvm.sh's table), and " --- Done at DATE
# (DURATION) exitcode N", all of it also appended to RUN_DIR/log.
#
# Usage: tools/testing/rcutorture/bin/kvm-end-run-stats.sh RUN_DIR [STARTTIME]
#   STARTTIME  when the run began, in seconds since the epoch (date +%s; Linux's get_starttime);
#              default now. DURATION is printed as Linux's get_starttime_duration does: "N
#              seconds", "M:SS.0", "H:MM:SS" or "Dd H:MM:SS".
#
# Exit status: kvm-recheck.sh's (0 all as expected, 1 some guest not, 3 expected failures only),
# 1 for a missing RUN_DIR. Linux's also collapses KCSAN reports (kcsan-collapse.sh); here a KCSAN
# report is judged like any BUG.
set -uo pipefail

KVM=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
case ${1-} in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
rundir=${1-}
if [ -z "$rundir" ] || [ ! -d "$rundir" ]; then
	echo "kvm-end-run-stats.sh: Specified run directory does not exist: $rundir"
	exit 1
fi
starttime=${2:-$(date +%s)}
[[ $starttime =~ ^[0-9]+$ ]] || { echo "kvm-end-run-stats.sh: bad start time '$starttime' (seconds since the epoch)"; exit 1; }

duration_words() { # SECONDS
	local t=$1 d h m s
	d=$((t / 86400)) h=$((t / 3600 % 24)) m=$((t / 60 % 60)) s=$((t % 60))
	if [ $d -ge 1 ]; then printf '%dd %d:%02d:%02d\n' $d $h $m $s
	elif [ $h -ge 1 ]; then printf '%d:%02d:%02d\n' $h $m $s
	elif [ $m -ge 1 ]; then printf '%d:%02d.0\n' $m $s
	else echo "$s seconds"
	fi
}

{
	echo
	echo
	echo " --- $(date) Test summary:"
	echo "Results directory: $rundir"
} | tee -a "$rundir/log"
out=$("$KVM/bin/kvm-recheck.sh" "$rundir" 2>&1)
ret=$?
echo "$out" | tee -a "$rundir/log"
echo " --- Done at $(date) ($(duration_words $(($(date +%s) - starttime)))) exitcode $ret" | tee -a "$rundir/log"
exit $ret
