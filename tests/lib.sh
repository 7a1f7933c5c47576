# shellcheck shell=bash
# tests/lib.sh - helpers for the test suite; sourced by tests/run-all.sh (and by tests/boot/*.sh
# through it). Every helper prints one TAP-like verdict line, "ok N NAME" or "not ok N NAME"
# followed by indented reasons and the console tail, and never returns non-zero (so a failing test
# does not stop a `set -e` caller); the counters collect the results for tests_summary.
#
#   boot_test NAME [options]       boot $KERNEL directly (scripts/qemu-run.sh --kernel)
#   iso_boot_test NAME [options]   build a GRUB ISO of $KERNEL with the --append line baked in
#                                  (scripts/mkiso.sh, into $LOGDIR/NAME.iso) and boot it (--iso)
#     --smp N            CPUs (default 2)
#     --mem SIZE         guest RAM (default: qemu-run.sh's, 256M)
#     --append "ARGS"    kernel command line
#     --accel A          tcg | tcg-single | repro | kvm. Default: $TEST_ACCEL, else $ACCEL, else
#                        tcg (MTTCG) for smp <= 2 and tcg-single for smp > 2 (qemu-facts.md:
#                        fastest, exact ticks on 2 host cores). ISO tests never default to kvm.
#     --timeout S        host timeout in seconds (default $TEST_TIMEOUT, 60)
#     --expect-rc R      QEMU raw exit status to expect (default 33 = clean power-off; 7 = panic;
#                        35 = self-test failure; 0 = reset; 124 = timeout) or "any"
#     --expect RE        extended regex that some console line must match (repeatable)
#     --reject RE        extended regex that no console line may match (repeatable). Both see
#                        every line, user programs' too: a test that runs user programs and
#                        expects a kernel line starts RE with "$KLINE" (below)
#     --allow-bug        do not reject "BUG:" / "WARNING:" / "UBSAN:" lines
#     --qemu-args "ARGS" extra QEMU arguments
#     --wait RE          (boot_test only) a console session: wait until the console, since the
#     --send TEXT        last --wait, matches RE (Python regex), or send TEXT (Python escapes:
#                        '\x0f' Ctrl-O, '\x01b' Ctrl-A B = BREAK), in the order given; the serial
#                        port is then a socket (qemu-run.sh --serial-socket) that
#                        scripts/serial-session.py drives while QEMU runs. A --wait that times
#                        out (--timeout) fails the test. --expect/--reject then also see the
#                        client's transcript, $LOGDIR/NAME.session
#     --pause S          (in a session) let S seconds pass before the next step
#   Default rejects: 'Kernel panic - not syncing' (unless --expect-rc 7), 'BUG:|WARNING:|UBSAN:'
#   (unless --allow-bug; UBSAN's reports are the one sanitizer report without "BUG:"), and every
#   regex in the TEST_GLOBAL_REJECTS array (empty by default). They judge kernel lines only: those that begin with printk's "[    1.234567] " stamp ($KLINE). What user
#   programs write is printed without one and never begins with '[' (Documentation/user-mode.md),
#   so a program printing "Kernel panic - not syncing" fails no test.
#   Console lines are matched with CR removed. Files: $LOGDIR/NAME.log (serial console),
#   $LOGDIR/NAME.stderr (QEMU and qemu-run.sh messages).
#
#   run_cmd_test NAME CMD [ARGS...]   passes when CMD exits 0; output in $LOGDIR/NAME.log.
#                                     A program (not a shell function) runs under
#                                     `timeout $TEST_CMD_TIMEOUT` (default 600 s).
#   skip_test NAME REASON             prints "ok N NAME # SKIP REASON"
#   build_config DIR DEFCONFIG LINE...  make DEFCONFIG plus CONFIG_KERNEL_TESTS=y and its kernel,
#                                     DIR/kernel.elf (for run_cmd_test; built once per distinct
#                                     .config in $TEST_BUILD_CACHE, DIR a symbolic link to that
#                                     build directory); each LINE must be in
#                                     DIR/.config, or with a
#                                     leading "!" must not be; a LINE with a leading "+" is
#                                     added to the .config before olddefconfig instead. A failed build or a missing/unwanted
#                                     line leaves no kernel.elf behind, so nothing boots a stale one.
#   add_counts PASSED FAILED          fold another runner's totals into ours
#   tests_summary                     prints "N passed, N failed" (", N skipped" when N > 0);
#                                     returns 1 when any test failed
#
# Environment: KERNEL (default ${O:-repo root}/kernel.elf), LOGDIR (default ${O:-repo}/test-logs),
# TEST_BUILD_CACHE (default $LOGDIR/kbuild-cache: the kernels build_config and the kvm.sh tests
# build, one directory per distinct .config, shared between test files),
# TEST_EXTRA_KCONFIG ("CONFIG_X=y ..." added to every build_config kernel before its own lines,
# e.g. "$(grep ^CONFIG_ arch/x86_64/configs/ubsan.config)" to run the tests under UBSAN),
# TEST_FILTER (extended regex: run only tests whose NAME matches), TEST_TIMEOUT, TEST_ACCEL,
# TEST_VERBOSE=1 (print the qemu-run.sh command line of each boot test).

