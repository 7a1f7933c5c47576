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

gdb_helpers_check() {
	local port out=$LOGDIR/gdb-helpers.gdb re
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	GDB_PORT=$port CONSOLE_LOG=$LOGDIR/gdb-helpers.console \
		timeout 120 "$TESTS_ROOT/scripts/debug.sh" "$KERNEL" --smp 2 --timeout 90 --append "" -- \
		-batch -ex 'break console_monitor_start' -ex continue \
		-ex lx-dmesg -ex lx-ps -ex lx-cpus -ex rcu-gp >"$out" 2>&1
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
	[ $status = 0 ] || tail -n 40 "$out"
	return $status
}

if ! command -v gdb >/dev/null 2>&1; then
	skip_test gdb-helpers "gdb is not installed"
else
	run_cmd_test gdb-helpers gdb_helpers_check
fi
