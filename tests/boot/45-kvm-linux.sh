# shellcheck shell=bash
# tests/boot/45-kvm-linux.sh - Linux 6.1's rcutorture scenario files run by our kvm.sh as Linux's
# kvm.sh runs them. Host side only (kvm.sh --dryrun: each scenario's .config is made, here in
# $KVM_DRYRUN_CONFIGS, nothing built or booted), about 20 s on a loaded 2-core host.
# - kvm-linux-files: configs/rcu/TREE01, TREE01.boot, TREE04, TREE04.boot, SRCU-N(.boot),
#   RUDE01, TASKS02, TINY02 and TRIVIAL(.boot) hold Linux 6.1's lines exactly (copied below;
#   our "# " comment lines aside).
# - kvm-linux-dryrun: what kvm.sh makes of them: TREE01 boots -smp 8 (maxcpus=8: never fewer than
#   the CPUs it boots with; Linux's --cpus 8 gives the same) with Linux's boot line (the
#   per-flavor defaults of configs/rcu/ver_functions.sh, then TREE01.boot unchanged), trimmed
#   with a note under --cpus 4, at nr_cpus=43 under --cpus 64; its MAXSMP/CPUMASK_OFFSTACK named
#   as not in this kernel; TREE04's .config has NO_HZ_FULL=y, NO_HZ_IDLE not set and
#   PREEMPT_VOLUNTARY=y (Tree RCU, not preemptible); TREE02's DEBUG_LOCK_ALLOC=y without
#   PROVE_LOCKING reported as not taken; a #CHECK# line the .config contradicts reported
#   (SRCU-N with --kconfig CONFIG_RCU_EXPERT=y); RUDE01 runnable: -smp 2, Linux's
#   torture_type=tasks-rude, TASKS_RUDE_RCU=y in its .config; our own ONOFF01 keeps its 8 CPUs and its own CPU-hotplug settings;
#   rcutorture.stat_interval given once, in Linux's place (3 for a 30-s run, Linux's 15 for
#   long ones); --build-only never trims a guest's CPUs (they boot elsewhere) nor says so.
# - kvm-linux-tasks02: TASKS02 (Tasks RCU forced into a UP PREEMPT_NONE kernel) is runnable: its
#   .config has TASKS_RCU=y with Tiny RCU and no preemption, no #CHECK# complaint; TREE10 is
#   reported as not runnable, naming its 56 CPUs; TREE06, TREE08, TRIVIAL boot -smp 8.
# - kvm-linux-trace: TRACE01 and TRACE02 (Tasks Trace RCU) hold Linux 6.1's lines and are runnable
#   with their CPUs, torture type and Kconfig (READ_MB in TRACE01, preemptible RCU in TRACE02).
# Sourced by tests/run-all.sh with tests/lib.sh loaded.

KVM_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/kvm.sh
KVM_CFDIR=$TESTS_ROOT/tools/testing/rcutorture/configs/rcu
KVM_RES=$LOGDIR/kvm-res

# kvm_linux_same NAME: configs/rcu/NAME, its "# " comment lines left out, is stdin.
kvm_linux_same() { diff <(grep -v '^# ' "$KVM_CFDIR/$1") - || { echo "$1 differs from Linux 6.1's"; return 1; }; }

