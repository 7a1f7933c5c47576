# shellcheck shell=bash
# tests/boot/52-tasks-rcu.sh - Tasks RCU (CONFIG_TASKS_RCU, kernel/rcu/tasks.c) on the preemptible
# kernel of arch/x86_64/configs/preempt_defconfig, built in $LOGDIR/build-preempt (the directory
# tests/boot/20-sched.sh and 50-preempt-rcu.sh use: one build serves all three), then:
#   tasks-rcu-selftest-smp1  the KTAP suite "rcu_tasks" (kernel/rcu/test/tasks.c) on one
#                            CPU; its stall case skips (default 10-minute timeout), and so does
#                            the moved-reader case (2 CPUs)
#   tasks-rcu-stall-smp2     the suite with rcupdate.rcu_task_stall_timeout=2000 (jiffies): its
#                            stall case holds a grace period with a spinner for 2 s, and the
#                            console must carry Linux's warning, the holdout line and a task line
#                            naming that spinner (tasks-rcu-stall-names-spinner checks the pid);
#                            rcu_tasks_waits_for_moved_reader takes CPU 1 down under a reader in
#                            state D, its move held open 500 ms (CONFIG_SCHED_MOVE_DELAY), and the
#                            grace period must still wait for it (about 1 s)
#                            The same boot runs the KTAP suite "rcu_tasks_trace"
#                            (kernel/rcu/test/tasks_trace.c, FORCE_TASKS_TRACE_RCU in
#                            preempt_defconfig): sleeping, spinning (IPI), nested and moving readers,
#                            callbacks, barrier, and its stall warning in Linux's format (about 6 s)
#                            The boot also sets rcupdate.rcu_task_stall_info=300 and
#                            rcu_task_stall_info_mult=2: tasks-rcu-stall-info checks that each
#                            flavor's stalled grace period printed Linux's informational line
#                            ("rcu_tasks_wait_gp: <flavor> grace period G is N jiffies old.") first
#                            past 300 jiffies, again more than 600 later, and none once its stall
#                            warning is out (host-side, no boot of its own)
#   tasks-rcu-bad-param      a negative and a malformed rcupdate.rcu_task_stall_timeout, a
#                            negative rcupdate.rcu_task_ipi_delay and rcu_task_stall_info, a
#                            malformed and a too large rcu_task_stall_info_mult: one rcu: warning
#                            each naming the value and the value used; boot continues
#   tasks-stall-no-tasks-rcu the stall cases of the "rcu_tasks_rude" and "rcu_tasks_trace" suites
#                            in a kernel with Tasks Rude and Tasks Trace RCU but not Tasks RCU
#                            (test_defconfig, non-preemptible, plus FORCE_TASKS_RUDE_RCU and
#                            FORCE_TASKS_TRACE_RCU; built in $LOGDIR/build-tasks-generic):
#                            rcupdate.rcu_task_stall_timeout=1000 must be taken (it is shared by
#                            every flavor, kernel/rcu/tasks_params.c) and each flavor must warn at
#                            that timeout. On 3 CPUs, so that Tasks Rude grace periods visit two
#                            CPUs through their rcu_rude/N helpers at once, the suite's hotplug case
#                            parking and unparking one (the 2-CPU boots above visit their one
#                            other CPU by moving the kthread there). About 10 s
# The same boots run the KTAP suite "rcu_tasks_rude" (kernel/rcu/test/tasks_rude.c, Tasks Rude
# RCU, rcutree.tasks_rude_selftest=1): the kernel is preempt_defconfig (which forces Tasks Trace
# RCU) plus RCU_EXPERT and FORCE_TASKS_RUDE_RCU, built in $LOGDIR/build-tasks (its own build: the
# other preempt tests keep theirs). On one CPU its reader cases skip (the grace period's one-CPU
# fast path); on two, a region with preemption or interrupts off on CPU 1 holds
# synchronize_rcu_tasks_rude() on CPU 0, callbacks and rcu_barrier_tasks_rude() wait for it, CPU 1
# goes down and up around a grace period, and the stall case draws "INFO: rcu_tasks_rude detected
# stalls on tasks:" (2 s). The smp2 boot powers off when its suites end (kunit_shutdown).
# Sourced by tests/run-all.sh with tests/lib.sh loaded. About 60 s on 2 host cores, plus the build
# (about a minute) when no earlier file made it; the rcu_tasks_trace suite fits in the smp2 boot's
# existing 20 s (its suites end at about 12 s).
#
# Console lines assumed:
#   "<TAB>Tasks RCU enabled."                                              kernel/rcu/tasks.c
#   "<TAB>Tracing variant of Tasks RCU enabled."                  kernel/rcu/tasks_trace_stall.c
#   "INFO: rcu_tasks_trace detected stalls on tasks:" and "P<pid>: ...B nesting: 1N  cpu: C"  idem
#   "<TAB>Tasks-RCU CPU stall warnings timeout set to 2000 (rcu_task_stall_timeout)."     idem
#   "INFO: rcu_tasks detected stalls on tasks:"                           idem, Linux's words
#   "0x...: .. nvcsw: V/V holdout: 1 idle_cpu: I/C"                       idem, Linux's format
#   "task:rtt_spin/1      state:R pid:N ..."                     kernel/sched/core.c sched_show_task()
#   "# spinner PN (rtt_spin/1) holds the Tasks RCU grace period ..."  kernel/rcu/test/tasks.c
#   "rcu_tasks: N grace periods, mean M ms, ... S stall warnings, ..."    rcu_tasks_show_stats()
#   "process N (rtt_spin/1) no longer affine to cpu1"                      kernel/sched/core.c
#   "rcu: rcupdate.rcu_task_stall_timeout: invalid value '-5' (out of range 0..2147483647), using 600000"
#                                                                          lib/cmdline.c
#   "rcu: rcupdate.rcu_task_stall_info_mult: value 20 out of range 1..10, using 10"      idem
#   "rcu_tasks_wait_gp: rcu_tasks grace period G is N jiffies old."  kernel/rcu/tasks_params.c,
#                                                    Linux 6.1's words (also rcu_tasks_trace, _rude)
#   "<TAB>Rude variant of Tasks RCU enabled."                               kernel/rcu/tasks_rude.c
#   "RCU Tasks Rude: Setting shift to 1 and lim to 1 rcu_task_cb_adjust=0."          idem
#   "INFO: rcu_tasks_rude detected stalls on tasks:"                                 idem
#   "rcu_tasks_rude: CPU 1 has not switched tasks for N jiffies (gG, ...)"           idem

