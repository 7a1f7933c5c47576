# shellcheck shell=bash
# tests/boot/62-rcu-debug.sh - the RCU debugging options (Documentation/RCU/debugging.md) on
# arch/x86_64/configs/debug_defconfig (CONFIG_DEBUG_OBJECTS_RCU_HEAD, CONFIG_RCU_TRACE,
# CONFIG_RCU_EQS_DEBUG), built in $LOGDIR/build-rcudebug, and on a Tiny RCU kernel with the
# rcu_head debug objects and the EQS checks ($LOGDIR/build-rcudebug-tiny):
#   rcudebug-selftest-smp2    rcutree.selftest=1 with every option on: all pass, no report; and
#                             the KTAP suite "debugobjects" (debug_objects.selftest=1,
#                             kernel/debug/test/): no global lock, pool lock per batch
#   rcudebug-clean-smp2       a 10 s rcutorture with every option on: no report of any kind, and
#                             the power-off trace dump (rcutree.trace_dump_at_shutdown=1) is there
#   rcudebug-trace-readable   that dump: timestamps never go backwards, every line has CPU, time,
#                             event and values, and some grace period's "start" line comes before
#                             its "end" line (same gp_seq)
#   rcudebug-objdebug         rcutorture.object_debug=1: Linux's duplicate call_rcu() check, two
#                             ODEBUG reports naming rcu_torture_leak_cb, PASS verdict
#   rcudebug-<bug>            the planted bugs (rcutree.debug_objects_test=double_call_rcu,
#                             kfree_queued, onstack_noinit; rcutree.eqs_debug_test=irq_enter,
#                             idle_in_reader; and through the one dispatcher's rcu_debug_test=,
#                             double_call_srcu and irq_exit): the report's lines, then the
#                             "...: survived" line and a clean power-off
#   rcudebug-stall-dump       a provoked stall (rcutree.stall_test_secs): the trace dump follows
#                             the stall warning and shows the stalled CPU's call_rcu()
#   rcudebug-oops-dump        a NULL dereference with ftrace_dump_on_oops: the dump on panic
#   rcudebug-bad-params       unknown planted-bug names (each alias lists its group's names,
#                             rcu_debug_test= every built group's), non-boolean dump switches: one warning
#                             each (parameter, value, value used), boot continues, no dump
#   rcudebug-tiny-double-call-rcu  Tiny RCU's call_rcu() reports and refuses a duplicate too
# About 80 s of boots on 2 loaded host cores, plus two builds (about 40 s): 2 minutes in all.
#
# Console lines relied on:
#   "rcu: <TAB>RCU event tracing is enabled."            kernel/rcu/tree_params.c
#   "rcu: <TAB>RCU debug extended QS entry/exit."        kernel/rcu/tree_params.c
#   "ODEBUG: activate active (active state 1) object: ADDR object type: rcu_head hint: FUNC+..."
#   "ODEBUG: free active (active state 1) object: ..."
#   "ODEBUG: object ADDR is on stack ADDR, but NOT annotated."  kernel/debug/debugobjects.c
#   "rcu: call_rcu(): Double-freed CB ADDR->FUNC()!!! FUNC2() not queued"  kernel/rcu/rcu_head_debug.c
#   "rcu: Illegal idle entry in RCU read-side critical section. (...)"
#   "rcu: Unbalanced irq/NMI exit: ...", "rcu: Unbalanced irq/NMI enter: ..."  kernel/rcu/eqs_debug.c
#   "rcu: debug_objects_test: NAME: ...: survived"       kernel/rcu/test/debug_objects.c
#   "# debugobjects: pass:4 fail:0 ...", "ok N debugobjects_..."  kernel/debug/test/debugobjects.c
#   "rcu: eqs_debug_test: NAME: ...: survived"           kernel/rcu/test/eqs_debug.c
#   "Dumping ftrace buffer: RCU events (WHY), oldest first:", event lines
#   "COMM-PID [CPU] SEC.USEC: EVENT: VALUES", "RCU trace: N events printed, ..."
#                                                        kernel/rcu/rcu_trace.c
#   "rcutorture: Duplicate call_rcu() test: 3 of 3 callbacks ran, 0 duplicates ran: PASS"
#                                                        kernel/rcu/torture/rcutorture_objdebug.c

