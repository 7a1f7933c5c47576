# shellcheck shell=bash
# tests/boot/30-rcu.sh - Tree RCU at boot: the KTAP suite "rcu" (kernel/rcu/test/api.c,
# rcutree.selftest=1) on 1, 2, 4 and 8 CPUs (on 2 also the suite "rcu_api"); the rcutree./rcupdate. boot-time adjustment banners
# and what blimit and qhimark do to callback batches; a provoked CPU stall
# (kernel/rcu/test/stall.c), reported, suppressed by rcupdate.rcu_cpu_stall_suppress,
# and reported after a build-time CONFIG_RCU_CPU_STALL_TIMEOUT=3 by a kernel that also starts
# rcutorture without parameters (CONFIG_RCU_TORTURE_TEST_RUNNABLE); grace periods on an idle 8-CPU guest without waking its idle
# CPUs; the boot benchmark (kernel/rcu/test/gp_bench.c); and bad rcu_fanout_leaf values.
# Sourced by tests/run-all.sh with tests/lib.sh loaded. Accelerators are lib.sh's defaults
# (MTTCG for 1-2 CPUs, single-threaded TCG for 4-8). Whole file: about 2 minutes on 2 host cores.
#
# Console lines assumed (Documentation/admin-guide/kernel-parameters.md, RCU section):
#   "# Totals: pass:P fail:0 skip:S total:T"      kernel/test/ktap.c, after every suite
#   "rcu: 	Boot-time adjustment of ..."           kernel/rcu/tree_params.c (a TAB after "rcu: ")
#   "	RCU CPU stall warnings timeout set to N (rcu_cpu_stall_timeout)."   kernel/rcu/update.c
#   "rcu: rcu_sched: N grace periods completed (...)"                      rcu_show_stats(), at
#   "rcu: CPU n: cbs queued Q invoked I pending P max batch B, QS reported R, ..."  power-off
#   "rcu: kvfree_rcu: batches B (...), pages P, objects freed O (...), fallbacks F, ..."  power-off
#   " LOC:  n0 n1 ..."                             kernel/irq.c, the power-off interrupt table
#   "rcu: INFO: rcu_sched detected stalls on CPUs/tasks:"  kernel/rcu/tree_stall.c
#   "rcu-bench: ..."                               kernel/rcu/test/gp_bench.c; figures never judged

TAB=$(printf '\t')

# shutdown_secs for self-test boots: the suite must end before the power-off, or the Totals line is
# missing. It takes about 2 s (1.5 s of it the list-under-readers case); on 2 CPUs under MTTCG a
# busy host slows every cross-CPU wakeup, hence more room there.
# The 4-CPU boot also runs the kvfree_rcu() suite (about 1 s more).
rcu_st_secs() { case $1 in 2) echo 14 ;; 4) echo 9 ;; *) echo 8 ;; esac; }

rcu_selftest_boot() { # NAME SMP EXTRA_ARGS [boot_test options...]
	local name=$1 smp=$2 extra=$3
	shift 3
	boot_test "$name" --smp "$smp" \
		--append "rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=$(rcu_st_secs "$smp")${extra:+ $extra}" \
		--expect "# Subtest: rcu" \
		--expect "# Totals: pass:[0-9]+ fail:0 " \
		--reject "not ok" \
		--expect "reboot: Power down" "$@"
}

# rcu_stats_check LOG MODE N: the power-off "rcu: CPU n: ... max batch B" lines.
#   MODE le: every CPU's max batch <= N.   MODE gt: some CPU's max batch > N.
rcu_stats_check() {
	tr -d '\r' <"$1" | awk -v mode="$2" -v n="$3" '
		/rcu: CPU [0-9]+: cbs queued/ {
			if (!match($0, /max batch [0-9]+/)) next
			b = substr($0, RSTART + 10, RLENGTH - 10) + 0
			cpus++
			print "CPU line: max batch " b
			if (b > n) above++
		}
		END {
			if (!cpus) { print "no rcu: CPU n: lines in the log"; exit 1 }
			if (mode == "le" && above) { print above " CPUs had a batch above " n; exit 1 }
			if (mode == "gt" && !above) { print "no CPU had a batch above " n; exit 1 }
		}'
}

# --- the self-test suite -------------------------------------------------------------------------

rcu_selftest_boot rcu-selftest-smp1 1 ""
# With the suite rcu_api (rcupdate.api_selftest=1, kernel/rcu/test/api_extra.c: rcu_sync,
# synchronize_rcu_mult(), the list forms under readers; 2-5 s here): 4 s more before the power-off
# (the later shutdown_secs= wins).
rcu_selftest_boot rcu-selftest-smp2 2 "rcupdate.api_selftest=1 shutdown_secs=18" \
	--expect "# Subtest: rcu_api" \
	--expect "ok [0-9]+ rcu_api_hlist_bl_readers" \
	--expect "^\[ *[0-9.]+\] ok [0-9]+ rcu_api$"