TAB=$(printf '\t')
tasks_dir=$(cd "$LOGDIR" && pwd)/build-tasks
tasks_gen_dir=$(cd "$LOGDIR" && pwd)/build-tasks-generic

# tasks_boot NAME SMP ARGS [boot_test options...]
tasks_boot() {
	local name=$1 smp=$2 args=$3
	shift 3
	built_boot_test "$tasks_dir" preemptible "$name" "$smp" "$args" \
		--expect "^\[ *[0-9.]+\] ${TAB}Tasks RCU enabled\.$" \
		--expect "^\[ *[0-9.]+\] ${TAB}Rude variant of Tasks RCU enabled\.$" \
		--expect "reboot: Power down" "$@"
}

# The suite passed: every case ok (or skipped), nothing "not ok".
tasks_suite() { # NAME SMP ARGS [boot_test options...]
	local name=$1 smp=$2 args=$3
	shift 3
	tasks_boot "$name" "$smp" "$args" \
		--expect "# Subtest: rcu_tasks" \
		--expect "# rcu_tasks: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ rcu_tasks_waits_for_preempted$" \
		--expect "ok [0-9]+ rcu_tasks_holdout_exits$" \
		--expect "# synchronize_rcu_tasks\(\) idle: mean [0-9]+ us" \
		--expect "# Subtest: rcu_tasks_rude" \
		--expect "# rcu_tasks_rude: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ rcu_tasks_rude_callbacks_after_gp$" \
		--expect "ok [0-9]+ rcu_tasks_rude_barrier_waits$" \
		--reject "not ok" "$@"
}

