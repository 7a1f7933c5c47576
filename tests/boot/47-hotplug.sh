# shellcheck shell=bash
# tests/boot/47-hotplug.sh - CPU hotplug (CONFIG_HOTPLUG_CPU, kernel/cpu.c, kernel/rcu/tree_hotplug.c,
# Documentation/RCU/hotplug.md): the KTAP suite "cpuhp" (cpuhp.selftest=1) on the kernel under
# test (test_defconfig: non-preemptible) with 4 CPUs (its case cpuhp_dying_reader_waits holds
# CPU 3, the last one up, in a reader after it left the online mask: the grace-period waits of
# CPU 0, alone online, must wait for it; it needs CONFIG_CPUHP_DYING_DELAY; cpuhp_trivial_gp_joiner
# holds a synchronize_rcu() inside that one-CPU shortcut while CPU 3 comes up and reads, with
# CONFIG_RCU_HOTPLUG_WINDOW_DELAY), then on a preemptible-RCU kernel built here with a leaf
# fanout of 2, so that the preempted-reader cases empty a leaf of its CPUs
# (cpuhp_preempted_reader_unfolded: with the grace-period kthread held before its hotplug fold,
# the leaf's CPU comes and goes unfolded while a task is preempted in a reader there; both boots
# run cpuhp_exp_starting_cpu: an expedited grace period selecting CPU 3 held between
# rcu_cpu_starting() and set_cpu_online() ends once it is online, and cpuhp_dead_cpu_timers: a
# timer left on a CPU that died fires on time while cpu_down()'s caller is held after the death
# (kernel/rcu/test/hotplug_timer.c, about 0.1 s); the preemptible boot runs
# cpuhp_preempted_reader_exp_unseen first: a leaf no expedited grace period has counted yet).
# Both boots power off at 15 s: the suites end at about 9 and 7 s under TCG. Each boot checks Linux's console lines and the power-off
# accounting: every CPU's callbacks balance, none lost across the moves. Last, rcutorture's hotplug held back by torture.disable_onoff_at_boot
# until the boot phase ends. Skipped when the kernel under test lacks CONFIG_HOTPLUG_CPU. About
# 60 s on 2 host cores (plus the preemptible build).
#
# Console lines assumed:
#   "smpboot: CPU 3 is now offline"                       kernel/cpu.c, after each cpu_down()
#   "smpboot: Booting Node 0 Processor 3 APIC 0x3"         arch/x86_64/kernel/smpboot.c, cpu_up()
#   "rcu: rcu_sched: callback accounting: ok (CPUs went offline N times, M callbacks moved)"
#   "smpboot: hotplug: N offline (0 failed), ..."          power-off totals

hp_cfg=${O:-$TESTS_ROOT}/.config
if [ -f "$hp_cfg" ] && ! grep -q '^CONFIG_HOTPLUG_CPU=y' "$hp_cfg"; then
	skip_test cpuhp-selftest "kernel built without CONFIG_HOTPLUG_CPU"
	return 0 2>/dev/null || exit 0
fi

boot_test cpuhp-selftest --smp 4 --timeout 90 \
	--append "cpuhp.selftest=1 kunit_shutdown=poweroff shutdown_secs=15" \
	--expect "# Subtest: cpuhp" \
	--expect "smpboot: CPU [123] is now offline" \
	--expect "smpboot: Booting Node 0 Processor [123] APIC 0x[123]" \
	--expect "# CPU [123]: [0-9]+ callbacks moved at its death" \
	--expect "ok [0-9]+ cpuhp_sched_down_up" --expect "ok [0-9]+ cpuhp_offline_pending_cbs" \
	--expect "ok [0-9]+ cpuhp_gps_during_hotplug" \
	--expect "ok [0-9]+ cpuhp_trivial_sync_cookie$" \
	--expect "# CPU 3 held in its dying window, 2 other CPU\(s\) down" \
	--expect "ok [0-9]+ cpuhp_dying_reader_waits$" \
	--expect "ok [0-9]+ cpuhp_trivial_gp_joiner$" \
	--expect "ok [0-9]+ cpuhp_exp_starting_cpu$" \
	--expect "# CPU [123] died with a timer due in [0-9]+ ms on it: fired on CPU [0-9]+ .*caller still held" \
	--expect "ok [0-9]+ cpuhp_dead_cpu_timers$" \
	--expect "# cpuhp: pass:[89] fail:0 skip:[23] total:11" \
	--expect "rcu: rcu_sched: callback accounting: ok \(CPUs went offline [1-9][0-9]* times" \
	--expect "smpboot: hotplug: [1-9][0-9]* offline \(0 failed\), .*online now 0-3" \
	--reject "not ok" --reject "MISMATCH" --reject "WARNING:" --reject "BUG:" \
	--expect "reboot: Power down"

