# shellcheck shell=bash
# tests/boot/45-kvm.sh - rcuperf/refscale and the scenario runner tools/testing/rcutorture/bin/kvm.sh.
# - rcuperf and refscale booted directly: Linux's lines and our summary lines, the rcuscale.*
#   alias, gp_exp/gp_async, both tests in one boot (the power-off waits for both), a bad type.
# - kvm.sh: its dry run, the console judge on canned logs (so that a judge that passes everything
#   fails here), a real --torture rcuperf run (table and histogram), and, once rcutorture is in the
#   tree, a short real matrix: ONOFF01 (8 CPUs over a three-level tree, grace-period phases slowed
#   down, the rcu_barrier() tester, CPU hotplug every 20 ms: it must pass with barrier tests and
#   hundreds of CPU offline and online operations done, callbacks all accounted for; it stalled or livelocked
#   in its tick in 3 of 5 runs before the tick went one-shot and stopped spinning for
#   jiffies_lock; each scenario's NAME.features must match its console, or its verdict is "FAIL
#   (feature not exercised: ...)"), EXP01 (expedited-only writers: its console must show the writer
#   testing expedited grace periods and nothing else) and FWD01 (forward progress, holdoff 3 s:
#   the test must have completed, "tested [1-9]") must pass,
#   BOOST01 (preemptible, RCU_BOOST, the boost test) must pass with boost windows run and no boost
#   failure and every CPU but 0 offline at least once (torture.onoff_sweep=1: issue 28's hang), ALONE01 (2 CPUs, CPU 1 down and up every 10 ms and held in its dying window by
#   cpuhp.dying_delay_ms: CPU 0 must have been left alone online, "torture_onoff: CPU 0 alone
#   online N times" with N >= 10 at the end, ALONE01.features) must pass, POLL01 (a quiet
#   system of polled and expedited waits, polled waits time-limited) must pass, TASKS05 (Tasks RCU, grace periods with holdouts: TASKS05.features) and TASKS04 (Tasks RCU under
#   CPU hotplug, each move of a task between CPUs held open 200 us by sched.move_delay_us, issue 28:
#   a reader moved mid-read must hold its grace period; TASKS04.features) must pass,
#   SRCU01 and SRCU02 (Tree SRCU, static and init_srcu_struct() domains; their .features want
#   the Tree SRCU statistics line, srcu_barrier() phases, the forward-progress flood and the
#   domain torn down at the end) must pass, FASTNOHZ01 (RCU_FAST_NO_HZ: a CPU went idle holding
#   callbacks and RCU's one-shot woke it), NOCB01 (CPUs 1-3 offloaded in two rcuog groups: CPU 1
#   queued callbacks and invoked none itself) and NOCB02 (every CPU offloaded, rcu_nocb_poll, the
#   forward-progress flood on offloaded lists), NOHZ01 (nohz_full=1-3 after Linux's TREE04: busy
#   nohz_full CPUs stopped their tick and RCU forced it on for readers busy in the kernel), STRICT01
#   (CONFIG_RCU_STRICT_GRACE_PERIOD, preemptible, 4 CPUs, CPU hotplug every 50 ms: its banner and
#   hotplug done, STRICT01.features), DEBUG01 (every RCU debugging option on: no report,
#   the tracker loaded by the flood, the power-off trace dump) must pass, BUSTED01 (grace periods that do not wait: caught for
#   the right reason, reader-pipeline ages of 2 or more and "!!!", judged by parse-console.sh --expect busted) and NOBOOST (the boost test forced on a
#   kernel without boosting: rtbf > 0) must be reported as the failures they expect, STALL must
#   show the stall warning, KASAN01 (FQS01 on a KASAN kernel, Documentation/dev-tools/kasan.md)
#   must pass with KASAN's banner and no KASAN report, KCSAN01 (preemptible RCU over two leaves
#   with CPU hotplug on a KCSAN kernel) must pass with watchpoints set and no KCSAN report.
# - torture.sh (the long campaign): its dry run (which kvm.sh calls, with which durations; with
#   --do-kcsan or --do-kasan each call again with kvm.sh --kcsan or --kasan), and its
#   summary table on a fake campaign made from two real consoles (tests/fixtures/torture/).
# Sourced by tests/run-all.sh with tests/lib.sh loaded. About 1 minute without rcutorture, about
# 4 to 6 minutes with it, on 2 host cores: the matrix's 21 guests run two at a time (--guests 2;
# ONOFF01's 8 vCPUs alone), and its kernels come from $TEST_BUILD_CACHE, where 45-kvm.prebuild may
# have built some while earlier files booted. Timings are printed, never judged.

KVM_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/kvm.sh
PARSE_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/parse-console.sh
KVM_RES=$LOGDIR/kvm-res

