# shellcheck shell=bash
# tests/boot/50-preempt-rcu.sh - preemptible Tree RCU (CONFIG_PREEMPT_RCU) and RCU priority boosting
# (CONFIG_RCU_BOOST) at boot: the KTAP suites "rcu" (kernel/rcu/test/api.c, the whole update-side
# API under preemptible readers) and "rcu_preempt" (kernel/rcu/test/preempt.c: readers
# preempted by FIFO tasks, blocked-tasks lists, the outermost unlock, normal and expedited grace
# periods waiting for a preempted reader, boosting) with "rcu_preempt_exp"
# (kernel/rcu/test/preempt_exp.c, on the 4-CPU two-level boot) and "rcu_watching"
# (kernel/rcu/test/watching.c: rcu_is_watching() from a task moved between CPUs, 1 s,
# needs 2 CPUs; CONFIG_RCU_WATCHING_WINDOW_HOOK holds it inside the call), the stall warning
# naming a blocked task, the kthread_prio banner and its sanitising, and the grace-period benchmark.
# Sourced by tests/run-all.sh with tests/lib.sh loaded.
#
# Two kernels, each built in its own O= directory under $LOGDIR (about a minute each on 2 cores;
# skipped when TEST_FILTER selects none of their boots):
#   build-preempt        arch/x86_64/configs/preempt_defconfig (PREEMPT_RCU=y, RCU_BOOST=n); the
#                        directory tests/boot/20-sched.sh uses too, so one build serves both
#   build-preempt-boost  arch/x86_64/configs/preempt_rcu_boost_defconfig (RCU_BOOST=y, delay 500 ms)
# The boost case's hog runs at FIFO kthread_prio-1, so boosted boots pass rcutree.kthread_prio=2
# (with the default 1 the case skips). The boosting kernel also runs the suite "cpuhp_last_cpu"
# (kernel/rcu/test/hotplug_last_cpu.c: a self-requeuing callback on the last online CPU must leave
# it to SCHED_NORMAL tasks, issue 28; about 8 s). Whole file: about 1.5 minutes on 2 host cores.
#
# Console lines assumed:
#   "rcu: Preemptible hierarchical RCU implementation."          kernel/rcu/tree_params.c
#   "rcu: <TAB>RCU priority boosting: priority P delay D ms."    kernel/rcu/tree_params.c
#   "rcu: sanitize_kthread_prio: Limited prio to N from M"       kernel/rcu/tree_params.c
#   "# Totals: pass:P fail:0 skip:S total:T"                     kernel/test/ktap.c
#   "# reader PN preempted on CPU C by a FIFO F hog ..."        kernel/rcu/test/preempt.c
#   "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"     kernel/rcu/tree_stall.c
#   "rcu: <TAB>Tasks blocked on level-0 rcu_node (CPUs 0-1): PN" kernel/rcu/tree_plugin.c
#   "rcu-bench: synchronize_rcu idle ..."                        kernel/rcu/test/gp_bench.c (figures only)

TAB=$(printf '\t')

prcu_dir=$(cd "$LOGDIR" && pwd)/build-preempt
prcu_boost_dir=$(cd "$LOGDIR" && pwd)/build-preempt-boost

# prcu_boot NAME KIND SMP ARGS [boot_test options...]: KIND is plain or boost.
prcu_boot() {
	local name=$1 kind=$2 smp=$3 args=$4 dir=$prcu_dir
	shift 4
	[ "$kind" = boost ] && dir=$prcu_boost_dir
	built_boot_test "$dir" "$kind preemptible" "$name" "$smp" "$args" \
		--expect "^\[ *[0-9.]+\] rcu: Preemptible hierarchical RCU implementation\." \
		--expect "reboot: Power down" "$@"
}

# Suite boots: every case passes (or skips where the CPU count says so), nothing "not ok".
prcu_suite() { # NAME KIND SMP ARGS [boot_test options...]
	local name=$1 kind=$2 smp=$3 args=$4
	shift 4
	prcu_boot "$name" "$kind" "$smp" "$args" \
		--expect "# Subtest: rcu_preempt" \
		--expect "# Totals: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ rcu_preempt_blocked_list$" \
		--reject "not ok" "$@"
}