hp_dir=$(cd "$LOGDIR" && pwd)/build-hotplug-preempt
if _test_selected cpuhp-preempt-leaf2; then
	run_cmd_test cpuhp-preempt-build build_config "$hp_dir" preempt_defconfig \
		'CONFIG_PREEMPT_RCU=y' 'CONFIG_HOTPLUG_CPU=y' 'CONFIG_RCU_HOTPLUG_SELFTEST=y'
	# Leaves {0,1} and {2,3}: the reader on CPU 3 is preempted there by cpu_down(3)'s stopper
	# and moved; with CPUs 2 and 3 offline its leaf has no CPU, yet grace periods wait for it.
	built_boot_test "$hp_dir" "preemptible" cpuhp-preempt-leaf2 4 \
		"cpuhp.selftest=1 rcutree.rcu_fanout_leaf=2 kunit_shutdown=poweroff shutdown_secs=15" --timeout 90 \
		--expect "ok [0-9]+ cpuhp_preempted_reader_exp_unseen$" \
		--expect "# leaf 2-3: 2 CPUs down, no CPU left on it" \
		--expect "ok [0-9]+ cpuhp_preempted_reader_leaf$" \
		--expect "ok [0-9]+ cpuhp_preempted_reader_unfolded$" \
		--expect "ok [0-9]+ cpuhp_exp_starting_cpu$" \
		--expect "ok [0-9]+ cpuhp_dead_cpu_timers$" \
		--expect "# cpuhp: pass:8 fail:0 skip:3 total:11" \
		--expect "rcu: rcu_preempt: callback accounting: ok" \
		--reject "not ok" --reject "MISMATCH" --reject "WARNING:" --reject "BUG:" \
		--expect "reboot: Power down"
fi

# torture.disable_onoff_at_boot: rcutorture starts from an initcall, but its CPU-hotplug kthread
# does nothing until the boot phase (initcalls, then the boot-time KTAP suites) is over. The
# sched suite runs during it: no CPU may go offline before its Totals line but the one its case
# sched_pull_not_onto_dying takes down itself (announced by a "taking CPU N down" line), and
# hotplug must run after it (without the parameter, with onoff_holdoff=0, CPUs go down while the
# suite runs). The suite's verdict under the torture load is not judged.
onoff_after_boot_order() { # LOG: first "is now offline" after the "# Totals" line, and one exists
	awk '/sched_pull_not_onto_dying: taking CPU [0-9]+ down/{skip=1; next}
	     /# Totals: /{t=NR} /smpboot: CPU [0-9]+ is now offline/{if(skip){skip=0; next} if(!o)o=NR}
	     END{if(!t||!o){print "no Totals line or no offline CPU"; exit 1}
	         if(o<t){print "CPU offline at line " o " before the Totals line " t; exit 1}}' "$1"
}
boot_test hotplug-onoff-after-boot --smp 2 --timeout 90 --expect-rc any \
	--append "sched.selftest=1 rcutorture.torture_runnable=1 rcutorture.stat_interval=2 rcutorture.onoff_interval=10 rcutorture.onoff_holdoff=0 rcutorture.shutdown_secs=10 torture.disable_onoff_at_boot" \
	--expect "rcu-torture: torture_onoff: boot ended, CPU-hotplug operations begin" \
	--expect "rcu-torture: rtc: .* onoff: [1-9][0-9]*/[1-9][0-9]*:[1-9][0-9]*/[1-9][0-9]* " \
	--expect "End of test: SUCCESS" --expect "reboot: Power down"
run_cmd_test hotplug-onoff-after-boot-order onoff_after_boot_order "$LOGDIR/hotplug-onoff-after-boot.log"

# maxcpus= and nr_cpus= (kernel/smp_cpus.c), as Linux's TREE01 uses them: 6 CPUs found,
# nr_cpus=5 makes CPU 5 impossible (RCU's tree sized for 5, never started), maxcpus=2 starts
# CPU 1 only at boot ("smpboot: Allowing" counts the 5, as Linux's, printed after nr_cpus=
# applies); rcutorture's CPU hotplug then brings CPUs 2-4, never started before,
# online. The same boot shows rcutree.rcu_fanout_exact=1: with a leaf fanout of 4 the 5 CPUs
# fill leaves 0-3 and 4 (the balanced tree, tests/boot/30-rcu.sh's rcu-kconfig-stall-runnable
# with the same shape: 0-2 and 3-4), and the banner says autobalancing is off.
boot_test hotplug-maxcpus-nr-cpus --smp 6 --timeout 60 \
	--append "maxcpus=2 nr_cpus=5 rcutree.rcu_fanout_leaf=4 rcutree.dump_tree=1 rcutree.rcu_fanout_exact=1 rcutorture.torture_runnable=1 rcutorture.onoff_interval=1 rcutorture.onoff_holdoff=0 rcutorture.stat_interval=2 rcutorture.shutdown_secs=3" \
	--expect "setup_percpu: NR_CPUS:[0-9]+ nr_cpumask_bits:5 nr_cpu_ids:5 nr_node_ids:1" \
	--expect "smp: nr_cpus=5: 5 of the 6 CPUs found are possible" \
	--expect "smpboot: 6 Processors exceeds NR_CPUS limit of 5" \
	--expect "smpboot: Allowing 5 CPUs, 0 hotplug CPUs" --reject "smpboot: Allowing 6 CPUs" \
	--expect "rcu: 	RCU restricting CPUs from NR_CPUS=[0-9]+ to nr_cpu_ids=5\." \
	--expect "rcu: 	Hierarchical RCU autobalancing is disabled\." \
	--expect "^\[ *[0-9.]+\] rcu:  0:4 \^0 *$" --expect "^\[ *[0-9.]+\] rcu:  0:3 \^0  4:4 \^1 *$" \
	--expect "smp: Brought up 1 node, 2 CPUs" \
	--expect "smpboot: Booting Node 0 Processor [234] APIC 0x[234]" \
	--reject "Processor 5" \
	--expect "smpboot: hotplug: [1-9][0-9]* offline \(0 failed\), .*online now 0-4" \
	--expect "End of test: SUCCESS" --expect "reboot: Power down"
