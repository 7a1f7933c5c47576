# shellcheck shell=bash
# tests/boot/40-rcutorture.sh - rcutorture (kernel/rcu/torture/rcutorture.c, CONFIG_RCU_TORTURE_TEST) at
# boot: Tree RCU tortured on 2 and 4 CPUs must end with SUCCESS and no "!!!"; the deliberately
# broken "busted" flavor must end with FAILURE (and the failed-test exit status) for the right
# reason (readers saw elements aged two or more grace periods; parse-console.sh --expect busted); a CPU stalled
# with interrupts off must draw the stall warning, and one stalled with stall_no_softlockup no
# soft-lockup report; the forward-progress test must print its
# results, from fwd_progress kthreads counted as in Linux 6.1; Linux's "trivial" flavor must pass
# and its "busted_srcud" must be caught like busted; an unknown torture_type must be refused with
# the list of valid ones; the priority-boost
# test (rcutorture.test_boost*) must pass with boosting (readers boosted, rtbf: 0) and fail
# without it (rtbf > 0, FAILURE) on two preemptible kernels built here.
# Sourced by tests/run-all.sh with tests/lib.sh loaded. Whole file: about 2 minutes on 2 host
# cores (guest time 15 + 15 + 15 + 11 + 12 + 6 + 16 + 6 + 7 + 3 + 15 + 15 s, plus boots and two
# ~5 s builds).
#
# Console lines assumed (Linux's formats; Documentation/admin-guide/kernel-parameters.md,
# rcutorture section):
#   "rcu-torture:--- Start of test: nreaders=N ..."          the parameter line
#   "rcu-torture: rtc: ... ver: V tfle: ... barrier: S/A:E read-exits: R"   statistics
#   "rcu-torture: [!!! ]Reader Pipe:  n0 n1 ... n10"       "!!!" marks an error
#   "<type>-torture:--- End of test: SUCCESS|FAILURE: ..."  the verdict
#   "rcu: INFO: rcu_sched detected stalls on CPUs/tasks:"   kernel/rcu/tree_stall.c
#   "rcu_torture_fwd_prog_nr: Duration D cver C gps G", "rcu_torture_fwd_prog_cr Duration ...",
#   "rcu_torture_fwd_prog: tested T tested_tries N"          forward-progress results
#   "... rtbf: F rtb: B nt: ..."  in the statistics line    boost failures, boost windows
#   "rcu-torture: rcu_torture_boost boosting failed", "Boost inversion thread ->rt_priority 1 ..."
#   "rcu-torture: Boost test: windows W gps G longest-gp M ms readers-boosted R rtbf F"  (ours)

RT_COMMON="rcutorture.torture_runnable=1 rcutorture.stat_interval=5"
RT_CLEAN=(--reject '!!!' --reject 'End of test: FAILURE' --reject '\?\?\? Writer stall state'
	  --reject 'detected stalls' --reject 'self-detected stall')