# The stall warning's task line names the spinner the stall case reported, and its holdout line
# comes between the warning and the task line.
tasks_check_stall_pid() { # LOG
	tr -d '\r' <"$1" | awk '
		/# spinner P[0-9]+ \(rtt_spin\/[0-9]+\) holds the Tasks RCU grace period/ {
			match($0, /P[0-9]+/); pid = substr($0, RSTART + 1, RLENGTH - 1)
		}
		/INFO: rcu_tasks detected stalls on tasks:/ { warned = 1; next }
		warned == 1 && /: \.\. nvcsw: [0-9]+\/[0-9]+ holdout: 1 idle_cpu: [01]\/[0-9]+$/ { warned = 2; next }
		warned == 2 && /task:rtt_spin\/[0-9]+ +state:R pid:[0-9]+ / {
			match($0, /pid:[0-9]+/); tpid = substr($0, RSTART + 4, RLENGTH - 4); warned = 3
		}
		END {
			if (pid == "") { print "no spinner diagnostic"; exit 1 }
			if (warned < 3) { print "no warning / holdout line / spinner task line sequence (stage " warned + 0 ")"; exit 1 }
			print "spinner P" pid ", stall task line pid " tpid
			if (tpid != pid) exit 1
		}'
}

# With rcupdate.rcu_task_stall_info=INFO and rcu_task_stall_info_mult=MULT: for each flavor, the
# grace period its stall warning reports (the last one an informational line named before it)
# printed at least two such lines, the first older than INFO jiffies, each next one more than the
# gap before it (INFO, then times MULT each time) after the last, and none after the warning.
tasks_check_stall_info() { # LOG INFO MULT
	tr -d '\r' <"$1" | awk -v info="$2" -v mult="$3" '
		function check(k,   n, i, gap, bad) {
			n = cnt[k, last[k]]
			if (last[k] == "") return "no informational line before the warning"
			if (n < 2) return "grace period " last[k] ": " n + 0 " informational line(s), want 2 or more"
			if (age[k, last[k], 1] <= info) return "grace period " last[k] ": first line at " age[k, last[k], 1] " jiffies, not past " info
			gap = info * mult
			for (i = 2; i <= n; i++) {
				if (age[k, last[k], i] - age[k, last[k], i - 1] <= gap)
					return "grace period " last[k] ": line " i " only " age[k, last[k], i] - age[k, last[k], i - 1] " jiffies after the last, want more than " gap
				gap *= mult
			}
			return ""
		}
		match($0, /rcu_tasks_wait_gp: rcu_tasks(_trace|_rude)? grace period [0-9]+ is [0-9]+ jiffies old\.$/) {
			split(substr($0, RSTART), f, " ")
			k = f[2]; g = f[5]
			if (warned[k] && g == wgp[k]) { after[k]++; next }
			last[k] = g; cnt[k, g]++; age[k, g, cnt[k, g]] = f[7]
			next
		}
		/INFO: rcu_tasks(_trace|_rude)? detected stalls on tasks:$/ {
			match($0, /rcu_tasks(_trace|_rude)? detected/); k = substr($0, RSTART, RLENGTH - 9)
			if (warned[k]) next
			warned[k] = 1; wgp[k] = last[k]; why[k] = check(k)
		}
		END {
			rc = 0
			split("rcu_tasks rcu_tasks_trace rcu_tasks_rude", ks, " ")
			for (i = 1; i <= 3; i++) {
				k = ks[i]
				if (!warned[k]) { print k ": no stall warning"; rc = 1; continue }
				if (why[k] == "" && after[k]) why[k] = after[k] " informational line(s) after the stall warning"
				if (why[k] != "") { print k ": " why[k]; rc = 1; continue }
				line = k ": grace period " wgp[k] ":"
				for (j = 1; j <= cnt[k, wgp[k]]; j++) line = line " " age[k, wgp[k], j]
				print line " jiffies, then the stall warning"
			}
			exit rc
		}'
}

tasks_wanted=0
for t in tasks-rcu-selftest-smp1 tasks-rcu-stall-smp2 tasks-rcu-bad-param; do
	_test_selected "$t" && tasks_wanted=1
done

