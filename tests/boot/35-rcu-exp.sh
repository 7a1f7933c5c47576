# shellcheck shell=bash
# tests/boot/35-rcu-exp.sh - expedited grace periods (kernel/rcu/tree_exp.c) and the rcupdate.*
# parameters that steer them (kernel/rcu/update.c), and the expedited stall warning (for a CPU, and
# for a preempted reader on the preemptible-RCU kernel of tests/boot/20-sched.sh when it has been
# built). About a minute in all.
#
# Console lines relied on (format, source):
#   "    # Subtest: rcu_exp" / "ok N rcu_exp"       the KTAP suite kernel/rcu/test/exp.c
#   "\tAll grace periods are expedited (rcu_expedited)."         update.c, Linux's banner words
#   "\tNo expedited grace period (rcu_normal)."                  idem
#   "\tNo expedited grace period (rcu_normal_after_boot)."       idem
#   "rcu: rcu_sched: N grace periods completed (...)"            rcu_show_stats() at power-off
#   "rcu: rcu_sched: N expedited grace periods, M expedited IPIs, K idle CPUs skipped"   idem
#   "rcu: rcupdate.X: invalid value 'V' (not a boolean), using N"    kernel/params.c
#   "rcu: rcu_sched: expedited funnel: R reached the root (G ran a grace period), W waited at a
#    node, D done early"                                                 rcu_exp_show_stats() (ours)
#   "rcu: rcu_sched: expedited latency (us avg/max): ... over G grace periods"   idem (ours)
#   "rcu: INFO: rcu_sched detected expedited stalls on CPUs/tasks: { C-...D } J jiffies s: S
#    root: 0xM/." and "rcu: blocking rcu_node structures (internal RCU debug): l=L:A-B:0xM/."
#                                                         kernel/rcu/tree_exp.c, Linux's format
#   "rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { PN } J jiffies s: S
#    root: 0x0/T"                                         idem, a preempted reader
#   "rcu: exp_stall_test: ..."                            kernel/rcu/test/exp_stall.c (ours)
#
# The parameter boots run rcutree.gp_bench=2: 210 synchronize_rcu() calls on an idle guest. Which
# machinery served them shows in the power-off counts (rcu_exp_counts below).

# rcu_exp_counts LOG MIN_EXP MAX_EXP MIN_NORMAL: the power-off expedited and normal grace-period
# counts lie in [MIN_EXP, MAX_EXP] and [MIN_NORMAL, inf); the expedited latency breakdown
# (rcu_exp_latency(), printed after the count) measured every one of those grace periods.
rcu_exp_counts() {
	tr -d '\r' <"$1" | awk -v lo="$2" -v hi="$3" -v nlo="$4" '
		/rcu: rcu_(sched|preempt): [0-9]+ grace periods completed/ {
			match($0, /: [0-9]+ grace/); normal = substr($0, RSTART + 2, RLENGTH - 8) + 0; n++
		}
		/rcu: rcu_(sched|preempt): [0-9]+ expedited grace periods/ {
			match($0, /: [0-9]+ expedited/); nexp = substr($0, RSTART + 2, RLENGTH - 12) + 0; e++
		}
		/rcu: rcu_(sched|preempt): expedited latency .* over [0-9]+ grace periods/ {
			match($0, /over [0-9]+ grace periods/); lat = substr($0, RSTART + 5, RLENGTH - 19) + 0; l++
		}
		END {
			if (!n || !e) { print "no power-off grace-period statistics in the log"; exit 1 }
			print normal " normal, " nexp " expedited grace periods, " lat " in the latency breakdown"
			if (!l) { print "no expedited latency line in the log"; exit 1 }
			if (lat < nexp) { print "the latency breakdown missed expedited grace periods"; exit 1 }
			if (nexp < lo || nexp > hi) { print "expedited count outside [" lo ", " hi "]"; exit 1 }
			if (normal < nlo) { print "fewer than " nlo " normal grace periods"; exit 1 }
		}'
}

