# shellcheck shell=bash
# tests/boot/35-rcu-exp.sh - expedited grace periods (kernel/rcu/tree_exp.c) and the rcupdate.*
# parameters that steer them (kernel/rcu/update.c). About a minute in all.
#
# Console lines relied on (format, source):
#   "    # Subtest: rcu_exp" / "ok N rcu_exp"       the KTAP suite kernel/rcu/exp_selftest.c
#   "\tAll grace periods are expedited (rcu_expedited)."         update.c, Linux's banner words
#   "\tNo expedited grace period (rcu_normal)."                  idem
#   "\tNo expedited grace period (rcu_normal_after_boot)."       idem
#   "rcu: rcu_sched: N grace periods completed (...)"            rcu_show_stats() at power-off
#   "rcu: rcu_sched: N expedited grace periods, M expedited IPIs, K idle CPUs skipped"   idem
#   "rcu: rcupdate.X: invalid value 'V' (not a boolean), using N"    kernel/params.c
#
# The parameter boots run rcutree.gp_bench=2: 210 synchronize_rcu() calls on an idle guest. Which
# machinery served them shows in the power-off counts (rcu_exp_counts below).

# rcu_exp_counts LOG MIN_EXP MAX_EXP MIN_NORMAL: the power-off expedited and normal grace-period
# counts lie in [MIN_EXP, MAX_EXP] and [MIN_NORMAL, inf).
rcu_exp_counts() {
	tr -d '\r' <"$1" | awk -v lo="$2" -v hi="$3" -v nlo="$4" '
		/rcu: rcu_(sched|preempt): [0-9]+ grace periods completed/ {
			match($0, /: [0-9]+ grace/); normal = substr($0, RSTART + 2, RLENGTH - 8) + 0; n++
		}
		/rcu: rcu_(sched|preempt): [0-9]+ expedited grace periods/ {
			match($0, /: [0-9]+ expedited/); nexp = substr($0, RSTART + 2, RLENGTH - 12) + 0; e++
		}
		END {
			if (!n || !e) { print "no power-off grace-period statistics in the log"; exit 1 }
			print normal " normal, " nexp " expedited grace periods"
			if (nexp < lo || nexp > hi) { print "expedited count outside [" lo ", " hi "]"; exit 1 }
			if (normal < nlo) { print "fewer than " nlo " normal grace periods"; exit 1 }
		}'
}

# --- the KTAP suite (also part of every rcutree.selftest=1 boot of 30-rcu.sh) -------------------
for smp in 2 4; do
	boot_test "rcu-exp-selftest-smp$smp" --smp "$smp" \
		--append "rcutree.selftest=1 shutdown_secs=$([ "$smp" = 2 ] && echo 12 || echo 6)" \
		--expect "# Subtest: rcu_exp" \
		--expect "^\[ *[0-9.]+\] ok [0-9]+ rcu_exp" \
		--expect "# Totals: pass:[0-9]+ fail:0 " \
		--reject "not ok" \
		--expect "rcu: rcu_sched: [1-9][0-9]* expedited grace periods" \
		--expect "reboot: Power down"
done

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
