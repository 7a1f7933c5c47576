# shellcheck shell=bash
# tests/boot/40-rcutorture.sh - rcutorture (kernel/rcu/rcutorture.c, CONFIG_RCU_TORTURE_TEST) at
# boot: Tree RCU tortured on 2 and 4 CPUs must end with SUCCESS and no "!!!"; the deliberately
# broken "busted" flavor must end with FAILURE (and the failed-test exit status); a CPU stalled
# with interrupts off must draw the stall warning; the forward-progress test must print its
# results; an unknown torture_type must be refused with the list of valid ones.
# Sourced by tests/run-all.sh with tests/lib.sh loaded. Whole file: about 2 minutes on 2 host
# cores (guest time 15 + 15 + 8 + 12 + 16 + 3 s, plus boots).
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

RT_COMMON="rcutorture.torture_runnable=1 rcutorture.stat_interval=5"
RT_CLEAN=(--reject '!!!' --reject 'End of test: FAILURE' --reject '\?\?\? Writer stall state'
	  --reject 'detected stalls' --reject 'self-detected stall')

# Tree RCU, 2 CPUs (MTTCG), default parameters: readers must never see an element aged past one
# grace period, and the writer must make progress (ver > 0 in the last statistics line).
boot_test rcutorture-rcu-smp2 --smp 2 --timeout 60 \
	--append "$RT_COMMON rcutorture.shutdown_secs=15" \
	--expect 'rcu-torture:--- Start of test: nreaders=1 nfakewriters=4 ' \
	--expect 'rcu-torture: rtc: 0x0+ ver: [1-9][0-9]* tfle: ' \
	--expect 'rcu-torture: Reader Pipe:  [1-9][0-9]* [0-9]+ 0 0 0 0 0 0 0 0 0$' \
	--expect 'rcu-torture: Free-Block Circulation:  [1-9]' \
	--expect 'rcu-torture:--- End of test: SUCCESS: nreaders=1 ' \
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
# line, FAILURE, and the power-off exit status of a failed test (35).
boot_test rcutorture-busted --smp 2 --timeout 50 --expect-rc 35 \
	--append "$RT_COMMON rcutorture.torture_type=busted rcutorture.shutdown_secs=8" \
	--expect 'busted-torture: !!! Reader Pipe: ' \
	--expect 'busted-torture:--- End of test: FAILURE: ' \
	--reject 'End of test: SUCCESS'

# A CPU spinning in a reader with interrupts off for 6 s, stall timeout 3 s: another CPU must
# report it. The test itself still passes (nothing else went wrong).
boot_test rcutorture-stall --smp 2 --timeout 50 \
	--append "$RT_COMMON rcutorture.shutdown_secs=12 rcutorture.stall_cpu=6 rcutorture.stall_cpu_holdoff=2 rcutorture.stall_cpu_irqsoff=1 rcutorture.fwd_progress=0 rcupdate.rcu_cpu_stall_timeout=3" \
	--expect 'rcu_torture_stall start on CPU [0-9]+\.' \
	--expect 'rcu: INFO: rcu_(sched|preempt) detected stalls on CPUs/tasks:' \
	--expect 'rcu_torture_stall end\.' \
	--expect 'rcu-torture:--- End of test: SUCCESS: .* stall_cpu=6 stall_cpu_holdoff=2 stall_cpu_irqsoff=1 ' \
	--reject '!!!'

# Forward progress: a cond_resched() loop of 1-4 s (a quarter to all of the 4-s stall timeout)
# and a call_rcu() flood must both see grace periods complete (a WARNING otherwise).
boot_test rcutorture-fwd-progress --smp 2 --timeout 60 \
	--append "$RT_COMMON rcutorture.shutdown_secs=16 rcutorture.fwd_progress_holdoff=2 rcupdate.rcu_cpu_stall_timeout=4" \
	--expect 'rcu_torture_fwd_prog_nr: Duration [0-9]+ cver [0-9]+ gps [0-9]+$' \
	--expect 'rcu_torture_fwd_prog_cr Duration [0-9]+ barrier: [0-9]+ pending -?[0-9]+ n_launders: [0-9]+ n_launders_sa: [0-9]+ n_max_gps: 100 n_max_cbs: [0-9]+ cver [0-9]+ gps [0-9]+$' \
	--expect 'rcu_torture_fwd_cb_hist: Callback-invocation histogram \(duration [0-9]+ jiffies\): 1s/10: ' \
	--expect 'rcu_torture_fwd_prog: tested [1-9][0-9]* tested_tries [1-9]' \
	--expect 'rcu-torture:--- End of test: SUCCESS: ' \
	"${RT_CLEAN[@]}"

# An unknown flavor: Linux's two lines, no test, and a failed exit status (the kernel's own
# shutdown_secs ends the boot).
boot_test rcutorture-bad-type --smp 1 --timeout 30 --expect-rc 35 \
	--append "rcutorture.torture_runnable=1 rcutorture.torture_type=nosuch shutdown_secs=3" \
	--expect 'rcu-torture: invalid torture type: "nosuch"' \
	--expect 'rcu-torture types: rcu busted$' \
	--reject 'Start of test'
