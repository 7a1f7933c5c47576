# shellcheck shell=bash
# tests/boot/36-rcu-nocb.sh - callback offloading (CONFIG_RCU_NOCB_CPU, kernel/rcu/tree_nocb.c):
# the KTAP suite "rcu_nocb" (kernel/rcu/test/nocb.c) with CPUs 1-3 of 4 offloaded, with
# and without rcu_nocb_poll, and with a small qhimark for its flood case, the banners, the power-off counters, and the parsing of rcu_nocbs=
# (good, malformed, nonexistent CPUs) and of the group stride; the KTAP suite "rcu_nocb_toggle"
# (kernel/rcu/test/nocb_toggle.c, in the same boots) and rcutorture's nocbs_nthreads
# togglers switching CPUs at run time. Skipped when the kernel under test
# was built without CONFIG_RCU_NOCB_CPU (test_defconfig has it). About 1 minute on 2 host cores.
#
# Console lines assumed (Documentation/admin-guide/kernel-parameters.md, RCU section):
#   "rcu: 	Offload RCU callbacks from CPUs: 1-3."            tree_nocb.c, a TAB after "rcu: "
#   "rcu: 	Poll for callbacks from no-CBs CPUs."
#   "rcu: rcu_nocbs= bad CPU range, all CPUs set"
#   "rcu: 	Note: kernel parameter 'rcu_nocbs=' contains nonexistent CPUs."
#   "rcu: CPU n: offloaded: cbs invoked by rcuos N, wakeups sent W, floods F"   power-off statistics
#   "# offloaded CPU n ...: queued Q, invoked by itself 0, by rcuo N, ..."  the KTAP suite
#   "rcu: Offloading N", "rcu: De-offloading N"               tree_nocb_toggle.c, Linux's words
#   "rcu-torture: ... read-exits: R nocb-toggles: N:M"        rcutorture's statistics line
#   "rcu: CPU n: lazy: queued Q, held H (peak P), flushes: timeout T size S hurry U barrier B memory M other O"
#                                                             tree_nocb_lazy.c, CONFIG_RCU_LAZY

nocb_cfg=${O:-$TESTS_ROOT}/.config
if [ -f "$nocb_cfg" ] && ! grep -q '^CONFIG_RCU_NOCB_CPU=y' "$nocb_cfg"; then
	skip_test rcu-nocb "kernel built without CONFIG_RCU_NOCB_CPU"
	return 0 2>/dev/null || exit 0
fi

nocb_count_lines() { # LOG REGEX N: exactly N console lines match
	local n
	n=$(tr -d '\r' <"$1" | grep -Ec -- "$2" || true)
	echo "$n lines match /$2/"
	[ "$n" = "$3" ]
}

# The suite, CPUs 1-3 offloaded (two groups with the default stride sqrt(4) = 2): the offloaded CPU
# invokes none of its 2000 callbacks, rcuos invokes them all, on CPU 0; CPU 0 invokes its own. The
# counts may run a few over 2000: a kthread that exits on the CPU meanwhile queues one to free its
# task_struct.
# With CONFIG_RCU_LAZY (test_defconfig: built in, off by default), lazy callbacks are switched on
# in this boot with a 1 s timeout for the KTAP suite "rcu_lazy" (kernel/rcu/test/lazy.c, about 1 s):
# the rest of the suite must pass with them on too. A kernel without it runs the boot as before.
nocb_lazy_args= nocb_lazy_expects=()
if [ -f "$nocb_cfg" ] && grep -q '^CONFIG_RCU_LAZY=y' "$nocb_cfg"; then
	nocb_lazy_args=" rcutree.enable_rcu_lazy=1 rcutree.jiffies_lazy_flush=1000"
	nocb_lazy_expects=(--expect "# lazy callback on CPU 1 invoked after [0-9]+ ms \(rcutree.jiffies_lazy_flush: 1000 ms\)"
		--expect "ok [0-9]+ rcu_lazy$" --expect "rcu: CPU 1: lazy: queued [1-9][0-9]*, held [0-9]+ \(peak [1-9][0-9]*\), flushes: timeout [1-9]")