kvm_linux_files() {
	kvm_linux_same TREE01 <<'EOF' &&
CONFIG_SMP=y
CONFIG_PREEMPT_NONE=n
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=y
#CHECK#CONFIG_PREEMPT_RCU=y
CONFIG_HZ_PERIODIC=n
CONFIG_NO_HZ_IDLE=y
CONFIG_NO_HZ_FULL=n
CONFIG_RCU_TRACE=y
CONFIG_HOTPLUG_CPU=y
CONFIG_MAXSMP=y
CONFIG_CPUMASK_OFFSTACK=y
CONFIG_RCU_NOCB_CPU=y
CONFIG_DEBUG_LOCK_ALLOC=n
CONFIG_RCU_BOOST=n
CONFIG_DEBUG_OBJECTS_RCU_HEAD=n
CONFIG_RCU_EXPERT=y
EOF
		kvm_linux_same TREE01.boot <<'EOF' &&
maxcpus=8 nr_cpus=43
rcutree.gp_preinit_delay=3
rcutree.gp_init_delay=3
rcutree.gp_cleanup_delay=3
rcu_nocbs=0-1,3-7
rcutorture.nocbs_nthreads=8
rcutorture.nocbs_toggle=1000
rcutorture.fwd_progress=0
EOF
		kvm_linux_same TREE04 <<'EOF' &&
CONFIG_SMP=y
CONFIG_NR_CPUS=8
CONFIG_PREEMPT_NONE=n
CONFIG_PREEMPT_VOLUNTARY=y
CONFIG_PREEMPT=n
CONFIG_PREEMPT_DYNAMIC=n
#CHECK#CONFIG_TREE_RCU=y
CONFIG_HZ_PERIODIC=n
CONFIG_NO_HZ_IDLE=n
CONFIG_NO_HZ_FULL=y
CONFIG_RCU_TRACE=y
CONFIG_RCU_FANOUT=4
CONFIG_RCU_FANOUT_LEAF=3
CONFIG_DEBUG_LOCK_ALLOC=n
CONFIG_DEBUG_OBJECTS_RCU_HEAD=n
CONFIG_RCU_EXPERT=y
CONFIG_RCU_EQS_DEBUG=y
EOF
		kvm_linux_same TREE04.boot <<<'rcutree.rcu_fanout_leaf=4 nohz_full=1-N' &&
		kvm_linux_same SRCU-N <<'EOF' &&
CONFIG_RCU_TRACE=n
CONFIG_SMP=y
CONFIG_NR_CPUS=4
CONFIG_HOTPLUG_CPU=y
CONFIG_PREEMPT_NONE=y
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=n
#CHECK#CONFIG_RCU_EXPERT=n
CONFIG_KPROBES=n
CONFIG_FTRACE=n
EOF
		kvm_linux_same SRCU-N.boot <<'EOF' &&
rcutorture.torture_type=srcu
rcutorture.fwd_progress=3
EOF
		kvm_linux_same TASKS02 <<'EOF' &&
CONFIG_SMP=n
CONFIG_PREEMPT_NONE=y
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=n
CONFIG_PREEMPT_DYNAMIC=n
#CHECK#CONFIG_TASKS_RCU=y
CONFIG_FORCE_TASKS_RCU=y
CONFIG_RCU_EXPERT=y
EOF
		kvm_linux_same TINY02 <<'EOF' &&
CONFIG_SMP=n
CONFIG_PREEMPT_NONE=y
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=n
CONFIG_PREEMPT_DYNAMIC=n
#CHECK#CONFIG_TINY_RCU=y
CONFIG_HZ_PERIODIC=y
CONFIG_NO_HZ_IDLE=n
CONFIG_NO_HZ_FULL=n
CONFIG_PROVE_LOCKING=y
#CHECK#CONFIG_PROVE_RCU=y
CONFIG_DEBUG_LOCK_ALLOC=y
CONFIG_DEBUG_OBJECTS=y
CONFIG_DEBUG_OBJECTS_RCU_HEAD=y
CONFIG_DEBUG_ATOMIC_SLEEP=y
EOF
		kvm_linux_same TRIVIAL <<'EOF' &&
CONFIG_SMP=y
CONFIG_NR_CPUS=8
CONFIG_PREEMPT_NONE=y
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=n
CONFIG_HZ_PERIODIC=n
CONFIG_NO_HZ_IDLE=y
CONFIG_NO_HZ_FULL=n
CONFIG_HOTPLUG_CPU=n
CONFIG_SUSPEND=n
CONFIG_HIBERNATION=n
CONFIG_DEBUG_LOCK_ALLOC=n
CONFIG_DEBUG_OBJECTS_RCU_HEAD=n
CONFIG_RCU_EXPERT=y
EOF
		kvm_linux_same TRIVIAL.boot <<'EOF' &&
rcutorture.torture_type=trivial
rcutorture.onoff_interval=0
rcutorture.shuffle_interval=0
EOF
		kvm_linux_same RUDE01 <<'EOF'
CONFIG_SMP=y
CONFIG_NR_CPUS=2
CONFIG_HOTPLUG_CPU=y
CONFIG_PREEMPT_NONE=n
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=y
CONFIG_DEBUG_LOCK_ALLOC=y
CONFIG_PROVE_LOCKING=y
#CHECK#CONFIG_PROVE_RCU=y
CONFIG_FORCE_TASKS_RUDE_RCU=y
#CHECK#CONFIG_TASKS_RUDE_RCU=y
CONFIG_RCU_EXPERT=y
EOF
}
run_cmd_test kvm-linux-files kvm_linux_files