# Consistency of one rcuperf console (LOG): the summary's n is the sum of the writers' gps,
# its percentiles are ordered, and the grace periods in the measured window number at least
# most of one writer's samples (each synchronize_rcu() call needs a grace period of its own).
rcuperf_consistent() {
	local log=$1 sum=0 g n mn md p90 p99 mx batches
	for g in $(tr -d '\r' <"$log" | sed -n 's/.*rcu-perf: writer [0-9]* gps: \([0-9]*\)$/\1/p'); do
		sum=$((sum + g))
	done
	read -r n mn md p90 p99 mx < <(tr -d '\r' <"$log" | sed -n \
		's/.*rcu-perf: summary .* n=\([0-9]*\) min_ns=\([0-9]*\) median_ns=\([0-9]*\) p90_ns=\([0-9]*\) p99_ns=\([0-9]*\) max_ns=\([0-9]*\)$/\1 \2 \3 \4 \5 \6/p')
	batches=$(tr -d '\r' <"$log" | sed -n 's/.*rcu-perf: start: .* batches: \([0-9]*\)$/\1/p')
	echo "n=$n sum_gps=$sum min=$mn median=$md p90=$p90 p99=$p99 max=$mx batches=$batches"
	[ -n "$n" ] && [ "$n" = "$sum" ] && [ "$n" -ge 100 ] && [ "$mn" -gt 0 ] &&
		[ "$mn" -le "$md" ] && [ "$md" -le "$p90" ] && [ "$p90" -le "$p99" ] && [ "$p99" -le "$mx" ] &&
		[ -n "$batches" ] && { [ "${2:-sync}" != sync ] || [ "$batches" -ge 90 ]; }
}

boot_test rcuperf-sync --smp 2 --timeout 60 --append "rcuperf.perf_runnable=1 shutdown_secs=50" \
	--expect 'rcu-perf:--- Start of test: nreaders=2 nwriters=2 verbose=1 shutdown=1' \
	--expect 'rcu-perf: rcu_perf_writer [01] has 100 measurements' \
	--expect 'rcu-perf: Test complete' \
	--expect 'rcu-perf: writer 1 gps: [0-9]+$' \
	--expect 'rcu-perf: start: [0-9]+ end: [0-9]+ duration: [0-9]+ gps: [0-9]+ batches: [0-9]+$' \
	--expect 'rcu-perf: +1 writer-duration: +99 [0-9]+$' \
	--expect 'rcu-perf: summary type=sync cpus=2 n=[0-9]+ min_ns=[0-9]+ median_ns=[0-9]+ p90_ns=[0-9]+ p99_ns=[0-9]+ max_ns=[0-9]+$' \
	--reject '!!!'
run_cmd_test rcuperf-sync-consistent rcuperf_consistent "$LOGDIR/rcuperf-sync.log"

# Linux's newer name, call_rcu() round trips, no readers.
boot_test rcuperf-rcuscale-async --smp 2 --timeout 60 \
	--append "rcuscale.perf_runnable=1 rcuscale.gp_async=1 rcuscale.nreaders=0 rcuscale.gp_async_max=50 shutdown_secs=50" \
	--expect 'rcu-perf:--- Start of test: nreaders=0 nwriters=2' \
	--expect 'rcu-perf: summary type=async cpus=2 n=[0-9]+ ' --reject '!!!'
run_cmd_test rcuperf-async-consistent rcuperf_consistent "$LOGDIR/rcuperf-rcuscale-async.log" async

boot_test rcuperf-exp --smp 2 --timeout 60 \
	--append "rcuperf.perf_runnable=1 rcuperf.gp_exp=1 rcuperf.nwriters=1 rcuperf.nreaders=1 shutdown_secs=50" \
	--expect 'rcu-perf:--- Start of test: nreaders=1 nwriters=1' \
	--expect 'rcu-perf: summary type=exp cpus=2 n=[0-9]+ ' --reject '!!!'

# Both tests in one boot: the power-off waits for the second one to finish.
boot_test refscale-and-rcuperf --smp 2 --timeout 60 \
	--append "refscale.scale_runnable=1 refscale.nruns=5 rcuperf.perf_runnable=1 shutdown_secs=50" \
	--expect 'rcu-ref-scale: --- Start of test:  verbose=0 shutdown=1 holdoff=0 loops=10000 nreaders=1 nruns=5' \
	--expect 'rcu-ref-scale: END OF TEST. Calculating average duration per loop \(nanoseconds\)\.\.\.' \
	--expect 'Runs.Time\(ns\)$' \
	--expect '^(\[[ 0-9.]+\] )?5.[0-9]+\.[0-9]{3}$' \
	--expect 'ref-perf: summary type=rcu cpus=2 ns_per_pair=[0-9]+\.[0-9]{3} .* nreaders=1 loops=10000 nruns=5$' \
	--expect 'rcu-perf: summary type=sync cpus=2 ' --reject '!!!'

boot_test rcuperf-bad-type --smp 2 --timeout 30 \
	--append "rcuperf.perf_runnable=1 rcuperf.perf_type=nope refscale.scale_runnable=1 refscale.scale_type=nope shutdown_secs=2" \
	--expect 'rcu-perf: invalid perf type: "nope"' --expect 'rcu-perf types: rcu srcu( tasks)?( tasks-rude)?$' \
	--expect 'ref-scale: invalid scale type: "nope"' \
	--expect 'ref-scale types: rcu srcu( rcu-tasks)? refcnt rwlock rwsem lock lock-irq acqrel clock$' \
	--reject 'rcu-perf:--- Start of test' --reject 'summary type='