fi
boot_test rcu-nocb-selftest --smp 4 --timeout 90 \
	--append "rcu_nocbs=1-3 rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=10$nocb_lazy_args" \
	"${nocb_lazy_expects[@]}" \
	--expect "rcu: ${TAB:=$(printf '\t')}Offload RCU callbacks from CPUs: 1-3\." \
	--expect "# Subtest: rcu_nocb" \
	--expect "# offloaded CPU 1: 2000 call_rcu\(\): queued 2[0-9]{3}, invoked by itself 0, by rcuo 2[0-9]{3}, on CPU 1 0," \
	--expect "# plain CPU 0: 2000 call_rcu\(\): queued 2[0-9]{3}, invoked by itself 2[0-9]{3}, by rcuo 0, on CPU 0 2000," \
	--expect "# try [1-5]: both callbacks of offloaded CPU [0-9]+ in one rcuo batch, blimit [0-9]+$" \
	--expect "ok [0-9]+ nocb_resched_each_cb$" \
	--expect "ok [0-9]+ rcu_nocb$" \
	--expect "# CPU 1 switched off [1-9][0-9]* and on [1-9][0-9]* times .* with 1500 callbacks queued: invoked 1500, before their grace period 0, out of order 0$" \
	--expect "ok [0-9]+ rcu_nocb_toggle$" \
	--expect "# Totals: pass:[0-9]+ fail:0 " \
	--expect "rcu: CPU 3: cbs queued [0-9]+ invoked 0 pending" \
	--expect "rcu: CPU 3: offloaded: cbs invoked by rcuos [1-9][0-9]*," \
	--expect "rcu: rcuog/1: [0-9]+ passes" --expect "rcu: rcuog/2: [0-9]+ passes" \
	--reject "rcuog/3" --reject "not ok" --expect "reboot: Power down"

# rcu_nocb_poll: the offloaded CPU's call_rcu() loop in the suite sends no wakeup at all (its KTAP line);
boot_test rcu-nocb-poll --smp 4 --timeout 90 \
	--append "rcu_nocbs=1-3 rcu_nocb_poll rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=10" \
	--expect "rcu: ${TAB}Poll for callbacks from no-CBs CPUs\." \
	--expect "# offloaded CPU 1 \(rcu_nocb_poll\): .* invoked by itself 0, by rcuo 2[0-9]{3}, .*wakeups sent 0," \
	--expect "# Totals: pass:[0-9]+ fail:0 " \
	--expect "rcu: CPU 1: offloaded: cbs invoked by rcuos [1-9][0-9]*, wakeups sent [0-9]+, floods [0-9]+" \
	--reject "not ok" --expect "reboot: Power down"
# Over the whole boot (the other suites queue many callbacks), a polled CPU's call_rcu() may send
# a wakeup only for a flood (its qhimark FQS request): wakeups sent <= floods on every CPU.
nocb_poll_wakeups_only_floods() {
	local log=$1 n=0 w f
	while read -r w f; do
		n=$((n + 1))
		[ "$w" -le "$f" ] || { echo "wakeups sent $w > floods $f"; return 1; }
	done < <(tr -d '\r' <"$log" | sed -n 's/.* offloaded: cbs invoked by rcuos [0-9]*, wakeups sent \([0-9]*\), floods \([0-9]*\).*/\1 \2/p')
	echo "$n offloaded CPUs, each with wakeups sent <= floods"
	[ "$n" = 3 ]
}
run_cmd_test rcu-nocb-poll-wakeups nocb_poll_wakeups_only_floods "$LOGDIR/rcu-nocb-poll.log"

# Flood on an offloaded list (qhimark 500): counted as a flood (an FQS request and a wakeup), every
# callback invoked by rcuos by the end of rcu_barrier(), none by the CPU itself. With
# CONFIG_RCU_LAZY, lazy callbacks on: the flood is held at most qhimark at a time (issue 34).
flood_lazy_args= flood_lazy_expects=()
if [ -f "$nocb_cfg" ] && grep -q '^CONFIG_RCU_LAZY=y' "$nocb_cfg"; then
	flood_lazy_args=" rcutree.enable_rcu_lazy=1"
	flood_lazy_expects=(--expect "# lazy: at most [1-9][0-9]* held at once on CPU 1 \(qhimark 500\)")
fi
boot_test rcu-nocb-flood --smp 4 --timeout 90 \
	--append "rcu_nocbs=1-3 rcutree.qhimark=500 rcutree.qlowmark=50 rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=10$flood_lazy_args" \
	"${flood_lazy_expects[@]}" \
	--expect "# flood of 600 on offloaded CPU 1 \(qhimark 500\): floods [1-9][0-9]*, invoked by itself 0, by rcuo (6[0-9][0-9]|[7-9][0-9][0-9]|[0-9]{4,})," \
	--expect "ok [0-9]+ nocb_flood$" --expect "# Totals: pass:[0-9]+ fail:0 " \
	--expect "rcu: CPU 1: offloaded: .* floods [1-9]" \
	--reject "not ok" --expect "reboot: Power down"

# --- run-time (de)offloading (kernel/rcu/tree_nocb_toggle.c) ---------------------------------------------