# Tree RCU, 2 CPUs (MTTCG), default parameters but two readers: readers must never see an element
# aged past one grace period, and the writer must make progress (ver > 0 in the last statistics
# line), using every update primitive. Two readers (the default at 2 CPUs is one): the
# cross-reader ordering check (rtmbkf) needs two,
# and must run (tries > 0) without failures. After each stutter pause the writer finds every
# element but the current one back on the free list, and undoes all its rcu_expedite_gp() calls.
boot_test rcutorture-rcu-smp2 --smp 2 --timeout 60 \
	--append "$RT_COMMON rcutorture.shutdown_secs=15 rcutorture.nreaders=2" \
	--expect 'rcu-torture:--- Start of test: nreaders=2 nfakewriters=4 ' \
	--expect 'rcu_torture_write_types: Testing conditional GPs\.' --expect 'rcu_torture_write_types: Testing expedited GPs\.' \
	--expect 'rcu_torture_write_types: Testing asynchronous GPs\.' --expect 'rcu_torture_write_types: Testing polling GPs\.' \
	--expect 'rcu_torture_write_types: Testing normal GPs\.' \
	--expect 'rcu_torture_write_types: Testing conditional expedited GPs\.' \
	--expect 'rcu_torture_write_types: Testing conditional full-state GPs\.' \
	--expect 'rcu_torture_write_types: Testing conditional full-state expedited GPs\.' \
	--expect 'rcu_torture_write_types: Testing polling expedited GPs\.' \
	--expect 'rcu_torture_write_types: Testing polling full-state GPs\.' \
	--expect 'rcu_torture_write_types: Testing polling full-state expedited GPs\.' \
	--reject 'without primitives' \
	--expect 'rcu-torture: rtc: .* rtmbe: 0 rtmbkf: 0/[1-9][0-9]* ' \
	--expect 'rcu_torture_writer: [0-9]+ rcu_expedite_gp\(\) calls, all undone$' \
	--expect 'rcu_torture_writer: [1-9][0-9]* free-list checks after stutter pauses \([0-9]+ waited for the pipeline to drain\), 0 missing element\(s\) found in all$' \
	--reject 'neither free nor current' \
	--expect ' test_boost=1/0 test_boost_interval=7 test_boost_duration=4 ' \
	--reject 'Creating rcu_torture_boost task' \
	--expect 'rcu-torture: rtc: 0x0+ ver: [1-9][0-9]* tfle: ' \
	--expect 'rcu-torture: Reader Pipe:  [1-9][0-9]* [0-9]+ 0 0 0 0 0 0 0 0 0$' \
	--expect 'rcu-torture: Free-Block Circulation:  [1-9]' \
	--expect 'rcu-torture:--- End of test: SUCCESS: nreaders=2 ' \
	"${RT_CLEAN[@]}"

# Linux 6.1's six update types alone (expedited and full-state polled and conditional waits,
# kernel/rcu/tree_exp_poll.c and tree_sync.c): the writer and fake writers use nothing else, so a
# polled expedited cookie the rcu_exp_poll kthread never completes would stall the writer (ver 0,
# or a poll-timeouts "!!!"), and a full-state cookie complete inside a reader trips Cookie check 5.
boot_test rcutorture-rcu-linux61-types-smp2 --smp 2 --timeout 60 \
	--append "$RT_COMMON rcutorture.shutdown_secs=15 rcutorture.gp_cond_exp=1 rcutorture.gp_cond_full=1 rcutorture.gp_cond_exp_full=1 rcutorture.gp_poll_exp=1 rcutorture.gp_poll_full=1 rcutorture.gp_poll_exp_full=1" \
	--expect 'rcu_torture_write_types: Testing conditional expedited GPs\.' \
	--expect 'rcu_torture_write_types: Testing conditional full-state GPs\.' \
	--expect 'rcu_torture_write_types: Testing conditional full-state expedited GPs\.' \
	--expect 'rcu_torture_write_types: Testing polling full-state GPs\.' \
	--expect 'rcu_torture_write_types: Testing polling expedited GPs\.' \
	--expect 'rcu_torture_write_types: Testing polling full-state expedited GPs\.' \
	--reject 'Testing (conditional|expedited|asynchronous|polling|normal) GPs' \
	--reject 'not implemented' --reject 'Cookie check' \
	--expect 'rcu-torture: rtc: 0x0+ ver: [1-9][0-9]* tfle: ' \
	--expect 'rcu-torture: Reader Pipe:  [1-9][0-9]* [0-9]+ 0 0 0 0 0 0 0 0 0$' \
	--expect 'rcu-torture:--- End of test: SUCCESS: ' \
	"${RT_CLEAN[@]}"

# 4 CPUs with the rcu_barrier() tester (one callback per CPU per phase) and forced
# quiescent-state bursts: every barrier phase must find all its callbacks invoked (":0").
boot_test rcutorture-rcu-smp4 --smp 4 --timeout 80 \
	--append "$RT_COMMON rcutorture.shutdown_secs=15 rcutorture.n_barrier_cbs=4 rcutorture.fqs_duration=100000 rcutorture.fqs_holdoff=1000 rcutorture.fqs_stutter=2" \
	--expect 'rcu-torture:--- Start of test: nreaders=3 ' \
	--expect 'barrier: [1-9][0-9]*/[1-9][0-9]*:0 read-exits: [1-9]' \
	--expect 'rcu-torture:--- End of test: SUCCESS: nreaders=3 ' \
	"${RT_CLEAN[@]}"