if [ "$tasks_wanted" = 1 ]; then
	run_cmd_test tasks-rcu-build build_config "$tasks_dir" preempt_defconfig \
		'CONFIG_PREEMPT_RCU=y' 'CONFIG_TASKS_RCU=y' 'CONFIG_RCU_TASKS_SELFTEST=y' \
		'CONFIG_SCHED_MOVE_DELAY=y' '+CONFIG_RCU_EXPERT=y' '+CONFIG_FORCE_TASKS_RUDE_RCU=y' \
		'CONFIG_TASKS_RUDE_RCU=y' 'CONFIG_RCU_TASKS_RUDE_SELFTEST=y' \
		'CONFIG_TASKS_TRACE_RCU=y' 'CONFIG_RCU_TASKS_TRACE_SELFTEST=y'

	tasks_suite tasks-rcu-selftest-smp1 1 \
		"rcutree.tasks_selftest=1 rcutree.tasks_rude_selftest=1 kunit_shutdown=poweroff shutdown_secs=15" \
		--expect "ok [0-9]+ rcu_tasks_stall_warning # SKIP" \
		--expect "ok [0-9]+ rcu_tasks_waits_for_moved_reader # SKIP" \
		--expect "ok [0-9]+ rcu_tasks_rude_waits_for_preempt_off # SKIP" \
		--expect "RCU Tasks Rude: Setting shift to 0 and lim to 1 rcu_task_cb_adjust=0\.$" \
		--expect "rcu_tasks_rude: [1-9][0-9]* grace periods \([1-9][0-9]* with one CPU\), .* 0 CPU visits," \
		--reject "INFO: rcu_tasks detected stalls"

	tasks_suite tasks-rcu-stall-smp2 2 \
		"rcutree.tasks_selftest=1 rcutree.tasks_rude_selftest=1 rcutree.tasks_trace_selftest=1 rcupdate.rcu_task_stall_timeout=2000 rcupdate.rcu_task_stall_info=300 rcupdate.rcu_task_stall_info_mult=2 kunit_shutdown=poweroff shutdown_secs=40" \
		--expect "RCU Tasks Rude: Setting shift to 1 and lim to 1 rcu_task_cb_adjust=0\.$" \
		--expect "ok [0-9]+ rcu_tasks_rude_waits_for_preempt_off$" \
		--expect "ok [0-9]+ rcu_tasks_rude_waits_for_irqs_off$" \
		--expect "ok [0-9]+ rcu_tasks_rude_hotplug_during_gp$" \
		--expect "ok [0-9]+ rcu_tasks_rude_stall_warning$" \
		--expect "^\[ *[0-9.]+\] INFO: rcu_tasks_rude detected stalls on tasks:$" \
		--expect "rcu_tasks_rude: CPU 1 has not switched tasks for [0-9]+ jiffies \(g[0-9]+, " \
		--expect "^\[ *[0-9.]+\] ${TAB}Tracing variant of Tasks RCU enabled\.$" \
		--expect "# rcu_tasks_trace: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ tasks_trace_waits_for_sleeping_reader$" \
		--expect "ok [0-9]+ tasks_trace_ipi_finds_spinning_reader$" \
		--expect "ok [0-9]+ tasks_trace_waits_for_moving_reader$" \
		--expect "ok [0-9]+ tasks_trace_stall_warning$" \
		--expect "^\[ *[0-9.]+\] INFO: rcu_tasks_trace detected stalls on tasks:$" \
		--expect "^\[ *[0-9.]+\] P[0-9]+: \.\.\.B nesting: 1N  cpu: [0-9]+$" \
		--expect "rcu_tasks_trace: [1-9][0-9]* grace periods, .* [1-9][0-9]* stall warnings," \
		--expect "^\[ *[0-9.]+\] ${TAB}Tasks-RCU CPU stall warnings timeout set to 2000 \(rcu_task_stall_timeout\)\.$" \
		--expect "ok [0-9]+ rcu_tasks_stall_warning$" \
		--expect "ok [0-9]+ rcu_tasks_waits_for_moved_reader$" \
		--expect "process [0-9]+ \(rtt_spin/1\) no longer affine to cpu1$" \
		--expect "^\[ *[0-9.]+\] INFO: rcu_tasks detected stalls on tasks:$" \
		--expect "rcu_tasks: [1-9][0-9]* grace periods, .* [1-9][0-9]* stall warnings,"
	if _test_selected tasks-rcu-stall-smp2 && [ -f "$tasks_dir/kernel.elf" ]; then
		run_cmd_test tasks-rcu-stall-names-spinner tasks_check_stall_pid \
			"$LOGDIR/tasks-rcu-stall-smp2.log"
		run_cmd_test tasks-rcu-stall-info tasks_check_stall_info \
			"$LOGDIR/tasks-rcu-stall-smp2.log" 300 2
	fi

	tasks_boot tasks-rcu-bad-param 2 \
		"rcupdate.rcu_task_stall_timeout=-5 rcupdate.rcu_task_stall_timeout=10s rcupdate.rcu_task_ipi_delay=-1 rcupdate.rcu_task_stall_info=-1 rcupdate.rcu_task_stall_info_mult=x rcupdate.rcu_task_stall_info_mult=20 shutdown_secs=2" \
		--expect "rcu: rcupdate\.rcu_task_stall_info: invalid value '-1' \(out of range 0\.\.2147483647\), using 10000$" \
		--expect "rcu: rcupdate\.rcu_task_stall_info_mult: invalid value 'x' \(not a number\), using 3$" \
		--expect "rcu: rcupdate\.rcu_task_stall_info_mult: value 20 out of range 1\.\.10, using 10$" \
		--reject "not implemented" \
		--expect "rcu: rcupdate\.rcu_task_ipi_delay: invalid value '-1' \(out of range 0\.\.2147483647\), using 0$" \
		--expect "rcu: rcupdate\.rcu_task_stall_timeout: invalid value '-5' \(out of range 0\.\.2147483647\), using 600000$" \
		--expect "rcu: rcupdate\.rcu_task_stall_timeout: invalid value '10s' \(not a number\), using 600000$" \
		--reject "Tasks-RCU CPU stall warnings timeout set to"
