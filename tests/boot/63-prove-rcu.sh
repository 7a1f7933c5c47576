# shellcheck shell=bash
# tests/boot/63-prove-rcu.sh - lockdep and lockdep-RCU (CONFIG_PROVE_LOCKING, CONFIG_PROVE_RCU;
# kernel/locking/lockdep.c, kernel/locking/might_sleep.c, kernel/rcu/rcu_lockdep.c) on
# arch/x86_64/configs/debug_defconfig, built in $LOGDIR/build-prove, then:
#   prove-clean-smp2     the RCU self-tests (rcutree.selftest=1) with every check on: no lockdep
#                        report, no suspicious RCU usage, no might_sleep() report
#   prove-torture-smp2   the same for a 12 s rcutorture run
#   prove-deref          rcu_dereference() outside a reader: "WARNING: suspicious RCU usage"
#   prove-protected      rcu_dereference_protected(p, lockdep_is_held(&lock)) without the lock
#   prove-sync           synchronize_rcu() inside rcu_read_lock(): Linux's "Illegal
#                        synchronize_rcu()" splat listing the rcu_read_lock pseudo-lock
#   prove-abba           A->B on CPU 0, later B->A on CPU 1: "possible circular locking
#                        dependency detected" with the chain and the unsafe scenario
#   prove-sleep          mutex_lock() inside a reader: "BUG: sleeping function called from
#                        invalid context at kernel/locking/mutex.c:N"
#   prove-unlock         spin_unlock() of a free lock: "bad unlock balance detected!"
#   prove-list           list_for_each_entry_rcu() outside a reader: "RCU-list traversed in
#                        non-reader section!" (the same walk under the lock, saying so, is fine)
#   prove-srcu           srcu_dereference() inside rcu_read_lock() but outside the domain's reader:
#                        the splat lists the rcu_read_lock pseudo-lock, not the domain
#   prove-bad-param      rcu_debug_test=bogus: one warning, nothing committed
# and on preempt_defconfig + CONFIG_PROVE_RCU (preemptible RCU: readers are a per-task count),
# built in $LOGDIR/build-prove-preempt:
#   prove-preempt-clean  the "rcu" and "rcu_preempt" suites (preempted readers, blocked-tasks
#                        lists, quiescent states at the outermost unlock) draw no report
#   prove-preempt-sleep  mutex_lock() in a reader: preempt_count 0 but "RCU nest depth: 1"
# Each planted bug (kernel/rcu/test/prove_rcu.c, rcu_debug_test=NAME) gets its own boot at
# -smp 2 and must leave the kernel running to a clean power-off. About 80 s on 2 host cores,
# plus the two builds (about a minute and a half each).
#
# Console lines relied on (kernel/locking/lockdep.c unless said otherwise):
#   "WARNING: suspicious RCU usage", "FILE:LINE MESSAGE!",
#   "rcu_scheduler_active = 2, debug_locks = 1"                    kernel/rcu/rcu_lockdep.c
#   "N lock(s) held by COMM/PID:", " #0: ADDR (NAME), at: SYM+OFF/SIZE", "no locks held by COMM/PID."
#   "WARNING: possible circular locking dependency detected", "-> #1 (NAME):", "*** DEADLOCK ***"
#   "WARNING: bad unlock balance detected!"
#   "BUG: sleeping function called from invalid context at FILE:LINE"  kernel/locking/might_sleep.c
#   "rcu: rcu_debug_test: 'NAME' done, kernel still running"          kernel/rcu/test/prove_rcu.c

prove_dir=$(cd "$LOGDIR" && pwd)/build-prove
prove_preempt_dir=$(cd "$LOGDIR" && pwd)/build-prove-preempt
PROVE_REPORTS='suspicious RCU usage|circular locking|bad unlock balance|inconsistent lock state|sleeping function called|MAX_LOCK'
PROVE_TASK='rcu_prove/1/[0-9]+'