# busted: grace periods that wait for nothing. The oracle must catch it: "!!!" on the pipeline
# line, FAILURE, and the power-off exit status of a failed test (35). The test starts with a
# 5-s stutter pause (as Linux's), so 11 s give the writer 5 s of updates.
boot_test rcutorture-busted --smp 2 --timeout 50 --expect-rc 35 \
	--append "$RT_COMMON rcutorture.torture_type=busted rcutorture.shutdown_secs=11" \
	--expect 'busted-torture: !!! Reader Pipe: ' \
	--expect 'busted-torture: !!! Reader Pipe:  [0-9]+ [0-9]+( [0-9]+)* [1-9][0-9]*( [0-9]+)*$' \
	--expect 'busted-torture:--- End of test: FAILURE: ' \
	--reject 'End of test: SUCCESS'
# ... and failed for the right reason: the runner's judge must call it "BUSTED caught" (reads aged
# two or more grace periods, "!!!"), not just any FAILURE (a boost or barrier failure is not).
# rt_busted_judge TEST: TEST's console log judged "BUSTED caught" (also for busted_srcud below).
rt_busted_judge() {
	local v
	v=$("$TESTS_ROOT/tools/testing/rcutorture/bin/parse-console.sh" --expect busted "$LOGDIR/$1.log")
	echo "$v"
	[[ $v == "PASS (expected failure): BUSTED caught: "* ]]
}
if _test_selected rcutorture-busted; then
	run_cmd_test rcutorture-busted-judge rt_busted_judge rcutorture-busted
fi

# A CPU spinning in a reader with interrupts off for 6 s, stall timeout 3 s: another CPU must
# report it. The test itself still passes (nothing else went wrong).
boot_test rcutorture-stall --smp 2 --timeout 50 \
	--append "$RT_COMMON rcutorture.shutdown_secs=12 rcutorture.stall_cpu=6 rcutorture.stall_cpu_holdoff=2 rcutorture.stall_cpu_irqsoff=1 rcutorture.fwd_progress=0 rcupdate.rcu_cpu_stall_timeout=3 sched.idle_balance=1" \
	--expect 'rcu_torture_stall start on CPU [0-9]+\.' \
	--expect 'rcu: INFO: rcu_(sched|preempt) detected stalls on CPUs/tasks:' \
	--expect 'rcu_torture_stall end\.' \
	--expect 'rcu-torture:--- End of test: SUCCESS: .* stall_cpu=6 stall_cpu_holdoff=2 stall_cpu_irqsoff=1 ' \
	--reject '!!!'

# rcutorture.stall_no_softlockup (Linux 5.17+): a 3-s stall with preemption (not interrupts) off on
# the only CPU, the soft-lockup detector at 2 s (watchdog_thresh=1): the stall loop keeps touching
# the detector, so no "soft lockup" report, though tasks wait behind the stall all along (without
# the parameter, "watchdog: BUG: soft lockup - CPU#0 stuck for 2s! [rcu_torture_sta:16]").
boot_test rcutorture-stall-no-softlockup --smp 1 --timeout 40 \
	--append "$RT_COMMON rcutorture.shutdown_secs=6 rcutorture.stall_cpu=3 rcutorture.stall_cpu_holdoff=1 rcutorture.fwd_progress=0 watchdog_thresh=1 rcutorture.stall_no_softlockup=1" \
	--expect 'rcu_torture_stall start on CPU 0\.' --expect 'rcu_torture_stall end\.' \
	--expect 'rcu-torture:--- End of test: SUCCESS: ' \
	--reject 'soft lockup' --reject 'not implemented' --reject '!!!'

