# shellcheck shell=bash
# tests/boot/55-tiny-rcu.sh - Tiny RCU (CONFIG_TINY_RCU, kernel/rcu/tiny.c): the uniprocessor,
# non-preemptible kernel of arch/x86_64/configs/tiny_defconfig, built in its own O= directory
# ($LOGDIR/build-tiny, about 40 s on 2 host cores), then:
#   tiny-rcu-torture-smp1   rcutorture for 15 s on one CPU: SUCCESS, no "!!!", the Tiny banner,
#                           grace periods counted at power-off
#   tiny-rcu-params-smp1    Tree-only parameters are accepted with one "does not apply" line each
#                           (an unknown rcutree.* name is still reported as unknown), and the KTAP
#                           suites that make sense on one CPU pass ("rcu", with its Tree-only case
#                           skipped, "rcu_api", likewise, and "sched")
#   tiny-rcu-smaller        scripts/rcu-size-compare.sh --no-build on this build and the kernel
#                           under test ($O, when it is a Tree RCU build): Tiny's kernel/rcu
#                           implementation text and its whole kernel.elf text are both smaller
# Sourced by tests/run-all.sh with tests/lib.sh loaded. Whole file: about 70 s on 2 host cores.
#
# Console lines assumed:
#   "rcu: Tiny RCU implementation: ..."                              kernel/rcu/tiny.c
#   "rcu: rcutree.blimit=3 does not apply to Tiny RCU, ignored"      lib/cmdline.c, from the entries
#                                                                    scripts/kparams.py generates
#                                                                    (kernel/params_absent.c)
#   "rcu: unknown parameter 'rcutree.no_such_knob' ignored"          lib/cmdline.c
#   "rcu: rcu_tiny: N grace periods completed (E expedited), ..."    kernel/rcu/tiny.c
#   "rcu-torture:--- End of test: SUCCESS: ..."                      kernel/rcu/torture/rcutorture.c

tiny_dir=$(cd "$LOGDIR" && pwd)/build-tiny

# tiny_boot NAME ARGS [boot_test options...]: one CPU, the Tiny banner, never the Tree one; the
# version banner without Linux's "SMP" flag (CONFIG_SMP is off).
tiny_boot() {
	local name=$1 args=$2
	shift 2
	built_boot_test "$tiny_dir" "Tiny RCU" "$name" 1 "$args" \
		--expect '^\[ *[0-9.]+\] rcukernel version [^ ]+ \(gcc [^)]*\) x86_64$' \
		--expect '^\[ *[0-9.]+\] rcu: Tiny RCU implementation: ' \
		--reject 'Hierarchical RCU implementation' \
		--expect 'reboot: Power down' "$@"
}

# Tiny against Tree: the summary lines of rcu-size-compare.sh, implementation and image text.
tiny_smaller() {
	local out tiny_impl tree_impl tiny_elf tree_elf
	out=$("$TESTS_ROOT/scripts/rcu-size-compare.sh" --no-build "$tiny_dir" "$O") || {
		echo "$out"
		return 1
	}
	echo "$out"
	tiny_impl=$(sed -n 's/^rcu-size: tiny kernel\/rcu implementation text=\([0-9]*\) .*/\1/p' <<<"$out")
	tree_impl=$(sed -n 's/^rcu-size: tree kernel\/rcu implementation text=\([0-9]*\) .*/\1/p' <<<"$out")
	tiny_elf=$(sed -n 's/^rcu-size: tiny kernel\.elf text=\([0-9]*\) .*/\1/p' <<<"$out")
	tree_elf=$(sed -n 's/^rcu-size: tree kernel\.elf text=\([0-9]*\) .*/\1/p' <<<"$out")
	echo "kernel/rcu implementation text: tiny $tiny_impl, tree $tree_impl; kernel.elf text: tiny $tiny_elf, tree $tree_elf"
	[ -n "$tiny_impl" ] && [ -n "$tree_impl" ] && [ -n "$tiny_elf" ] && [ -n "$tree_elf" ] &&
		[ "$tiny_impl" -gt 0 ] && [ "$tiny_impl" -lt "$tree_impl" ] && [ "$tiny_elf" -lt "$tree_elf" ]
}

tiny_wanted=0
for t in tiny-rcu-torture-smp1 tiny-rcu-params-smp1 tiny-rcu-smaller; do
	_test_selected "$t" && tiny_wanted=1