prove_boot() { # NAME ARGS [boot_test options...]
	local name=$1 args=$2 dir=$prove_dir
	shift 2
	case $name in prove-preempt-*) dir=$prove_preempt_dir ;; esac
	if [ ! -f "$dir/kernel.elf" ]; then
		skip_test "$name" "the PROVE_RCU kernel did not build"
		return
	fi
	KERNEL=$dir/kernel.elf boot_test "$name" --smp 2 --append "$args" \
		--expect "reboot: Power down" "$@"
}

# A planted bug: its report, then the kernel carries on.
prove_bug() { # NAME BUG [boot_test options...]
	local name=$1 bug=$2
	shift 2
	prove_boot "$name" "rcu_debug_test=$bug shutdown_secs=3" --allow-bug \
		--expect "rcu: rcu_debug_test: committing '$bug'$" \
		--expect "rcu: rcu_debug_test: '$bug' done, kernel still running$" \
		--expect "Call Trace:" --reject "Kernel panic|kernel BUG" "$@"
}

prove_wanted=0
for t in prove-clean-smp2 prove-torture-smp2 prove-deref prove-protected prove-sync prove-abba prove-sleep \
	prove-unlock prove-list prove-srcu prove-bad-param; do
	_test_selected "$t" && prove_wanted=1
done

prove_preempt_wanted=0
for t in prove-preempt-clean prove-preempt-sleep; do
	_test_selected "$t" && prove_preempt_wanted=1
done

if [ "$prove_wanted" = 1 ]; then
	run_cmd_test prove-build build_config "$prove_dir" debug_defconfig \
		'CONFIG_PROVE_RCU=y' 'CONFIG_PROVE_LOCKING=y' 'CONFIG_LOCKDEP=y' \
		'CONFIG_DEBUG_ATOMIC_SLEEP=y' 'CONFIG_RCU_PROVE_TEST=y'

	# Apart: the expedited suite counts every expedited grace period, rcutorture's too.
	prove_boot prove-clean-smp2 "rcutree.selftest=1 kunit_shutdown=poweroff shutdown_secs=10" \
		--expect "# rcu: pass:[0-9]+ fail:0 " \
		--reject "$PROVE_REPORTS" --reject "not ok"
	prove_boot prove-torture-smp2 "rcutorture.torture_runnable=1 rcutorture.shutdown_secs=12" \
		--expect "End of test: SUCCESS" \
		--reject "$PROVE_REPORTS"

	prove_bug prove-deref deref --expect "stack backtrace:$" \
		--expect "WARNING: suspicious RCU usage$" \
		--expect "kernel/rcu/test/prove_rcu\.c:[0-9]+ suspicious rcu_dereference_check\(\) usage!$" \
		--expect "other info that might help us debug this:$" \
		--expect "rcu_scheduler_active = 2, debug_locks = 1$" \
		--expect "no locks held by $PROVE_TASK\.$" \
		--expect "\] prove_deref\+0x"

	prove_bug prove-protected protected --expect "stack backtrace:$" \
		--expect "WARNING: suspicious RCU usage$" \
		--expect "kernel/rcu/test/prove_rcu\.c:[0-9]+ suspicious rcu_dereference_protected\(\) usage!$" \
		--expect "rcu_scheduler_active = 2, debug_locks = 1$"

	prove_bug prove-sync sync --expect "stack backtrace:$" \
		--expect "WARNING: suspicious RCU usage$" \
		--expect "kernel/rcu/tree_sync\.c:[0-9]+ Illegal synchronize_rcu\(\) in RCU read-side critical section!$" \
		--expect "1 lock held by $PROVE_TASK:$" \
		--expect " #0: [0-9a-f]{16} \(rcu_read_lock\), at: prove_sync\+0x" \
		--expect "\] prove_sync\+0x"

	prove_bug prove-abba abba --expect "stack backtrace:$" \
		--expect "WARNING: possible circular locking dependency detected$" \
		--expect "$PROVE_TASK is trying to acquire lock:$" \
		--expect "^\[ *[0-9.]+\] [0-9a-f]{16} \(prove_lock_a\), at: prove_abba\+0x" \
		--expect "but task is already holding lock:$" \
		--expect "^\[ *[0-9.]+\] [0-9a-f]{16} \(prove_lock_b\), at: prove_abba\+0x" \
		--expect "which lock already depends on the new lock\.$" \
		--expect "the existing dependency chain \(in reverse order\) is:$" \
		--expect "-> #1 \(prove_lock_b\):$" \
		--expect "taken with \(prove_lock_a\) held at prove_ab_thread\+0x" \
		--expect "Possible unsafe locking scenario:$" \
		--expect "\*\*\* DEADLOCK \*\*\*$" \
		--expect "1 lock held by $PROVE_TASK:$"

	prove_bug prove-sleep sleep \
		--expect "BUG: sleeping function called from invalid context at kernel/locking/mutex\.c:[0-9]+$" \
		--expect "in_atomic\(\): 1, irqs_disabled\(\): 0, non_block: 0, pid: [0-9]+, name: rcu_prove/1$" \
		--expect "preempt_count: 1, expected: 0$" \
		--expect " #0: [0-9a-f]{16} \(rcu_read_lock\), at: prove_sleep\+0x" \
		--expect "\] mutex_lock\+0x" \
		--reject "scheduling while atomic"

	prove_bug prove-unlock unlock --expect "stack backtrace:$" \
		--expect "WARNING: bad unlock balance detected!$" \
		--expect "$PROVE_TASK is trying to release lock \(prove_lock\) at:$" \
		--expect "\] prove_unlock\+0x" \
		--expect "but there are no more locks to release!$" \
		--expect "no locks held by $PROVE_TASK\.$" \
		--reject "spinlock already unlocked"

	prove_bug prove-list list --expect "stack backtrace:$" \
		--expect "WARNING: suspicious RCU usage$" \
		--expect "kernel/rcu/test/prove_rcu\.c:[0-9]+ RCU-list traversed in non-reader section!!?$" \
		--expect "rcu: rcu_debug_test: list sum 6$"

	prove_bug prove-srcu srcu --expect "stack backtrace:$" \
		--expect "WARNING: suspicious RCU usage$" \
		--expect "kernel/rcu/test/prove_rcu\.c:[0-9]+ suspicious rcu_dereference_check\(\) usage!$" \
		--expect "1 lock held by $PROVE_TASK:$" \
		--expect " #0: [0-9a-f]{16} \(rcu_read_lock\), at: prove_srcu_deref\+0x" \
		--expect "rcu: rcu_debug_test: srcu read 42 and 42$"

	prove_boot prove-bad-param "rcu_debug_test=bogus shutdown_secs=2" \
		--expect "rcu: rcu_debug_test: invalid value 'bogus' \(not deref, protected, sync, abba, sleep, unlock, list(, [a-z_]+)* or [a-z_]+\), using none$" \
		--reject "committing|$PROVE_REPORTS"
