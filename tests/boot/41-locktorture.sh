# shellcheck shell=bash
# tests/boot/41-locktorture.sh - locktorture (kernel/locking/locktorture.c, CONFIG_LOCK_TORTURE_TEST)
# at boot on test_defconfig's kernel, 2 CPUs: spin_lock writers must end with SUCCESS and no
# "!!!"; rtmutex_lock writers too, with priority inheritance seen working (holders boosted by an
# RT waiter, no holder below its waiter's priority); lock_busted, a lock that excludes nobody,
# must end with FAILURE (failed-test exit status) for the right reason (a "Fail: 1 !!!"
# statistics line; parse-console.sh --torture lock --expect busted). Sourced by tests/run-all.sh
# with tests/lib.sh loaded. Guest time 5 + 6 + 4 s, plus boots (about 20 s on 2 host cores).
#
# Console lines assumed (Linux 6.1's formats; Documentation/locking/locktorture.md):
#   "<type>-torture:--- Start of test: nwriters_stress=N ..."   the parameter line
#   "Writes:  Total: N  Max/Min: MAX/MIN [???]  Fail: F [!!!]"   statistics
#   "<type>-torture:--- End of test: SUCCESS|FAILURE: ..."      the verdict
#   "rtmutex_lock-torture: rt_mutex PI: writers made RT N, holders with RT waiters W boosted B
#    failures F"                                                 (ours)

LT_COMMON="locktorture.torture_runnable=1 locktorture.stat_interval=2"

# spin_lock, Linux's defaults otherwise (four writers, stutter, shuffler every 3 jiffies).
boot_test locktorture-spin-lock --smp 2 --timeout 40 \
	--append "$LT_COMMON locktorture.shutdown_secs=5" \
	--expect 'spin_lock-torture:--- Start of test( \[debug\])?: nwriters_stress=4 nreaders_stress=0 ' \
	--expect '^(\[[ 0-9.]+\] )?Writes:  Total: [1-9][0-9]*  Max/Min: [1-9][0-9]*/[0-9]+ (\?\?\?)?  Fail: 0 $' \
	--expect 'spin_lock-torture:--- End of test: SUCCESS( \[debug\])?: nwriters_stress=4 ' \
	--reject '!!!' --reject 'End of test: FAILURE'

# rtmutex_lock, writers going SCHED_FIFO often (rt_boost_factor=50, Linux 6.3's default): a
# normal holder with a FIFO waiter must run at the waiter's priority until it releases.
boot_test locktorture-rtmutex --smp 2 --timeout 40 \
	--append "$LT_COMMON locktorture.shutdown_secs=6 locktorture.torture_type=rtmutex_lock locktorture.rt_boost_factor=50" \
	--expect 'rtmutex_lock-torture:--- Start of test: nwriters_stress=4 ' \
	--expect 'rtmutex_lock-torture: rt_mutex PI: writers made RT [1-9][0-9]*, holders with RT waiters [1-9][0-9]* boosted [1-9][0-9]* failures 0 $' \
	--expect 'rtmutex_lock-torture:--- End of test: SUCCESS: .* rt_boost_factor=50$' \
	--reject '!!!' --reject 'End of test: FAILURE'

# lock_busted: every writer walks in; the first to find another inside WARNs and counts a failure.
# A bad value on the way (long_hold=-5) gets its one warning and the default.
boot_test locktorture-lock-busted --smp 2 --timeout 40 --expect-rc 35 --allow-bug \
	--append "$LT_COMMON locktorture.shutdown_secs=4 locktorture.torture_type=lock_busted locktorture.long_hold=-5" \
	--expect "lock: locktorture.long_hold: invalid value '-5' \\(out of range 0..10000\\), using 100" \
	--expect 'WARNING: .*lock_torture_writer' \
	--expect 'Writes:  Total: [1-9][0-9]*  Max/Min: .*  Fail: 1 !!!$' \
	--expect 'lock_busted-torture:--- End of test: FAILURE: ' \
	--reject 'End of test: SUCCESS'
# ... and kvm.sh's judge must call it "lock_busted caught", not any FAILURE.
lt_busted_judge() {
	local v
	v=$("$TESTS_ROOT/tools/testing/rcutorture/bin/parse-console.sh" --torture lock --expect busted "$LOGDIR/$1.log")
	echo "$v"
	[[ $v == "PASS (expected failure): lock_busted caught: "[1-9]* ]]
}
if _test_selected locktorture-lock-busted; then
	run_cmd_test locktorture-lock-busted-judge lt_busted_judge locktorture-lock-busted
fi