kvm_dryrun() {
	local out
	out=$("$KVM_SH" --dryrun --configs "ONOFF01 2*BUSTED" --duration 30s --results "$KVM_RES") || return 1
	echo "$out"
	grep -q "ONOFF01: build .*boot -smp 8 .*expect success" <<<"$out" &&
		grep -q "rcutorture.shutdown_secs=30 " <<<"$out" &&
		[ "$(grep -c 'BUSTED: build .*expect busted' <<<"$out")" = 2 ] &&
		grep -q "TREE02: build .*boot -smp 3 " <<<"$("$KVM_SH" --dryrun --configs TREE02 \
			--kconfig "CONFIG_NR_CPUS=3" --results "$KVM_RES")" &&
		grep -q "REFSCALE: cmdline: refscale.scale_runnable=1 .*shutdown_secs=90" <<<"$("$KVM_SH" \
			--dryrun --torture rcuperf --configs "TREE8 REFSCALE" --duration 90s --results "$KVM_RES")" &&
		grep -q -- '--torture rcu|lock|rcuperf|rcuscale|refscale|scf' <<<"$("$KVM_SH" --help)" &&
		grep -q -- '--build-only' <<<"$("$KVM_SH" --help)" &&
		! "$KVM_SH" --dryrun --accel bogus >/dev/null 2>&1 &&
		! "$KVM_SH" --dryrun --guests x >/dev/null 2>&1 &&
		grep -q -- '--build-cache DIR' <<<"$("$KVM_SH" --help)" &&
		! "$KVM_SH" --dryrun --configs NOSUCH >/dev/null 2>&1 &&
		! "$KVM_SH" --dryrun --duration 0 >/dev/null 2>&1
}
run_cmd_test kvm-dryrun kvm_dryrun

# The judge, on small fabricated consoles.
kvm_parse() {
	local d
	d=$(mktemp -d "${TMPDIR:-/tmp}/parse.XXXXXX")
	printf '[ 1.0] rcu-torture:--- End of test: SUCCESS: nreaders=1\n' >"$d/ok"
	printf '[ 1.0] rcu-torture: rtc: x ver: 1 tfle: 0 !!!\n[ 1.1] rcu-torture:--- End of test: SUCCESS\n' >"$d/bang"
	printf '[ 1.0] rcu-torture:--- End of test: FAILURE: nreaders=1\n' >"$d/fail"
	printf '[ 1.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n[ 9.0] rcu-torture:--- End of test: SUCCESS\n' >"$d/stall"
	printf '[ 1.0] rcu-torture: rtc: x\n' >"$d/noend"
	printf '[ 1.0] rcu: INFO: rcu_sched self-detected stall on CPU\n[ 9.0] rcu-torture:--- End of test: SUCCESS\n' >"$d/self"
	printf '[ 1.0] rcu-perf:--- Start of test: nreaders=2\n[ 2.0] rcu-perf: summary type=sync cpus=2 n=200\n' >"$d/perf"
	# BUSTED caught (pipeline ages >= 2, "!!!"), and a FAILURE that is a barrier and boost failure
	# with a clean pipeline: the failure judge takes it, the BUSTED judge must not.
	printf '[ 1.0] busted-torture: rtc: x ver: 9 rtbf: 0 barrier: 0/0:0\n[ 1.0] busted-torture: !!! Reader Pipe:  900 40 7 2 0 0 0 0 0 0 0\n[ 1.1] busted-torture:--- End of test: FAILURE: nreaders=1\n' >"$d/busted"
	printf '[ 1.0] rcu-torture: rtc: x ver: 9 rtbf: 2 barrier: 3/4:1\n[ 1.0] rcu-torture: !!! Reader Pipe:  900 40 0 0 0 0 0 0 0 0 0\n[ 1.1] rcu-torture:--- End of test: FAILURE: nreaders=1\n' >"$d/notbusted"
	sed 's/!!! //' "$d/busted" >"$d/busted-nobang"
	# Features (FWD01.features): a forward-progress test that never ran fails the verdict.
	printf '[ 1.0] rcu_torture_fwd_prog: tested 0 tested_tries 0\n[ 1.1] rcu-torture:--- End of test: SUCCESS\n' >"$d/fwd0"
	printf '[ 1.0] rcu_torture_fwd_prog: tested 2 tested_tries 2\n[ 1.1] rcu-torture:--- End of test: SUCCESS\n' >"$d/fwd2"
	printf '# comment\n\nfwd_progress rcu_torture_fwd_prog: tested [1-9][0-9]* tested_tries [1-9]\nboost Boost test: windows [1-9]\n' >"$d/features"
	printf '[ 1.0] rcu-perf:--- Start of test: nreaders=2\n[ 1.5] ref-scale: --- Start of test:\n[ 2.0] rcu-perf: summary type=sync\n' >"$d/perfhalf"
	# User output (no stamp; one beginning with '[' gets a space) forging the kernel's verdict lines.
	printf '[ 1.0] rcu-torture: rtc: x\nrcu-torture:--- End of test: SUCCESS\n [ 1.1] rcu-torture:--- End of test: SUCCESS\n' >"$d/userok"
	printf '[ 1.0] rcu-torture:--- End of test: SUCCESS\nKernel panic - not syncing: x\n [ 1.1] BUG: y\n!!!\n' >"$d/userpanic"
	"$PARSE_SH" "$d/ok" && ! "$PARSE_SH" "$d/bang" && ! "$PARSE_SH" "$d/fail" &&
		! "$PARSE_SH" "$d/noend" && ! "$PARSE_SH" "$d/stall" &&
		"$PARSE_SH" --expect failure "$d/fail" && ! "$PARSE_SH" --expect failure "$d/ok" &&
		"$PARSE_SH" --expect stall "$d/stall" && ! "$PARSE_SH" --expect stall "$d/ok" &&
		! "$PARSE_SH" "$d/self" && "$PARSE_SH" --expect stall "$d/self" &&
		"$PARSE_SH" --torture rcuperf "$d/perf" && ! "$PARSE_SH" --torture rcuperf "$d/perfhalf" &&
		! "$PARSE_SH" --torture rcuperf "$d/ok" &&
		! "$PARSE_SH" "$d/userok" && "$PARSE_SH" "$d/userpanic" &&
		[ "$("$PARSE_SH" --expect busted "$d/busted")" = "PASS (expected failure): BUSTED caught: 9 reads aged >= 2 GPs, 1 error markers (!!!)" ] &&
		"$PARSE_SH" --expect failure "$d/notbusted" &&
		! "$PARSE_SH" --expect busted "$d/notbusted" &&
		[[ $("$PARSE_SH" --expect busted "$d/notbusted") == "FAIL (expected busted): not BUSTED caught: Reader Pipe clean beyond slot 1"* ]] &&
		! "$PARSE_SH" --expect busted "$d/busted-nobang" && ! "$PARSE_SH" --expect busted "$d/ok" &&
		! "$PARSE_SH" --expect busted "$d/fail" &&
		[ "$("$PARSE_SH" --features "$d/features" "$d/fwd0")" = "FAIL (feature not exercised: fwd_progress, boost)" ] &&
		sed -i '$d' "$d/features" && "$PARSE_SH" --features "$d/features" "$d/fwd2" &&
		[ "$("$PARSE_SH" --features "$d/features" "$d/bang")" = "FAIL (expected success): 1 error markers (!!!), feature not exercised: fwd_progress" ] &&
		[ "$("$PARSE_SH" --features "$TESTS_ROOT/tools/testing/rcutorture/configs/rcu/FWD01.features" "$d/fwd0")" = "FAIL (feature not exercised: fwd_progress)" ]
	local rc=$?
	rm -rf "$d"
	return $rc
}
run_cmd_test kvm-parse-console kvm_parse

