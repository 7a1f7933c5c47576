# shellcheck shell=bash
# tests/boot/75-gdb.sh - the gdb helpers (scripts/gdb/rcukernel.py) against a real guest:
# scripts/debug.sh (make debug) starts the kernel stopped under QEMU's gdb stub on a free
# loopback port; gdb in batch mode runs it to the end of boot (a breakpoint on
# console_monitor_start, CONFIG_KERNEL_MONITOR) and then prints:
#   lx-dmesg  the log so far:          "smp: Brought up 1 node, 2 CPUs"
#   lx-ps     the task list:           "... rcu_sched", "... srcu_gp"
#   lx-cpus   both CPUs online:        "CPU 1: online current ..."
#   rcu-gp    Tree RCU's state:        "rcu_sched: g=N (idle|in progress) ...", "rcu_node 0:1 ...",
#                                      "cpu 1 gp_seq ..."
# then (gdb-ctrl-c) continues the guest and sends SIGINT to debug.sh's process group, as Ctrl-C
# at the terminal does: gdb stops the guest, QEMU lives on (lx-cpus still reads 2 online CPUs,
# then gdb quits and debug.sh stops QEMU: "interrupted by SIGTERM", not "reset or triple
# fault"). Before QEMU got a session of its own, the SIGINT killed it too. About 3 s more.
# gdb-no-target (no QEMU): lx-ps, lx-cpus, lx-dmesg, rcu-gp on kernel.elf alone fail, naming
# the missing target, instead of printing kernel.elf's initial values.

gdb_helpers_check() {
	local port out=$LOGDIR/gdb-helpers.gdb re pid
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	: >"$out"
	rm -f "$LOGDIR/gdb-ctrl-c.gdb"
	# As `make debug` runs it: no --timeout (a QEMU under timeout(1) would be in a process group
	# of its own anyway), so the watchdog below bounds the test. debug.sh gets a process group
	# of its own with SIGINT at its default (a terminal's foreground job), so that the SIGINT
	# below is what Ctrl-C at the terminal sends.
	GDB_PORT=$port CONSOLE_LOG=$LOGDIR/gdb-helpers.console /usr/bin/python3 -c '
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setpgid(0, 0)
os.execvp(sys.argv[1], sys.argv[1:])' "$TESTS_ROOT/scripts/debug.sh" "$KERNEL" --smp 2 --append "" -- \
		-batch -ex 'break console_monitor_start' -ex continue \
		-ex lx-dmesg -ex lx-ps -ex lx-cpus -ex rcu-gp -ex delete -ex 'echo ctrl-c-now\n' -ex continue \
		-ex 'echo after-ctrl-c\n' -ex lx-cpus >>"$out" 2>&1 </dev/null &
	pid=$!
	# TERM first: debug.sh's EXIT trap then stops the QEMU it started.
	(sleep 120 && kill -TERM -- -"$pid" && sleep 5 && kill -KILL -- -"$pid") 2>/dev/null &
	local watchdog=$!
	for _ in $(seq 1000); do
		grep -q '^ctrl-c-now' "$out" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	# Ctrl-C once gdb runs the guest: a SIGINT that came while gdb was still between commands
	# would only cut that step short, so repeat it (a second or so apart) until gdb reports it.
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		kill -0 "$pid" 2>/dev/null || break
		grep -q 'received signal SIGINT' "$out" && break
		kill -INT -- -"$pid" 2>/dev/null
	done
	wait "$pid"
	pkill -P "$watchdog" 2>/dev/null
	kill "$watchdog" 2>/dev/null
	wait "$watchdog" 2>/dev/null
	local status=0
	for re in 'Breakpoint 1, console_monitor_start' \
		'^\[ *[0-9]+\.[0-9]{6}\] smp: Brought up 1 node, 2 CPUs$' \
		'^0x[0-9a-f]{16} +[0-9]+ +[RSDPN] +[01] +[0-9]+ rcu_sched$' \
		'^0x[0-9a-f]{16} +[0-9]+ +[RSDPN] +[01] +[0-9]+ srcu_gp$' \
		'^nr_cpu_ids=2$' '^CPU 0: online current ' '^CPU 1: online current ' \
		'^rcu_sched: g=-?[0-9]+ \((idle|in progress)\) gp_state=[0-9] RCU_GP_[A-Z_]+ ' \
		'^  rcu_node 0:1 level 0 qsmask 0x[0-3] qsmaskinit 0x[03] qsmaskinitnext 0x3 ' \
		'^  cpu 1 gp_seq -?[0-9]+ dynticks 0x[0-9a-f]+'; do
		grep -Eq -- "$re" "$out" || { echo "gdb output: no line matches /$re/"; status=1; }
	done
	if ! grep -q '^ctrl-c-now' "$out"; then
		echo "gdb-ctrl-c: gdb never reached the second continue"; status=1
	fi
	[ $status = 0 ] || tail -n 40 "$out"
	# The part after the SIGINT, for gdb-ctrl-c.
	sed -n '/^ctrl-c-now/,$p' "$out" >"$LOGDIR/gdb-ctrl-c.gdb"
	return $status
}

# gdb_ctrl_c_check: after gdb_helpers_check's SIGINT, gdb stopped the guest and QEMU lived on.
gdb_ctrl_c_check() {
	local out=$LOGDIR/gdb-ctrl-c.gdb re status=0
	cat "$out"
	for re in 'received signal SIGINT' '^after-ctrl-c$' '^nr_cpu_ids=2$' '^CPU 1: online current ' \
		'^qemu-run: exit 0 \(interrupted by SIGTERM\)$'; do
		grep -Eq -- "$re" "$out" || { echo "after the SIGINT: no line matches /$re/"; status=1; }
	done
	for re in 'Remote connection closed' 'reset or triple fault' 'no live target'; do
		! grep -Eq -- "$re" "$out" || { echo "after the SIGINT: /$re/"; status=1; }
	done
	return $status
}

# gdb_no_target_check: each helper on kernel.elf without QEMU fails loudly (gdb -batch exits 1).
gdb_no_target_check() {
	local cmd out rc status=0
	for cmd in lx-ps lx-cpus lx-dmesg rcu-gp; do
		rc=0
		out=$(gdb -q -nx -batch -x "$TESTS_ROOT/scripts/gdb/rcukernel.py" -ex "$cmd" "$KERNEL" 2>&1) || rc=$?
		echo "$cmd: exit $rc: $out"
		[ "$rc" != 0 ] && grep -q "^$cmd: no live target" <<<"$out" || status=1
	done
	return $status
}

if ! command -v gdb >/dev/null 2>&1; then
	skip_test gdb-no-target "gdb is not installed"
	skip_test gdb-helpers "gdb is not installed"
else
	run_cmd_test gdb-no-target gdb_no_target_check
	run_cmd_test gdb-helpers gdb_helpers_check
	# Judges what gdb-helpers' run printed after its SIGINT (TEST_FILTER=gdb selects both).
	if _test_selected gdb-helpers; then
		run_cmd_test gdb-ctrl-c gdb_ctrl_c_check
	fi
fi