TESTS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${O:=$TESTS_ROOT}"
: "${KERNEL:=$O/kernel.elf}"
: "${LOGDIR:=$O/test-logs}"
: "${TEST_TIMEOUT:=60}"
: "${TEST_CMD_TIMEOUT:=600}"
: "${TEST_FILTER:=}"
: "${TEST_VERBOSE:=0}"
: "${TEST_BUILD_CACHE:=$LOGDIR/kbuild-cache}"
: "${TESTS_PASSED:=0}"
: "${TESTS_FAILED:=0}"
: "${TESTS_SKIPPED:=0}"
: "${TEST_NUM:=0}"
# A kernel console line begins with this (printk's timestamp); user output never does.
KLINE='^\[ *[0-9]+\.[0-9]+\] '
QEMU_RUN=$TESTS_ROOT/scripts/qemu-run.sh
MKISO=$TESTS_ROOT/scripts/mkiso.sh
if ! declare -p TEST_GLOBAL_REJECTS >/dev/null 2>&1; then
	TEST_GLOBAL_REJECTS=()
fi
mkdir -p "$LOGDIR"

# _test_selected NAME: true when NAME passes TEST_FILTER.
_test_selected() {
	[ -z "$TEST_FILTER" ] || grep -Eq -- "$TEST_FILTER" <<<"$1"
}

# _test_file NAME: a file-name-safe version of NAME.
_test_file() {
	printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'
}

# _test_save_state: write the counters to $TEST_STATE_FILE (run-all.sh reads them back after a
# test file's subshell ends, even when it aborted).
_test_save_state() {
	[ -z "${TEST_STATE_FILE:-}" ] ||
		echo "$TESTS_PASSED $TESTS_FAILED $TESTS_SKIPPED $TEST_NUM" >"$TEST_STATE_FILE"
}