# The boot line Linux's kvm.sh gives TREE01 for a 30-s run: ver_functions.sh's defaults, then
# TREE01.boot as it is; ours differs in one value, stat_interval=3 (kvm.sh --help), checked apart.
KVM_TREE01_LINE='rcutorture.onoff_interval=1000 rcutorture.onoff_holdoff=30 rcutorture.n_barrier_cbs=4 rcutorture.stat_interval=15 rcutorture.shutdown_secs=30 rcutorture.test_no_idle_hz=1 rcutorture.verbose=1 maxcpus=8 nr_cpus=43 rcutree.gp_preinit_delay=3 rcutree.gp_init_delay=3 rcutree.gp_cleanup_delay=3 rcu_nocbs=0-1,3-7 rcutorture.nocbs_nthreads=8 rcutorture.nocbs_toggle=1000 rcutorture.fwd_progress=0'

kvm_linux_dryrun() {
	local out dir=$LOGDIR/kvm-linux-configs line
	rm -rf "$dir"
	out=$(KVM_DRYRUN_CONFIGS=$dir "$KVM_SH" --dryrun --configs "TREE01 TREE04 RUDE01 TREE02 ONOFF01" --cpus 8 --duration 30s \
		--results "$KVM_RES") || return 1
	echo "$out"
	line=$(sed -n 's/^dryrun: TREE01: cmdline: rcutorture.torture_runnable=1 shutdown_secs=[0-9]* //p' <<<"$out")
	# Our one difference: statistics often enough for a short run's plots (kvm.sh --help), given
	# once, where Linux's 15 is.
	[ "$(grep -o 'stat_interval=[0-9]*' <<<"$line")" = stat_interval=3 ] ||
		{ echo "TREE01: not one stat_interval=3: '$line'"; return 1; }
	line=${line/rcutorture.stat_interval=3 /rcutorture.stat_interval=15 }
	[ "${line% }" = "$KVM_TREE01_LINE" ] || { echo "TREE01's boot line is not Linux's: '$line'"; return 1; }
	grep -q '^dryrun: TREE01: build .* boot -smp 8 ' <<<"$out" &&
		grep -q '^kvm.sh: TREE01: not in this kernel: CONFIG_CPUMASK_OFFSTACK=y CONFIG_MAXSMP=y$' <<<"$out" &&
		grep -qx 'CONFIG_PREEMPT_RCU=y' "$dir/TREE01/.config" &&
		grep -qx 'CONFIG_RCU_NOCB_CPU=y' "$dir/TREE01/.config" &&
		grep -qx 'CONFIG_NO_HZ_IDLE=y' "$dir/TREE01/.config" &&
		grep -q '^dryrun: TREE04: build .* boot -smp 8 ' <<<"$out" &&
		grep -q '^dryrun: TREE04: cmdline: .* rcutorture.stat_interval=3 rcutorture.shutdown_secs=30 .*rcutorture.verbose=1 rcutree.rcu_fanout_leaf=4 nohz_full=1-N *$' <<<"$out" &&
		grep -qx 'CONFIG_NO_HZ_FULL=y' "$dir/TREE04/.config" &&
		grep -qx '# CONFIG_NO_HZ_IDLE is not set' "$dir/TREE04/.config" &&
		grep -qx 'CONFIG_PREEMPT_VOLUNTARY=y' "$dir/TREE04/.config" &&
		grep -qx 'CONFIG_TREE_RCU=y' "$dir/TREE04/.config" &&
		! grep -q '^CONFIG_PREEMPT_RCU=y' "$dir/TREE04/.config" &&
		grep -qx 'CONFIG_RCU_FANOUT_LEAF=3' "$dir/TREE04/.config" &&
		grep -q '^dryrun: RUDE01: build .* boot -smp 2 ' <<<"$out" &&
		grep -q '^dryrun: RUDE01: cmdline: .* rcutorture.torture_type=tasks-rude' <<<"$out" &&
		grep -qx 'CONFIG_TASKS_RUDE_RCU=y' "$dir/RUDE01/.config" &&
		! grep -q '^kvm.sh: RUDE01:' <<<"$out" &&
		grep -q '^kvm.sh: TREE02: not in .config after olddefconfig: CONFIG_DEBUG_LOCK_ALLOC=y$' <<<"$out" &&
		! grep -q '#CHECK# improperly set' <<<"$out" &&
		grep -q '^dryrun: ONOFF01: build .* boot -smp 8 ' <<<"$out" &&
		grep -q '^dryrun: ONOFF01: cmdline: .* rcutorture.onoff_interval=20 rcutorture.onoff_holdoff=2' <<<"$out" &&
		! grep -q '^dryrun: ONOFF01: cmdline: .*onoff_interval=1000' <<<"$out" || return 1
	out=$("$KVM_SH" --dryrun --configs TREE01 --cpus 4 --results "$KVM_RES") &&
		grep -q '^kvm.sh: TREE01: CPU count limited from 8 to 4 (--cpus 4)$' <<<"$out" &&
		grep -q '^dryrun: TREE01: build .* boot -smp 4 ' <<<"$out" &&
		grep -q '^dryrun: TREE01: build .* boot -smp 43 ' <<<"$("$KVM_SH" --dryrun --configs TREE01 \
			--cpus 64 --results "$KVM_RES")" &&
		grep -q '^kvm.sh: SRCU-N: #CHECK# improperly set: :CONFIG_RCU_EXPERT=n:$' <<<"$("$KVM_SH" \
			--dryrun --configs SRCU-N --kconfig CONFIG_RCU_EXPERT=y --results "$KVM_RES")" &&
		! "$KVM_SH" --dryrun --configs TREE10 --results "$KVM_RES" >/dev/null || return 1
	# --build-only: guests boot elsewhere (kvm-remote.sh), --cpus is make's -j: no trim, no note.
	out=$("$KVM_SH" --dryrun --build-only --configs TREE01 --cpus 4 --results "$KVM_RES") &&
		! grep -q 'CPU count limited' <<<"$out" &&
		grep -q '^dryrun: TREE01: build .* boot -smp 8 ' <<<"$out"
}
run_cmd_test kvm-linux-dryrun kvm_linux_dryrun

