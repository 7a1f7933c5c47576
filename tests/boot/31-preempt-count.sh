# shellcheck shell=bash
# tests/boot/31-preempt-count.sh - a non-preemptible kernel without the preemption-disable count
# (CONFIG_PREEMPT_COUNT=n, Linux's PREEMPT_NONE reader: rcu_read_lock() is a compiler barrier;
# Documentation/RCU/preempt-count.md), built from test_defconfig in $LOGDIR/build-nopc (about
# 40 s on 2 host cores), then:
#   nopc-kconfig           PREEMPT keeps the count whatever the .config says (PREEMPTION selects
#                          it), and so does PROVE_LOCKING (debug_defconfig): configuration only
#   nopc-reader-empty      the refscale "rcu" reader loop (ref_rcu_section) has no access to
#                          __preempt_count in this build and has it in the kernel under test ($O,
#                          when it keeps the count): the reader really is empty
#   nopc-selftest-smp2/4   the KTAP suites: grace periods end although a busy CPU's tick can no
#                          longer see it outside a reader (its cond_resched() reports instead)
#   nopc-torture-smp4      rcutorture for 20 s: SUCCESS, no "!!!", expedited grace periods done
#                          (their IPIs defer to the CPU's next cond_resched() or switch)
#   nopc-refscale-smp2     refscale's reader figure on this build; reported, never judged
# Sourced by tests/run-all.sh with tests/lib.sh loaded. Whole file: about 2.5 minutes on 2 loaded host cores.
#
# Console lines assumed:
#   "# Totals: pass:P fail:0 skip:S total:T"                    kernel/test/ktap.c
#   "rcu-torture:--- End of test: SUCCESS: ..."                 kernel/rcu/torture/rcutorture.c
#   "ref-perf: summary type=rcu ... median_ns_per_pair=N ..."   kernel/rcu/torture/refscale.c

nopc_dir=$(cd "$LOGDIR" && pwd)/build-nopc
nopc_cfg_dir=$(cd "$LOGDIR" && pwd)/build-nopc-kconfig

# PREEMPT_COUNT off asked for, but something that needs the count is on: the count stays.
nopc_kconfig() {
	local defconfig
	for defconfig in preempt_defconfig debug_defconfig; do
		rm -rf "$nopc_cfg_dir"
		make -C "$TESTS_ROOT" O="$nopc_cfg_dir" "$defconfig" >/dev/null &&
			echo '# CONFIG_PREEMPT_COUNT is not set' >>"$nopc_cfg_dir/.config" &&
			make -C "$TESTS_ROOT" O="$nopc_cfg_dir" olddefconfig >/dev/null 2>&1 || return 1
		grep -qx CONFIG_PREEMPT_COUNT=y "$nopc_cfg_dir/.config" ||
			{ echo "$defconfig: PREEMPT_COUNT switched off"; return 1; }
		echo "$defconfig: CONFIG_PREEMPT_COUNT=y kept"
	done
}

# Does KERNEL's ref_rcu_section touch __preempt_count? Prints the count of such instructions.
nopc_count_refs() {
	objdump -d --no-show-raw-insn "$1" |
		awk '/^[0-9a-f]+ <ref_rcu_section>:/ { f = 1; next } f && /^$/ { exit } f && /__preempt_count/ { n++ }
			END { print n + 0 }'
}

nopc_reader_empty() {
	local ours theirs
	nm "$nopc_dir/kernel.elf" | grep -c ' ref_rcu_section$' >/dev/null ||
		{ echo "no ref_rcu_section in $nopc_dir/kernel.elf"; return 1; }
	ours=$(nopc_count_refs "$nopc_dir/kernel.elf")
	echo "CONFIG_PREEMPT_COUNT=n: $ours __preempt_count accesses in ref_rcu_section"
	[ "$ours" = 0 ] || return 1
	if grep -qx CONFIG_PREEMPT_COUNT=y "$O/.config" 2>/dev/null &&
		grep -qx CONFIG_RCU_REF_SCALE_TEST=y "$O/.config" && [ -f "$KERNEL" ]; then
		theirs=$(nopc_count_refs "$KERNEL")
		echo "CONFIG_PREEMPT_COUNT=y ($KERNEL): $theirs accesses"
		[ "$theirs" -ge 2 ] || { echo "the counting build should add and subtract"; return 1; }
	fi
}

nopc_wanted=0
for t in nopc-reader-empty nopc-selftest-smp2 nopc-selftest-smp4 nopc-torture-smp4 nopc-refscale-smp2; do
	_test_selected "$t" && nopc_wanted=1
done

if _test_selected nopc-kconfig; then
	run_cmd_test nopc-kconfig nopc_kconfig
fi

if [ "$nopc_wanted" = 1 ]; then
	run_cmd_test nopc-build build_config "$nopc_dir" test_defconfig \
		'+# CONFIG_PREEMPT_COUNT is not set' '# CONFIG_PREEMPT_COUNT is not set' \
		'CONFIG_PREEMPT_NONE=y' 'CONFIG_RCU_REF_SCALE_TEST=y' 'CONFIG_RCU_TORTURE_TEST=y'
	if [ -f "$nopc_dir/kernel.elf" ]; then
		run_cmd_test nopc-reader-empty nopc_reader_empty
	else
		skip_test nopc-reader-empty "the PREEMPT_COUNT=n kernel did not build"
	fi
	for smp in 2 4; do
		built_boot_test "$nopc_dir" PREEMPT_COUNT=n "nopc-selftest-smp$smp" "$smp" \
			"rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=40" \
			--timeout 120 --expect '# Totals: pass:[0-9]+ fail:0 ' --reject 'not ok [0-9]'
	done
	built_boot_test "$nopc_dir" PREEMPT_COUNT=n nopc-torture-smp4 4 \
		"rcutorture.torture_runnable=1 rcutorture.stat_interval=5 rcutorture.shutdown_secs=20" \
		--timeout 120 --expect 'End of test: SUCCESS' --reject '!!!' --reject 'detected stalls' \
		--expect 'rcu-torture: Reader Pipe:  [1-9][0-9]* [0-9]+ 0 0 0 0 0 0 0 0 0$' \
		--expect 'rcu: rcu_sched: [1-9][0-9]* expedited grace periods'
	built_boot_test "$nopc_dir" PREEMPT_COUNT=n nopc-refscale-smp2 2 \
		"refscale.scale_runnable=1 refscale.scale_type=rcu" \
		--timeout 120 --expect 'ref-perf: summary type=rcu .*median_ns_per_pair='
	! _test_selected nopc-refscale-smp2 || [ ! -f "$LOGDIR/nopc-refscale-smp2.log" ] ||
		grep -ho 'median_ns_per_pair=[0-9.]*' "$LOGDIR/nopc-refscale-smp2.log" | sed 's/^/# PREEMPT_COUNT=n refscale rcu: /'
fi