# _test_report NAME LOG STDERR REASON...: print the verdict and count it. No reasons = pass.
_test_report() {
	local name=$1 log=$2 err=$3
	shift 3
	if [ $# -eq 0 ]; then
		TESTS_PASSED=$((TESTS_PASSED + 1))
		_test_save_state
		echo "ok $TEST_NUM $name"
		return 0
	fi
	TESTS_FAILED=$((TESTS_FAILED + 1))
	_test_save_state
	echo "not ok $TEST_NUM $name"
	local r
	for r in "$@"; do
		echo "    $r"
	done
	if [ -n "$log" ]; then
		if [ -s "$log" ]; then
			# The checks that failed first (must/must_not name them), so that a cut-short
			# report still says which of a test's many checks broke.
			grep '^check failed' "$log" | head -n 5 | sed 's/^/    /'
			echo "    --- last 30 lines of $log ---"
			tail -n 30 "$log" | tr -d '\r' | sed 's/^/    | /'
		else
			echo "    --- $log is empty ---"
		fi
	fi
	if [ -n "$err" ] && [ -s "$err" ]; then
		echo "    --- last 10 lines of $err ---"
		tail -n 10 "$err" | sed 's/^/    | /'
	fi
	return 0
}

_boot_test() {
	local kind=$1 name=$2
	shift 2
	local smp=2 mem='' append='' accel='' timeout_s=$TEST_TIMEOUT expect_rc=33 allow_bug=0 qargs=''
	local -a expects=() rejects=() reasons=() session=()
	while [ $# -gt 0 ]; do
		case $1 in
		--allow-bug)
			allow_bug=1
			shift
			continue
			;;
		--smp | --mem | --append | --accel | --timeout | --expect-rc | --expect | --reject | --qemu-args | \
			--wait | --send | --pause)
			if [ $# -lt 2 ]; then
				reasons+=("bad test definition: $1 needs a value")
				break
			fi
			;;
		*)
			reasons+=("bad test definition: unknown option '$1'")
			break
			;;
		esac
		case $1 in
		--smp) smp=$2 ;;
		--mem) mem=$2 ;;
		--append) append=$2 ;;
		--accel) accel=$2 ;;
		--timeout) timeout_s=$2 ;;
		--expect-rc) expect_rc=$2 ;;
		--expect) expects+=("$2") ;;
		--reject) rejects+=("$2") ;;
		--qemu-args) qargs=$2 ;;
		--wait) session+=(--expect "$2") ;;
		--send) session+=(--send "$2") ;;
		--pause) session+=(--sleep "$2") ;;
		esac
		shift 2
	done

	_test_selected "$name" || return 0
	TEST_NUM=$((TEST_NUM + 1))
	local base
	base=$LOGDIR/$(_test_file "$name")
	local log=$base.log err=$base.stderr
	rm -f "$log" "$err" "$base.session"
	if [ ${#reasons[@]} -gt 0 ]; then
		_test_report "$name" "" "" "${reasons[@]}"
		return 0
	fi
	if [ ! -f "$KERNEL" ]; then
		_test_report "$name" "" "" "kernel image '$KERNEL' not found (build it first: make)"
		return 0
	fi

	if [ -z "$accel" ]; then
		accel=${TEST_ACCEL:-${ACCEL:-}}
		if [ "$kind" = iso ] && [ "$accel" = kvm ]; then
			accel= # GRUB takes ~55 s under this host's KVM (qemu-facts.md)
		fi
		if [ -z "$accel" ]; then
			if [ "$smp" -le 2 ] 2>/dev/null || [ "$kind" = iso ]; then accel=tcg; else accel=tcg-single; fi
		fi
	fi

	local -a cmd=("$QEMU_RUN" --raw-exit --quiet --log "$log" --smp "$smp" --accel "$accel"
		--timeout "$timeout_s")
	[ -n "$mem" ] && cmd+=(--mem "$mem")
	[ -n "$qargs" ] && cmd+=(--qemu-args "$qargs")
	if [ "$kind" = iso ]; then
		if ! "$MKISO" "$KERNEL" "$base.iso" "$append" >"$err" 2>&1; then
			_test_report "$name" "" "$err" "scripts/mkiso.sh failed"
			return 0
		fi
		cmd+=(--iso "$base.iso")
	else
		cmd+=(--kernel "$KERNEL" --append "$append")
	fi
	if [ "$TEST_VERBOSE" = 1 ]; then
		printf '# %s:' "$name"
		printf ' %q' "${cmd[@]}"
		printf '\n'
	fi

	local rc=0
	if [ ${#session[@]} -gt 0 ]; then
		local sock out qpid
		sock=$(mktemp -u "${TMPDIR:-/tmp}/serial-test.XXXXXXXX")
		"${cmd[@]}" --serial-socket "$sock" </dev/null 2>>"$err" &
		qpid=$!
		out=$("$TESTS_ROOT/scripts/serial-session.py" "$sock" --timeout "$timeout_s" \
			--transcript "$base.session" "${session[@]}" 2>&1) ||
			reasons+=("console session: ${out%%$'\n'*}")
		wait "$qpid" || rc=$?
		rm -f "$sock"
	else
		"${cmd[@]}" </dev/null 2>>"$err" || rc=$?
	fi

	if [ "$expect_rc" != any ] && [ "$rc" != "$expect_rc" ]; then
		local what
		what=$(grep '^qemu-run: exit' "$err" | tail -n 1)
		reasons+=("exit status $rc, expected $expect_rc${what:+ [$what]}")
	fi
	local -a all_rejects=()
	[ "$expect_rc" = 7 ] || all_rejects+=('Kernel panic - not syncing')
	[ "$allow_bug" = 1 ] || all_rejects+=('BUG:|WARNING:|UBSAN:')
	all_rejects+=("${TEST_GLOBAL_REJECTS[@]}")

	# Here-strings, not pipes: with pipefail, grep -q exiting early would fail the pipeline.
	local clean re line
	clean=$(tr -d '\r' <"$log" 2>/dev/null || true)
	# A session's own transcript too: QEMU's log file can repeat a character of socket output.
	[ ${#session[@]} -eq 0 ] || clean+=$'\n'$(cat "$base.session" 2>/dev/null || true)
	for re in "${expects[@]}"; do
		grep -Eq -- "$re" <<<"$clean" || reasons+=("no console line matches /$re/")
	done
	for re in "${rejects[@]}"; do
		line=$(grep -E -m 1 -- "$re" <<<"$clean" || true)
		[ -z "$line" ] || reasons+=("console line matches rejected /$re/: $line")
	done
	local kernel_lines
	kernel_lines=$(grep -E -- "$KLINE" <<<"$clean" || true)
	for re in "${all_rejects[@]}"; do
		line=$(grep -E -m 1 -- "$re" <<<"$kernel_lines" || true)
		[ -z "$line" ] || reasons+=("kernel line matches rejected /$re/: $line")
	done
	if [ ${#reasons[@]} -gt 0 ]; then
		_test_report "$name" "$log" "$err" "${reasons[@]}"
	else
		_test_report "$name" "$log" "$err"
	fi
	return 0
}

boot_test() { _boot_test kernel "$@"; }
iso_boot_test() { _boot_test iso "$@"; }

run_cmd_test() {
	local name=$1
	shift
	_test_selected "$name" || return 0
	TEST_NUM=$((TEST_NUM + 1))
	local log
	log=$LOGDIR/$(_test_file "$name").log
	local rc=0
	if [ "$(type -t "$1")" = file ]; then
		timeout --kill-after=10 "$TEST_CMD_TIMEOUT" "$@" </dev/null >"$log" 2>&1 || rc=$?
	else
		("$@") </dev/null >"$log" 2>&1 || rc=$?
	fi
	if [ "$rc" = 0 ]; then
		_test_report "$name" "" ""
	elif [ "$rc" = 124 ]; then
		_test_report "$name" "$log" "" "timed out after $TEST_CMD_TIMEOUT s: $*"
	else
		_test_report "$name" "$log" "" "exit status $rc: $*"
	fi
	return 0
}

build_config() {
	local dir=$1 defconfig=$2 line
	shift 2
	# DIR is left a symbolic link to the kernel's build directory in the cache: configure anew in
	# a directory of its own, never through the link into the cache.
	if [ -L "$dir" ]; then rm -f "$dir"; else rm -f "$dir/kernel.elf"; fi
	mkdir -p "$dir" || return 1
	# Test kernels carry the in-kernel tests (CONFIG_KERNEL_TESTS, off in the plain configs).
	make -C "$TESTS_ROOT" O="$dir" "$defconfig" >/dev/null &&
		echo CONFIG_KERNEL_TESTS=y >>"$dir/.config" || return 1
	# TEST_EXTRA_KCONFIG: e.g. a sanitizer's fragment, into every kernel the tests build.
	for line in ${TEST_EXTRA_KCONFIG:-}; do echo "$line" >>"$dir/.config"; done
	for line in "$@"; do
		[ "${line#+}" = "$line" ] || echo "${line#+}" >>"$dir/.config"
	done
	make -C "$TESTS_ROOT" O="$dir" olddefconfig >/dev/null || return 1
	# The kernel itself is built in $TEST_BUILD_CACHE/<hash of .config>/, once per configuration
	# however many test files (or kvm.sh --build-cache runs) ask for it; DIR then becomes a
	# symbolic link to that directory (its kernel.elf, .config and objects, for the tests).
	local key kb
	key=$(sha256sum <"$dir/.config" | cut -c1-16)
	mkdir -p "$TEST_BUILD_CACHE/$key" && kb=$(cd "$TEST_BUILD_CACHE/$key" && pwd) || return 1
	# Unchanged .config, unchanged mtime: make then rebuilds only what the sources changed.
	cmp -s "$dir/.config" "$kb/.config" || cp "$dir/.config" "$kb/.config" || return 1
	{ flock 9 && make -C "$TESTS_ROOT" O="$kb" -j2 >/dev/null; } 9>>"$kb/.build.lock" || return 1
	[ -f "$kb/kernel.elf" ] && rm -rf "$dir" && ln -s "$kb" "$dir" || return 1
	for line in "$@"; do
		if [ "${line#+}" != "$line" ]; then
			continue
		elif [ "${line#!}" != "$line" ]; then
			! grep -qx "${line#!}" "$dir/.config" || { echo "$dir/.config has ${line#!}"; rm -f "$dir"; return 1; }
		else
			grep -qx "$line" "$dir/.config" || { echo "$dir/.config lacks $line"; rm -f "$dir"; return 1; }
		fi
	done
}

# built_boot_test DIR WHAT NAME SMP ARGS [boot_test options...]: boot DIR/kernel.elf (a kernel the
# test file built, e.g. with build_config) as `boot_test NAME --smp SMP --append ARGS ...` would, or
# report NAME skipped when that build failed ("the WHAT kernel did not build").
built_boot_test() {
	local dir=$1 what=$2 name=$3 smp=$4 args=$5
	shift 5
	if [ ! -f "$dir/kernel.elf" ]; then
		skip_test "$name" "the $what kernel did not build"
		return 0
	fi
	KERNEL=$dir/kernel.elf boot_test "$name" --smp "$smp" --append "$args" "$@"
}

skip_test() {
	_test_selected "$1" || return 0
	TEST_NUM=$((TEST_NUM + 1))
	TESTS_SKIPPED=$((TESTS_SKIPPED + 1))
	_test_save_state
	echo "ok $TEST_NUM $1 # SKIP ${2:-}"
}

add_counts() {
	TESTS_PASSED=$((TESTS_PASSED + $1))
	TESTS_FAILED=$((TESTS_FAILED + $2))
	_test_save_state
}

tests_summary() {
	local skipped=
	[ "$TESTS_SKIPPED" -eq 0 ] || skipped=", $TESTS_SKIPPED skipped"
	echo "$TESTS_PASSED passed, $TESTS_FAILED failed$skipped"
	[ "$TESTS_FAILED" -eq 0 ]
}

# must CMD...: run CMD (a check in a long && chain); when it fails, name it in the test's log,
# which otherwise would not say which link of the chain broke. must_not: CMD must fail.
must() { "$@" && return 0; echo "check failed: $*" >&2; return 1; }
must_not() { if "$@"; then echo "check failed (should not hold): $*" >&2; return 1; fi; }