# On 4 CPUs with rcutree.blimit=5 and the backlog share off (rcutree.rcu_divisor=62; it would let
# a CPU holding 640 or more take 1/128 of them, as the case gp_batch_backlog, which skips here,
# shows in the other boots): no CPU ever queues qhimark (10000) callbacks, so no batch
# may exceed 5 callbacks. The same boot runs the kvfree_rcu() suite (kernel/rcu/test/kvfree.c:
# frees only after readers on other CPUs let go, no memory, a CPU going offline with a batch)
# and prints its power-off line.
rcu_selftest_boot rcu-selftest-smp4-blimit5 4 "rcutree.blimit=5 rcutree.rcu_divisor=62 rcutree.kvfree_selftest=1" \
	--expect "rcu: ${TAB}Boot-time adjustment of callback invocation limit to 5\." \
	--expect "# rcu_kvfree: pass:4 fail:0 skip:0 total:4" \
	--expect "rcu: kvfree_rcu: batches [1-9][0-9]* .*objects freed [1-9][0-9]* .*fallbacks [1-9]"
if _test_selected rcu-selftest-smp4-blimit5; then
	run_cmd_test rcu-blimit5-max-batch rcu_stats_check "$LOGDIR/rcu-selftest-smp4-blimit5.log" le 5
fi
rcu_selftest_boot rcu-selftest-smp8 8 ""

# --- boot-time adjustment banners ------------------------------------------------------------------

# Every setting in one boot, each with its Linux-format line; the self-test runs under them, so
# jiffies_till_first_fqs=0 (scan at once) and next_fqs=2 must keep grace periods working.
rcu_selftest_boot rcu-banners 2 "rcutree.blimit=5 rcutree.qhimark=500 rcutree.qlowmark=50 rcutree.jiffies_till_first_fqs=0 rcutree.jiffies_till_next_fqs=2 rcupdate.rcu_cpu_stall_timeout=30" \
	--expect "^\[ *[0-9.]+\] rcu: Hierarchical RCU implementation\." \
	--expect "rcu: ${TAB}Boot-time adjustment of callback invocation limit to 5\." \
	--expect "rcu: ${TAB}Boot-time adjustment of callback high-water mark to 500\." \
	--expect "rcu: ${TAB}Boot-time adjustment of callback low-water mark to 50\." \
	--expect "rcu: ${TAB}Boot-time adjustment of first FQS scan delay to 0 jiffies\." \
	--expect "rcu: ${TAB}Boot-time adjustment of subsequent FQS scan delay to 2 jiffies\." \
	--expect "\] ${TAB}RCU CPU stall warnings timeout set to 30 \(rcu_cpu_stall_timeout\)\." \
	--expect "rcu: rcu_sched: [1-9][0-9]* grace periods completed"

# rcu_kick_kthreads=1 on its own, on a healthy system: the banner, and no "Kicking ... kthread"
# WARNING (the default rejects). Under TCG the grace-period kthread often runs 10 ms late, so the
# kick deadline is three FQS waits plus HZ/10 and only applies while the kthread sleeps in one.
boot_test rcu-banner-kick --smp 2 --append "rcutree.rcu_kick_kthreads=1 shutdown_secs=1" \
	--expect "rcu: ${TAB}Kick kthreads if too-long grace period\." \
	--expect "reboot: Power down"

# --- qhimark lifts the batch limit -------------------------------------------------------------------

# gp_bench floods CPU 0 with 50000 callbacks: past rcutree.qhimark=200 its batches are unlimited,
# so some CPU's max batch exceeds blimit (5). rcutree.rcu_divisor=62 takes the backlog share
# (50000 >> 62 = 0) out, so that only the lift can make a batch bigger than blimit.
# The benchmark's figures are only checked for presence.
boot_test rcu-flood-qhimark --smp 2 --append "rcutree.gp_bench=1 rcutree.qhimark=200 rcutree.blimit=5 rcutree.rcu_divisor=62 shutdown_secs=15" \
	--expect "rcu-bench: call_rcu cpus=2 per_cpu_per_s=[0-9]+" \
	--expect "rcu-bench: flood cbs=50000 peak_kmalloc_live=[0-9]+ peak_pages_used=[0-9]+" \
	--expect "rcu-bench: synchronize_rcu idle cpus=2 n=200 median_ns=[0-9]+ p99_ns=[0-9]+ max_ns=[0-9]+" \
	--expect "rcu-bench: synchronize_rcu busy cpus=2 n=200 median_ns=[0-9]+ p99_ns=[0-9]+ max_ns=[0-9]+" \
	--expect "rcu-bench: synchronize_rcu readers cpus=2 n=200 reader_us=1000 median_ns=[0-9]+ p99_ns=[0-9]+ max_ns=[0-9]+" \
	--expect "rcu-bench: synchronize_rcu_expedited readers cpus=2 n=200 reader_us=1000 median_ns=[0-9]+ " \
	--reject "rcu-bench: .*(failed|timed out)" \
	--expect "reboot: Power down"
