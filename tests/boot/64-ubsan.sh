# shellcheck shell=bash
# tests/boot/64-ubsan.sh - UBSAN (CONFIG_UBSAN, kernel/debug/ubsan.c;
# Documentation/dev-tools/ubsan.md) on test_defconfig + CONFIG_UBSAN=y, built in
# $LOGDIR/build-ubsan, then:
#   ubsan-planted        test_ubsan=all (kernel/debug/test/ubsan.c): each planted case runs
#                        twice, its report appears with Linux's lines, the kernel powers off
#   ubsan-planted-once   in that console: each of the 7 reports exactly once (one site, reported
#                        once), each between two of Linux's 80-'=' separators, no other report
#   ubsan-unreachable    test_ubsan=unreachable: the report, then Linux's panic
#   ubsan-bad-param      test_ubsan=bogus: one warning, nothing committed
#   ubsan-clean-smp4     the "rcu" self-test suite at -smp 4 on the instrumented kernel: no report
# 64-ubsan.prebuild builds the kernel ahead of time (same .config, same $TEST_BUILD_CACHE entry).
# The enum case gives no report: GCC 12 instruments enum loads only in C++ (ubsan.md). About 25 s
# of boots on 2 host cores, plus the build (about 30 s).
#
# Console lines relied on (kernel/debug/ubsan.c, kernel/debug/test/ubsan.c):
#   "================================================================================" (80 '=')
#   "UBSAN: <kind> in kernel/debug/test/ubsan.c:L:C", the detail line, "CPU: n PID: p Comm: c"
#   "test_ubsan: test_ubsan_<case> (CONFIG_UBSAN_<X>=y)", "test_ubsan: done"
#   "Kernel panic - not syncing: can't return from __builtin_unreachable()"

ubsan_dir=$(cd "$LOGDIR" && pwd)/build-ubsan
UBSAN_SEP='================================================================================'
# Each planted report's lines (extended regexes, kernel lines): one shift-out-of-bounds line for
# each of the four shift sites, then each detail line.
UBSAN_PLANTED=(
	"UBSAN: shift-out-of-bounds in kernel/debug/test/ubsan\\.c:[0-9]+:[0-9]+$"
	"shift exponent 40 is too large for 32-bit type 'int'$"
	"shift exponent -1 is negative$"
	"left shift of negative value -2$"
	"left shift of 2147483647 by 4 places cannot be represented in type 'int'$"
	"UBSAN: array-index-out-of-bounds in kernel/debug/test/ubsan\\.c:[0-9]+:[0-9]+$"
	"index 5 is out of range for type 'int \\[4\\]'$"
	"UBSAN: invalid-load in kernel/debug/test/ubsan\\.c:[0-9]+:[0-9]+$"
	"load of value 3 is not a valid value for type '_Bool'$"
	"UBSAN: division-overflow in kernel/debug/test/ubsan\\.c:[0-9]+:[0-9]+$"
	"division by zero$"
)

ubsan_wanted=0
for t in ubsan-planted ubsan-planted-once ubsan-unreachable ubsan-bad-param ubsan-clean-smp4; do
	_test_selected "$t" && ubsan_wanted=1
done

# ubsan_count_check LOG: every planted line exactly once; as many separators as two per report.
ubsan_count_check() {
	local log=$1 re n want reports seps
	[ -f "$log" ] || { echo "no console log $log"; return 1; }
	local clean
	clean=$(tr -d '\r' <"$log" | grep -E -- "$KLINE")
	for re in "${UBSAN_PLANTED[@]}"; do
		n=$(grep -cE -- "$re" <<<"$clean" || true)
		want=1
		[[ $re != *shift-out-of-bounds* ]] || want=4
		[ "$n" = "$want" ] || { echo "/$re/: $n lines, expected $want"; return 1; }
	done
	reports=$(grep -cE -- "UBSAN: " <<<"$clean" || true)
	[ "$reports" = 7 ] || { echo "$reports UBSAN reports, expected 7"; return 1; }
	seps=$(grep -cE -- "\\] $UBSAN_SEP\$" <<<"$clean" || true)
	[ "$seps" = 14 ] || { echo "$seps separator lines, expected 14"; return 1; }
	echo "7 reports, each once, 14 separators"
}

if [ "$ubsan_wanted" = 1 ]; then
	run_cmd_test ubsan-build build_config "$ubsan_dir" test_defconfig '+CONFIG_UBSAN=y' \
		'CONFIG_UBSAN=y' 'CONFIG_UBSAN_BOUNDS=y' 'CONFIG_UBSAN_SHIFT=y' 'CONFIG_UBSAN_DIV_ZERO=y' \
		'CONFIG_UBSAN_UNREACHABLE=y' 'CONFIG_UBSAN_BOOL=y' 'CONFIG_UBSAN_ENUM=y' \
		'CONFIG_UBSAN_SANITIZE_ALL=y' 'CONFIG_TEST_UBSAN=y'

	planted_expects=()
	for re in "${UBSAN_PLANTED[@]}"; do planted_expects+=(--expect "$KLINE$re"); done
	built_boot_test "$ubsan_dir" UBSAN ubsan-planted 2 "test_ubsan=all shutdown_secs=3" \
		--allow-bug --reject "${KLINE}(Kernel panic|kernel BUG|BUG:|WARNING:)" \
		--expect "${KLINE}$UBSAN_SEP$" \
		--expect "${KLINE}CPU: [0-9]+ PID: [0-9]+ Comm: init$" \
		--expect "${KLINE}test_ubsan: test_ubsan_load_invalid_value_enum \\(CONFIG_UBSAN_ENUM=y\\)$" \
		--expect "${KLINE}test_ubsan: done$" \
		--expect "reboot: Power down" "${planted_expects[@]}"
	if _test_selected ubsan-planted-once; then
		run_cmd_test ubsan-planted-once ubsan_count_check "$LOGDIR/ubsan-planted.log"
	fi
	built_boot_test "$ubsan_dir" UBSAN ubsan-unreachable 2 "test_ubsan=unreachable shutdown_secs=3" \
		--expect-rc 7 --allow-bug --reject "${KLINE}(BUG|WARNING):" \
		--expect "${KLINE}UBSAN: unreachable in kernel/debug/test/ubsan\\.c:[0-9]+:[0-9]+$" \
		--expect "${KLINE}calling __builtin_unreachable\\(\\)$" \
		--expect "${KLINE}Kernel panic - not syncing: can't return from __builtin_unreachable\\(\\)$"
	built_boot_test "$ubsan_dir" UBSAN ubsan-bad-param 1 "test_ubsan=bogus shutdown_secs=1" \
		--expect "${KLINE}kernel: test_ubsan: invalid value 'bogus' \\(not all, .*\\), using none$" \
		--reject "${KLINE}UBSAN: " --expect "reboot: Power down"
	built_boot_test "$ubsan_dir" UBSAN ubsan-clean-smp4 4 "rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=8" \
		--expect "# Subtest: rcu" --expect "# Totals: pass:[0-9]+ fail:0 " --reject "not ok" \
		--reject "${KLINE}UBSAN: " --expect "reboot: Power down"
fi