fi

if _test_selected tasks-stall-no-tasks-rcu; then
	run_cmd_test tasks-stall-no-tasks-rcu-build build_config "$tasks_gen_dir" test_defconfig \
		'+CONFIG_RCU_EXPERT=y' '+CONFIG_FORCE_TASKS_RUDE_RCU=y' '+CONFIG_FORCE_TASKS_TRACE_RCU=y' \
		'!CONFIG_TASKS_RCU=y' 'CONFIG_RCU_TASKS_RUDE_SELFTEST=y' 'CONFIG_RCU_TASKS_TRACE_SELFTEST=y'
	built_boot_test "$tasks_gen_dir" "Tasks Rude and Trace" tasks-stall-no-tasks-rcu 3 \
		"rcutree.tasks_rude_selftest=1 rcutree.tasks_trace_selftest=1 rcupdate.rcu_task_stall_timeout=1000 kunit_shutdown=poweroff shutdown_secs=40" \
		--expect "^\[ *[0-9.]+\] ${TAB}Tasks-RCU CPU stall warnings timeout set to 1000 \(rcu_task_stall_timeout\)\.$" \
		--expect "^\[ *[0-9.]+\] ${TAB}Rude variant of Tasks RCU enabled\.$" \
		--expect "^\[ *[0-9.]+\] ${TAB}Tracing variant of Tasks RCU enabled\.$" \
		--expect "# rcu_tasks_rude: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ rcu_tasks_rude_stall_warning$" \
		--expect "^\[ *[0-9.]+\] INFO: rcu_tasks_rude detected stalls on tasks:$" \
		--expect "ok [0-9]+ rcu_tasks_rude_hotplug_during_gp$" \
		--expect "# rcu_tasks_trace: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ tasks_trace_stall_warning$" \
		--expect "^\[ *[0-9.]+\] INFO: rcu_tasks_trace detected stalls on tasks:$" \
		--expect "reboot: Power down" \
		--reject "not ok" --reject "\] ${TAB}Tasks RCU enabled\.$" --reject "rcu_task_stall_timeout.*not in this kernel"
fi