if _test_selected rcu-flood-qhimark; then
	run_cmd_test rcu-qhimark-lifts-blimit rcu_stats_check "$LOGDIR/rcu-flood-qhimark.log" gt 5
fi

# rcu_stall_after LOG SECS: the stall warning came SECS to SECS+2 s after the spin began (the
# grace period the spin holds starts with it), by the console's timestamps.
rcu_stall_after() {
	awk -v secs="$2" '
		function ts(line) { sub(/^\[ */, "", line); sub(/\].*/, "", line); return line + 0 }
		/stall_test: spinning CPU/ && !t0 { t0 = ts($0) }
		/rcu: INFO: rcu_sched (detected stalls|self-detected stall)/ && !t1 { t1 = ts($0) }
		END {
			if (!t0 || !t1) { print "no spin or no stall line"; exit 1 }
			printf "stall reported %.3f s after the spin began (expected %d to %d)\n", t1 - t0, secs, secs + 2
			exit !(t1 - t0 >= secs - 0.1 && t1 - t0 <= secs + 2)
		}' "$1"
}

# --- a provoked CPU stall ------------------------------------------------------------------------------

# CPU 1 spins with interrupts off for 8 s; with a 3 s timeout the stall detector reports it with
# a backtrace of the spinning CPU, and the kernel powers off normally once the spin ends.
boot_test rcu-stall --smp 2 --allow-bug \
	--append "rcutree.stall_test_secs=8 rcupdate.rcu_cpu_stall_timeout=3 shutdown_secs=14" \
	--expect "rcu: stall_test: spinning CPU 1 with interrupts off for 8 seconds" \
	--expect "rcu: INFO: rcu_sched (detected stalls on CPUs/tasks:|self-detected stall on CPU)" \
	--expect "NMI backtrace for cpu 1|Call Trace" \
	--expect "rcu: stall_test: CPU 1 has interrupts on again" \
	--expect "reboot: Power down"

# The same stall with rcupdate.rcu_cpu_stall_suppress=1: the banner says so, and nothing is
# reported (no warning, no backtrace), though the spin outlasts the timeout as above.
boot_test rcu-stall-suppressed --smp 2 \
	--append "rcutree.stall_test_secs=4 rcupdate.rcu_cpu_stall_timeout=3 rcupdate.rcu_cpu_stall_suppress=1 shutdown_secs=6" \
	--expect "\] ${TAB}RCU CPU stall warnings suppressed \(rcu_cpu_stall_suppress\)\." \
	--expect "rcu: stall_test: spinning CPU 1 with interrupts off for 4 seconds" \
	--expect "rcu: stall_test: CPU 1 has interrupts on again" \
	--reject "detected stall" --reject "self-detected stall" --reject "NMI backtrace" \
	--expect "reboot: Power down"

# Build-time settings, in one kernel (test_defconfig with CONFIG_RCU_CPU_STALL_TIMEOUT=3 and
# CONFIG_RCU_TORTURE_TEST_RUNNABLE=y) and one boot without any rcupdate.* or rcutorture.*
# parameter: rcutorture starts by itself, and a 5-s stall is reported after the build's 3 s (the
# banner line of rcupdate.rcu_cpu_stall_timeout stays away: nothing differs from the build). The
# boot also dumps the balanced rcu_node tree of 5 possible CPUs at leaf fanout 4 (2 started:
# maxcpus=2): leaves 0-2 and 3-4; tests/boot/47-hotplug.sh's hotplug-maxcpus-nr-cpus boots the
# same shape with rcutree.rcu_fanout_exact=1 and gets leaves 0-3 and 4, and the banner line.
rcu_kconfig_dir=$(cd "$LOGDIR" && pwd)/build-rcu-kconfig
RCU_GEOMETRY_ARGS="maxcpus=2 nr_cpus=5 rcutree.rcu_fanout_leaf=4 rcutree.dump_tree=1"
if _test_selected rcu-kconfig-stall-runnable; then
	run_cmd_test rcu-kconfig-build build_config "$rcu_kconfig_dir" test_defconfig \
		'+CONFIG_RCU_CPU_STALL_TIMEOUT=3' '+CONFIG_RCU_TORTURE_TEST_RUNNABLE=y' \
		'CONFIG_RCU_CPU_STALL_TIMEOUT=3' 'CONFIG_RCU_TORTURE_TEST_RUNNABLE=y'
	built_boot_test "$rcu_kconfig_dir" "CONFIG_RCU_CPU_STALL_TIMEOUT=3" rcu-kconfig-stall-runnable 6 \
		"$RCU_GEOMETRY_ARGS rcutree.stall_test_secs=5 shutdown_secs=7" --allow-bug \
		--expect "rcu-torture:--- Start of test: " \
		--expect "^\[ *[0-9.]+\] rcu:  0:4 \^0 *$" --expect "^\[ *[0-9.]+\] rcu:  0:2 \^0  3:4 \^1 *$" \
		--expect "rcu: stall_test: spinning CPU 1 with interrupts off for 5 seconds" \
		--expect "rcu: INFO: rcu_sched (detected stalls on CPUs/tasks:|self-detected stall on CPU)" \
		--reject "RCU CPU stall warnings timeout set to" --reject "autobalancing is disabled" \
		--expect "reboot: Power down"
	run_cmd_test rcu-kconfig-stall-after-3s rcu_stall_after "$LOGDIR/rcu-kconfig-stall-runnable.log" 3
