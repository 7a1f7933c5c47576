#!/usr/bin/env bash
# shellcheck disable=SC2054 # QEMU option values contain commas by design
# qemu-run.sh - the one QEMU launcher (make run, make check, the torture runner).
#
# Usage: scripts/qemu-run.sh (--kernel ELF | --iso ISO) [options] [-- extra qemu args...]
#   --kernel ELF       boot ELF directly (qboot firmware, -kernel, PVH entry)      env KERNEL
#   --iso ISO          boot a GRUB ISO from scripts/mkiso.sh (SeaBIOS, -cdrom)      env ISO
#                      (with neither flag: $KERNEL, or $ISO when BOOT=grub or KERNEL is unset)
#   --smp N            number of CPUs (default 4, as make run)                      env SMP
#   --mem SIZE         guest RAM, QEMU syntax (default 256M)                        env MEM
#   --append "CMDLINE" kernel command line, direct boot only; an ISO carries its own
#                      command line (baked in by mkiso.sh)                          env CMDLINE
#   --accel A          tcg        multi-threaded TCG (-accel tcg,thread=multi), the default
#                      tcg-single single-threaded TCG (fastest for smp > 2, exact ticks)
#                      repro      -accel tcg -icount shift=0,sleep=off: deterministic, ~10x slower
#                      kvm        -accel kvm -accel tcg -cpu max,arch-capabilities=off,+invtsc
#                                 (QEMU falls back to TCG if KVM cannot be used; without an
#                                 openable /dev/kvm this script uses plain tcg)    env ACCEL
#   --timeout SECS     host-side limit (coreutils timeout; rc 124); 0 = none.
#                      Default 0 (none, as make run) on a terminal or with --gdb,
#                      60 otherwise (scripts, CI)                                   env QEMU_TIMEOUT
#                      A guest still running then is asked, through the QEMU monitor,
#                      for an NMI on every CPU (the kernel prints each CPU's registers
#                      and backtrace), and QEMU's own threads are shown with gdb if it
#                      is installed; the report goes to the console log (or stderr)
#                      before QEMU is stopped, about 8 s later.
#   --log FILE         also write the serial console to FILE                        env QEMU_LOG
#   --quiet            do not print the console on stdout (use with --log)          env QEMU_QUIET=1
#   --gdb              start stopped, QEMU's gdb stub on localhost:1234 only (-S)     env QEMU_GDB=1
#   --gdb-port N       the stub's port (default 1234; implies --gdb)                 env QEMU_GDB_PORT
#   --serial-socket P  the serial port is a Unix socket server at P instead of the terminal or
#                      stdout (QEMU does not wait for a client; --log still records it). A
#                      client talks to the console there; Ctrl-A B sends a BREAK (SysRq)
#                                                                                 env QEMU_SERIAL_SOCKET
#   --qemu-args "ARGS" extra QEMU arguments, split on blanks (use -- for args
#                      containing blanks)                                           env QEMU_ARGS
#   --raw-exit         exit with QEMU's raw status instead of the mapping below     env QEMU_RAW_EXIT=1
#   --verbose          print the QEMU command line on stderr
# Env only: QEMU (binary, default qemu-system-x86_64), QEMU_BIOS (default /usr/share/qemu/qboot.rom).
#
# Console: when stdin is a terminal (make run), the serial port and the QEMU monitor share the
# terminal (mux; Ctrl-A X quits, Ctrl-A C switches to the monitor, Ctrl-C quits). Otherwise stdin
# is /dev/null and the serial port goes to stdout (or to FILE / nowhere with --quiet); QEMU's own
# messages always go to stderr, never into the console log.
#
# QEMU raw status (guest writes v to isa-debug-exit port 0xf4 => rc = (v << 1) | 1):
#   33 clean power-off (v=0x10)   7 kernel panic (v=0x03)   35 self-test failure (v=0x11)
#   0 reset / triple fault / ACPI power-off   1 QEMU error   124 timeout
# Last line on stderr: "qemu-run: exit <raw rc> (<meaning>)". Exit status of this script:
#   0 for a clean power-off (raw 33); 2 for raw 0 (reset/triple fault: must not look like
#   success), except on a terminal, where raw 0 is most often a person quitting with Ctrl-A X
#   (QEMU cannot tell the two apart): 0 there; 130 if interrupted; 64 for a usage error before QEMU ran; otherwise the raw rc.
#   With --raw-exit: always the raw rc.
set -euo pipefail

prog="qemu-run"
usage() { sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 64; }
note() { printf '%s: %s\n' "$prog" "$*" >&2; }
is_uint() { case $1 in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac; }