# --- the KTAP suite (also part of every rcutree.selftest=1 boot of 30-rcu.sh) -------------------
# At -smp 4 the leaves hold 2 CPUs each, so the expedited funnel has two levels (leaf, root).
# exp_coalescing queues callers in the funnel, so some must have waited at a node.
for smp in 2 4; do
	boot_test "rcu-exp-selftest-smp$smp" --smp "$smp" \
		--append "rcutree.selftest=1 $([ "$smp" = 2 ] && echo kunit_shutdown=poweroff shutdown_secs=12 || echo rcutree.rcu_fanout_leaf=2 kunit_shutdown=poweroff shutdown_secs=6)" \
		--expect "# Subtest: rcu_exp" \
		--expect "^\[ *[0-9.]+\] ok [0-9]+ rcu_exp" \
		--expect "# Totals: pass:[0-9]+ fail:0 " \
		--reject "not ok" \
		--expect "rcu: rcu_sched: [1-9][0-9]* expedited grace periods" \
		--expect "rcu: rcu_sched: expedited funnel: [1-9][0-9]* reached the root \([1-9][0-9]* ran a grace period\), [1-9][0-9]* waited at a node, [0-9]+ done early" \
		--expect "reboot: Power down"
done

# --- the expedited stall warning ------------------------------------------------------------------
# CPU 2 of 3 spins 6 s in a reader with interrupts off while CPU 0 runs an expedited grace period;
# stall timeout 3 s. Leaves of 2 CPUs: CPU 2 is alone on the second leaf (l=1:2-2), bit 0x2 of
# the root. The IPI stays pending, so the CPU prints as "2-...D". One warning (the next would be
# due 3 timeouts + 3 jiffies later, after the spin), then the call returns, no panic.
boot_test rcu-exp-stall --smp 3 \
	--append "rcutree.exp_stall_test_secs=6 rcupdate.rcu_cpu_stall_timeout=3 rcutree.rcu_fanout_leaf=2 shutdown_secs=9" \
	--expect "rcu: exp_stall_test: spinning CPU 2 in a reader with interrupts off for 6 seconds, expedited grace period from CPU 0" \
	--expect "^\[ *[0-9.]+\] rcu: INFO: rcu_sched detected expedited stalls on CPUs/tasks: \{ 2-\.\.\.D \} [0-9]+ jiffies s: [0-9]+ root: 0x2/\.$" \
	--expect "^\[ *[0-9.]+\] rcu: blocking rcu_node structures \(internal RCU debug\): l=1:2-2:0x1/\.$" \
	--expect "rcu: exp_stall_test: CPU 2 has interrupts on again" \
	--expect "rcu: exp_stall_test: synchronize_rcu_expedited\(\) returned after [0-9]+ ms" \
	--expect "reboot: Power down"

# --- rcupdate.rcu_expedited=1: synchronize_rcu() runs expedited grace periods -------------------
boot_test rcu-exp-expedited --smp 2 --append "rcupdate.rcu_expedited=1 rcutree.gp_bench=2 shutdown_secs=4" \
	--expect "^\[ *[0-9.]+\] ${TAB:-	}All grace periods are expedited \(rcu_expedited\)\.$" \
	--expect "rcu-bench: synchronize_rcu idle cpus=2 n=200" \
	--expect "reboot: Power down"
if _test_selected rcu-exp-expedited; then
	run_cmd_test rcu-exp-expedited-counts rcu_exp_counts "$LOGDIR/rcu-exp-expedited.log" 200 1000000 0
fi

# --- rcupdate.rcu_normal=1 (with rcu_expedited=1: rcu_normal wins): only normal grace periods ----
boot_test rcu-exp-normal --smp 2 \
	--append "rcupdate.rcu_expedited=1 rcupdate.rcu_normal=1 rcutree.gp_bench=2 shutdown_secs=5" \
	--expect "^\[ *[0-9.]+\] ${TAB:-	}No expedited grace period \(rcu_normal\)\.$" \
	--reject "All grace periods are expedited" \
	--expect "rcu-bench: synchronize_rcu idle cpus=2 n=200" \
	--expect "reboot: Power down"
if _test_selected rcu-exp-normal; then
	run_cmd_test rcu-exp-normal-counts rcu_exp_counts "$LOGDIR/rcu-exp-normal.log" 0 0 200
fi