# Forward progress: a cond_resched() loop of 1-4 s (a quarter to all of the 4-s stall timeout)
# and a call_rcu() flood must both see grace periods complete (a WARNING otherwise).
# rcutorture.fwd_progress is Linux 6.1's count of forward-progress kthreads (Linux's SRCU-N asks
# for 3): at -smp 2 it is cut to one per CPU with Linux's message, and both kthreads (0 and 1)
# run their loop and flood in each round, kthread 0 reporting the round's allocations.
boot_test rcutorture-fwd-progress --smp 2 --timeout 60 \
	--append "$RT_COMMON rcutorture.shutdown_secs=16 rcutorture.fwd_progress_holdoff=2 rcupdate.rcu_cpu_stall_timeout=4 rcutorture.fwd_progress=3" \
	--expect 'rcu-torture: rcu_torture_fwd_prog_init: Limiting fwd_progress to # CPUs\.' \
	--expect 'rcu_torture_fwd_prog_nr: Starting forward-progress test 0$' \
	--expect 'rcu_torture_fwd_prog_nr: Starting forward-progress test 1$' \
	--expect 'rcu_torture_fwd_prog_cr: Starting forward-progress test 1$' \
	--reject 'Starting forward-progress test [2-9]' \
	--expect 'rcu_torture_fwd_prog_nr: Duration [0-9]+ cver [0-9]+ gps [0-9]+$' \
	--expect 'rcu_torture_fwd_prog_cr Duration [0-9]+ barrier: [0-9]+ pending -?[0-9]+ n_launders: [0-9]+ n_launders_sa: [0-9]+ n_max_gps: 100 n_max_cbs: [0-9]+ cver [0-9]+ gps [0-9]+$' \
	--expect 'rcu_torture_fwd_cb_hist: Callback-invocation histogram [01] \(duration [0-9]+ jiffies\): 1s/10: ' \
	--expect 'rcu_torture_fwd_prog n_max_cbs: [1-9][0-9]*$' \
	--expect 'rcu_torture_fwd_prog: tested [1-9][0-9]* tested_tries [1-9]' \
	--expect 'rcu-torture:--- End of test: SUCCESS: ' \
	"${RT_CLEAN[@]}"

# Linux's "trivial" flavor: readers disable preemption, a grace period visits every CPU. No
# hotplug and no shuffler (Linux's TRIVIAL.boot), no stutter (a short run). The writer can only
# use the synchronous waits; readers must never see an element past one grace period.
boot_test rcutorture-trivial --smp 2 --timeout 40 \
	--append "$RT_COMMON rcutorture.torture_type=trivial rcutorture.onoff_interval=0 rcutorture.shuffle_interval=0 rcutorture.stutter=0 rcutorture.shutdown_secs=6" \
	--expect 'rcu_torture_write_types: Testing expedited GPs\.' --expect 'rcu_torture_write_types: Testing normal GPs\.' \
	--reject 'Testing (conditional|asynchronous|polling)' \
	--expect 'rcu_torture_fwd_prog_init: Disabled, unsupported by RCU flavor under test' \
	--expect 'trivial-torture: rtc: 0x0+ ver: [1-9][0-9]* tfle: ' \
	--expect 'trivial-torture: Reader Pipe:  [1-9][0-9]* [0-9]+ 0 0 0 0 0 0 0 0 0$' \
	--expect 'trivial-torture:--- End of test: SUCCESS: ' \
	--reject 'WARNING' "${RT_CLEAN[@]}"

# Linux's "busted_srcud": srcud whose readers are also interrupts-off, preemption-off, _bh and _sched
# segments, which do not hold off an SRCU grace period. The test must catch it, as it does "busted":
# FAILURE, the failed-test exit status, and reads aged two or more grace periods.
boot_test rcutorture-busted-srcud --smp 2 --timeout 40 --expect-rc 35 \
	--append "$RT_COMMON rcutorture.torture_type=busted_srcud rcutorture.stutter=0 rcutorture.shutdown_secs=7" \
	--expect 'busted_srcud-torture: !!! Reader Pipe:  [0-9]+ [0-9]+( [0-9]+)* [1-9][0-9]*( [0-9]+)*$' \
	--expect 'busted_srcud-torture:--- End of test: FAILURE: ' \
	--reject 'End of test: SUCCESS'
if _test_selected rcutorture-busted-srcud; then
	run_cmd_test rcutorture-busted-srcud-judge rt_busted_judge rcutorture-busted-srcud
fi

# An unknown flavor: Linux's two lines, no test, and a failed exit status (the kernel's own
# shutdown_secs ends the boot).
boot_test rcutorture-bad-type --smp 1 --timeout 30 --expect-rc 35 \
	--append "rcutorture.torture_runnable=1 rcutorture.torture_type=nosuch shutdown_secs=3" \
	--expect 'rcu-torture: invalid torture type: "nosuch"' \
	--expect 'rcu-torture types: rcu busted tasks srcu srcud busted_srcud trivial$' \
	--reject 'Start of test'

