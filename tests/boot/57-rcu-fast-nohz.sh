# shellcheck shell=bash
# tests/boot/57-rcu-fast-nohz.sh - dyntick-idle grace-period acceleration (CONFIG_RCU_FAST_NO_HZ,
# kernel/rcu/tree_nohz.c) on arch/x86_64/configs/fast_no_hz_defconfig, built in
# $LOGDIR/build-fastnohz, then:
#   fastnohz-selftest-smp2  the KTAP suite "rcu_nohz" (kernel/rcu/test/fast_nohz.c): wakeups
#                           per second of an idle CPU holding ordinary and lazy callbacks with the
#                           acceleration switched off and on in the same boot, no callback lost,
#                           the latency cost; the power-off statistics line per CPU. tcg-single:
#                           its exact ticks keep the "off" figures honest on 2 loaded host cores.
#   fastnohz-rcu-smp2       the "rcu" and "rcu_gp" suites (rcutree.selftest=1) on that kernel:
#                           grace periods, callbacks, rcu_barrier(), dyntick-idle credit still work
#   fastnohz-bad-params     out-of-range and malformed rcutree.rcu_idle_gp_delay /
#                           rcutree.rcu_idle_lazy_gp_delay: one rcu: warning each, boot continues
# About 40 s on 2 host cores, plus the build (about a minute).
#
# Console lines relied on:
#   "rcu: <TAB>RCU dyntick-idle grace-period acceleration is enabled."   kernel/rcu/tree_params.c
#   "# CPU 1 holding ordinary callbacks: off N wakeups/s, ... on M wakeups/s (R RCU timer), ..."
#   "# CPU 1, one lazy callback every 10 ms: RCU-caused wakeups off N/s (...); on M/s (...)"
#                                                                  kernel/rcu/test/fast_nohz.c
#   "rcu: CPU N: dyntick-idle with callbacks: E idle entries, W RCU timer wakeups, ordinary ..."
#                                                                  kernel/rcu/tree_nohz.c
#   "rcu: rcutree.rcu_idle_gp_delay: value 0 out of range 1..1000, using 1"   lib/cmdline.c

TAB=$(printf '\t')
fnh_dir=$(cd "$LOGDIR" && pwd)/build-fastnohz
FNH_BANNER="^\[ *[0-9.]+\] rcu: ${TAB}RCU dyntick-idle grace-period acceleration is enabled\.$"

fnh_boot() { # NAME SMP ARGS [boot_test options...]
	local name=$1 smp=$2 args=$3
	shift 3
	built_boot_test "$fnh_dir" RCU_FAST_NO_HZ "$name" "$smp" "$args" \
		--expect "$FNH_BANNER" --expect "reboot: Power down" "$@"
}

fnh_wanted=0
for t in fastnohz-selftest-smp2 fastnohz-rcu-smp2 fastnohz-bad-params; do
	_test_selected "$t" && fnh_wanted=1
done

if [ "$fnh_wanted" = 1 ]; then
	run_cmd_test fastnohz-build build_config "$fnh_dir" fast_no_hz_defconfig \
		'CONFIG_RCU_FAST_NO_HZ=y' 'CONFIG_RCU_NOHZ_SELFTEST=y'

	fnh_boot fastnohz-selftest-smp2 2 "rcutree.nohz_selftest=1 kunit_shutdown=poweroff shutdown_secs=12" \
		--accel tcg-single \
		--expect "# Subtest: rcu_nohz" \
		--expect "# rcu_nohz: pass:5 fail:0 skip:0 total:5" \
		--expect "# CPU [0-9]+ holding ordinary callbacks: off [0-9]+ wakeups/s, .* on [0-9]+ wakeups/s \([1-9][0-9]* RCU timer\)" \
		--expect "# CPU [0-9]+, one lazy callback every 10 ms: RCU-caused wakeups off [0-9]+/s" \
		--expect "# synchronize_rcu\(\) on CPU [0-9]+: off mean [0-9]+ us max [0-9]+ us; on mean [0-9]+ us" \
		--expect "rcu: CPU 1: dyntick-idle with callbacks: [1-9][0-9]* idle entries, [1-9][0-9]* RCU timer wakeups, ordinary " \
		--reject "not ok"

	fnh_boot fastnohz-rcu-smp2 2 "rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=15" \
		--expect "# rcu: pass:[0-9]+ fail:0 " \
		--expect "# rcu_gp: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ rcu_dyntick_idle_credit$" \
		--reject "not ok"

	fnh_boot fastnohz-bad-params 2 \
		"rcutree.rcu_idle_gp_delay=0 rcutree.rcu_idle_lazy_gp_delay=6s shutdown_secs=2" \
		--expect "rcu: rcutree\.rcu_idle_gp_delay: value 0 out of range 1\.\.1000, using 1$" \
		--expect "rcu: rcutree\.rcu_idle_lazy_gp_delay: invalid value '6s' \(not a number\), using 6000$"
fi