kvm_linux_tasks02() {
	local out dir=$LOGDIR/kvm-linux-tasks02
	rm -rf "$dir"
	out=$(KVM_DRYRUN_CONFIGS=$dir "$KVM_SH" --dryrun --configs "TASKS02 TREE10 TREE06 TREE08 TRIVIAL" \
		--duration 1 --results "$KVM_RES")
	echo "$out"
	grep -q '^dryrun: TASKS02: build .* boot -smp 1 ' <<<"$out" &&
		grep -q '^dryrun: TASKS02: cmdline: .* rcutorture.torture_type=tasks *$' <<<"$out" &&
		grep -qx 'CONFIG_TASKS_RCU=y' "$dir/TASKS02/.config" &&
		grep -qx 'CONFIG_TINY_RCU=y' "$dir/TASKS02/.config" &&
		grep -qx 'CONFIG_PREEMPT_NONE=y' "$dir/TASKS02/.config" &&
		! grep -q '^CONFIG_PREEMPTION=y' "$dir/TASKS02/.config" &&
		! grep -q '^kvm.sh: TASKS02:' <<<"$out" &&
		grep -q '^kvm.sh: TREE10: not runnable in this kernel: .*56 CPUs' <<<"$out" &&
		! grep -q '^dryrun: TREE10' <<<"$out" &&
		grep -q '^dryrun: TREE06: build .* boot -smp 8 ' <<<"$out" &&
		grep -q '^dryrun: TREE08: build .* boot -smp 8 ' <<<"$out" &&
		grep -q '^dryrun: TRIVIAL: build .* boot -smp 8 ' <<<"$out" &&
		grep -q '^dryrun: TRIVIAL: cmdline: .* rcutorture.torture_type=trivial ' <<<"$out" &&
		! grep -q '#CHECK# improperly set' <<<"$out"
}
run_cmd_test kvm-linux-tasks02 kvm_linux_tasks02

