# shellcheck shell=bash
# tests/boot/49-scftorture.sh - scftorture (CONFIG_SCF_TORTURE_TEST, kernel/scftorture.c,
# Documentation/scftorture.md), the cross calls' torture test, on test_defconfig (non-preemptible)
# with it built in, in $LOGDIR/build-scftorture: one 4-CPU boot of 12 s of torture with CPU hotplug
# every 30 ms: every primitive (resched_cpu(), smp_call_function_single() no-wait, wait and RPC,
# _many() and smp_call_function() wait and no-wait) on random CPUs, offline ones included, must end
# with Linux's "End of test: SUCCESS", every error counter at 0 (Linux's ste/stnmie/stnmoe/staf and
# ours: a handler run twice, on a CPU not targeted, a target online all through the call that never
# ran it, a lost no-wait call), and hotplug operations done. The same boot gives a bad value
# (weight_resched=-7: one warning, the default kept) and Linux's scftorture.shutdown (one "not
# implemented" line). About 15 s of QEMU on 2 host cores, plus the build.
#
# Console lines relied on (kernel/scftorture.c, kernel/scftorture_check.c):
#   "scftorture: --- Start of test:  verbose=0 holdoff=1 ..."
#   "scf_sel_dump:  21.052 smp_call_function_single_rpc(wait)"
#   "scftorture:  scf_invoked_count VER: N resched: N single: N/N single_ofl: N/N ... onoff: ...
#    ste: 0 stnmie: 0 stnmoe: 0 staf: 0"
#   "scftorture: ours: handler twice on a CPU: 0, on a CPU not targeted: 0, ..."
#   "scftorture: --- End of test: SUCCESS:  ..."

scf_dir=$(cd "$LOGDIR" && pwd)/build-scftorture
if _test_selected scftorture-hotplug; then
	run_cmd_test scftorture-build build_config "$scf_dir" test_defconfig \
		'+CONFIG_SCF_TORTURE_TEST=y' 'CONFIG_SCF_TORTURE_TEST=y' 'CONFIG_HOTPLUG_CPU=y'
	built_boot_test "$scf_dir" scftorture scftorture-hotplug 4 \
		"scftorture.holdoff=1 scftorture.onoff_interval=30 scftorture.onoff_holdoff=2 scftorture.stat_interval=4 scftorture.shutdown_secs=12 scftorture.weight_resched=-7 scftorture.shutdown=1 shutdown_secs=40" \
		--timeout 90 \
		--expect "scftorture: --- Start of test:  verbose=0 holdoff=1 longwait=0 nthreads=-1 onoff_holdoff=2 onoff_interval=30 shutdown_secs=12 " \
		--expect "scftorture.weight_resched.*-7" --expect "scftorture.shutdown.*not implemented" \
		--expect "scf_sel_dump: +[0-9]+\.[0-9]{3} resched_cpu\(nowait\)" \
		--expect "scf_sel_dump: +[0-9]+\.[0-9]{3} smp_call_function_single_rpc\(wait\)" \
		--expect "scf_sel_dump: +[0-9]+\.[0-9]{3} smp_call_function\(wait\)" \
		--expect "smpboot: CPU [123] is now offline" \
		--expect "scftorture:  scf_invoked_count VER: [1-9][0-9]* resched: [1-9][0-9]* single: [1-9][0-9]*/[1-9][0-9]* single_ofl: [1-9][0-9]*/[1-9][0-9]* single_rpc: [1-9][0-9]* single_rpc_ofl: [0-9]+ many: [1-9][0-9]*/[1-9][0-9]* all: [1-9][0-9]*/[1-9][0-9]* onoff: [1-9][0-9]*/[1-9][0-9]*:[1-9][0-9]*/[1-9][0-9]* .* ste: 0 stnmie: 0 stnmoe: 0 staf: 0$" \
		--expect "scftorture: ours: handler twice on a CPU: 0, on a CPU not targeted: 0, online target not run: 0, no-wait single lost: 0$" \
		--expect "scftorture: --- End of test: SUCCESS:  verbose=0 holdoff=1 longwait=0 nthreads=4 " \
		--reject "!!!" --reject "non-responsive CSD lock" \
		--expect "reboot: Power down"
fi