# --- rcupdate.rcu_normal_after_boot=1: rcu_normal from the end of the boot phase on -------------
boot_test rcu-exp-normal-after-boot --smp 2 \
	--append "rcupdate.rcu_expedited=1 rcupdate.rcu_normal_after_boot=1 rcutree.gp_bench=2 shutdown_secs=5" \
	--expect "^\[ *[0-9.]+\] ${TAB:-	}No expedited grace period \(rcu_normal_after_boot\)\.$" \
	--expect "rcu-bench: synchronize_rcu idle cpus=2 n=200" \
	--expect "reboot: Power down"
if _test_selected rcu-exp-normal-after-boot; then
	run_cmd_test rcu-exp-normal-after-boot-counts rcu_exp_counts \
		"$LOGDIR/rcu-exp-normal-after-boot.log" 0 0 200
fi

# --- a bad value: the parameter framework's warning, and the default stays ---------------------
boot_test rcu-exp-bad-value --smp 2 --append "rcupdate.rcu_expedited=maybe rcutree.gp_bench=2 shutdown_secs=4" \
	--expect "rcu: rcupdate\.rcu_expedited: invalid value 'maybe' \(not a boolean\), using N" \
	--reject "All grace periods are expedited" \
	--expect "reboot: Power down"
if _test_selected rcu-exp-bad-value; then
	run_cmd_test rcu-exp-bad-value-counts rcu_exp_counts "$LOGDIR/rcu-exp-bad-value.log" 0 0 200
fi

# --- the expedited stall warning naming a preempted reader (preemptible RCU) ------------------------
# Needs the CONFIG_PREEMPT_RCU kernel that tests/boot/20-sched.sh (and 50-preempt-rcu.sh) build in
# $LOGDIR/build-preempt; skipped when this file runs without it. The reader on CPU 1 is preempted
# in rcu_read_lock() by a FIFO hog spinning 6 s: CPU 1 takes the IPI and reports, the queued
# reader blocks the one-node tree's root ("0x0/T") and the warning names it (" P<pid>", the pid
# the test's first line prints).
rcu_exp_stall_pid() { # LOG
	tr -d '\r' <"$1" | awk '
		/exp_stall_test: reader P[0-9]+ on CPU/ { match($0, /reader P[0-9]+/); pid = substr($0, RSTART + 8, RLENGTH - 8) }
		/detected expedited stalls on CPUs\/tasks:/ { line = $0 }
		END {
			if (pid == "" || line == "") { print "no reader pid or no stall line"; exit 1 }
			print "reader P" pid "; stall line: " line
			if (index(line, "{ P" pid " }") == 0) { print "the stall line does not name P" pid; exit 1 }
		}'
}
rcu_exp_preempt_kernel=$LOGDIR/build-preempt/kernel.elf
if _test_selected rcu-exp-stall-preempted; then
	if [ -f "$rcu_exp_preempt_kernel" ] && grep -qx 'CONFIG_PREEMPT_RCU=y' "$LOGDIR/build-preempt/.config"; then
		KERNEL=$rcu_exp_preempt_kernel boot_test rcu-exp-stall-preempted --smp 2 \
			--append "rcutree.exp_stall_test_secs=6 rcutree.exp_stall_test_preempted=1 rcupdate.rcu_cpu_stall_timeout=3 shutdown_secs=9" \
			--expect "rcu: exp_stall_test: reader P[0-9]+ on CPU 1 preempted by a FIFO [0-9]+ hog for 6 seconds, expedited grace period from CPU 0" \
			--expect "^\[ *[0-9.]+\] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: \{ P[0-9]+ \} [0-9]+ jiffies s: [0-9]+ root: 0x0/T$" \
			--expect "^\[ *[0-9.]+\] rcu: blocking rcu_node structures \(internal RCU debug\):$" \
			--expect "rcu: exp_stall_test: reader P[0-9]+ left its critical section" \
			--expect "rcu: exp_stall_test: synchronize_rcu_expedited\(\) returned after [0-9]+ ms" \
			--expect "reboot: Power down"
		run_cmd_test rcu-exp-stall-preempted-pid rcu_exp_stall_pid "$LOGDIR/rcu-exp-stall-preempted.log"
	else
		skip_test rcu-exp-stall-preempted "no CONFIG_PREEMPT_RCU kernel in $LOGDIR/build-preempt (built by tests/boot/20-sched.sh)"
	fi
fi
