# shellcheck shell=bash
# tests/boot/32-rcu-255.sh - the largest guest QEMU's pc machine takes (255 vCPUs) on one host
# thread (single-threaded TCG), every CPU busy in the "rcu" and "rcu_exp" KTAP suites
# (rcutree.selftest=1). It caught QEMU's main loop livelocked by 255 periodic LAPIC timers
# (the guest stopped for good after the second test case) before the tick went one-shot, and
# test cases whose timeouts and claims did not hold with hundreds of vCPUs sharing a core.
# The kernel is test_defconfig with CONFIG_NR_CPUS=256, built under $LOGDIR/build-255.
# 90 s of guest time (the suites take 10-60 s at this size) plus the build, on 2 host cores.

rcu255_dir=$LOGDIR/build-255

build_255() {
	rm -f "$rcu255_dir/kernel.elf"
	make -C "$TESTS_ROOT" O="$rcu255_dir" test_defconfig >/dev/null &&
		sed -i 's/^CONFIG_NR_CPUS=.*/CONFIG_NR_CPUS=256/' "$rcu255_dir/.config" &&
		make -C "$TESTS_ROOT" O="$rcu255_dir" olddefconfig >/dev/null &&
		make -C "$TESTS_ROOT" O="$rcu255_dir" -j2 >/dev/null &&
		grep -qx CONFIG_NR_CPUS=256 "$rcu255_dir/.config" ||
		{ echo "$rcu255_dir: no CONFIG_NR_CPUS=256 kernel"; rm -f "$rcu255_dir/kernel.elf"; return 1; }
}

if _test_selected rcu-selftest-smp255; then
	run_cmd_test rcu-selftest-smp255-build build_255
	if [ -f "$rcu255_dir/kernel.elf" ]; then
		KERNEL=$rcu255_dir/kernel.elf boot_test rcu-selftest-smp255 --smp 255 --accel tcg-single \
			--timeout 300 --append "rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=90" \
			--expect "smp: Brought up 1 node, 255 CPUs" \
			--expect "# Subtest: rcu_exp" \
			--expect "# Totals: pass:[0-9]+ fail:0 " \
			--reject "not ok" \
			--expect "reboot: Power down"
	else
		skip_test rcu-selftest-smp255 "no CONFIG_NR_CPUS=256 kernel"
	fi
fi
