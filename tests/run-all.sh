#!/usr/bin/env bash
# tests/run-all.sh - the test suite behind `make check` and CI.
#
# Usage: tests/run-all.sh [--skip-host] [--skip-fuzz] [--skip-boot] [--filter RE] [tests/boot/FILE.sh...]
# Runs, in order:
#   0. scripts/check-contracts.sh                     layer contracts (asm/, lib/, weak symbols,
#                                                     parameter declarations, console drivers named
#                                                     only in their own files, plain names in
#                                                     test/ folders); test "check-contracts"
#   1. make -C tests/host check                       host unit tests (sanitizers)
#   2. make -C tests/host fuzz FUZZ_SECS=$FUZZ_SECS   fuzzers, default 15 s (FUZZ_SECS=0 skips)
#      Both must end their output with one "N passed, N failed" line (their own total); the last
#      such line is added to our totals. No such line: the make exit status counts as one test.
#   2b. the spin model checks of tools/model/rcu/suites.sh's quick list, one counted test each
#      (model-*, about a minute and a half; skipped without spin; `make model` runs the deep list)
#   3. every tests/boot/*.sh in sorted order (or the files given), each sourced with tests/lib.sh
#      in a subshell, so one broken file cannot stop the others. A file's executable
#      tests/boot/NN-x.prebuild, if any, starts first, in the background at idle priority: it
#      builds kernels that file will use into $TEST_BUILD_CACHE (tests/lib.sh) while others boot.
# The last line printed is always the overall "N passed, N failed"; the exit status is 1 when any
# test failed. Environment: O (build dir, default repo root), KERNEL (default $O/kernel.elf),
# LOGDIR (default $O/test-logs, else a new /tmp dir), FUZZ_SECS, SKIP_HOST=1, SKIP_FUZZ=1,
# SKIP_BOOT=1, TEST_FILTER (regex on test names, host-check and host-fuzz included; a filtered run
# names only the files that ran a selected test, after their verdicts), plus tests/lib.sh's
# TEST_TIMEOUT, TEST_ACCEL, TEST_VERBOSE=1 (also streams the host make output).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export LC_ALL=C # sorted globs, plain grep

skip_host=${SKIP_HOST:-0}
skip_fuzz=${SKIP_FUZZ:-0}
skip_boot=${SKIP_BOOT:-0}
files=()
while [ $# -gt 0 ]; do
	case $1 in
	--skip-host) skip_host=1 ;;
	--skip-fuzz) skip_fuzz=1 ;;
	--skip-boot) skip_boot=1 ;;
	--filter)
		[ $# -ge 2 ] || { echo "run-all: --filter needs a regex" >&2; exit 2; }
		export TEST_FILTER=$2
		shift
		;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	-*) echo "run-all: unknown option '$1' (try --help)" >&2; exit 2 ;;
	*) files+=("$1") ;;
	esac
	shift
done

O=${O:-$ROOT}
O=$(cd "$O" 2>/dev/null && pwd || printf '%s' "$O")
KERNEL=${KERNEL:-$O/kernel.elf}
if [ -z "${LOGDIR:-}" ]; then
	LOGDIR=$O/test-logs
	if ! mkdir -p "$LOGDIR" 2>/dev/null || [ ! -w "$LOGDIR" ]; then
		LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/test-logs.XXXXXX")
	fi
fi
FUZZ_SECS=${FUZZ_SECS:-15}
export O KERNEL LOGDIR FUZZ_SECS

# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"

start=$SECONDS
echo "# test logs in $LOGDIR"

