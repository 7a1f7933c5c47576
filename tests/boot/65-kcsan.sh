# shellcheck shell=bash
# tests/boot/65-kcsan.sh - the Kernel Concurrency Sanitizer (CONFIG_KCSAN; kernel/kcsan/,
# Documentation/dev-tools/kcsan.md) on test_defconfig + CONFIG_KCSAN=y, built in
# $LOGDIR/build-kcsan (about a minute on 2 host cores: every object is instrumented), then:
#   kcsan-planted-smp2   the KTAP suite "kcsan" (kcsan.selftest=1): two kthreads increment a plain
#                        counter on two CPUs and KCSAN reports it in Linux's format, naming
#                        kcsan_test_plain_inc on both sides, with both stacks and the value change;
#                        the same counter with READ_ONCE()/WRITE_ONCE() or under data_race() is
#                        not reported (the suite checks the runtime's count of races on it); no
#                        other KCSAN report in the boot
#   kcsan-selftest-smp4  the RCU self-tests (rcutree.selftest=1) under KCSAN on 4 CPUs: they pass
#                        and KCSAN reports nothing (a report is a BUG line, rejected by default)
#   kcsan-bad-param      kcsan.skip_watch=0: the parameter registry's one warning, default kept
# About 40 s of boots on 2 host cores.
#
# Console lines relied on (kernel/kcsan/report.c, kernel/kcsan/core.c):
#   "kcsan: enabled early"
#   "BUG: KCSAN: data-race in FUNC_A / FUNC_B", "write to 0x... of 8 bytes by task N on cpu M:",
#   "read to 0x... of 8 bytes by task N on cpu M:", "value changed: 0x... -> 0x...",
#   "Reported by Kernel Concurrency Sanitizer on:"
#   "# Totals: pass:P fail:0 skip:S total:T"                       kernel/test/ktap.c

kcsan_dir=$(cd "$LOGDIR" && pwd)/build-kcsan

kcsan_wanted=0
for t in kcsan-planted-smp2 kcsan-selftest-smp4 kcsan-bad-param; do
	_test_selected "$t" && kcsan_wanted=1
done

# Every KCSAN report of a console names the planted race; prints the count.
kcsan_only_planted() {
	local log=$1 all planted
	all=$(tr -d '\r' <"$log" | grep -c 'BUG: KCSAN: ')
	planted=$(tr -d '\r' <"$log" | grep -c 'BUG: KCSAN: data-race in kcsan_test_plain_inc / kcsan_test_plain_inc$')
	echo "KCSAN reports: $all, of the planted race: $planted"
	[ "$all" -ge 1 ] && [ "$all" = "$planted" ] ||
		{ tr -d '\r' <"$log" | grep 'BUG: KCSAN: '; return 1; }
}

if [ "$kcsan_wanted" = 1 ]; then
	run_cmd_test kcsan-build build_config "$kcsan_dir" test_defconfig '+CONFIG_KCSAN=y' \
		'CONFIG_KCSAN=y' 'CONFIG_KCSAN_SELFTEST=y'
	built_boot_test "$kcsan_dir" KCSAN kcsan-planted-smp2 2 "kcsan.selftest=1 kunit_shutdown=poweroff shutdown_secs=14" \
		--timeout 90 --allow-bug \
		--expect 'kcsan: enabled early' \
		--expect "${KLINE}BUG: KCSAN: data-race in kcsan_test_plain_inc / kcsan_test_plain_inc$" \
		--expect "${KLINE}write to 0x[0-9a-f]{16} of 8 bytes by task [0-9]+ on cpu [0-9]+:$" \
		--expect "${KLINE}read to 0x[0-9a-f]{16} of 8 bytes by task [0-9]+ on cpu [0-9]+:$" \
		--expect "${KLINE} kcsan_test_plain_inc\+0x[0-9a-f]+/0x[0-9a-f]+$" \
		--expect "${KLINE}value changed: 0x[0-9a-f]{16} -> 0x[0-9a-f]{16}$" \
		--expect "${KLINE}Reported by Kernel Concurrency Sanitizer on:" \
		--expect 'ok 1 kcsan_plain_counter' --expect 'ok 2 kcsan_marked_counter' \
		--expect 'ok 3 kcsan_data_race_counter' \
		--expect '# Totals: pass:3 fail:0 skip:0 total:3' --reject 'not ok' \
		--reject 'WARNING:' --reject 'Kernel panic'
	if [ -f "$LOGDIR/kcsan-planted-smp2.log" ] && _test_selected kcsan-planted-smp2; then
		run_cmd_test kcsan-planted-only kcsan_only_planted "$LOGDIR/kcsan-planted-smp2.log"
	fi
	built_boot_test "$kcsan_dir" KCSAN kcsan-selftest-smp4 4 "rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=14" \
		--timeout 90 --expect 'kcsan: enabled early' --expect '# Subtest: rcu' \
		--expect '# Totals: pass:[0-9]+ fail:0 ' --reject 'not ok' --expect 'reboot: Power down'
	built_boot_test "$kcsan_dir" KCSAN kcsan-bad-param 1 "kcsan.skip_watch=0 shutdown_secs=3" \
		--timeout 60 --expect 'kcsan\.skip_watch.*0' --expect 'kcsan: enabled early' \
		--expect 'reboot: Power down'
fi