# torture.sh (the long campaign of issue 12): its plan, without running anything.
# kvm-recheck.sh on a run directory made by hand from two real consoles (tests/fixtures/torture/):
# a passing TREE02 and a copy with an error marker planted. The table must show both, the GPs and
# their rate, the first offending line of the failed one, its console.log.diags; exit 1; the
# passing guest's old verdict kept, the failed one's changed (verdict.old). Also reached through
# Linux's path, tools/testing/selftests/rcutorture/.
RECHECK_SH=$TESTS_ROOT/tools/testing/selftests/rcutorture/bin/kvm-recheck.sh
kvm_recheck() {
	local run=$LOGDIR/recheck-run out rc=0
	rm -rf "$run"
	mkdir -p "$run/TREE02" "$run/TREE02.2"
	echo rcu >"$run/torture"
	for g in TREE02 TREE02.2; do
		tr -d '\r' <"$TESTS_ROOT/tests/fixtures/torture/TREE02.console.log" >"$run/$g/console.log"
		echo 0 >"$run/$g/qemu.rc"
		echo TREE02 >"$run/$g/scenario"
		echo 3 >"$run/$g/cpus"
		echo success >"$run/$g/expect"
		echo "PASS (expected success)" >"$run/$g/verdict"
	done
	sed -i '0,/rcu-torture: rtc:/s/\(rcu-torture: rtc:.*\)/\1\n[   30.000000] rcu-torture: !!! planted error marker/' "$run/TREE02.2/console.log"
	out=$("$RECHECK_SH" "$run") || rc=$?
	echo "$out"
	[ $rc = 1 ] &&
		grep -Eq '^TREE02 +3 +success +poweroff +[1-9][0-9]* +[0-9]+\.[0-9] +PASS' <<<"$out" &&
		grep -Eq '^TREE02\.2 +3 +success +poweroff +[1-9][0-9]* +[0-9.]+ +FAIL \(expected success\): 1 error markers' <<<"$out" &&
		grep -q '^  first offending console line of TREE02.2: [0-9]*:\[   30.000000\] rcu-torture: !!! planted error marker$' <<<"$out" &&
		grep -q '^kvm-recheck: TREE02.2: verdict changed (was: PASS (expected success))$' <<<"$out" &&
		[ -s "$run/TREE02.2/console.log.diags" ] && [ ! -e "$run/TREE02/console.log.diags" ] &&
		[ ! -e "$run/TREE02/verdict.old" ] && [ -f "$run/TREE02.2/verdict.old" ] &&
		! "$RECHECK_SH" "$LOGDIR/no-such-run" 2>/dev/null
}
run_cmd_test kvm-recheck kvm_recheck