TAB=$(printf '\t')
rcd_dir=$(cd "$LOGDIR" && pwd)/build-rcudebug
rcd_tiny_dir=$(cd "$LOGDIR" && pwd)/build-rcudebug-tiny
RCD_TRACE_BANNER="^\[ *[0-9.]+\] rcu: ${TAB}RCU event tracing is enabled\.$"
RCD_EQS_BANNER="^\[ *[0-9.]+\] rcu: ${TAB}RCU debug extended QS entry/exit\.$"
# Any report the options can make: a clean boot must show none.
RCD_ANY_REPORT='ODEBUG: (activate|free|init|deactivate|destroy|active_state|object)|Double-freed CB|rcu: (Illegal idle entry|Unbalanced irq|Idle (entry|exit) with)'

rcd_boot() { # NAME ARGS [boot_test options...]
	local name=$1 args=$2
	shift 2
	built_boot_test "$rcd_dir" debug_defconfig "$name" 2 "$args" \
		--expect "$RCD_TRACE_BANNER" --expect "$RCD_EQS_BANNER" "$@"
}

# A planted bug: its report lines, its survival line, a clean power-off, nothing else reported twice.
rcd_planted() { # NAME PARAM=VALUE SURVIVED-RE [boot_test options...]
	local name=$1 arg=$2 survived=$3
	shift 3
	rcd_boot "$name" "$arg shutdown_secs=2" --allow-bug \
		--expect "WARNING: CPU: [0-9]+ PID: [0-9]+ at " --expect "$survived" \
		--expect "reboot: Power down" "$@"
}

# The power-off dump of LOG: ordered timestamps, well-formed lines, a GP's start before its end.
rcd_check_trace() { # LOG
	awk '
		{ sub(/\r$/, "") }
		/Dumping ftrace buffer: RCU events \(power-off\)/ { on = 1; next }
		on && /RCU trace: [0-9]+ events printed/ { done = 1; on = 0; next }
		on && /^\[ *[0-9.]+\] -+$/ { next }
		on {
			if (!match($0, /\[[0-9][0-9][0-9]\] +[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]: rcu_[a-z_]+: rcu_(sched|preempt) /)) {
				print "malformed: " $0; bad = 1; next
			}
			split(substr($0, RSTART, RLENGTH), f, /[] :]+/)
			t = f[2] + 0
			if (t < last) { print "time goes backwards: " $0; bad = 1 }
			last = t; n++
			if ($0 ~ /rcu_grace_period: .* start$/) { s = $0; sub(/ start$/, "", s); sub(/.* /, "", s); started[s] = 1 }
			if ($0 ~ /rcu_grace_period: .* end$/) { s = $0; sub(/ end$/, "", s); sub(/.* /, "", s); if (s in started) paired++ }
		}
		END {
			if (!done) { print "no complete power-off dump"; exit 1 }
			printf "%d events, %d grace periods with start before end\n", n, paired
			exit (bad || n < 10 || paired < 1)
		}' "$1"
}

rcd_build_tiny() { # DIR: tiny_defconfig plus the debug options Tiny RCU has
	local dir=$1
	rm -f "$dir/kernel.elf"
	make -C "$TESTS_ROOT" O="$dir" tiny_defconfig >/dev/null &&
		printf '%s\n' CONFIG_KERNEL_TESTS=y CONFIG_DEBUG_KERNEL=y CONFIG_DEBUG_OBJECTS=y \
			CONFIG_DEBUG_OBJECTS_RCU_HEAD=y CONFIG_RCU_EQS_DEBUG=y >>"$dir/.config" &&
		make -C "$TESTS_ROOT" O="$dir" olddefconfig >/dev/null &&
		grep -qx CONFIG_TINY_RCU=y "$dir/.config" &&
		grep -qx CONFIG_DEBUG_OBJECTS_RCU_HEAD=y "$dir/.config" &&
		make -C "$TESTS_ROOT" O="$dir" -j2 >/dev/null || { rm -f "$dir/kernel.elf"; return 1; }
}

rcd_wanted=0
for t in rcudebug-selftest-smp2 rcudebug-clean-smp2 rcudebug-trace-readable rcudebug-objdebug rcudebug-double-call-rcu \
	rcudebug-kfree-queued rcudebug-onstack-noinit rcudebug-double-call-srcu rcudebug-irq-exit rcudebug-irq-enter \
	rcudebug-idle-in-reader rcudebug-stall-dump rcudebug-oops-dump rcudebug-bad-params; do
	_test_selected "$t" && rcd_wanted=1
done