# Priority-boost test. Two preemptible kernels, in the directories tests/boot/20-sched.sh and
# 50-preempt-rcu.sh use too (make is incremental there after us): RCU_BOOST=n (preempt_defconfig)
# and RCU_BOOST=y (preempt_rcu_boost_defconfig, boost delay 500 ms). A window of 4 s every 1 s,
# no stutter (a pause would leave a window without readers to starve): three windows in
# 15 s. One SCHED_FIFO-1 spinner per CPU starves the readers it preempted inside rcu_read_lock().
rt_boost_dir=$(cd "$LOGDIR" && pwd)/build-preempt-boost
rt_noboost_dir=$(cd "$LOGDIR" && pwd)/build-preempt
RT_BOOST="$RT_COMMON rcutorture.shutdown_secs=15 rcutorture.stutter=0 rcutorture.test_boost_interval=1 rcutorture.test_boost_duration=4"

# With RCU_BOOST (kthread_prio raised to 2 by rcutorture's presence): grace periods still end
# inside every window, rcub boosted at least one starved reader, no boost failure, no stall.
if _test_selected rcutorture-boost; then
	run_cmd_test rcutorture-boost-build build_config "$rt_boost_dir" preempt_rcu_boost_defconfig \
		CONFIG_RCU_BOOST=y CONFIG_RCU_TORTURE_TEST=y
	if [ -f "$rt_boost_dir/kernel.elf" ]; then
		KERNEL=$rt_boost_dir/kernel.elf boot_test rcutorture-boost --smp 4 --timeout 80 \
			--append "$RT_BOOST" \
			--expect 'rcu-torture:--- Start of test: .* test_boost=1/1 test_boost_interval=1 test_boost_duration=4 ' \
			--expect 'rcu-torture: rtc: .* rtbf: 0 rtb: [1-9][0-9]* ' \
			--expect 'rcu-torture: Boost test: windows [1-9][0-9]* gps [1-9][0-9]* longest-gp [0-9]+ ms readers-boosted [1-9][0-9]* rtbf 0$' \
			--expect 'rcu-torture:--- End of test: SUCCESS: .* test_boost=1/1 ' \
			--reject 'rtbf: [1-9]' --reject 'boosting failed' "${RT_CLEAN[@]}"
	else
		skip_test rcutorture-boost "the RCU_BOOST kernel did not build"
	fi
fi

# Without RCU_BOOST, test_boost=2 forces the test (the grace-period kthread at FIFO 2 keeps
# running): the starved readers hold each window's grace period, so rtbf > 0 and FAILURE, while
# the reader pipeline stays clean (no element aged past one grace period: RCU itself is fine).
if _test_selected rcutorture-noboost; then
	run_cmd_test rcutorture-noboost-build build_config "$rt_noboost_dir" preempt_defconfig \
		CONFIG_PREEMPT_RCU=y CONFIG_RCU_TORTURE_TEST=y
	if [ -f "$rt_noboost_dir/kernel.elf" ]; then
		KERNEL=$rt_noboost_dir/kernel.elf boot_test rcutorture-noboost --smp 4 --timeout 80 \
			--expect-rc 35 --append "$RT_BOOST rcutorture.test_boost=2 rcutree.kthread_prio=2" \
			--expect 'rcu-torture:--- Start of test: .* test_boost=2/0 ' \
			--expect 'rcu-torture: rcu_torture_boost boosting failed' \
			--expect 'Boost inversion thread ->rt_priority 1 gp_state [0-9]+ jiffies [0-9]+$' \
			--expect 'rcu-torture: rtc: .* rtbf: [1-9][0-9]* rtb: ' \
			--expect 'rcu-torture: !!! Reader Pipe:  [0-9]+ [0-9]+ 0 0 0 0 0 0 0 0 0$' \
			--expect 'rcu-torture: Boost test: windows [1-9][0-9]* gps [0-9]+ longest-gp [0-9]+ ms readers-boosted 0 rtbf [1-9][0-9]*$' \
			--expect 'rcu-torture:--- End of test: FAILURE: .* test_boost=2/0 ' \
			--reject 'End of test: SUCCESS' --reject 'detected stalls' --reject 'self-detected stall'
	else
		skip_test rcutorture-noboost "the preemptible kernel did not build"
	fi
fi