fi

# --- grace periods without waking idle CPUs --------------------------------------------------------------

# rcutree.gp_bench=2 runs 210 synchronize_rcu() from CPU 0 with the other CPUs idle: the
# grace-period kthread credits them from their dyntick counters, without waking them. So no CPU of
# 1-7 takes 200 timer interrupts in the 10 s, except the one that hosted the rcu_sched kthread
# (it sleeps and wakes on a timer once or twice per grace period, as in Linux): at most one such
# CPU, recognisable by the quiescent states it reported itself, and below 200 + 3 per grace period.
# (The self-test is no idle workload: its list case keeps every CPU busy for 1.5 s.)
rcu_check_idle_loc() { # LOG
	tr -d '\r' <"$1" | awk '
		/ LOC:/ {
			sub(/.*LOC:/, "")
			for (cpu = 0; cpu < 8; cpu++) loc[cpu] = $(cpu + 1)
			found = 1
		}
		/rcu: rcu_sched: [0-9]+ grace periods completed/ {
			match($0, /rcu_sched: [0-9]+/)
			gps = substr($0, RSTART + 11, RLENGTH - 11) + 0
		}
		/rcu: CPU [0-9]+: cbs queued/ {
			match($0, /CPU [0-9]+:/)
			c = substr($0, RSTART + 4, RLENGTH - 5) + 0
			match($0, /QS reported [0-9]+/)
			qs[c] = substr($0, RSTART + 12, RLENGTH - 12) + 0
		}
		END {
			if (!found) { print "no LOC: row in the log"; exit 1 }
			if (gps <= 0) { print "no grace period completed"; exit 1 }
			print gps " grace periods completed"
			for (cpu = 1; cpu < 8; cpu++) {
				printf "CPU%d LOC=%s QS reported=%d\n", cpu, loc[cpu], qs[cpu]
				if (loc[cpu] !~ /^[0-9]+$/) { bad = 1; continue }
				if (loc[cpu] + 0 < 200) continue
				busy++
				if (qs[cpu] == 0 || loc[cpu] + 0 >= 200 + 3 * gps) bad = 1
			}
			if (busy > 1 || bad) { print "idle CPUs were woken by grace periods"; exit 1 }
		}'
}

boot_test rcu-idle-smp8 --smp 8 --append "rcutree.gp_bench=2 shutdown_secs=10" \
	--expect "rcu-bench: synchronize_rcu idle cpus=8 n=200" \
	--expect "rcu: rcu_sched: [1-9][0-9]* grace periods completed" \
	--expect " LOC:" \
	--expect "reboot: Power down"
if _test_selected rcu-idle-smp8; then
	run_cmd_test rcu-idle-smp8-loc rcu_check_idle_loc "$LOGDIR/rcu-idle-smp8.log"
fi

# --- bad values --------------------------------------------------------------------------------------------

# rcutree.rcu_fanout_leaf must be 2..64: one warning naming the parameter, then a normal boot.
rcu_count_lines() { # LOG REGEX N: exactly N console lines match
	local n
	n=$(tr -d '\r' <"$1" | grep -Ec -- "$2" || true)
	echo "$n lines match /$2/"
	[ "$n" = "$3" ]
}
for v in 1 100; do
	boot_test "rcu-fanout-leaf-$v" --smp 2 --append "rcutree.rcu_fanout_leaf=$v shutdown_secs=1" \
		--expect "rcu: rcutree\.rcu_fanout_leaf: invalid value '$v'" \
		--expect "rcu: Hierarchical RCU implementation\." \
		--expect "reboot: Power down"
	if _test_selected "rcu-fanout-leaf-$v"; then
		run_cmd_test "rcu-fanout-leaf-$v-one-warning" rcu_count_lines \
			"$LOGDIR/rcu-fanout-leaf-$v.log" 'rcutree\.rcu_fanout_leaf[^=]' 1
	fi
done
