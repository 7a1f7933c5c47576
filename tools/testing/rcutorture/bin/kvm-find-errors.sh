#!/usr/bin/env bash
# kvm-find-errors.sh - open in an editor the build logs with errors or warnings and the console
# logs with diagnostics of a kvm.sh run, as Linux's script of the same name does.
#
# Usage: tools/testing/rcutorture/bin/kvm-find-errors.sh RUN_DIR
#   RUN_DIR  a run directory of kvm.sh (RESULTS/<YYYY.MM.DD-HH.MM.SS>/)
#
# First the builds: each RUN_DIR/build/NAME/build.log (Linux: NAME/Make.out) with "error:" or
# "warning:" lines (but kconfig's "set more than once", which every scenario's fragment causes
# here) gets those lines in build.log.diags, and the editor is given each such pair
# (diags first, so you know what to look for in the log) - or "No build errors." is printed. A
# build-only run (RUN_DIR/log says --buildonly) then says "Build-only run, no console logs to
# check." Then the guests: each GUEST/console.log with a console.log.diags (kvm.sh writes one for
# a console with problems; parse-console.sh FILE TITLE too) is given to the editor with it - or
# "No errors in console logs." is printed.
#
# The editor is $EDITOR (default vi), started once for the builds and once for the consoles, as
# in Linux (EDITOR=cat prints them). Exit status as Linux's: 1 when some console has
# diagnostics, else 1 when some build had errors or warnings, else 0; 1 also for a missing
# RUN_DIR.
set -uo pipefail

case ${1-} in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
rundir=${1-}
if [ -z "$rundir" ] || [ ! -d "$rundir" ]; then
	echo "Directory $rundir not found."
	echo "Usage: $0 directory"
	exit 1
fi
editor=${EDITOR-vi}
status=0

files=()
for log in "$rundir"/build/*/build.log "$rundir"/*/Make.out; do
	[ -f "$log" ] || continue
	# Not the kconfig lines that say a scenario's fragment, appended to the .config, set a symbol
	# the defconfig had set: that is how kvm.sh applies a fragment.
	grep -E 'error:|warning:' "$log" | grep -v '\.config:[0-9]*: warning: .* set more than once\.' >"$log.diags"
	if [ -s "$log.diags" ]; then
		files+=("$log.diags" "$log")
	else
		rm -f "$log.diags"
	fi
done
if [ ${#files[@]} -gt 0 ]; then
	$editor "${files[@]}"
	status=1
else
	echo "No build errors."
fi
if grep -q -e '--buildonly\|--build-only' "$rundir/log" 2>/dev/null; then
	echo "Build-only run, no console logs to check."
fi

files=()
for c in "$rundir"/*/console.log; do
	[ -r "$c.diags" ] && files+=("$c.diags" "$c")
done
if [ ${#files[@]} -gt 0 ]; then
	$editor "${files[@]}"
	exit 1
fi
echo "No errors in console logs."
exit $status
