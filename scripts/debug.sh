#!/bin/bash
# scripts/debug.sh - `make debug`: boot a kernel in QEMU stopped at its first instruction, with
# QEMU's gdb stub on localhost only, and run gdb on the same kernel.elf with the kernel's gdb
# commands loaded (scripts/gdb/rcukernel.py: lx-dmesg, lx-ps, lx-cpus, rcu-gp). The serial
# console goes to a log file (tail -f it in another terminal); quitting gdb stops QEMU.
# Ctrl-C in gdb stops the guest, as with Linux under QEMU: QEMU runs in a session of its own,
# so the terminal's SIGINT reaches gdb (which sends the stub an interrupt) and never QEMU.
#
# Usage: scripts/debug.sh KERNEL_ELF [qemu-run.sh options...] [-- gdb options...]
# Environment: GDB_PORT (default 1234), CONSOLE_LOG (default: next to KERNEL_ELF,
# debug-console.log). With gdb -batch options after --, this is also how the test runs it.
set -euo pipefail
srctree=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 64; }
kernel=$1
shift
qargs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	qargs+=("$1")
	shift
done
[ "${1:-}" = -- ] && shift
port=${GDB_PORT:-1234}
log=${CONSOLE_LOG:-$(dirname "$kernel")/debug-console.log}
command -v gdb >/dev/null || { echo "debug.sh: gdb is not installed (scripts/install-deps.sh)" >&2; exit 1; }

command -v setsid >/dev/null || { echo "debug.sh: setsid (util-linux) is not installed" >&2; exit 1; }

# setsid: QEMU installs its own SIGINT handler (it quits, and qemu-run.sh would then report
# "reset or triple fault"), so it must not be in the terminal's foreground process group that
# Ctrl-C signals. A background child of this script leads no group, so setsid execs in place:
# $! is qemu-run.sh, the leader of the new session and process group.
setsid "$srctree/scripts/qemu-run.sh" --kernel "$kernel" --gdb-port "$port" --quiet --log "$log" \
	"${qargs[@]}" </dev/null &
qemu_run=$!
# Stop the QEMU this script started (qemu-run.sh forwards the TERM to its own child), however
# gdb ends.
trap 'kill "$qemu_run" 2>/dev/null; wait "$qemu_run" 2>/dev/null || true' EXIT

# Wait for the stub to listen before gdb connects (gdb gives up at once otherwise).
for _ in $(seq 100); do
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	kill -0 "$qemu_run" 2>/dev/null || { echo "debug.sh: QEMU did not start" >&2; exit 1; }
	sleep 0.1
done
echo "debug.sh: console in $log; the guest is stopped: 'continue' runs it, Ctrl-C stops it" >&2
gdb -q -nx -x "$srctree/scripts/gdb/rcukernel.py" -ex "target remote localhost:$port" "$@" "$kernel"