fi

if [ "$prove_preempt_wanted" = 1 ]; then
	run_cmd_test prove-preempt-build build_config "$prove_preempt_dir" preempt_defconfig \
		'+CONFIG_PROVE_LOCKING=y' 'CONFIG_PROVE_RCU=y' 'CONFIG_PREEMPT_RCU=y' 'CONFIG_RCU_PROVE_TEST=y'

	# 17 s: under PROVE_RCU rcu_preempt alone ends near 12 s on a loaded host (12 s was already
	# too short once), and rcu_watching adds 1 to 3 s.
	prove_boot prove-preempt-clean "rcutree.selftest=1 rcutree.preempt_selftest=1 kunit_shutdown=poweroff shutdown_secs=17" \
		--expect "# rcu: pass:[0-9]+ fail:0 " \
		--expect "# rcu_preempt: pass:[0-9]+ fail:0 " \
		--expect "# rcu_watching: pass:1 fail:0 " \
		--reject "$PROVE_REPORTS" --reject "not ok"

	prove_bug prove-preempt-sleep sleep \
		--expect "BUG: sleeping function called from invalid context at kernel/locking/mutex\.c:[0-9]+$" \
		--expect "in_atomic\(\): 0, irqs_disabled\(\): 0, non_block: 0, pid: [0-9]+, name: rcu_prove/1$" \
		--expect "RCU nest depth: 1, expected: 0$" \
		--expect " #0: [0-9a-f]{16} \(rcu_read_lock\), at: prove_sleep\+0x"
fi