if [ "$rcd_wanted" = 1 ]; then
	run_cmd_test rcudebug-build build_config "$rcd_dir" debug_defconfig \
		'CONFIG_DEBUG_OBJECTS_RCU_HEAD=y' 'CONFIG_RCU_TRACE=y' 'CONFIG_RCU_EQS_DEBUG=y' \
		'CONFIG_RCU_TORTURE_TEST=y'

	# The self-tests want a quiet machine (a torture's expedited grace periods satisfy their
	# polling cookies early): two boots.
	rcd_boot rcudebug-selftest-smp2 "rcutree.selftest=1 debug_objects.selftest=1 kunit_shutdown=poweroff shutdown_secs=10" \
		--expect "# rcu: pass:[0-9]+ fail:0 " \
		--expect "# debugobjects: pass:4 fail:0 " \
		--expect "ok [0-9]+ debugobjects_no_global_lock" --expect "ok [0-9]+ debugobjects_pool_batches" \
		--expect "# Totals: pass:[0-9]+ fail:0 " \
		--expect "debug objects: [0-9]+ objects tracked now, [1-9][0-9]* at most, 0 reports" \
		--reject "$RCD_ANY_REPORT" --reject "not ok"
	rcd_boot rcudebug-clean-smp2 \
		"rcutorture.torture_runnable=1 rcutorture.stat_interval=5 rcutorture.shutdown_secs=10 rcutree.trace_dump_at_shutdown=1" \
		--timeout 90 \
		--expect "End of test: SUCCESS" \
		--expect "debug objects: [0-9]+ objects tracked now, [1-9][0-9]* at most, 0 reports" \
		--expect "Dumping ftrace buffer: RCU events \(power-off\), oldest first:" \
		--expect "RCU trace: [1-9][0-9]* events printed" \
		--reject "$RCD_ANY_REPORT" --reject "not ok"
	run_cmd_test rcudebug-trace-readable rcd_check_trace "$LOGDIR/rcudebug-clean-smp2.log"

	rcd_boot rcudebug-objdebug \
		"rcutorture.torture_runnable=1 rcutorture.object_debug=1 rcutorture.shutdown_secs=3" \
		--allow-bug \
		--expect "rcutorture: WARN: Duplicate call_rcu\(\) test starting\." \
		--expect "ODEBUG: activate active \(active state 1\) object: 0x[0-9a-f]+ object type: rcu_head hint: rcu_torture_leak_cb\+" \
		--expect "rcutorture: WARN: Duplicate call_rcu\(\) test complete\." \
		--expect "rcutorture: Duplicate call_rcu\(\) test: 3 of 3 callbacks ran, 0 duplicates ran: PASS" \
		--expect "End of test: SUCCESS" \
		--reject "duplicated callback was invoked"

	rcd_planted rcudebug-double-call-rcu rcutree.debug_objects_test=double_call_rcu \
		"rcu: debug_objects_test: double_call_rcu: first callback ran 1 time\(s\), second 0 .*survived" \
		--expect "ODEBUG: activate active \(active state 1\) object: 0x[0-9a-f]+ object type: rcu_head hint: dot_first_cb\+" \
		--expect "rcu: call_rcu\(\): Double-freed CB 0x[0-9a-f]+->dot_first_cb\+.*dot_second_cb\+.* not queued"
	rcd_planted rcudebug-kfree-queued rcutree.debug_objects_test=kfree_queued \
		"rcu: debug_objects_test: kfree_queued: callback ran 1 time\(s\), on intact memory 1 .*survived" \
		--expect "ODEBUG: free active \(active state 1\) object: 0x[0-9a-f]+ object type: rcu_head hint: dot_check_cb\+" \
		--expect "ODEBUG: 1 active object\(s\) in freed range .*: memory not freed \(leaked\)"
	rcd_planted rcudebug-onstack-noinit rcutree.debug_objects_test=onstack_noinit \
		"rcu: debug_objects_test: onstack_noinit: callback ran 1 time\(s\) .*survived" \
		--expect "ODEBUG: object 0x[0-9a-f]+ is on stack 0x[0-9a-f]+, but NOT annotated\."
	rcd_planted rcudebug-double-call-srcu rcu_debug_test=double_call_srcu \
		"rcu: debug_objects_test: double_call_srcu: first callback ran 1 time\(s\), second 0 .*survived" \
		--expect "ODEBUG: activate active \(active state 1\) object: 0x[0-9a-f]+ object type: rcu_head hint: dot_first_cb\+"
	rcd_planted rcudebug-irq-exit rcu_debug_test=irq_exit \
		"rcu: eqs_debug_test: irq_exit: RCU watching this CPU: 1, a grace period completed: survived" \
		--expect "rcu: Unbalanced irq/NMI exit: no matching enter \(irq/NMI nesting 0, CPU [0-9]+\); exit ignored"
	rcd_planted rcudebug-irq-enter rcutree.eqs_debug_test=irq_enter \
		"rcu: eqs_debug_test: irq_enter: RCU watching this CPU: 1, a grace period completed: survived" \
		--expect "rcu: Unbalanced irq/NMI enter: idle entry with irq/NMI nesting 2, expected 0 \(CPU [0-9]+\); closing it"
	rcd_planted rcudebug-idle-in-reader rcutree.eqs_debug_test=idle_in_reader \
		"rcu: eqs_debug_test: idle_in_reader: RCU watching this CPU: 1, a grace period completed: survived" \
		--expect "rcu: Illegal idle entry in RCU read-side critical section\. \(CPU [0-9]+, rcu_read_lock\(\) nesting 0, preempt_count 0x1\)"

	rcd_boot rcudebug-stall-dump \
		"rcutree.stall_test_secs=5 rcupdate.rcu_cpu_stall_timeout=3 shutdown_secs=8" \
		--expect "rcu: INFO: rcu_sched detected stalls on CPUs/tasks:" \
		--expect "Dumping ftrace buffer: RCU events \(RCU CPU stall warning\), oldest first:" \
		--expect "rcu_stall/1-[0-9]+ +\[001\] +[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]: rcu_callback: rcu_sched rhp=0x[0-9a-f]+ func=rcu_stall_test_cb 1$" \
		--expect "rcu_stall_warning: rcu_sched StallDetected$" \
		--expect "RCU trace: [1-9][0-9]* events printed"

	rcd_boot rcudebug-oops-dump "test_fault=null ftrace_dump_on_oops" --expect-rc 7 --allow-bug \
		--expect "Kernel panic - not syncing" \
		--expect "Dumping ftrace buffer: RCU events \(panic\), oldest first:" \
		--expect "RCU trace: [0-9]+ events printed"

	rcd_boot rcudebug-bad-params \
		"rcutree.debug_objects_test=twice rcutree.eqs_debug_test=nmi rcu_debug_test=bogus rcutree.trace_dump_at_shutdown=maybe ftrace_dump_on_oops=2 shutdown_secs=2" \
		--expect "rcu: rcutree\.debug_objects_test: invalid value 'twice' \(not double_call_rcu, kfree_queued, onstack_noinit or double_call_srcu\), using none$" \
		--expect "rcu: rcutree\.eqs_debug_test: invalid value 'nmi' \(not irq_exit, irq_enter or idle_in_reader\), using none$" \
		--expect "rcu: rcu_debug_test: invalid value 'bogus' \(not ([a-z]+, )*double_call_rcu, kfree_queued, onstack_noinit, double_call_srcu, irq_exit, irq_enter or idle_in_reader\), using none$" \
		--expect "rcu: rcutree\.trace_dump_at_shutdown: invalid value 'maybe' \(not a boolean\), using N$" \
		--expect "rcu: ftrace_dump_on_oops: invalid value '2' \(not a boolean\), using N$" \
		--reject "Dumping ftrace buffer" \
		--reject "$RCD_ANY_REPORT"
fi

if _test_selected rcudebug-tiny-double-call-rcu; then
	run_cmd_test rcudebug-tiny-build rcd_build_tiny "$rcd_tiny_dir"
	if [ -f "$rcd_tiny_dir/kernel.elf" ]; then
		KERNEL=$rcd_tiny_dir/kernel.elf boot_test rcudebug-tiny-double-call-rcu --smp 1 \
			--append "rcutree.debug_objects_test=double_call_rcu shutdown_secs=2" --allow-bug \
			--expect "rcu: Tiny RCU implementation" \
			--expect "ODEBUG: activate active \(active state 1\) object: 0x[0-9a-f]+ object type: rcu_head hint: dot_first_cb\+" \
			--expect "rcu: debug_objects_test: double_call_rcu: first callback ran 1 time\(s\), second 0 .*survived"
	else
		skip_test rcudebug-tiny-double-call-rcu "the Tiny RCU debug kernel did not build"
	fi
fi