TORTURE_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/torture.sh
TORTURE_FIX=$TESTS_ROOT/tests/fixtures/torture
torture_dryrun() {
	local out before
	before=$(ls -d "$KVM_RES"/torture.* 2>/dev/null | wc -l)
	out=$("$TORTURE_SH" --dryrun --cpus 2 --results "$KVM_RES") || return 1
	echo "$out"
	# Default: the TREE scenarios of CFLIST (Linux's, then ours of the same kinds) for 20 minutes in
	# one call, the TINY ones for 10 in another.
	grep -q '^torture.sh: kvm.sh --configs TREE01\\ TREE02\\ TREE03\\ TREE04\\ TREE05\\ TREE07\\ TREE09\\ ONOFF01\\ FQS01\\ BOOST01\\ EXP01\\ FWD01\\ DEEP01\\ FASTNOHZ01\\ ALONE01\\ POLL01\\ NOCB01\\ NOCB02 --duration 1200s --cpus 2 ' <<<"$out" &&
		grep -q '^torture.sh: kvm.sh --configs TINY01\\ TINY02\\ TINYEQS01 --duration 600s --cpus 2 ' <<<"$out" &&
		[ "$(grep -c '^torture.sh: kvm.sh ' <<<"$out")" = 2 ] &&
		grep -q 'TREE07: cmdline: rcutorture.torture_runnable=1 .* rcutorture.shutdown_secs=1200 ' <<<"$out" &&
		grep -q 'TINY02: cmdline: rcutorture.torture_runnable=1 .* rcutorture.shutdown_secs=600 ' <<<"$out" &&
		! grep -Eq 'BUSTED|NOBOOST|STALL' <<<"$out" &&
		out=$("$TORTURE_SH" --dryrun --configs "TREE02 TINY01 2*TREE04" --tree-duration 30s \
			--tiny-duration 5 --jitter 2 --results "$KVM_RES") &&
		grep -q '^torture.sh: kvm.sh --configs TREE02\\ 2\\\*TREE04 --duration 30s --jitter 2 ' <<<"$out" &&
		grep -q '^torture.sh: kvm.sh --configs TINY01 --duration 300s --jitter 2 ' <<<"$out" &&
		out=$("$TORTURE_SH" --dryrun --configs "TREE02 TINY01" --duration 1 --tiny-duration 5 \
			--results "$KVM_RES") &&
		grep -q '^torture.sh: kvm.sh --configs TREE02\\ TINY01 --duration 60s ' <<<"$out" &&
		[ "$(grep -c '^torture.sh: kvm.sh ' <<<"$out")" = 1 ] &&
		# --- KASAN: --do-kasan runs every call again with kvm.sh --kasan, results in <D>s-kasan ---
		out=$("$TORTURE_SH" --dryrun --do-kasan --configs TREE02 --duration 1 \
			--results "$KVM_RES") &&
		[ "$(grep -c '^torture.sh: kvm.sh ' <<<"$out")" = 2 ] &&
		grep -q '^torture.sh: kvm.sh --configs TREE02 --duration 60s .*/60s$' <<<"$out" &&
		grep -q '^torture.sh: kvm.sh --configs TREE02 --duration 60s .*/60s-kasan --kasan$' <<<"$out" &&
		out=$("$TORTURE_SH" --dryrun --configs "TREE02 TINY01" --do-fuzz --results "$KVM_RES") &&
		grep -q '^torture.sh: kvm.sh --configs TREE02\\ FUZZ01 --duration 1200s ' <<<"$out" &&
		grep -q 'FUZZ01: cmdline: .* user.run=fuzz:1@0-3 user.respawn=1000000 ' <<<"$out" &&
		grep -q -- '--tree-duration' <<<"$("$TORTURE_SH" --help)" &&
		# Sanitizers (issue 29): --do-ubsan passes kvm.sh --ubsan, whose build takes the fragment.
		out=$("$TORTURE_SH" --dryrun --do-ubsan --configs TREE02 --duration 30s --results "$KVM_RES") &&
		grep -q '^torture.sh: kvm.sh --configs TREE02 --duration 30s .* --ubsan$' <<<"$out" &&
		grep -q 'TREE02: build .*(defconfig + CFcommon + TREE02 + --kconfig)' <<<"$out" &&
		! grep -q -- '--ubsan' <<<"$("$TORTURE_SH" --dryrun --do-ubsan --do-no-ubsan --configs TREE02 \
			--results "$KVM_RES")" &&
		! "$TORTURE_SH" --dryrun --duration 0 >/dev/null 2>&1 &&
		! "$TORTURE_SH" --dryrun --configs NOSUCH >/dev/null 2>&1 &&
		! "$TORTURE_SH" --dryrun --cpus x >/dev/null 2>&1 &&
		[ "$(ls -d "$KVM_RES"/torture.* 2>/dev/null | wc -l)" = "$before" ]
}
run_cmd_test torture-dryrun torture_dryrun