# The stall report names the reader the boost case starved: the pid of the last reader diagnostic
# before it (the expedited boost case that follows starves another reader).
prcu_check_stall_pid() { # LOG
	tr -d '\r' <"$1" | awk '
		/# reader P[0-9]+ preempted on CPU/ { match($0, /P[0-9]+/); pid = substr($0, RSTART, RLENGTH) }
		/Tasks blocked on level-0 rcu_node \(CPUs 0-1\):/ { line = $0; lpid = pid }
		END {
			if (line == "") { print "no Tasks blocked line"; exit 1 }
			if (lpid == "") { print "no reader diagnostic before the stall"; exit 1 }
			print "reader " lpid "; stall line: " line
			if (index(line " ", " " lpid " ") == 0) { print "the stall line does not name " lpid; exit 1 }
		}'
}

# The sanitised priority and the boosting banner agree.
prcu_check_prio_banner() { # LOG
	tr -d '\r' <"$1" | awk '
		/sanitize_kthread_prio: Limited prio to [0-9]+ from 0/ { match($0, /to [0-9]+/); lim = substr($0, RSTART + 3, RLENGTH - 3) }
		/RCU priority boosting: priority [0-9]+ delay/ { match($0, /priority [0-9]+/); ban = substr($0, RSTART + 9, RLENGTH - 9) }
		END {
			print "limited to " lim ", banner priority " ban
			if (lim == "" || lim != ban) exit 1
		}'
}

prcu_plain_wanted=0
prcu_boost_wanted=0
for t in preempt-rcu-smp1 preempt-rcu-noboost-stall-smp2 preempt-rcu-bench-smp2; do
	_test_selected "$t" && prcu_plain_wanted=1
done
for t in preempt-rcu-boost-smp2 preempt-rcu-boost-smp4-leaf2 preempt-rcu-boost-prio preempt-rcu-boost-last-cpu; do
	_test_selected "$t" && prcu_boost_wanted=1
done

if [ "$prcu_plain_wanted" = 1 ]; then
	run_cmd_test preempt-rcu-build build_config "$prcu_dir" preempt_defconfig \
		'CONFIG_PREEMPT_RCU=y' '!CONFIG_RCU_BOOST=y'

	# One CPU: both suites; the cases needing a second CPU skip, the blocked-list case runs (its
	# preempting task sleeps and the reader resumes on the same CPU).
	prcu_suite preempt-rcu-smp1 plain 1 "rcutree.selftest=1 rcutree.preempt_selftest=1 kunit_shutdown=poweroff shutdown_secs=10" \
		--expect "# Subtest: rcu$"

	# Without boosting, a FIFO hog starves the preempted reader for all of its 5 s and the grace
	# period waits that long (the boost case asserts it, then the same for an expedited grace
	# period); past the 3 s stall timeout the warning names the blocked reader.
	prcu_suite preempt-rcu-noboost-stall-smp2 plain 2 \
		"rcutree.preempt_selftest=1 rcupdate.rcu_cpu_stall_timeout=3 rcutree.preempt_hog_ms=5000 shutdown_secs=18" \
		--expect "ok [0-9]+ rcu_preempt_boost$" \
		--expect "ok [0-9]+ rcu_watching_migrate$" \
		--expect "# [0-9]+ rcu_is_watching\(\) calls, [1-9][0-9]* moves between CPUs" \
		--expect "ok [0-9]+ rcu_preempt_exp_waits$" \
		--expect "ok [0-9]+ rcu_preempt_exp_boost$" \
		--expect "# without boosting the grace period waited [0-9]+ ms" \
		--expect "# without boosting the expedited grace period waited [0-9]+ ms" \
		--expect "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:" \
		--expect "rcu: ${TAB}Tasks blocked on level-0 rcu_node \(CPUs 0-1\): P[0-9]+"
	if _test_selected preempt-rcu-noboost-stall-smp2 && [ -f "$prcu_dir/kernel.elf" ]; then
		run_cmd_test preempt-rcu-stall-names-reader prcu_check_stall_pid \
			"$LOGDIR/preempt-rcu-noboost-stall-smp2.log"
	fi

	# Grace-period latency on an idle 2-CPU preemptible kernel (figures, never judged).
	prcu_boot preempt-rcu-bench-smp2 plain 2 "rcutree.gp_bench=2 shutdown_secs=8" \
		--expect "rcu-bench: synchronize_rcu idle cpus=2 n=200 median_ns=[0-9]+ p99_ns=[0-9]+ max_ns=[0-9]+"
fi