kernel=${KERNEL:-}
iso=${ISO:-}
smp=${SMP:-4}
mem=${MEM:-256M}
append=${CMDLINE:-}
accel=${ACCEL:-tcg}
timeout_s=${QEMU_TIMEOUT:-}
log=${QEMU_LOG:-}
quiet=${QEMU_QUIET:-0}
gdb=${QEMU_GDB:-0}
gdb_port=${QEMU_GDB_PORT:-1234}
serial_sock=${QEMU_SERIAL_SOCKET:-}
extra_str=${QEMU_ARGS:-}
raw_exit=${QEMU_RAW_EXIT:-0}
verbose=0
qemu=${QEMU:-qemu-system-x86_64}
bios=${QEMU_BIOS:-/usr/share/qemu/qboot.rom}
mode=
append_flag=0
extra=()

# Pick the boot mode from the environment only when no --kernel/--iso flag is given.
env_mode() {
	if [ -n "$iso" ] && { [ "${BOOT:-}" = grub ] || [ -z "$kernel" ]; }; then
		mode=iso
	elif [ -n "$kernel" ]; then
		mode=kernel
	fi
}

while [ $# -gt 0 ]; do
	opt=$1
	val=
	case $opt in
	--*=*)
		val=${opt#*=}
		opt=${opt%%=*}
		set -- "$opt" "$val" "${@:2}"
		;;
	esac
	case $opt in
	--kernel | --iso | --smp | --mem | --append | --accel | --timeout | --log | --qemu-args | \
		--serial-socket | --gdb-port)
		[ $# -ge 2 ] || die "$opt needs a value (see --help)"
		val=$2
		shift 2
		;;
	*) shift ;;
	esac
	case $opt in
	--kernel) kernel=$val mode=kernel ;;
	--iso) iso=$val mode=iso ;;
	--smp) smp=$val ;;
	--mem) mem=$val ;;
	--append) append=$val append_flag=1 ;;
	--accel) accel=$val ;;
	--timeout) timeout_s=$val ;;
	--log) log=$val ;;
	--quiet) quiet=1 ;;
	--gdb) gdb=1 ;;
	--gdb-port) gdb=1 gdb_port=$val ;;
	--serial-socket) serial_sock=$val ;;
	--qemu-args) extra_str="$extra_str $val" ;;
	--raw-exit) raw_exit=1 ;;
	--verbose | -v) verbose=1 ;;
	--help | -h)
		usage
		exit 0
		;;
	--)
		extra+=("$@")
		break
		;;
	*) die "unknown option '$opt' (see --help)" ;;
	esac
done

[ -n "$mode" ] || env_mode
[ -n "$mode" ] || die "nothing to boot: give --kernel ELF or --iso ISO (see --help)"
if ! is_uint "$smp" || [ "$smp" -lt 1 ]; then die "--smp '$smp' is not a positive integer"; fi
[ -n "$mem" ] || die "--mem is empty"
case $quiet in 1 | y | yes | true) quiet=1 ;; *) quiet=0 ;; esac
case $gdb in 1 | y | yes | true) gdb=1 ;; *) gdb=0 ;; esac
case $raw_exit in 1 | y | yes | true) raw_exit=1 ;; *) raw_exit=0 ;; esac
command -v "$qemu" >/dev/null 2>&1 || die "QEMU binary '$qemu' not found (run scripts/install-deps.sh)"
command -v timeout >/dev/null 2>&1 || die "coreutils 'timeout' not found"

args=(-M pc -m "$mem" -smp "$smp" -display none -no-reboot
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)

if [ "$mode" = kernel ]; then
	[ -f "$kernel" ] || die "kernel image '$kernel' not found (run make first?)"
	[ -f "$bios" ] || die "firmware '$bios' not found (package qemu-system-x86 / qemu-system-data)"
	args+=(-bios "$bios" -kernel "$kernel" -append "$append")
else
	[ -f "$iso" ] || die "ISO '$iso' not found (build it with scripts/mkiso.sh)"
	if [ "$append_flag" = 1 ] && [ -n "$append" ]; then
		die "--append does not apply to --iso: the command line is baked into the ISO by scripts/mkiso.sh"
	fi
	args+=(-cdrom "$iso" -boot d)
fi

# Test -c first: as root, `<>` would otherwise create a regular file /dev/kvm.
if [ "$accel" = kvm ] && { [ ! -c /dev/kvm ] || ! { : <>/dev/kvm; } 2>/dev/null; }; then
	note "note: /dev/kvm is missing or cannot be opened; using --accel tcg instead of kvm"
	accel=tcg