# KCSAN (issue 29): torture.sh --do-kcsan repeats each kvm.sh call with --kcsan into <N>s-kcsan/,
# and kvm.sh --kcsan says what it adds; --do-no-kcsan (the default) does not.
torture_dryrun_kcsan() {
	local out
	out=$("$TORTURE_SH" --dryrun --configs TREE02 --duration 1 --do-kcsan --results "$KVM_RES") &&
		echo "$out" &&
		grep -q '^torture.sh: kvm.sh --configs TREE02 --duration 60s .*/60s$' <<<"$out" &&
		grep -q '^torture.sh: kvm.sh --configs TREE02 --duration 60s .*/60s-kcsan --kcsan$' <<<"$out" &&
		[ "$(grep -c '^torture.sh: kvm.sh ' <<<"$out")" = 2 ] &&
		[ "$(grep -c '^kvm.sh: --kcsan: CONFIG_KCSAN=y ' <<<"$out")" = 1 ] &&
		out=$("$TORTURE_SH" --dryrun --configs TREE02 --duration 1 --do-kcsan --do-no-kcsan \
			--results "$KVM_RES") &&
		[ "$(grep -c '^torture.sh: kvm.sh ' <<<"$out")" = 1 ] && ! grep -q -- '--kcsan' <<<"$out"
}
run_cmd_test torture-dryrun-kcsan torture_dryrun_kcsan

# torture.sh's summary table on a fake campaign: the consoles of a real 1-minute TREE02 and
# TINY01 run of torture.sh (tests/fixtures/torture/, whole consoles), then a TREE02 console
# with an error marker and rtbf 3, a guest kvm.sh never judged, and a FUZZ01 guest with a kill
# that has no report.
torture_summary() {
	local d camp g out s rc=0
	d=$(mktemp -d "${TMPDIR:-/tmp}/torture.XXXXXX")
	camp=$d/torture.1 g=$d/torture.1/60s/2026.01.01-00.00.00
	for s in TREE02 TINY01; do
		mkdir -p "$g/$s"
		cp "$TORTURE_FIX/$s.console.log" "$g/$s/console.log"
		"$PARSE_SH" "$g/$s/console.log" >"$g/$s/verdict"
	done
	mkdir -p "$g/build/TREE02"	# kvm.sh's build directory is no guest
	out=$("$TORTURE_SH" --summarize "$camp") || rc=$?
	echo "$out"
	[ $rc = 0 ] && [ -f "$camp/summary.txt" ] && [ "$(cat "$camp/summary.txt")" = "$out" ] &&
		grep -Eq '^TREE02 +60s PASS +1698 +509 +9892 +1260  0 +18933733 299 0 0 0 0 0 0 0 0 0$' <<<"$out" &&
		grep -Eq '^TINY01 +60s PASS +23794 +2668 +15921 +n/a  0 +9636416 0 0 0 0 0 0 0 0 0 0$' <<<"$out" &&
		grep -q '^torture.sh: 2 of 2 guests as expected ' <<<"$out" || rc=1
	if [ $rc = 0 ]; then
		mkdir -p "$g/TREE02.2" "$g/TREE07"
		sed 's/rtbf: 0 /rtbf: 3 /; s/rcu-torture: Reader Pipe:/rcu-torture: !!! Reader Pipe:/' \
			"$TORTURE_FIX/TREE02.console.log" >"$g/TREE02.2/console.log"
		"$PARSE_SH" "$g/TREE02.2/console.log" >"$g/TREE02.2/verdict"
		cp "$TORTURE_FIX/TREE02.console.log" "$g/TREE07/console.log"
		# A fuzzer guest whose verdict passes but whose power-off line counts a kill no
		# report explains (torture.sh --do-fuzz).
		mkdir -p "$g/FUZZ01"
		{ cat "$TORTURE_FIX/TREE02.console.log"
		  echo '[   59.100000] traps: fuzz[7] general protection fault ip:7f8000401b60 sp:7fffffffdee8 error:0'
		  echo '[   59.200000] fuzz[8]: segfault at 7fffffffdec0 ip 00007f8000401de1 sp 00007fffffffdec0 error 1'
		  echo '[   60.100000] user: 3 processes started, 0 exited, 3 killed'; } >"$g/FUZZ01/console.log"
		"$PARSE_SH" "$g/FUZZ01/console.log" >"$g/FUZZ01/verdict"
		out=$("$TORTURE_SH" --summarize "$camp")
		rc=$?
		echo "$out"
		# Exit 1: three of the five guests are not as expected.
		[ $rc = 1 ] && rc=0 &&
			grep -Eq '^TREE02.2 +60s FAIL +1698 .* !!!=1,rtbf=3 +18933733 299 ' <<<"$out" &&
			grep -q '^TREE02.2: FAIL (expected success): 1 error markers (!!!)$' <<<"$out" &&
			grep -Eq '^TREE07 +60s FAIL ' <<<"$out" &&
			grep -q '^TREE07: FAIL (no verdict' <<<"$out" &&
			grep -Eq '^FUZZ01 +60s FAIL ' <<<"$out" &&
			grep -q '^FUZZ01: FAIL (fuzz: 2 kill reports for 3 kills (3 started, 0 exited))$' <<<"$out" &&
			grep -q '^torture.sh: 2 of 5 guests as expected ' "$camp/summary.txt" || rc=1
	fi
	rm -rf "$d"
	return $rc
}
run_cmd_test torture-summary torture_summary