if [ "$prcu_boost_wanted" = 1 ]; then
	run_cmd_test preempt-rcu-build-boost build_config "$prcu_boost_dir" preempt_rcu_boost_defconfig \
		'CONFIG_PREEMPT_RCU=y' 'CONFIG_RCU_BOOST=y' 'CONFIG_RCU_BOOST_DELAY=500'

	# Boosting: the starved reader is lent FIFO 2 and leaves its critical section while the
	# FIFO 1 hog still spins; the rcu suite runs under the FIFO RCU kthreads too.
	prcu_suite preempt-rcu-boost-smp2 boost 2 \
		"rcutree.selftest=1 rcutree.preempt_selftest=1 rcutree.kthread_prio=2 kunit_shutdown=poweroff shutdown_secs=16" \
		--expect "rcu: ${TAB}RCU priority boosting: priority 2 delay 500 ms\." \
		--expect "# Subtest: rcu$" \
		--expect "ok [0-9]+ rcu_preempt_boost$" \
		--expect "# boosted reader left its critical section [0-9]+ ms after the grace period request" \
		--expect "ok [0-9]+ rcu_preempt_exp_boost$" \
		--expect "# boosted reader left its critical section [0-9]+ ms after the expedited grace period request"

	# A two-level rcu_node tree (2 CPUs per leaf): a leaf whose last blocking reader leaves
	# reports up to the root; the reader's CPU (3) is on the second leaf; a reader leaving the
	# expedited stretch while a CPU of its leaf still owes the grace period must not report the
	# leaf into the next expedited grace period (suite rcu_preempt_exp, preempt_exp.c,
	# which needs this shape and 3 CPUs: it skips in the other boots). (Only these suites: the
	# rcu_exp suite that rcutree.selftest=1 also runs judges expedited coalescing by counts
	# that the FIFO RCU kthreads of a boosting kernel on 4 vCPUs sometimes miss.)
	prcu_suite preempt-rcu-boost-smp4-leaf2 boost 4 \
		"rcutree.preempt_selftest=1 rcutree.kthread_prio=2 rcutree.rcu_fanout_leaf=2 kunit_shutdown=poweroff shutdown_secs=8" \
		--expect "rcu: ${TAB}Boot-time adjustment of leaf fanout to 2\." \
		--expect "ok [0-9]+ rcu_preempt_exp_waits$" \
		--expect "ok [0-9]+ rcu_preempt_boost$" \
		--expect "ok [0-9]+ rcu_preempt_exp_unblock_stale$"

	# The last CPU (Documentation/RCU/hotplug.md, issue 28): CPU 1 goes offline and a callback
	# requeues itself while the suite's SCHED_NORMAL task sleeps 50 x 10 ms; rcuc/0 and
	# rcu_preempt run FIFO 2. Before the fix no SCHED_NORMAL task ran again (the boot hung to the
	# host timeout; watchdog_thresh=5 names rcu_preempt or rcuc/0 after 10 s).
	prcu_boot preempt-rcu-boost-last-cpu boost 2 \
		"cpuhp.last_cpu_selftest=1 rcutree.kthread_prio=2 watchdog_thresh=5 shutdown_secs=6" --timeout 60 \
		--expect "# CPU 0 alone: rcuc/0 SCHED_FIFO, rcu_preempt SCHED_FIFO, this task SCHED_NORMAL" \
		--expect "# 50 msleep\(10\) steps took [0-9]+ ms \(longest [0-9]+ ms\); the callback went round [0-9]+ times" \
		--expect "ok [0-9]+ cpuhp_last_cpu_selfprop_cb$" \
		--expect "# Totals: pass:1 fail:0 skip:0 total:1" \
		--reject "not ok" --reject "watchdog: BUG"

	# kthread_prio=0 cannot boost: raised with Linux's message (to 1, or to 2 when rcutorture is
	# built in, as Linux does), and the banner shows the raised value.
	prcu_boot preempt-rcu-boost-prio boost 2 "rcutree.kthread_prio=0 shutdown_secs=1" \
		--expect "rcu: sanitize_kthread_prio: Limited prio to [12] from 0" \
		--expect "rcu: ${TAB}RCU priority boosting: priority [12] delay 500 ms\."
	if _test_selected preempt-rcu-boost-prio && [ -f "$prcu_boost_dir/kernel.elf" ]; then
		run_cmd_test preempt-rcu-boost-prio-banner prcu_check_prio_banner \
			"$LOGDIR/preempt-rcu-boost-prio.log"
	fi
fi