# host_suite NAME TARGET [MAKE ARGS...]: run a tests/host make target and fold in its totals.
host_suite() {
	local name=$1
	shift
	_test_selected "$name" || return 0
	TEST_NUM=$((TEST_NUM + 1))
	local log=$LOGDIR/$name.log
	if [ ! -f tests/host/Makefile ]; then
		_test_report "$name" "" "" "tests/host/Makefile is missing"
		return 0
	fi
	local rc=0
	if [ "$TEST_VERBOSE" = 1 ]; then
		make --no-print-directory -C tests/host "$@" </dev/null 2>&1 | tee "$log" || rc=$?
	else
		make --no-print-directory -C tests/host "$@" </dev/null >"$log" 2>&1 || rc=$?
	fi
	local summary p f
	summary=$(tr -d '\r' <"$log" | grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' | tail -n 1 || true)
	if [ -z "$summary" ]; then
		if [ "$rc" = 0 ]; then
			_test_report "$name" "" ""
		else
			_test_report "$name" "$log" "" "make $* exited $rc without a 'N passed, N failed' line"
		fi
		return 0
	fi
	p=$(sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/' <<<"$summary")
	f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$summary")
	add_counts "$p" "$f"
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		add_counts 0 1
		f=1
		echo "not ok $TEST_NUM $name ($summary)"
		echo "    make $* exited $rc although it reported no failure"
	elif [ "$f" != 0 ]; then
		echo "not ok $TEST_NUM $name ($summary)"
	else
		echo "ok $TEST_NUM $name ($summary)"
	fi
	if [ "$f" != 0 ] && [ "$TEST_VERBOSE" != 1 ]; then
		echo "    --- last 40 lines of $log ---"
		tail -n 40 "$log" | sed 's/^/    | /'
	fi
	return 0
}

# Static checks: cheap, no build needed, so they run even with SKIP_HOST.
run_cmd_test check-contracts scripts/check-contracts.sh

if [ "$skip_host" = 1 ]; then
	skip_test host-check "SKIP_HOST"
else
	host_suite host-check check
fi
if [ "$skip_host" = 1 ] || [ "$skip_fuzz" = 1 ] || [ "$FUZZ_SECS" = 0 ]; then
	skip_test host-fuzz "disabled"
else
	host_suite host-fuzz fuzz "FUZZ_SECS=$FUZZ_SECS"
fi

# The Promela model of RCU's handshakes (tools/model/rcu): one counted test per check.
# shellcheck source=tools/model/rcu/suites.sh
. "$ROOT/tools/model/rcu/suites.sh"
while IFS= read -r line; do
	read -r -a margs <<<"$line"
	if command -v spin >/dev/null 2>&1; then
		run_cmd_test "model-${margs[1]}" "$ROOT/tools/model/rcu/check.sh" "${margs[@]}"
	else
		skip_test "model-${margs[1]}" "spin not installed (scripts/install-deps.sh)"
	fi
done < <(model_suite quick)

if [ "$skip_boot" != 1 ]; then
	if [ ${#files[@]} -eq 0 ]; then
		for f in tests/boot/*.sh; do
			[ -e "$f" ] && files+=("$f")
		done
	fi
	# The subshell's helpers record the counters in $TEST_STATE_FILE after every test.
	TEST_STATE_FILE=$(mktemp "${TMPDIR:-/tmp}/run-all-state.XXXXXX")
	export TEST_STATE_FILE
	# A file's NN-x.prebuild (executable) builds kernels that file will want into
	# $TEST_BUILD_CACHE, in the background at idle priority from now on, so that the builds use the
	# CPU time earlier files' boots leave idle. Each runs in a process group of its own, stopped
	# when its file starts (so the file never waits on an idle-priority build holding a kernel's
	# lock; make deletes the half-built target, and the file's own build finishes the work) or
	# when we exit. Its output goes to $LOGDIR/NN-x.prebuild.log.
	declare -A prebuild_pgid=()
	idle=()
	! chrt -i 0 true 2>/dev/null || idle=(chrt -i 0)
	for file in "${files[@]}"; do
		pb=${file%.sh}.prebuild
		[ -x "$pb" ] || continue
		TESTS_ROOT=$ROOT LOGDIR=$LOGDIR TEST_BUILD_CACHE=$TEST_BUILD_CACHE TEST_FILTER=$TEST_FILTER \
			setsid "${idle[@]}" nice -n 19 "$pb" </dev/null >"$LOGDIR/$(basename "$pb").log" 2>&1 &
		prebuild_pgid[$file]=$!
	done
	# prebuild_stop FILE: stop FILE's prebuild, if still running, and wait for it to be gone.
	prebuild_stop() {
		local g=${prebuild_pgid[$1]-}
		[ -n "$g" ] || return 0
		unset "prebuild_pgid[$1]"
		if kill -0 "$g" 2>/dev/null; then
			echo "# $1: its prebuild was still running: stopped (see $LOGDIR/$(basename "${1%.sh}").prebuild.log)"
			kill -TERM -- -"$g" 2>/dev/null || true
		fi
		wait "$g" 2>/dev/null || true
		# The rest of its process group (make, the compilers) may outlive the leader briefly.
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- -"$g" 2>/dev/null || break; sleep 0.5; done
		kill -KILL -- -"$g" 2>/dev/null || true
	}
	trap 'rm -f "$TEST_STATE_FILE"; for g in "${prebuild_pgid[@]}"; do kill -- -"$g" 2>/dev/null; done' EXIT
	for file in "${files[@]}"; do
		# A filtered run names only the files that ran a selected test (after their verdicts),
		# not every file it went through.
		[ -n "$TEST_FILTER" ] || echo "# $file"
		file_start=$SECONDS
		file_num=$TEST_NUM
		prebuild_stop "$file"
		_test_save_state
		# Not `( ... ) || rc=$?`: that context would switch off set -e inside the subshell.
		set +e
		(
			set -e
			# shellcheck source=/dev/null
			. "$file"
		)
		rc=$?
		set -e
		read -r TESTS_PASSED TESTS_FAILED TESTS_SKIPPED TEST_NUM <"$TEST_STATE_FILE"
		if [ "$rc" != 0 ]; then
			TEST_NUM=$((TEST_NUM + 1))
			_test_report "$file" "" "" "test file aborted with status $rc; its later tests did not run"
		fi
		# Where make check's time goes, file by file (reported, never judged).
		if [ -z "$TEST_FILTER" ]; then
			echo "# $file took $((SECONDS - file_start)) s"
		elif [ "$TEST_NUM" != "$file_num" ]; then
			echo "# $file: $((TEST_NUM - file_num)) selected test(s), $((SECONDS - file_start)) s"
		fi
	done
fi

echo "# total time $((SECONDS - start)) s"
tests_summary