# A real rcuperf run through the runner: two guests, their verdicts, the table, the histogram,
# the results page (index.html: both guests, the histograms and the CDF).
kvm_rcuperf() {
	local out rc=0 dir
	out=$("$KVM_SH" --torture rcuperf --configs "TREE2 REFSCALE" --duration 60s --cpus 4 \
		--build-cache "$TEST_BUILD_CACHE" --results "$KVM_RES" 2>&1) || rc=$?
	echo "$out"
	dir=$(sed -n 's/^kvm.sh: results in //p' <<<"$out")
	[ $rc = 0 ] && [ -d "$dir" ] &&
		grep -Eq '^TREE2 +2 +success +poweroff +- +- +PASS' <<<"$out" &&
		grep -Eq '^REFSCALE +4 +success +poweroff +- +- +PASS' <<<"$out" &&
		grep -Eq '^TREE2 +sync +2 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' <<<"$out" &&
		grep -Eq '^REFSCALE +rcu +4 +[0-9]+\.[0-9]{3} ' <<<"$out" &&
		[ -f "$dir/TREE2/.config" ] && [ -s "$dir/TREE2/histogram.dat" ] &&
		grep -q '^PASS' "$dir/TREE2/verdict" &&
		{ ! command -v gnuplot >/dev/null || [ -s "$dir/TREE2/histogram.png" ]; } &&
		grep -q "^kvm.sh: results page: $dir/index.html" <<<"$out" &&
		grep -q '<tr class="pass guest" id="guest-TREE2">' "$dir/index.html" &&
		grep -q '<tr class="pass guest" id="guest-REFSCALE">' "$dir/index.html" &&
		{ ! command -v gnuplot >/dev/null || { grep -q '<img src="TREE2/cdf.png"' "$dir/index.html" &&
			grep -q '<img src="TREE2/histogram.png"' "$dir/index.html" && [ -s "$dir/TREE2/cdf.png" ]; }; }
}
run_cmd_test kvm-rcuperf kvm_rcuperf

# kvm_console_has DIR SCENARIO RE: some line of the scenario's console matches RE. Not grep -q:
# with pipefail, grep quitting at the first match can fail the pipeline with tr's SIGPIPE (141).
kvm_console_has() { tr -d '\r' <"$1/$2/console.log" | grep -E -- "$3" >/dev/null; }

