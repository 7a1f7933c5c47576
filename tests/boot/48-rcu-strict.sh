# shellcheck shell=bash
# tests/boot/48-rcu-strict.sh - strict grace periods (CONFIG_RCU_STRICT_GRACE_PERIOD,
# kernel/rcu/tree_strict.c, Documentation/RCU/strict-gp.md) and rcutorture's reader segments
# (kernel/rcu/torture/rcutorture_extend.c). Two kernels built here, each with the option:
#   build-strict          test_defconfig (non-preemptible) + RCU_EXPERT, STRICT, NR_CPUS=4
#   build-strict-preempt  preempt_defconfig (preemptible RCU) + the same
# Boots:
# - the KTAP suite "rcu_strict" (rcutree.strict_selftest=1) on both: the banner lines, and
#   strict_qs_at_unlock passes (a reader's rcu_read_unlock() reported its CPU's quiescent state
#   to the grace period that was waiting for it); strict_gp_rate only prints figures. An
#   out-of-range rcutree.rcu_unlock_delay draws its one warning.
# - the same suite on the kernel under test (no option): the case skips and its line shows the
#   CPU still owing the grace period after every unlock (the difference the option makes).
# - rcutorture on the non-preemptible strict kernel, 4 CPUs, CPU hotplug, rcu_unlock_delay: SUCCESS,
#   no "!!!"; rcutorture.extendables=0x1f (Linux's default) draws the warning for the bh bit.
# (The preemptible strict kernel is tortured by the kvm.sh scenario STRICT01, short matrix.)
# Sourced by tests/run-all.sh with tests/lib.sh loaded. About 40 s on 2 host cores plus two ~5 s
# builds.
#
# Console lines assumed:
#   "rcu: <TAB>RCU strict (and thus non-scalable) grace periods enabled."   Linux 6.1's banner
#   "rcu: <TAB>Boot-time adjustment of first FQS scan delay to 0 jiffies."  as Linux with the option
#   "# strict: CPU N: A attempt(s): O found its CPU still owing ..."        kernel/rcu/test/strict.c
#   "rcutorture.extendables: value 0x1f has bits this kernel lacks ..."     rcutorture_extend.c

TAB=$(printf '\t')
strict_dir=$(cd "$LOGDIR" && pwd)/build-strict
strict_p_dir=$(cd "$LOGDIR" && pwd)/build-strict-preempt
STRICT_CFG=('+CONFIG_RCU_EXPERT=y' '+CONFIG_RCU_STRICT_GRACE_PERIOD=y' '+CONFIG_NR_CPUS=4'
	'CONFIG_RCU_STRICT_GRACE_PERIOD=y' 'CONFIG_RCU_FANOUT_LEAF=2' 'CONFIG_RCU_SELFTEST=y')

if _test_selected rcu-strict-selftest || _test_selected rcu-strict-torture; then
	run_cmd_test rcu-strict-build build_config "$strict_dir" test_defconfig "${STRICT_CFG[@]}" \
		'CONFIG_RCU_TORTURE_TEST=y'
fi
if _test_selected rcu-strict-preempt-selftest; then
	run_cmd_test rcu-strict-preempt-build build_config "$strict_p_dir" preempt_defconfig \
		"${STRICT_CFG[@]}" 'CONFIG_PREEMPT_RCU=y'
fi

# strict_selftest NAME DIR WHAT [boot_test options...]
strict_selftest() {
	local name=$1 dir=$2 what=$3
	shift 3
	built_boot_test "$dir" "$what" "$name" 2 \
		"rcutree.strict_selftest=1 rcutree.rcu_unlock_delay=5000 kunit_shutdown=poweroff shutdown_secs=4" --timeout 60 \
		--expect "rcu: ${TAB}RCU strict \(and thus non-scalable\) grace periods enabled\.$" \
		--expect "rcu: ${TAB}Boot-time adjustment of first FQS scan delay to 0 jiffies\.$" \
		--expect "rcu: rcutree\.rcu_unlock_delay: invalid value '5000' \(out of range 0\.\.1000\), using 0$" \
		--expect "# strict: CPU [01]: [1-5] attempt\(s\): " \
		--expect "ok 1 strict_qs_at_unlock$" \
		--expect "# rcu_strict: pass:1 fail:0 skip:1 total:2" \
		--reject "not ok" --reject "WARNING:" --reject "BUG:" \
		--expect "reboot: Power down" "$@"
}
strict_selftest rcu-strict-selftest "$strict_dir" "strict"
strict_selftest rcu-strict-preempt-selftest "$strict_p_dir" "strict preemptible" \
	--expect "rcu: Preemptible hierarchical RCU implementation\."

# Without the option: every attempt's unlock left the CPU owing the grace period.
boot_test rcu-strict-off-selftest --smp 2 --timeout 60 \
	--append "rcutree.strict_selftest=1 kunit_shutdown=poweroff shutdown_secs=4" \
	--reject "RCU strict" \
	--expect "# non-strict: CPU [01]: 5 attempt\(s\): 5 found its CPU still owing the grace period right after rcu_read_unlock\(\), 0 saw" \
	--expect "ok 1 strict_qs_at_unlock # SKIP not a strict kernel" \
	--expect "# rcu_strict: pass:0 fail:0 skip:2 total:2" \
	--reject "not ok" --reject "WARNING:" --reject "BUG:"

built_boot_test "$strict_dir" "strict" rcu-strict-torture 4 \
	"rcutorture.torture_runnable=1 rcutorture.shutdown_secs=14 rcutorture.stat_interval=7 rcutorture.nreaders=2 rcutorture.onoff_interval=50 rcutorture.onoff_holdoff=2 rcutorture.extendables=0x1f rcutree.rcu_unlock_delay=3" \
	--timeout 60 \
	--expect "rcu: ${TAB}RCU strict \(and thus non-scalable\) grace periods enabled\.$" \
	--expect "rcutorture\.extendables: value 0x1f has bits this kernel lacks \(0x1: no local_bh_disable\(\), no softirqs\), using 0x1e$" \
	--expect "rcu-torture: rtc: .* onoff: [1-9][0-9]*/[0-9]+:[1-9][0-9]*/[0-9]+ " \
	--expect "rcu-torture:--- End of test: SUCCESS" \
	--reject "!!!" --reject "WARNING:" --reject "BUG:" --reject "segments:"