# kvm-linux-trace: TRACE01 and TRACE02 (and their .boot files) hold Linux 6.1's lines and are runnable: tasks-tracing
# torture, TRACE01 with -smp 5, READ_MB readers and no preemption, TRACE02 with -smp 4 and
# preemptible RCU; Tasks Trace RCU built, no complaint about a setting or a #CHECK# line.
kvm_linux_trace() {
	local out dir=$LOGDIR/kvm-linux-trace
	kvm_linux_same TRACE01 <<'EOF' || return 1
CONFIG_SMP=y
CONFIG_NR_CPUS=5
CONFIG_HOTPLUG_CPU=y
CONFIG_PREEMPT_NONE=y
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=n
CONFIG_PREEMPT_DYNAMIC=n
CONFIG_DEBUG_LOCK_ALLOC=n
CONFIG_PROVE_LOCKING=n
#CHECK#CONFIG_PROVE_RCU=n
CONFIG_FORCE_TASKS_TRACE_RCU=y
#CHECK#CONFIG_TASKS_TRACE_RCU=y
CONFIG_TASKS_TRACE_RCU_READ_MB=y
CONFIG_RCU_EXPERT=y
EOF
	kvm_linux_same TRACE02 <<'EOF' || return 1
CONFIG_SMP=y
CONFIG_NR_CPUS=4
CONFIG_HOTPLUG_CPU=y
CONFIG_PREEMPT_NONE=n
CONFIG_PREEMPT_VOLUNTARY=n
CONFIG_PREEMPT=y
CONFIG_DEBUG_LOCK_ALLOC=y
CONFIG_PROVE_LOCKING=y
#CHECK#CONFIG_PROVE_RCU=y
CONFIG_FORCE_TASKS_TRACE_RCU=y
#CHECK#CONFIG_TASKS_TRACE_RCU=y
CONFIG_TASKS_TRACE_RCU_READ_MB=n
CONFIG_RCU_EXPERT=y
EOF
	rm -rf "$dir"
	out=$(KVM_DRYRUN_CONFIGS=$dir "$KVM_SH" --dryrun --configs "TRACE01 TRACE02" --duration 1 \
		--results "$KVM_RES")
	echo "$out"
	grep -q '^dryrun: TRACE01: build .* boot -smp 5 ' <<<"$out" &&
		grep -q '^dryrun: TRACE02: build .* boot -smp 4 ' <<<"$out" &&
		grep -q '^dryrun: TRACE01: cmdline: .* rcutorture.torture_type=tasks-tracing rcupdate.rcu_task_enqueue_lim=2 *$' <<<"$out" &&
		grep -q '^dryrun: TRACE02: cmdline: .* rcutorture.torture_type=tasks-tracing rcutorture.fwd_progress=2 *$' <<<"$out" &&
		[ "$(cat "$KVM_CFDIR/TRACE01.boot")" = "$(printf '%s\n' rcutorture.torture_type=tasks-tracing rcupdate.rcu_task_enqueue_lim=2)" ] &&
		[ "$(cat "$KVM_CFDIR/TRACE02.boot")" = "$(printf '%s\n' rcutorture.torture_type=tasks-tracing rcutorture.fwd_progress=2)" ] &&
		grep -qx 'CONFIG_TASKS_TRACE_RCU=y' "$dir/TRACE01/.config" &&
		grep -qx 'CONFIG_TASKS_TRACE_RCU_READ_MB=y' "$dir/TRACE01/.config" &&
		! grep -q '^CONFIG_PREEMPTION=y' "$dir/TRACE01/.config" &&
		grep -qx 'CONFIG_TASKS_TRACE_RCU=y' "$dir/TRACE02/.config" &&
		grep -qx '# CONFIG_TASKS_TRACE_RCU_READ_MB is not set' "$dir/TRACE02/.config" &&
		grep -qx 'CONFIG_PREEMPT_RCU=y' "$dir/TRACE02/.config" &&
		! grep -q '^kvm.sh: TRACE0' <<<"$out" &&
		! grep -q '#CHECK# improperly set' <<<"$out"
}
run_cmd_test kvm-linux-trace kvm_linux_trace