# The short matrix's scenarios (45-kvm.prebuild builds their kernels ahead, reading this line).
KVM_SHORT_MATRIX="ONOFF01 EXP01 FWD01 BOOST01 ALONE01 POLL01 TASKS05 SRCU01 SRCU02 FASTNOHZ01 NOCB01 NOCB02 NOHZ01 DEBUG01 BUSTED01 NOBOOST STALL STRICT01 TASKS04 KASAN01 KCSAN01"
# kvm_rows_pass OUT NAME:CPUS...: each scenario's row of kvm.sh's table says CPUS and PASS (expected success).
kvm_rows_pass() {
	local out=$1 row
	shift
	for row in "$@"; do
		must grep -Eq "^${row%:*} +${row#*:} +success .*PASS" <<<"$out" || return 1
	done
}
# kvm_rc_is WANT RC OUT: kvm.sh exited WANT; if not, the check failed names the rows of its
# table that did not pass (a cut-short report showed only "[ 1 = 3 ]" once, hiding which).
kvm_rc_is() {
	[ "$2" = "$1" ] && return 0
	echo "check failed: kvm.sh exit $2, not $1; rows not passing: $(grep -E '^[A-Z][A-Z0-9.-]* +[0-9]+ +[a-z]+ ' <<<"$3" | grep -v ' PASS' | tr -s ' ' | paste -sd';' -)" >&2
	return 1
}
kvm_short_matrix() {
	local out rc=0 dir
	out=$("$KVM_SH" --configs "$KVM_SHORT_MATRIX" --duration 20s --cpus 2 \
		--guests 2 --build-cache "$TEST_BUILD_CACHE" --results "$KVM_RES" 2>&1) || rc=$?
	echo "$out"
	dir=$(sed -n 's/^kvm.sh: results in //p' <<<"$out")
	# 3: all twenty-one as their scenarios expect, two of them (BUSTED01, NOBOOST) failed tests.
	kvm_rc_is 3 "$rc" "$out" && must [ -d "$dir" ] &&
		must grep -q '^kvm.sh: 2 test(s) ended with FAILURE, as their scenarios require: exit 3$' <<<"$out" &&
		must grep -q '^kvm.sh: STALL: same .config as SRCU01, sharing its kernel$' <<<"$out" &&
		must grep -Eq '^kvm.sh: [0-9]+/21 guests done, 2 running,' <<<"$out" &&
		must_not grep -Eq '^kvm.sh: [0-9]+/21 guests done, ([3-9]|[1-9][0-9]+) running,' <<<"$out" &&
		must grep -Eq '^ONOFF01 +8 +success +poweroff +[1-9][0-9]* +[0-9]+\.[0-9] +PASS' <<<"$out" &&
		must grep -q -- "-smp 8" "$dir/ONOFF01/qemu-cmd" &&
		must kvm_console_has "$dir" ONOFF01 'rcu-torture: rtc: .* barrier: [1-9][0-9]*/[1-9][0-9]*:0 ' &&
		# At least 10 offline/online operations: 150-270 here in 20 s, depending on the host's
		# load, so a hundred (the old bound) is not safe on a slower CI runner.
		must kvm_console_has "$dir" ONOFF01 'rcu-torture: rtc: .* onoff: [1-9][0-9]+/[0-9]+:[1-9][0-9]+/[0-9]+ ' &&
		must kvm_console_has "$dir" ONOFF01 'rcu: rcu_sched: callback accounting: ok \(CPUs went offline [1-9][0-9]+ times' &&
		kvm_rows_pass "$out" EXP01:4 FWD01:4 BOOST01:4 ALONE01:2 POLL01:2 TASKS05:2 TASKS04:2 SRCU01:4 SRCU02:4 FASTNOHZ01:4 NOCB01:4 NOCB02:4 NOHZ01:4 DEBUG01:4 STRICT01:4 KASAN01:4 KCSAN01:4 &&
		must kvm_console_has "$dir" FWD01 'rcu_torture_fwd_prog: tested [1-9][0-9]* tested_tries [1-9]' &&
		must kvm_console_has "$dir" EXP01 'rcu: rcu_sched: [1-9][0-9]* expedited grace periods,' &&
		must kvm_console_has "$dir" ALONE01 'rcu-torture: torture_onoff: CPU 0 alone online [1-9][0-9]* times' &&
		must kvm_console_has "$dir" POLL01 'rcu_torture_write_types: Testing polling GPs\.' &&
		must kvm_console_has "$dir" TASKS04 'Command line: .*sched.move_delay_us=200' &&
		must kvm_console_has "$dir" NOHZ01 'NO_HZ: Full dynticks CPUs: 1-3\.' &&
		# --- KASAN: the KASAN guest (configs/rcu/KASAN01), instrumented and without a report ---
		must kvm_console_has "$dir" KASAN01 'kasan: KernelAddressSanitizer initialized' &&
		must_not kvm_console_has "$dir" KASAN01 'BUG: KASAN:' &&
		# KCSAN (issue 29): the KCSAN guest (configs/rcu/KCSAN01), watchpoints set, no report.
		must kvm_console_has "$dir" KCSAN01 'kcsan: [1-9][0-9]* watchpoints set, 0 races found, 0 reported' &&
		must_not kvm_console_has "$dir" KCSAN01 'BUG: KCSAN:' &&
		must kvm_console_has "$dir" STRICT01 'rcu-torture: rtc: .* onoff: [1-9][0-9]*/[0-9]+:[1-9][0-9]*/[0-9]+ ' &&
		must kvm_console_has "$dir" NOCB01 'rcu: CPU 1: cbs queued [1-9][0-9]* invoked 0 pending' &&
		must kvm_console_has "$dir" NOCB02 'rcu: 	Poll for callbacks from no-CBs CPUs\.' &&
		must grep -Eq '^BUSTED01 +2 +busted .*PASS \(expected failure\): BUSTED caught: [1-9][0-9]* reads aged >= 2 GPs, [1-9][0-9]* error markers' <<<"$out" &&
		must "$PARSE_SH" --expect busted "$dir/BUSTED01/console.log" &&
		must kvm_console_has "$dir" BUSTED01 'busted-torture: !!! Reader Pipe:  [0-9]+ [0-9]+( [0-9]+)* [1-9][0-9]*( [0-9]+)*$' &&
		must grep -Eq '^NOBOOST +4 +failure .*PASS \(expected failure\)' <<<"$out" &&
		must grep -Eq '^STALL +4 +stall .*PASS \(expected stall\)' <<<"$out" &&
		must kvm_console_has "$dir" EXP01 'rcu_torture_write_types: Testing expedited GPs\.' &&
		must_not kvm_console_has "$dir" EXP01 'rcu_torture_write_types: Testing (conditional|asynchronous|polling|normal) GPs' &&
		must kvm_console_has "$dir" BOOST01 'test_boost=1/1 test_boost_interval=2 ' &&
		must kvm_console_has "$dir" BOOST01 'rcu-torture: Boost test: windows [1-9][0-9]* .* rtbf 0$' &&
		must kvm_console_has "$dir" BOOST01 'smpboot: hotplug: .*; CPU 0 alone [1-9][0-9]* times$' &&
		must kvm_console_has "$dir" BOOST01 'rcu-torture: Boost test: [0-9]+ booster\(s\) bound back to their CPU after CPU hotplug$' &&
		must kvm_console_has "$dir" NOBOOST 'rcu-torture: rtc: .* rtbf: [1-9][0-9]* rtb: ' &&
		must kvm_console_has "$dir" NOBOOST 'rcu-torture:--- End of test: FAILURE: .* test_boost=2/0 ' &&
		must_not kvm_console_has "$dir" NOBOOST 'detected stalls|self-detected stall'
}
if [ -f "$TESTS_ROOT/kernel/rcu/torture/rcutorture.c" ]; then
	run_cmd_test kvm-short-matrix kvm_short_matrix
else
	skip_test kvm-short-matrix "rcutorture is not in this tree"
fi