# rcutorture's Linux 6.1 togglers: two kthreads (rcutorture.nocbs_nthreads=2) switch a random CPU
# every ~50 ms (nocbs_toggle=50) while the torture test runs on NOCB01's offloaded set (CPUs 1-3):
# offloads and de-offloads both counted in Linux's "nocb-toggles: N:M" (attempts, CPU 0's refused
# ones included), switches actually made ("rcu: Offloading N", "rcu: De-offloading N"), the test
# passing, and the power-off callback accounting exact. About 12 s of guest time.
boot_test rcu-nocb-toggle-torture --smp 4 --timeout 60 \
	--append "rcu_nocbs=1-3 rcutorture.torture_runnable=1 rcutorture.stat_interval=3 rcutorture.shutdown_secs=10 rcutorture.onoff_interval=0 rcutorture.nocbs_nthreads=2 rcutorture.nocbs_toggle=50" \
	--expect "rcu-torture:--- Start of test: .* nocbs_nthreads=2 nocbs_toggle=50$" \
	--expect "rcu: De-offloading [1-3]$" --expect "rcu: Offloading [1-3]$" \
	--expect "read-exits: [0-9]+ nocb-toggles: [1-9][0-9]*:[1-9][0-9]*$" \
	--expect "rcu-torture:--- End of test: SUCCESS: " \
	--expect "callback accounting: ok" \
	--reject "!!!" --reject "End of test: FAILURE" --reject "WARNING" --reject "Offloading 0" \
	--expect "reboot: Power down"

# --- parsing -----------------------------------------------------------------------------------------------

# No rcu_nocbs=: "(none)", no offloaded line at power-off.
boot_test rcu-nocb-none --smp 2 --append "shutdown_secs=1" \
	--expect "rcu: ${TAB}Offload RCU callbacks from CPUs: \(none\)\." \
	--reject "offloaded:" --expect "reboot: Power down"
# A malformed list offloads every CPU, with Linux's warning.
boot_test rcu-nocb-malformed --smp 2 --append "rcu_nocbs=1-x shutdown_secs=2" \
	--expect "rcu: rcu_nocbs= bad CPU range, all CPUs set" \
	--expect "rcu: ${TAB}Offload RCU callbacks from CPUs: 0-1\." \
	--expect "rcu: CPU 0: offloaded:" --expect "reboot: Power down"
# CPUs beyond nr_cpu_ids are trimmed, with a note. With CONFIG_RCU_LAZY the same boot gives the lazy
# parameters bad values: one warning each, naming the value used.
nocb_lazy_args= nocb_lazy_expects=()
if [ -f "$nocb_cfg" ] && grep -q '^CONFIG_RCU_LAZY=y' "$nocb_cfg"; then
	nocb_lazy_args=" rcutree.enable_rcu_lazy=maybe rcutree.jiffies_lazy_flush=0"
	nocb_lazy_expects=(--expect "rcu: rcutree\.enable_rcu_lazy: invalid value 'maybe' \(not a boolean\), using [NY]$"
		--expect "rcu: rcutree\.jiffies_lazy_flush: value 0 out of range 1\.\.[0-9]+, using 1$")
fi
boot_test rcu-nocb-trim --smp 2 --append "rcu_nocbs=1-5,40 shutdown_secs=1$nocb_lazy_args" \
	"${nocb_lazy_expects[@]}" \
	--expect "rcu: ${TAB}Note: kernel parameter 'rcu_nocbs=' contains nonexistent CPUs\." \
	--expect "rcu: ${TAB}Offload RCU callbacks from CPUs: 1\." \
	--reject "bad CPU range" --expect "reboot: Power down"
# Group stride: the article's name and Linux's later one. Stride 1 on 4 CPUs: one rcuog per CPU.
boot_test rcu-nocb-stride --smp 4 --append "rcu_nocbs=0-3 rcutree.rcu_nocb_gp_stride=1 shutdown_secs=2" \
	--expect "rcu: rcuog/0: " --expect "rcu: rcuog/3: " --expect "reboot: Power down"
boot_test rcu-nocb-leader-stride --smp 4 --append "rcu_nocbs=0-3 rcutree.rcu_nocb_leader_stride=4 shutdown_secs=2" \
	--expect "rcu: rcuog/0: " --reject "rcuog/[1-3]" --expect "reboot: Power down"
# A bad stride: one warning naming the parameter and the value used (-1: sqrt(nr_cpu_ids)).
for v in 0 x; do
	boot_test "rcu-nocb-stride-$v" --smp 2 \
		--append "rcu_nocbs=0-1 rcutree.rcu_nocb_leader_stride=$v shutdown_secs=1" \
		--expect "rcu: rcutree\.rcu_nocb_leader_stride: invalid value '$v' .*using -1" \
		--expect "reboot: Power down"
	if _test_selected "rcu-nocb-stride-$v"; then
		run_cmd_test "rcu-nocb-stride-$v-one-warning" nocb_count_lines \
			"$LOGDIR/rcu-nocb-stride-$v.log" 'rcu: .*rcu_nocb_leader_stride' 1
	fi
done