done

if [ "$tiny_wanted" = 1 ]; then
	# The .config must really be Tiny and UP.
	run_cmd_test tiny-rcu-build build_config "$tiny_dir" tiny_defconfig \
		'CONFIG_TINY_RCU=y' '!CONFIG_TREE_RCU=y' '!CONFIG_SMP=y'

	# (a) rcutorture on one CPU, with the rcu_barrier() tester and timer-handler readers.
	tiny_boot tiny-rcu-torture-smp1 \
		"rcutorture.torture_runnable=1 rcutorture.stat_interval=5 rcutorture.shutdown_secs=15 rcutorture.n_barrier_cbs=1 rcutorture.irqreader=1" \
		--timeout 60 \
		--expect 'rcu-torture:--- Start of test: nreaders=1 ' \
		--expect 'rcu-torture: rtc: 0x0+ ver: [1-9][0-9]* tfle: ' \
		--expect 'rcu-torture: Reader Pipe:  [1-9][0-9]* [0-9]+ 0 0 0 0 0 0 0 0 0$' \
		--expect 'barrier: [1-9][0-9]*/[1-9][0-9]*:0 ' \
		--expect 'rcu-torture:--- End of test: SUCCESS: nreaders=1 ' \
		--expect 'rcu: rcu_tiny: [1-9][0-9]* grace periods completed ' \
		--reject '!!!' --reject 'End of test: FAILURE' --reject '\?\?\? Writer stall state'

	# (b) Tree-only parameters, Tree RCU's own and Linux's Tree names this kernel lacks
	# (linux_params.c): one line each, nothing else; the KTAP suites on one CPU.
	tiny_boot tiny-rcu-params-smp1 \
		"rcutree.blimit=3 rcutree.dump_tree rcupdate.rcu_cpu_stall_timeout=5 rcupdate.rcu_expedited=1 rcutree.no_such_knob=1 rcutree.use_softirq=1 rcutree.selftest=1 rcupdate.api_selftest=1 sched.selftest=1 shutdown_secs=7" \
		--timeout 40 \
		--expect '^\[ *[0-9.]+\] rcu: rcutree\.blimit=3 does not apply to Tiny RCU, ignored$' \
		--expect '^\[ *[0-9.]+\] rcu: rcutree\.dump_tree=Y does not apply to Tiny RCU, ignored$' \
		--expect '^\[ *[0-9.]+\] rcu: rcupdate\.rcu_cpu_stall_timeout=5 does not apply to Tiny RCU, ignored$' \
		--expect '^\[ *[0-9.]+\] rcu: rcupdate\.rcu_expedited=Y does not apply to Tiny RCU, ignored$' \
		--expect "rcu: unknown parameter 'rcutree\.no_such_knob' ignored" \
		--expect '^\[ *[0-9.]+\] rcu: rcutree\.use_softirq=1 does not apply to Tiny RCU, ignored$' \
		--reject "unknown parameter 'rcu(tree\.(blimit|dump_tree)|update\.rcu_(cpu_stall_timeout|expedited))'" \
		--reject 'rcutree\.selftest=.* does not apply' \
		--expect 'ok [0-9]+ rcu_dyntick_idle_credit # SKIP Tiny RCU' \
		--expect '^\[ *[0-9.]+\] ok 1 rcu$' \
		--expect 'ok [0-9]+ rcu_api_stall_reset # SKIP ' \
		--expect '^\[ *[0-9.]+\] ok 2 rcu_api$' \
		--expect '^\[ *[0-9.]+\] ok 3 sched$' \
		--expect '# Totals: pass:[1-9][0-9]* fail:0 ' \
		--reject 'not ok'

	# (c) The footprint, against the Tree RCU kernel under test.
	if _test_selected tiny-rcu-smaller; then
		if [ ! -f "$tiny_dir/kernel.elf" ]; then
			skip_test tiny-rcu-smaller "the Tiny RCU kernel did not build"
		elif ! grep -qx 'CONFIG_TREE_RCU=y' "$O/.config" 2>/dev/null; then
			skip_test tiny-rcu-smaller "$O is not a Tree RCU build"
		else
			run_cmd_test tiny-rcu-smaller tiny_smaller
		fi
	fi
fi