fi
case $accel in
tcg) args+=(-accel tcg,thread=multi) ;;
tcg-single) args+=(-accel tcg,thread=single) ;;
repro) args+=(-accel tcg -icount shift=0,sleep=off) ;;
kvm)
	args+=(-accel kvm -accel tcg -cpu max,arch-capabilities=off,+invtsc)
	[ "$mode" = iso ] && note "note: GRUB is very slow under this host's KVM (~55 s to boot); prefer tcg for ISOs"
	;;
*) die "--accel '$accel' is not one of tcg, tcg-single, repro, kvm" ;;
esac

interactive=0
if [ -t 0 ] && [ "$quiet" = 0 ]; then
	interactive=1
fi
# A person at a terminal (make run) gets no limit unless asked; scripts get 60 s so as never to hang.
if [ -z "$timeout_s" ]; then
	if [ "$gdb" = 1 ] || [ "$interactive" = 1 ]; then timeout_s=0; else timeout_s=60; fi
fi
is_uint "$timeout_s" || die "--timeout '$timeout_s' is not a number of seconds"
logopt=
if [ -n "$log" ]; then
	mkdir -p "$(dirname "$log")"
	: >"$log" || die "cannot write log file '$log'"
	logopt=",logfile=${log//,/,,},logappend=on"
fi
if [ -n "$serial_sock" ]; then
	# mux=on for its escape key: Ctrl-A B becomes a BREAK on the serial line.
	args+=(-chardev "socket,id=con0,path=${serial_sock//,/,,},server=on,wait=off,mux=on$logopt"
		-serial chardev:con0)
elif [ "$interactive" = 1 ]; then
	args+=(-chardev "stdio,id=con0,mux=on,signal=on$logopt" -serial chardev:con0
		-mon chardev=con0,mode=readline)
elif [ "$quiet" = 0 ]; then
	args+=(-chardev "stdio,id=con0,signal=off$logopt" -serial chardev:con0)
elif [ -n "$log" ]; then
	args+=(-chardev "file,id=con0,path=${log//,/,,}" -serial chardev:con0)
else
	args+=(-serial null)
fi

is_uint "$gdb_port" || die "--gdb-port '$gdb_port' is not a port number"
[ "$gdb" = 1 ] && {
	# Loopback only: the stub reads and writes all guest memory for anyone who connects.
	args+=(-gdb "tcp:127.0.0.1:$gdb_port" -S)
	note "waiting for gdb: target remote localhost:$gdb_port (or: make debug)"
}
if [ -n "${extra_str// /}" ]; then
	read -r -a split <<<"$extra_str"
	args+=("${split[@]}")
fi
args+=("${extra[@]}")

# Runs with a time limit get a monitor socket and a pid file for the overrun report (make run
# too: its console keeps its own monitor on the terminal).
monsock=
pidfile=
diag_s=0
if [ "$timeout_s" -gt 0 ]; then
	monsock=$(mktemp -u "${TMPDIR:-/tmp}/qemu-run-mon.XXXXXXXX")
	pidfile=$(mktemp -u "${TMPDIR:-/tmp}/qemu-run-pid.XXXXXXXX")
	args+=(-monitor "unix:$monsock,server=on,wait=off" -pidfile "$pidfile")
	diag_s=8
fi

cmd=("$qemu" "${args[@]}")
if [ "$timeout_s" -gt 0 ]; then
	tflags=(--kill-after=5)
	[ "$interactive" = 1 ] && tflags+=(--foreground)
	cmd=(timeout "${tflags[@]}" "$((timeout_s + diag_s))" "${cmd[@]}")
fi

# One QEMU monitor command, answer on stdout; fails if the monitor does not answer in 3 s.
monitor_cmd() {
	/usr/bin/python3 - "$monsock" "$1" <<'PYEOF'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.settimeout(3)
s.connect(sys.argv[1])
out = b""
def drain(until):
    global out
    while time.time() < until:
        try:
            d = s.recv(65536)
        except socket.timeout:
            break
        if not d:
            break
        out += d
        if out.rstrip().endswith(b"(qemu)"):
            break
drain(time.time() + 3)
s.sendall(sys.argv[2].encode() + b"\n")
out = b""
drain(time.time() + 3)
if not out:
    sys.exit(1)
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
PYEOF
}

# The guest overran timeout_s: NMI every CPU, then show QEMU's threads (is QEMU itself stuck?).
overrun_report() {
	local qpid
	qpid=$(cat "$pidfile" 2>/dev/null) || true
	echo "qemu-run: the guest is still running after ${timeout_s} s; NMI to every CPU:"
	if monitor_cmd nmi >/dev/null 2>&1; then
		sleep 3
	else
		echo "qemu-run: the QEMU monitor does not answer: QEMU itself is stuck"
	fi
	if [ -n "$qpid" ] && command -v gdb >/dev/null 2>&1; then
		echo "qemu-run: QEMU's threads (gdb -p $qpid):"
		timeout 20 gdb -p "$qpid" -batch -nx -ex 'thread apply all bt 10' 2>/dev/null |
			awk '/^Thread /{ if (line) print line; line = "qemu-run:   " $0; next }
			     /^#[0-9]/{ f = ($3 == "in") ? $4 : $2; line = line " " f }
			     END { if (line) print line }'
	fi
}
if [ "$verbose" = 1 ]; then
	printf '%s: command:' "$prog" >&2
	printf ' %q' "${cmd[@]}" >&2
	printf '\n' >&2
