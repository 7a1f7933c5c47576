# shellcheck shell=bash
# tests/boot/60-srcu.sh - sleepable RCU (kernel/rcu/srcutree*.c, srcutiny.c): the KTAP suite "srcu"
# (kernel/rcu/test/srcu*.c, srcutree.selftest=1) on the Tree SRCU kernel at 1 and 2
# CPUs and on the Tiny SRCU kernel that tests/boot/55-tiny-rcu.sh builds, and the srcutree.*
# parameters' warnings. About 40 s on 2 host cores.
#
# Console lines relied on:
#   "    # Subtest: srcu" / "ok N srcu" / "# Totals: ..."   kernel/test/ktap.c
#   "srcu: cleanup_srcu_struct(srcu_struct): readers still active, not freed"
#                         kernel/rcu/srcutree_api.c, srcutiny.c: the one WARNING the suite provokes
#   "# srcu-bench: synchronize_srcu idle|busy exp_holdoff=N n=20 mean_us=M max_us=X gps: ..."
#                         kernel/rcu/test/srcu_cbs.c (Tree only); figures never judged
#   "srcu: srcutree.X: invalid value 'V' (not a number), using N"   kernel/params.c + lib/cmdline.c

# srcu_one_warning LOG: exactly one WARNING, the provoked cleanup refusal.
srcu_one_warning() {
	local n
	n=$(tr -d '\r' <"$1" | grep -c 'WARNING:' || true)
	echo "$n WARNING line(s)"
	# WARN() prints its message, then "cut here" and the WARNING: line.
	[ "$n" = 1 ] && tr -d '\r' <"$1" | grep -B2 'WARNING:' | head -1 |
		grep -q 'srcu: cleanup_srcu_struct(srcu_struct): readers still active, not freed'
}

srcu_selftest_boot() { # NAME SMP [boot_test options...]
	local name=$1 smp=$2
	shift 2
	boot_test "$name" --smp "$smp" --timeout 90 --allow-bug \
		--append "srcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=60" \
		--expect "# Subtest: srcu" \
		--expect "^\[ *[0-9.]+\] ok [0-9]+ srcu" \
		--expect "# Totals: pass:[0-9]+ fail:0 " \
		--expect "srcu: cleanup_srcu_struct\(srcu_struct\): readers still active, not freed" \
		--reject "not ok" --reject "BUG:" \
		--expect "reboot: Power down" "$@"
	if _test_selected "$name"; then
		run_cmd_test "$name-one-warning" srcu_one_warning "$LOGDIR/$name.log"
	fi
}

# --- Tree SRCU: the suite, with the latency figures (exp_holdoff on and off, idle and busy) ------
for smp in 1 2; do
	exp_in_caller='$'	# srcu_exp_wait_in_caller needs a second CPU
	[ "$smp" = 1 ] && exp_in_caller=' # SKIP'
	srcu_selftest_boot "srcu-selftest-smp$smp" "$smp" \
		--expect "ok [0-9]+ srcu_exp_holdoff_effect$" \
		--expect "ok [0-9]+ srcu_exp_wait_in_caller$exp_in_caller" \
		--expect "# srcu-bench: synchronize_srcu idle exp_holdoff=25000 n=20 .* gps: 20 expedited 0 normal$" \
		--expect "# srcu-bench: synchronize_srcu idle exp_holdoff=0 n=20 .* gps: 0 expedited 20 normal$" \
		--expect "# srcu-bench: synchronize_srcu busy exp_holdoff=0 n=20 "
done

# --- Tiny SRCU: the same suite on the Tiny RCU kernel (built by 55-tiny-rcu.sh) -----------------
srcu_tiny_kernel=$LOGDIR/build-tiny/kernel.elf
if _test_selected srcu-selftest-tiny; then
	if [ -f "$srcu_tiny_kernel" ] && grep -qx 'CONFIG_TINY_SRCU=y' "$LOGDIR/build-tiny/.config"; then
		KERNEL=$srcu_tiny_kernel srcu_selftest_boot srcu-selftest-tiny 1 \
			--expect "ok [0-9]+ srcu_exp_holdoff_effect # SKIP" \
			--expect "ok [0-9]+ srcu_exp_wait_in_caller # SKIP"
	else
		skip_test srcu-selftest-tiny "no Tiny SRCU kernel in $LOGDIR/build-tiny (built by tests/boot/55-tiny-rcu.sh)"
	fi
fi

# --- bad srcutree.* values: one warning each naming parameter, value and value used; boot goes on --
boot_test srcu-params-bad --smp 1 \
	--append "srcutree.exp_holdoff=-5 srcutree.counter_wrap_check=lots srcutree.no_such=1 shutdown_secs=2" \
	--expect "srcu: srcutree\.exp_holdoff: invalid value '-5' \(not a number\), using 25000$" \
	--expect "srcu: srcutree\.counter_wrap_check: invalid value 'lots' \(not a number\), using 4611686018427387903$" \
	--expect "srcu: unknown parameter 'srcutree\.no_such' ignored" \
	--expect "reboot: Power down"