fi

interrupted=
set +e
if [ "$interactive" = 1 ]; then
	note "the guest's console follows; Ctrl-A X quits, Ctrl-A C switches to the QEMU monitor"
	# QEMU shares our terminal and process group: it sees Ctrl-C itself.
	trap 'interrupted=INT' INT
	trap 'interrupted=TERM' TERM
	trap 'interrupted=HUP' HUP
	watchdog=
	if [ -n "$monsock" ]; then
		# Straight to the terminal: the person watching sees it as it happens. The subshell's
		# own stderr is /dev/null: stopping its sleep below would otherwise print "Terminated".
		(sleep "$timeout_s" && overrun_report >&3 2>&3) 3>&2 2>/dev/null &
		watchdog=$!
	fi
	"${cmd[@]}"
	rc=$?
else
	# timeout(1) puts QEMU in its own process group, so forward our signals to it explicitly,
	# otherwise an interrupted `make check` would leave QEMU running until its timeout.
	"${cmd[@]}" </dev/null &
	pid=$!
	watchdog=
	diagfile=
	if [ -n "$monsock" ]; then
		diagfile=$(mktemp "${TMPDIR:-/tmp}/qemu-run-diag.XXXXXXXX")
		# Its own stderr is /dev/null, as above: no "Terminated" when its sleep is stopped.
		(sleep "$timeout_s" && overrun_report >"$diagfile" 2>&1) 2>/dev/null &
		watchdog=$!
	fi
	# shellcheck disable=SC2317 # called from the traps below
	forward() {
		interrupted=$1
		kill -TERM "$pid" 2>/dev/null
	}
	trap 'forward INT' INT
	trap 'forward TERM' TERM
	trap 'forward HUP' HUP
	while :; do
		sig_before=$interrupted
		wait "$pid"
		rc=$?
		# wait returns early (>128) when a trapped signal arrives; then wait again for the real exit.
		[ "$interrupted" != "$sig_before" ] && kill -0 "$pid" 2>/dev/null && continue
		[ "$interrupted" != "$sig_before" ] && [ "$rc" -gt 128 ] && { wait "$pid" 2>/dev/null; rc=$?; }
		break
	done
fi
trap - INT TERM HUP
if [ -n "${watchdog:-}" ]; then
	pkill -P "$watchdog" 2>/dev/null || true
	kill "$watchdog" 2>/dev/null || true
	wait "$watchdog" 2>/dev/null || true
	if [ -s "${diagfile:-}" ]; then
		if [ -n "$log" ]; then cat "$diagfile" >>"$log"; elif [ "$quiet" = 0 ]; then cat "$diagfile"; fi
		cat "$diagfile" >&2
	fi
	rm -f "${diagfile:-}"
fi
rm -f "$monsock" "$pidfile"
set -e

meaning() {
	case $1 in
	33) echo "clean power-off" ;;
	7) echo "kernel panic" ;;
	35) echo "self-test failure" ;;
	0) if [ "$interactive" = 1 ]; then echo "quit from the console, or a guest reset or triple fault"; else echo "reset or triple fault"; fi ;;
	1) echo "qemu error" ;;
	124) echo "timeout: killed after $timeout_s s" ;;
	125) echo "timeout(1) failed" ;;
	126) echo "qemu not executable" ;;
	127) echo "qemu not found" ;;
	*)
		if [ "$1" -gt 128 ]; then
			echo "killed by signal $(($1 - 128))"
		elif [ $(($1 & 1)) = 1 ]; then
			printf 'guest debug-exit 0x%02x\n' $((($1 - 1) / 2))
		else
			echo "unknown"
		fi
		;;
	esac
}

if [ -n "$interrupted" ]; then
	note "exit $rc (interrupted by SIG$interrupted)"
	[ "$raw_exit" = 1 ] && exit "$rc"
	exit 130
fi
note "exit $rc ($(meaning "$rc"))"
[ "$raw_exit" = 1 ] && exit "$rc"
case $rc in
33) exit 0 ;;
0) [ "$interactive" = 1 ] && exit 0; exit 2 ;;
*) exit "$rc" ;;
esac
